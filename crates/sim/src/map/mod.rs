//! The map: a height map of integer terrain columns, the river running across it and the start
//! spot for the district center.
//!
//! Terrain height `h` at `(x, y)` means the column fills `z` in `0..h`; something standing on that
//! tile stands at `z = h`. Tiles are stored row by row (`index = y * width + x`) behind an `Arc`,
//! so cloning a map is a pointer bump and changes copy the table only when it is shared.

mod generate;
mod noise;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::catalog::world_rules;

pub(crate) use generate::generate;

/// Which way the river runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RiverAxis {
    /// Along x, from the west edge to the east edge; `spans` are indexed by x and give y ranges.
    AlongX,
    /// Along y, from the south edge to the north edge; `spans` are indexed by y and give x ranges.
    AlongY,
}

/// The river channel: for each position along its axis, the inclusive range of tiles across it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct River {
    pub axis: RiverAxis,
    pub spans: Vec<[u32; 2]>,
}

impl River {
    /// Whether tile `(x, y)` lies in the river channel.
    pub fn contains(&self, x: u32, y: u32) -> bool {
        let (along, across) = match self.axis {
            RiverAxis::AlongX => (x, y),
            RiverAxis::AlongY => (y, x),
        };
        self.spans
            .get(along as usize)
            .is_some_and(|[lo, hi]| (*lo..=*hi).contains(&across))
    }
}

/// The terrain of a world.
#[derive(Debug, Clone, PartialEq)]
pub struct Map {
    width: u32,
    height: u32,
    terrain: Arc<Vec<u8>>,
    river: Arc<River>,
    start_spot: (u32, u32, u32),
}

impl Map {
    /// Builds a map from its parts, checking they fit together.
    pub(crate) fn from_parts(
        width: u32,
        height: u32,
        terrain: Vec<u8>,
        river: River,
        start_spot: (u32, u32, u32),
    ) -> Result<Map, String> {
        if terrain.len() != width as usize * height as usize {
            return Err(format!(
                "terrain has {} tiles, a {width}x{height} map needs {}",
                terrain.len(),
                width as usize * height as usize
            ));
        }
        let limit = world_rules().map.max_terrain_height.value;
        if let Some(h) = terrain.iter().find(|h| **h > limit) {
            return Err(format!("terrain height {h} exceeds the limit {limit}"));
        }
        let (along, across) = match river.axis {
            RiverAxis::AlongX => (width, height),
            RiverAxis::AlongY => (height, width),
        };
        if river.spans.len() != along as usize
            || river.spans.iter().any(|[lo, hi]| lo > hi || *hi >= across)
        {
            return Err("river spans do not fit the map".into());
        }
        let (sx, sy, _) = start_spot;
        if sx >= width || sy >= height {
            return Err(format!("start spot ({sx}, {sy}) lies outside the map"));
        }
        Ok(Map {
            width,
            height,
            terrain: Arc::new(terrain),
            river: Arc::new(river),
            start_spot,
        })
    }

    pub fn width(&self) -> u32 {
        self.width
    }

    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `(x, y)` is on the map (accepts negative coordinates, which are never on it).
    pub fn contains(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && x < i64::from(self.width) && y < i64::from(self.height)
    }

    /// Terrain height at `(x, y)`.
    ///
    /// # Panics
    /// If `(x, y)` is off the map; use [`Map::get_terrain_height`] for unchecked input.
    pub fn terrain_height(&self, x: u32, y: u32) -> u8 {
        self.get_terrain_height(x, y)
            .unwrap_or_else(|| panic!("({x}, {y}) is off the {}x{} map", self.width, self.height))
    }

    /// Terrain height at `(x, y)`, or `None` off the map.
    pub fn get_terrain_height(&self, x: u32, y: u32) -> Option<u8> {
        (x < self.width && y < self.height)
            .then(|| self.terrain[y as usize * self.width as usize + x as usize])
    }

    /// Sets the terrain height at `(x, y)` (copying the table first if a snapshot shares it).
    pub fn set_terrain_height(&mut self, x: u32, y: u32, h: u8) -> Result<(), String> {
        if x >= self.width || y >= self.height {
            return Err(format!(
                "({x}, {y}) is off the {}x{} map",
                self.width, self.height
            ));
        }
        let limit = self.max_height();
        if h > limit {
            return Err(format!("terrain height must be 0-{limit}; got {h}"));
        }
        let w = self.width as usize;
        Arc::make_mut(&mut self.terrain)[y as usize * w + x as usize] = h;
        Ok(())
    }

    /// The highest terrain a map may have (`map.maxTerrainHeight`, 22).
    pub fn max_height(&self) -> u8 {
        world_rules().map.max_terrain_height.value
    }

    /// The highest terrain column on this map.
    pub fn highest_terrain(&self) -> u8 {
        self.terrain.iter().copied().max().unwrap_or(0)
    }

    /// All terrain heights, row by row (`y * width + x`).
    pub fn terrain(&self) -> &[u8] {
        &self.terrain
    }

    /// The river channel.
    pub fn river(&self) -> &River {
        &self.river
    }

    /// Whether `(x, y)` is a river tile.
    pub fn is_river(&self, x: u32, y: u32) -> bool {
        self.river.contains(x, y)
    }

    /// Which side of the river `(x, y)` lies on: -1 below its channel across the river's axis,
    /// 1 above it, 0 in it.
    pub fn river_side(&self, x: u32, y: u32) -> i8 {
        let r = &self.river;
        let (along, across) = match r.axis {
            RiverAxis::AlongX => (x, y),
            RiverAxis::AlongY => (y, x),
        };
        match r.spans.get(along as usize) {
            Some([lo, _]) if across < *lo => -1,
            Some([_, hi]) if across > *hi => 1,
            Some(_) => 0,
            None => 0,
        }
    }

    /// The start spot `(x, y, z)`: the centre of a flat `startAreaSize` (7x7) square of land beside
    /// the river, where the district center goes; `z` is the height a building there stands on.
    pub fn start_spot(&self) -> (u32, u32, u32) {
        self.start_spot
    }
}
