//! What lies in a building's reach, by what the building is for: grown trees for a lumberjack,
//! bushes for a gatherer, crops and free soil for a farmhouse, saplings and free soil for a
//! forester, ruins for a scavenger, flowing water for a water wheel. The placement search ranks
//! spots by it (`find_placements`), and the single-building view and `/api/building/range` show
//! it for a placed building; both count with [`ReachGrid`].
//!
//! Counted as the workers pick their targets (`behave`): within the prefab's work range of the
//! doorstep, Manhattan distance with the height difference included. A grid holds, per height
//! level, per row, running sums of each counted class, so one spot's count costs a row lookup per
//! row of its diamond rather than a visit of every tile (the search asks for thousands of spots).

use serde::Serialize;

use super::building::{Kind, kind_of, work_range};
use super::geometry::Orientation;
use crate::catalog::{PlantKind, nature};
use crate::content::Building as Spec;
use crate::power::{Gen, generator_kind};
use crate::world::World;

/// What a building works with, from its kind (`None`: nothing in reach matters to it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// Lumberjacks: trees.
    Trees,
    /// Gatherers: bushes.
    Bushes,
    /// Farmhouses: crops and free soil to plant (water for the aquatic farmhouse).
    Farm { aquatic: bool },
    /// Foresters: saplings and free soil to plant.
    Forest,
    /// Scavengers: ruins.
    Ruins,
    /// Water wheels: the water flowing through the footprint.
    Flow,
}

impl Purpose {
    pub(crate) fn of(s: &Spec) -> Option<Purpose> {
        match kind_of(s) {
            Kind::Lumberjack => Some(Purpose::Trees),
            Kind::Gatherer => Some(Purpose::Bushes),
            Kind::Scavenger => Some(Purpose::Ruins),
            Kind::Planter if s.components.iter().any(|c| c == "ForesterSpec") => {
                Some(Purpose::Forest)
            }
            Kind::Planter => Some(Purpose::Farm {
                aquatic: s.base_name.contains("Aquatic"),
            }),
            _ if generator_kind(s) == Some(Gen::Water) => Some(Purpose::Flow),
            _ => None,
        }
    }

    /// The classes counted, in `ReachGrid` order.
    fn classes(self) -> &'static [Class] {
        match self {
            Purpose::Trees => &[Class::TreeGrown, Class::TreeMarked, Class::Sapling],
            Purpose::Bushes => &[Class::Bush, Class::BushRipe],
            Purpose::Farm { .. } => &[
                Class::CropGrowing,
                Class::CropReady,
                Class::Plantable,
                Class::Marked,
            ],
            Purpose::Forest => &[
                Class::Sapling,
                Class::TreeGrown,
                Class::Plantable,
                Class::Marked,
            ],
            Purpose::Ruins => &[Class::Ruin],
            Purpose::Flow => &[],
        }
    }

    /// What the search calls it when nothing is in reach.
    pub(crate) fn wanted(self) -> &'static str {
        match self {
            Purpose::Trees => "trees",
            Purpose::Bushes => "bushes",
            Purpose::Farm { aquatic: false } => "crops or free moist soil",
            Purpose::Farm { aquatic: true } => "crops or free shallow water",
            Purpose::Forest => "saplings or free moist soil",
            Purpose::Ruins => "ruins",
            Purpose::Flow => "flowing water",
        }
    }
}

/// One thing counted on a tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A grown tree, living or dead (`Plant::has_logs`: its logs are there to cut).
    TreeGrown,
    /// A grown tree marked for cutting (what a lumberjack cuts).
    TreeMarked,
    /// A living tree still growing.
    Sapling,
    /// A living bush.
    Bush,
    /// A living bush with fruit to gather.
    BushRipe,
    /// A living crop still growing.
    CropGrowing,
    /// A living grown crop (ready to harvest).
    CropReady,
    /// Free soil this planter can plant: dry and moist (water for the aquatic farmhouse).
    Plantable,
    /// Free soil marked for planting a species this planter plants.
    Marked,
    /// A ruin with scrap.
    Ruin,
}

/// What lies in reach: only the members of the building's purpose are present.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InReach {
    /// Grown trees, living or standing dead with their logs (lumberjacks, foresters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trees: Option<u32>,
    /// Of them, marked for cutting: what a lumberjack cuts (lumberjacks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trees_marked: Option<u32>,
    /// Living trees still growing (lumberjacks, foresters: planted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saplings: Option<u32>,
    /// Living bushes (gatherers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bushes: Option<u32>,
    /// Of them, with fruit ready to gather (gatherers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bushes_ripe: Option<u32>,
    /// Living crops still growing (farmhouses).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crops_growing: Option<u32>,
    /// Grown crops ready to harvest (farmhouses).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crops_ready: Option<u32>,
    /// Free soil the building could plant: dry and moist (the aquatic farmhouse: shallow water)
    /// (farmhouses, foresters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plantable: Option<u32>,
    /// Free tiles marked for planting what this building plants: its workers plant only those
    /// (farmhouses, foresters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marked_for_planting: Option<u32>,
    /// Ruins with scrap (scavengers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruins: Option<u32>,
    /// m3/s flowing through the footprint (water wheels; below `waterWheelMinFlow` a wheel
    /// stands still).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flow: Option<f64>,
}

impl InReach {
    fn from_counts(classes: &[Class], counts: &[u32]) -> InReach {
        let mut r = InReach::default();
        for (c, n) in classes.iter().zip(counts) {
            let slot = match c {
                Class::TreeGrown => &mut r.trees,
                Class::TreeMarked => &mut r.trees_marked,
                Class::Sapling => &mut r.saplings,
                Class::Bush => &mut r.bushes,
                Class::BushRipe => &mut r.bushes_ripe,
                Class::CropGrowing => &mut r.crops_growing,
                Class::CropReady => &mut r.crops_ready,
                Class::Plantable => &mut r.plantable,
                Class::Marked => &mut r.marked_for_planting,
                Class::Ruin => &mut r.ruins,
            };
            *slot = Some(*n);
        }
        r
    }

    /// The search's ranking key for a purpose, larger is better: lumberjacks by grown trees,
    /// then saplings; gatherers by ripe bushes (food now), then all bushes; farmhouses by their field (crops and
    /// plantable soil), then crops; foresters by plantable soil and saplings, then marked tiles;
    /// scavengers by ruins; water wheels by flow (in mm3/s steps).
    pub(crate) fn rank(&self, p: Purpose) -> (u64, u64) {
        let n = |v: Option<u32>| u64::from(v.unwrap_or(0));
        match p {
            Purpose::Trees => (n(self.trees), n(self.saplings)),
            Purpose::Bushes => (n(self.bushes_ripe), n(self.bushes)),
            Purpose::Farm { .. } => {
                let crops = n(self.crops_growing) + n(self.crops_ready);
                (crops + n(self.plantable), crops)
            }
            Purpose::Forest => (
                n(self.plantable) + n(self.saplings),
                n(self.marked_for_planting),
            ),
            Purpose::Ruins => (n(self.ruins), 0),
            Purpose::Flow => ((self.flow.unwrap_or(0.0).max(0.0) * 1e6) as u64, 0),
        }
    }

    /// Whether anything the purpose works with is in reach (a water wheel: a current that turns
    /// it).
    pub(crate) fn any(&self, p: Purpose) -> bool {
        match p {
            Purpose::Flow => {
                self.flow.unwrap_or(0.0) >= crate::power::power_rules().water_wheel_min_flow.value
            }
            Purpose::Trees | Purpose::Bushes => self.rank(p) != (0, 0),
            _ => self.rank(p).0 > 0,
        }
    }
}

/// Per height level of a window, a summed-area table of each counted class in rotated
/// coordinates `u = col + row`, `v = col - row + (h - 1)`. A Manhattan diamond `|dx| + |dy| <= r`
/// is the square `|du|, |dv| <= r` there, so what lies within reach of a spot is four lookups per
/// level and class, whatever the reach. Each level's table covers only the box of its own tiles
/// (a level is often a small part of the window); points of a square that are not counted tiles
/// (the other parity, outside the window or the box) hold nothing.
pub(crate) struct ReachGrid {
    purpose: Purpose,
    x0: u32,
    y0: u32,
    h: u32,
    levels: Vec<LevelTable>,
}

/// One level's summed-area table over the box `u0..u0 + du`, `v0..v0 + dv` of rotated
/// coordinates: `sums[(a * (dv + 1) + b) * k + class]` counts the tiles of the class with
/// `u < u0 + a` and `v < v0 + b`.
struct LevelTable {
    z: u32,
    u0: usize,
    v0: usize,
    du: usize,
    dv: usize,
    sums: Vec<u32>,
}

impl ReachGrid {
    /// Counts the window `[x0, x1] x [y0, y1]` (clamped to the map) for a prefab's purpose.
    pub(crate) fn new(w: &World, s: &Spec, p: Purpose, x0: u32, y0: u32, x1: u32, y1: u32) -> Self {
        let (mw, mh) = (w.map.width(), w.map.height());
        let (x1, y1) = (x1.min(mw - 1), y1.min(mh - 1));
        let (x0, y0) = (x0.min(x1), y0.min(y1));
        let gh = y1 - y0 + 1;
        let classes = p.classes();
        let k = classes.len();
        let mut grid = ReachGrid {
            purpose: p,
            x0,
            y0,
            h: gh,
            levels: Vec::new(),
        };
        // The counted tiles first: (level, u, v, the classes hit as bits).
        let mut counted: Vec<(usize, usize, usize, u16)> = Vec::new();
        if k == 0 {
            return grid;
        }
        let faction = w.faction().as_str();
        let cat = nature();
        let plants_here = |sp: u16| {
            let species = cat.get(sp);
            let tree = species.kind == PlantKind::Tree;
            let ok = match p {
                Purpose::Forest => tree,
                Purpose::Farm { .. } => {
                    species.kind == PlantKind::Crop
                        && (s.crops.is_empty() || s.crops.contains(&species.name))
                }
                _ => false,
            };
            ok && species.planted_by(faction)
        };
        let mut hit = [false; 10];
        for y in y0..=y1 {
            for x in x0..=x1 {
                let i = w.land.idx(x, y);
                hit.fill(false);
                let mut z = u32::from(w.map.terrain_height(x, y));
                match w.land.occupant[i] {
                    Some(occ) => {
                        if let Some(pl) = w.land.plants.get(&occ) {
                            z = pl.z;
                            if pl.has_logs() {
                                hit[Class::TreeGrown as usize] = true;
                                hit[Class::TreeMarked as usize] = w.land.cutting[i];
                            } else if pl.alive {
                                // A living tree without logs is still growing.
                                match pl.kind() {
                                    PlantKind::Tree => hit[Class::Sapling as usize] = true,
                                    PlantKind::Bush => {
                                        hit[Class::Bush as usize] = true;
                                        hit[Class::BushRipe as usize] = pl.fruit >= 1.0;
                                    }
                                    PlantKind::Crop if pl.grown() => {
                                        hit[Class::CropReady as usize] = true;
                                    }
                                    PlantKind::Crop => hit[Class::CropGrowing as usize] = true,
                                }
                            }
                        } else if let Some(r) = w.land.ruins.get(&occ) {
                            z = r.z;
                            hit[Class::Ruin as usize] = r.scrap > 0;
                        }
                    }
                    None if matches!(p, Purpose::Farm { .. } | Purpose::Forest)
                        && w.free_soil(x, y) =>
                    {
                        let water = w.land.is_water(i);
                        hit[Class::Plantable as usize] = match p {
                            Purpose::Farm { aquatic: true } => water,
                            _ => !water && w.land.soil.is_moist(i),
                        };
                        hit[Class::Marked as usize] = w
                            .land
                            .planting
                            .get(&(i as u32))
                            .is_some_and(|sp| plants_here(*sp));
                    }
                    None => {}
                }
                if !classes.iter().any(|c| hit[*c as usize]) {
                    continue;
                }
                let (col, row) = ((x - x0) as usize, (y - y0) as usize);
                let (u, v) = (col + row, col + (gh as usize - 1) - row);
                let li = match grid.levels.iter().position(|l| l.z == z) {
                    Some(li) => li,
                    None => {
                        grid.levels.push(LevelTable {
                            z,
                            u0: u,
                            v0: v,
                            du: 0,
                            dv: 0,
                            sums: Vec::new(),
                        });
                        grid.levels.len() - 1
                    }
                };
                // The level's box, as end points for now.
                let l = &mut grid.levels[li];
                (l.u0, l.v0) = (l.u0.min(u), l.v0.min(v));
                (l.du, l.dv) = (l.du.max(u + 1), l.dv.max(v + 1));
                let bits = classes
                    .iter()
                    .enumerate()
                    .fold(0u16, |b, (ci, c)| b | (u16::from(hit[*c as usize]) << ci));
                counted.push((li, u, v, bits));
            }
        }
        for l in &mut grid.levels {
            (l.du, l.dv) = (l.du - l.u0, l.dv - l.v0);
            l.sums = vec![0; (l.du + 1) * (l.dv + 1) * k];
        }
        for (li, u, v, bits) in counted {
            let l = &mut grid.levels[li];
            let at = ((u - l.u0 + 1) * (l.dv + 1) + v - l.v0 + 1) * k;
            for ci in 0..k {
                l.sums[at + ci] += u32::from(bits >> ci & 1);
            }
        }
        // Summed areas: each entry adds the ones below and to the left, less their overlap.
        for l in &mut grid.levels {
            let stride = l.dv + 1;
            let table = &mut l.sums;
            for a in 1..=l.du {
                for b in 1..stride {
                    let (at, down, left, both) = (
                        (a * stride + b) * k,
                        ((a - 1) * stride + b) * k,
                        (a * stride + b - 1) * k,
                        ((a - 1) * stride + b - 1) * k,
                    );
                    for ci in 0..k {
                        table[at + ci] =
                            table[at + ci] + table[down + ci] + table[left + ci] - table[both + ci];
                    }
                }
            }
        }
        grid
    }

    /// What lies within `r` of `door` (tiles outside the window count nothing).
    pub(crate) fn count(&self, door: [u32; 3], r: u32) -> InReach {
        InReach::from_counts(self.purpose.classes(), &self.tally(door, r))
    }

    /// [`ReachGrid::count`]'s counts, one per class of the purpose.
    fn tally(&self, door: [u32; 3], r: u32) -> Vec<u32> {
        let k = self.purpose.classes().len();
        let mut out = vec![0u32; k];
        let (col, row) = (
            i64::from(door[0]) - i64::from(self.x0),
            i64::from(door[1]) - i64::from(self.y0),
        );
        let (cu, cv) = (col + row, col - row + i64::from(self.h) - 1);
        for l in &self.levels {
            let rr = i64::from(r) - i64::from(door[2].abs_diff(l.z));
            if rr < 0 {
                continue;
            }
            // The square, in the level's box (`a` along u, `b` along v, both from 0).
            let (u0, v0) = (l.u0 as i64, l.v0 as i64);
            let (a0, a1) = ((cu - rr - u0).max(0), (cu + rr - u0).min(l.du as i64 - 1));
            let (b0, b1) = ((cv - rr - v0).max(0), (cv + rr - v0).min(l.dv as i64 - 1));
            if a0 > a1 || b0 > b1 {
                continue;
            }
            let (a0, a1, b0, b1) = (a0 as usize, a1 as usize + 1, b0 as usize, b1 as usize + 1);
            let stride = l.dv + 1;
            let at = |a: usize, b: usize| (a * stride + b) * k;
            let (all, below_a, below_b, below_both) =
                (at(a1, b1), at(a0, b1), at(a1, b0), at(a0, b0));
            for (ci, n) in out.iter_mut().enumerate() {
                *n += l.sums[all + ci] + l.sums[below_both + ci]
                    - l.sums[below_a + ci]
                    - l.sums[below_b + ci];
            }
        }
        out
    }
}

impl World {
    /// What lies in reach of a prefab placed at `(x, y, z)` facing `o` with its doorstep at
    /// `door` (`None` when nothing in reach matters to the prefab). For one spot; the search
    /// builds one [`ReachGrid`] for all of its spots.
    pub(crate) fn in_reach_of(
        &self,
        s: &Spec,
        at: (u32, u32, u32, Orientation),
        door: [u32; 3],
    ) -> Option<InReach> {
        let p = Purpose::of(s)?;
        if p == Purpose::Flow {
            let (x, y, _, o) = at;
            return Some(InReach {
                flow: Some(self.flow_at_spot(s, x, y, o)),
                ..InReach::default()
            });
        }
        let r = work_range(s);
        let grid = ReachGrid::new(
            self,
            s,
            p,
            door[0].saturating_sub(r),
            door[1].saturating_sub(r),
            door[0] + r,
            door[1] + r,
        );
        Some(grid.count(door, r))
    }

    /// What lies in reach of a placed building (`None` when nothing in reach matters to it).
    pub(crate) fn building_in_reach(&self, id: i32) -> Option<InReach> {
        let b = self.colony.buildings.get(&id)?;
        let door = self.colony.door(id)?;
        self.in_reach_of(b.spec(), (b.x, b.y, b.z, b.orientation), door)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::colony::building::spec;
    use crate::colony::nav::manhattan;

    /// The grid's count equals a plain scan of every tile of the diamond.
    #[test]
    fn the_grid_counts_what_a_tile_by_tile_scan_counts() {
        let mut w = crate::testutil::world();
        w.advance_ticks(crate::testutil::DAY);
        let s = spec("LumberjackFlag.Folktails");
        let (sx, sy, _) = w.map.start_spot();
        let r = work_range(s);
        let grid = ReachGrid::new(
            &w,
            s,
            Purpose::Trees,
            sx.saturating_sub(40),
            sy.saturating_sub(40),
            sx + 40,
            sy + 40,
        );
        for (dx, dy) in [(0, 0), (-15, 7), (12, -20), (18, 18)] {
            let (x, y) = ((sx as i64 + dx) as u32, (sy as i64 + dy) as u32);
            let door = [x, y, u32::from(w.map.terrain_height(x, y))];
            let (mut grown, mut young) = (0, 0);
            for p in w.land.plants.values() {
                if p.standing()
                    && p.kind() == PlantKind::Tree
                    && manhattan(door, [p.x, p.y, p.z]) <= r
                {
                    if p.grown() {
                        grown += 1;
                    } else {
                        young += 1;
                    }
                }
            }
            let got = grid.count(door, r);
            assert_eq!(
                (got.trees, got.saplings),
                (Some(grown), Some(young)),
                "{door:?}"
            );
            assert_eq!(
                w.in_reach_of(s, (x, y, door[2], Orientation::South), door)
                    .unwrap(),
                got
            );
        }
    }

    /// A window's count equals the sum of its tiles' own one-tile counts, for spots inside,
    /// on the edges of and outside the window, on several levels, and reaches that leave it.
    #[test]
    fn a_window_counts_the_sum_of_its_tiles() {
        let mut w = crate::testutil::world();
        w.advance_ticks(crate::testutil::DAY);
        let (sx, sy, _) = w.map.start_spot();
        for (name, purpose) in [
            ("LumberjackFlag.Folktails", Purpose::Trees),
            (
                "EfficientFarmHouse.Folktails",
                Purpose::Farm { aquatic: false },
            ),
        ] {
            let s = spec(name);
            let (mw, mh) = (w.map.width(), w.map.height());
            let (x0, y0) = (sx.saturating_sub(9), sy.saturating_sub(5));
            let (x1, y1) = ((sx + 6).min(mw - 1), (sy + 12).min(mh - 1));
            let grid = ReachGrid::new(&w, s, purpose, x0, y0, x1, y1);
            let tiles: Vec<ReachGrid> = (y0..=y1)
                .flat_map(|y| (x0..=x1).map(move |x| (x, y)))
                .map(|(x, y)| ReachGrid::new(&w, s, purpose, x, y, x, y))
                .collect();
            let mut doors = Vec::new();
            for (dx, dy) in [
                (0, 0),
                (-12, 3),
                (9, -8),
                (-3, 16),
                (20, 20),
                (-30, 0),
                (7, 7),
            ] {
                let (x, y) = (
                    (i64::from(sx) + dx).clamp(0, i64::from(mw) - 1) as u32,
                    (i64::from(sy) + dy).clamp(0, i64::from(mh) - 1) as u32,
                );
                for dz in [0, 1, 3] {
                    doors.push([x, y, u32::from(w.map.terrain_height(x, y)) + dz]);
                }
            }
            for door in doors {
                for r in [0, 1, 4, 9, 25] {
                    let want = tiles
                        .iter()
                        .fold(vec![0; purpose.classes().len()], |mut n, t| {
                            for (sum, c) in n.iter_mut().zip(t.tally(door, r)) {
                                *sum += c;
                            }
                            n
                        });
                    assert_eq!(grid.tally(door, r), want, "{name} at {door:?} within {r}");
                }
            }
        }
    }
}
