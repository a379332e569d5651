//! Read models of the land: pure `&World -> view` functions.
//!
//! Clusters (`tree_clusters`, `food_clusters`): the map is cut into aligned 8x8 cells; each cell
//! with at least one counted plant is a candidate. Trees count for tree clusters (alive ones and
//! dead grown ones, which keep their logs; `grown` = grown trees), BlueberryBush-like
//! gatherables (alive bushes) for food clusters (`grown` = bushes with fruit ready). A cluster's `x, y` is the member nearest the members'
//! mean position, `z` its height; `species` counts all members by name. The top 5 by `grown`,
//! then `total`, then cell order. The `_near` variants count only plants at height `z` within
//! Manhattan distance `radius` of `(x, y)` (the summary uses 40 tiles of the district center).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::catalog::{PlantKind, nature};
use crate::world::World;

use super::PlantView;
use super::commands::Area;
use super::plant_summary::{ClusterKind, Near};
use super::plants::RUIN_NAME;

/// Something standing on a tile.
/// Living plants of one species by growth and cutting mark ([`World::tree_tallies`]; crops are
/// never marked).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlantTally {
    pub grown_marked: u32,
    pub grown_unmarked: u32,
    pub growing_marked: u32,
    pub growing_unmarked: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Occupant {
    pub name: String,
    pub z: u32,
}

/// One tile as `/api/tiles` shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TileView {
    pub x: u32,
    pub y: u32,
    pub terrain: u8,
    /// Water depth.
    pub water: f32,
    /// Badwater share 0-1, only when above 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub badwater: Option<f32>,
    pub occupants: Vec<Occupant>,
    /// The doorstep of a building.
    pub entrance: bool,
    /// A living tree or bush that is not yet grown.
    pub seedling: bool,
    /// A dead stump.
    pub dead: bool,
    pub contaminated: bool,
    pub moist: bool,
    /// An aquifer tile: an aquifer drill may stand here (`land::aquifer`).
    pub aquifer: bool,
}

/// A region of tiles (`region` clamped to the map).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TileRegion {
    pub region: Area,
    pub tiles: Vec<TileView>,
}

/// A gatherable (a bush) as `/api/gatherables` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatherableView {
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub alive: bool,
}

impl GatherableView {
    pub(crate) fn of(id: i32, p: &super::Plant) -> GatherableView {
        GatherableView {
            id,
            name: p.name().to_owned(),
            x: p.x,
            y: p.y,
            z: p.z,
            alive: p.alive,
        }
    }
}

/// A ruin.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuinView {
    pub id: i32,
    pub name: String,
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub scrap: u32,
}

/// A tree or food cluster.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClusterView {
    pub x: u32,
    pub y: u32,
    pub z: u32,
    pub grown: u32,
    pub total: u32,
    pub species: BTreeMap<String, u32>,
}

/// Water flow through a tile.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FlowView {
    /// Mean flux through the tile, m3/s, east (+x) and north (+y).
    pub x: f32,
    pub y: f32,
    /// Flow speed: |flux| / depth (0 on dry tiles).
    pub speed: f32,
}

impl World {
    /// The tiles of an area (validated like the area commands, clamped to the map).
    pub fn tiles(
        &self,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
    ) -> Result<TileRegion, crate::CommandError> {
        let area = self.check_area(x1, y1, x2, y2)?;
        let land = &self.land;
        let doorsteps: std::collections::BTreeSet<(u32, u32)> = self
            .colony
            .buildings
            .keys()
            .filter_map(|id| {
                let b = &self.colony.buildings[id];
                crate::colony::geometry::has_entrance(b.spec())
                    .then(|| self.colony.door(*id))
                    .flatten()
            })
            .map(|d| (d[0], d[1]))
            .collect();
        let max_z = u32::from(crate::catalog::world_rules().map.max_terrain_height.value) + 16;
        let mut tiles =
            Vec::with_capacity(((area.x2 - area.x1 + 1) * (area.y2 - area.y1 + 1)) as usize);
        for (x, y) in area.tiles() {
            let i = land.idx(x, y);
            let depth = land.water.depth[i];
            let share = land.water.share(i);
            let mut occupants = Vec::new();
            let (mut seedling, mut dead) = (false, false);
            if let Some(id) = land.occupant[i] {
                if let Some(p) = land.plants.get(&id) {
                    occupants.push(Occupant {
                        name: p.name().to_owned(),
                        z: p.z,
                    });
                    dead = !p.alive;
                    seedling = p.alive && !p.grown() && p.kind() != PlantKind::Crop;
                } else if let Some(r) = land.ruins.get(&id) {
                    occupants.push(Occupant {
                        name: RUIN_NAME.to_owned(),
                        z: r.z,
                    });
                }
            }
            let mut last = None;
            for z in 0..=max_z {
                let key = crate::colony::geometry::voxel(x, y, z);
                if let Some(bid) = self.colony.blocks.get(&key)
                    && last != Some(*bid)
                {
                    last = Some(*bid);
                    let b = &self.colony.buildings[bid];
                    occupants.push(Occupant {
                        name: b.prefab.to_string(),
                        z,
                    });
                }
            }
            tiles.push(TileView {
                x,
                y,
                terrain: self.map.terrain_height(x, y),
                water: depth,
                badwater: (share > 0.0).then_some(share),
                occupants,
                entrance: doorsteps.contains(&(x, y)),
                seedling,
                dead,
                contaminated: land.soil.is_contaminated(i),
                moist: land.soil.is_moist(i),
                aquifer: land.aquifer[i],
            });
        }
        Ok(TileRegion {
            region: area,
            tiles,
        })
    }

    fn plants_of(&self, kind: PlantKind) -> Vec<PlantView> {
        self.land
            .plants
            .of_kind(kind)
            .map(|(id, p)| self.land.plant_view(*id, p))
            .collect()
    }

    /// Living trees counted per species (by name), without building their views.
    pub fn tree_tallies(&self) -> BTreeMap<&str, PlantTally> {
        self.tallies(PlantKind::Tree)
    }

    /// Living crops counted per species (by name), without building their views.
    pub fn crop_tallies(&self) -> BTreeMap<&str, PlantTally> {
        self.tallies(PlantKind::Crop)
    }

    /// All trees (dead stumps included), by id.
    pub fn trees(&self) -> Vec<PlantView> {
        self.plants_of(PlantKind::Tree)
    }

    /// All crops, by id.
    pub fn crops(&self) -> Vec<PlantView> {
        self.plants_of(PlantKind::Crop)
    }

    /// All bushes (gatherables), by id.
    pub fn gatherables(&self) -> Vec<GatherableView> {
        self.land
            .plants
            .of_kind(PlantKind::Bush)
            .map(|(id, p)| GatherableView::of(*id, p))
            .collect()
    }

    /// All ruins, by id.
    pub fn ruins(&self) -> Vec<RuinView> {
        self.land
            .ruins
            .iter()
            .map(|(id, r)| RuinView {
                id: *id,
                name: RUIN_NAME.to_owned(),
                x: r.x,
                y: r.y,
                z: r.z,
                scrap: r.scrap,
            })
            .collect()
    }

    /// A plant (tree, bush or crop) by id.
    pub fn plant_by_id(&self, id: i32) -> Option<PlantView> {
        self.land
            .plants
            .get(&id)
            .map(|p| self.land.plant_view(id, p))
    }

    /// Whether a tile is marked as cutting area.
    pub fn is_cutting_area(&self, x: u32, y: u32) -> bool {
        self.map.get_terrain_height(x, y).is_some() && self.land.cutting[self.land.idx(x, y)]
    }

    /// The planting mark of a tile (species name), if any.
    pub fn planting_mark(&self, x: u32, y: u32) -> Option<&'static str> {
        self.map.get_terrain_height(x, y)?;
        let i = self.land.idx(x, y) as u32;
        self.land
            .planting
            .get(&i)
            .map(|s| nature().get(*s).name.as_str())
    }

    /// Water depth at a tile (0 off the map).
    pub fn water_depth(&self, x: u32, y: u32) -> f32 {
        self.tile_index(x, y)
            .map_or(0.0, |i| self.land.water.depth[i])
    }

    /// Badwater share 0-1 of a tile's water (0 when dry or off the map).
    pub fn badwater_share(&self, x: u32, y: u32) -> f32 {
        self.tile_index(x, y)
            .map_or(0.0, |i| self.land.water.share(i))
    }

    /// Water flow through a tile.
    pub fn water_flow(&self, x: u32, y: u32) -> FlowView {
        let Some(i) = self.tile_index(x, y) else {
            return FlowView {
                x: 0.0,
                y: 0.0,
                speed: 0.0,
            };
        };
        let [fx, fy] = self.land.water.flux(x, y);
        let d = self.land.water.depth[i];
        let speed = if d > 0.0 {
            fx.hypot(fy) / d.max(0.05)
        } else {
            0.0
        };
        FlowView {
            x: fx,
            y: fy,
            speed,
        }
    }

    /// Soil moisture of a tile (irrigation units; above 0 means moist).
    pub fn moisture(&self, x: u32, y: u32) -> f32 {
        self.tile_index(x, y)
            .map_or(0.0, |i| f32::from(self.land.soil.moisture[i]) / 10.0)
    }

    /// Whether a tile's soil is moist.
    pub fn is_moist(&self, x: u32, y: u32) -> bool {
        self.tile_index(x, y)
            .is_some_and(|i| self.land.soil.is_moist(i))
    }

    /// Whether a tile's soil is contaminated.
    pub fn is_contaminated(&self, x: u32, y: u32) -> bool {
        self.tile_index(x, y)
            .is_some_and(|i| self.land.soil.is_contaminated(i))
    }

    /// The water barrier height of a tile, if any.
    pub fn water_barrier(&self, x: u32, y: u32) -> Option<f32> {
        let b = self.land.water.barrier[self.tile_index(x, y)?];
        b.is_finite().then_some(b)
    }

    /// Water stored on the map (m3).
    pub fn water_stored(&self) -> f64 {
        self.land.water.stored()
    }

    /// Badwater stored on the map (m3).
    pub fn badwater_stored(&self) -> f64 {
        self.land.water.stored_bad()
    }

    /// Running totals of water added, evaporated and lost at the edges.
    pub fn water_totals(&self) -> super::WaterTotals {
        self.land.water.totals
    }

    /// The water sources.
    pub fn water_sources(&self) -> &[super::WaterSource] {
        &self.land.water.sources
    }

    /// The wind.
    pub fn wind(&self) -> super::WindView {
        self.land.wind.view()
    }

    fn tile_index(&self, x: u32, y: u32) -> Option<usize> {
        self.map
            .get_terrain_height(x, y)
            .map(|_| self.land.idx(x, y))
    }

    /// Top 5 clusters of grown trees.
    pub fn tree_clusters(&self) -> Vec<ClusterView> {
        self.clusters(ClusterKind::Trees, None)
    }

    /// Top 5 clusters of gatherable food (bushes; trees excluded).
    pub fn food_clusters(&self) -> Vec<ClusterView> {
        self.clusters(ClusterKind::Food, None)
    }

    /// Tree clusters counting only trees at height `z` within Manhattan `radius` of `(x, y)`.
    pub fn tree_clusters_near(&self, x: u32, y: u32, z: u32, radius: u32) -> Vec<ClusterView> {
        self.clusters(ClusterKind::Trees, Some(Near { x, y, z, radius }))
    }

    /// Food clusters counting only bushes at height `z` within Manhattan `radius` of `(x, y)`.
    pub fn food_clusters_near(&self, x: u32, y: u32, z: u32, radius: u32) -> Vec<ClusterView> {
        self.clusters(ClusterKind::Food, Some(Near { x, y, z, radius }))
    }
}
