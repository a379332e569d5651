//! Building geometry: orientations, footprints rotated about the bottom-left corner, doorsteps and
//! the packed voxel keys the block index uses.
//!
//! A prefab's catalogue size `(x, y)` and entrance offset are given for a south-facing building
//! (front towards -y). Turning it keeps the footprint's bottom-left corner at the building's
//! `(x, y)`: west and east swap the footprint's width and depth. A local tile `(lx, ly)` of the
//! south-facing footprint lands at offset:
//! - south `(lx, ly)`; west `(ly, sx-1-lx)`; north `(sx-1-lx, sy-1-ly)`; east `(sy-1-ly, lx)`.
//!
//! The same mapping places the doorstep (local `(ex, -1)` in front of the building).

use serde::{Deserialize, Serialize};

use crate::content::Building as Spec;
use crate::error::CommandError;

/// The four orientations, numbered as the contract does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Orientation {
    #[default]
    South = 0,
    West = 1,
    North = 2,
    East = 3,
}

impl Orientation {
    pub const ALL: [Orientation; 4] = [
        Orientation::South,
        Orientation::West,
        Orientation::North,
        Orientation::East,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Orientation::South => "south",
            Orientation::West => "west",
            Orientation::North => "north",
            Orientation::East => "east",
        }
    }

    pub fn index(self) -> u8 {
        self as u8
    }

    /// Parses `south`, `west`, `north`, `east` (any case) or `0`-`3`.
    pub fn parse(s: &str) -> Result<Orientation, CommandError> {
        let t = s.trim().to_ascii_lowercase();
        Orientation::ALL
            .into_iter()
            .find(|o| o.as_str() == t || o.index().to_string() == t)
            .ok_or_else(|| {
                CommandError::invalid_param(
                    format!("orientation must be south, west, north or east (or 0-3); got {s:?}"),
                    s,
                )
            })
    }

    /// The unit step pointing out of the building's front.
    pub fn front(self) -> (i32, i32) {
        match self {
            Orientation::South => (0, -1),
            Orientation::West => (-1, 0),
            Orientation::North => (0, 1),
            Orientation::East => (1, 0),
        }
    }
}

/// The footprint size `(width, depth)` of a prefab turned to `o`.
pub fn turned_size(spec: &Spec, o: Orientation) -> (u32, u32) {
    match o {
        Orientation::South | Orientation::North => (spec.size.x, spec.size.y),
        Orientation::West | Orientation::East => (spec.size.y, spec.size.x),
    }
}

/// Where a south-facing local offset lands for orientation `o` (see the module docs).
pub fn turn(lx: i32, ly: i32, sx: i32, sy: i32, o: Orientation) -> (i32, i32) {
    match o {
        Orientation::South => (lx, ly),
        Orientation::West => (ly, sx - 1 - lx),
        Orientation::North => (sx - 1 - lx, sy - 1 - ly),
        Orientation::East => (sy - 1 - ly, lx),
    }
}

/// The footprint tiles of a building at `(x, y)` turned to `o` (may run off the map: callers
/// check bounds). Row by row.
pub fn footprint(spec: &Spec, x: i64, y: i64, o: Orientation) -> Footprint {
    let (w, d) = turned_size(spec, o);
    Footprint {
        x,
        y,
        w: i64::from(w),
        d: i64::from(d),
    }
}

/// The tiles a building covers: a `w x d` rectangle from `(x, y)`, listed row by row (south to
/// north, west to east). A value, not a list: the placement search asks it of thousands of
/// spots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Footprint {
    x: i64,
    y: i64,
    w: i64,
    d: i64,
}

impl Footprint {
    /// The tiles, row by row.
    pub fn iter(&self) -> FootprintTiles {
        self.into_iter()
    }

    /// Whether it covers the tile.
    pub fn contains(&self, &(tx, ty): &(i64, i64)) -> bool {
        (self.x..self.x + self.w).contains(&tx) && (self.y..self.y + self.d).contains(&ty)
    }

    /// How many tiles it covers.
    pub fn len(&self) -> usize {
        (self.w * self.d).max(0) as usize
    }

    /// Whether it covers no tile.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl IntoIterator for Footprint {
    type Item = (i64, i64);
    type IntoIter = FootprintTiles;
    fn into_iter(self) -> FootprintTiles {
        FootprintTiles {
            at: self,
            dx: 0,
            dy: 0,
        }
    }
}

/// The tiles of a [`Footprint`], row by row.
pub struct FootprintTiles {
    at: Footprint,
    dx: i64,
    dy: i64,
}

impl Iterator for FootprintTiles {
    type Item = (i64, i64);
    fn next(&mut self) -> Option<(i64, i64)> {
        let f = self.at;
        if self.dy >= f.d || f.w <= 0 {
            return None;
        }
        let tile = (f.x + self.dx, f.y + self.dy);
        self.dx += 1;
        if self.dx == f.w {
            self.dx = 0;
            self.dy += 1;
        }
        Some(tile)
    }
}

/// Whether the prefab has a door (beavers enter it, so its doorstep must reach a path).
pub fn has_entrance(spec: &Spec) -> bool {
    spec.components
        .iter()
        .any(|c| c == "BuildingAccessibleSpec" || c == "EnterableSpec")
        || spec.entrance.is_some()
}

/// The doorstep tile of a building at `(x, y)` turned to `o`: the tile in front of its entrance
/// (catalogue offset, or the middle of the front side when the catalogue has none). `None` for
/// prefabs without a door.
pub fn doorstep(spec: &Spec, x: i64, y: i64, o: Orientation) -> Option<(i64, i64)> {
    if !has_entrance(spec) {
        return None;
    }
    let (sx, sy) = (spec.size.x as i32, spec.size.y as i32);
    let (ex, ey) = spec
        .entrance
        .as_ref()
        .and_then(|e| Some((e.get("x")?.as_i64()? as i32, e.get("y")?.as_i64()? as i32)))
        .unwrap_or(((sx - 1) / 2, -1));
    let (dx, dy) = turn(ex, ey, sx, sy, o);
    Some((x + i64::from(dx), y + i64::from(dy)))
}

/// A voxel packed into one key: `z` in the top bits, then `y`, then `x` (16 bits each).
pub fn voxel(x: u32, y: u32, z: u32) -> u64 {
    (u64::from(z) << 32) | (u64::from(y) << 16) | u64::from(x)
}

/// The voxel of a key.
pub fn unvoxel(k: u64) -> (u32, u32, u32) {
    (
        (k & 0xffff) as u32,
        ((k >> 16) & 0xffff) as u32,
        (k >> 32) as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::content;

    #[test]
    fn doorsteps_turn_with_the_building() {
        let dc = &content().buildings["DistrictCenter.Folktails"];
        assert_eq!(doorstep(dc, 10, 10, Orientation::South), Some((11, 9)));
        assert_eq!(doorstep(dc, 10, 10, Orientation::West), Some((9, 11)));
        assert_eq!(doorstep(dc, 10, 10, Orientation::North), Some((11, 13)));
        assert_eq!(doorstep(dc, 10, 10, Orientation::East), Some((13, 11)));
        let pump = &content().buildings["WaterPump.Folktails"];
        assert_eq!(turned_size(pump, Orientation::West), (3, 2));
        assert_eq!(footprint(pump, 0, 0, Orientation::East).len(), 6);
        assert_eq!(
            doorstep(&content().buildings["Path"], 0, 0, Orientation::South),
            None
        );
        assert_eq!(unvoxel(voxel(7, 300, 12)), (7, 300, 12));
        assert_eq!(Orientation::parse("West").unwrap(), Orientation::West);
        assert_eq!(Orientation::parse("3").unwrap(), Orientation::East);
        assert!(Orientation::parse("up").is_err());
    }
}
