//! The map as arrays, for array observations (the engine's `Colony-v0` layers): every tile's
//! terrain, water, soil and plant, and every block of the colony, read straight from the land's
//! grids and the block index. The facts are `GET /api/tiles`'s, tile for tile (a test compares
//! them), without building a view per tile.

use crate::catalog::PlantKind;
use crate::colony::Building;
use crate::colony::geometry::unvoxel;
use crate::world::World;

/// A tile's plant (or ruin), as `GET /api/tiles` shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TilePlant {
    None,
    Ruin,
    /// A plant: its kind, whether it lives, and whether it is a seedling (a living tree or bush
    /// not yet grown; crops never are).
    Plant {
        kind: PlantKind,
        alive: bool,
        seedling: bool,
    },
}

/// The map's tiles as arrays, indexed `y * width + x`; filled by [`World::fill_tile_grid`],
/// which reuses the arrays.
#[derive(Debug, Clone, Default)]
pub struct TileGrid {
    pub width: u32,
    pub height: u32,
    pub terrain: Vec<u8>,
    /// Water depth.
    pub water: Vec<f32>,
    /// Badwater share 0-1 (0 where there is none).
    pub badwater: Vec<f32>,
    pub moist: Vec<bool>,
    pub contaminated: Vec<bool>,
    pub plant: Vec<TilePlant>,
    /// The doorstep of a building.
    pub entrance: Vec<bool>,
}

impl World {
    /// Fills `g` with the map's tiles now.
    pub fn fill_tile_grid(&self, g: &mut TileGrid) {
        let (w, h) = (self.map.width(), self.map.height());
        let n = (w * h) as usize;
        g.width = w;
        g.height = h;
        let land = &self.land;
        g.terrain.clear();
        g.terrain
            .extend((0..n).map(|i| self.map.terrain_height(i as u32 % w, i as u32 / w)));
        g.water.clear();
        g.water.extend_from_slice(&land.water.depth[..n]);
        g.badwater.clear();
        g.badwater.extend((0..n).map(|i| land.water.share(i)));
        g.moist.clear();
        g.moist.extend((0..n).map(|i| land.soil.is_moist(i)));
        g.contaminated.clear();
        g.contaminated
            .extend((0..n).map(|i| land.soil.is_contaminated(i)));
        g.plant.clear();
        g.plant.extend(land.occupant[..n].iter().map(|o| match o {
            None => TilePlant::None,
            Some(id) => match land.plants.get(id) {
                Some(p) => TilePlant::Plant {
                    kind: p.kind(),
                    alive: p.alive,
                    seedling: p.alive && !p.grown() && p.kind() != PlantKind::Crop,
                },
                None if land.ruins.contains_key(id) => TilePlant::Ruin,
                None => TilePlant::None,
            },
        }));
        g.entrance.clear();
        g.entrance.resize(n, false);
        for (id, b) in self.colony.buildings.iter() {
            if !crate::colony::geometry::has_entrance(b.spec()) {
                continue;
            }
            if let Some([x, y, _]) = self.colony.door(*id)
                && x < w
                && y < h
            {
                g.entrance[(y * w + x) as usize] = true;
            }
        }
    }

    /// Every block of the colony (each voxel a building fills) with its building, in no
    /// particular order.
    pub fn blocks(&self) -> impl Iterator<Item = ((u32, u32, u32), &Building)> {
        self.colony
            .blocks
            .iter()
            .filter_map(|(v, id)| Some((unvoxel(*v), self.colony.buildings.get(id)?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::NewGame;

    #[test]
    fn the_grid_is_the_tiles_view() {
        let mut w = World::try_new(&NewGame {
            seed: 9,
            map_width: 48,
            map_height: 40,
            ..Default::default()
        })
        .unwrap();
        w.advance_ticks(768 * 3);
        let mut g = TileGrid::default();
        w.fill_tile_grid(&mut g);
        let view = w.tiles(0, 0, 47, 39).unwrap();
        assert_eq!(view.tiles.len(), g.terrain.len());
        let mut plants = 0;
        for t in &view.tiles {
            let i = (t.y * 48 + t.x) as usize;
            assert_eq!(t.terrain, g.terrain[i]);
            assert_eq!(t.water, g.water[i]);
            assert_eq!(t.badwater.unwrap_or(0.0), g.badwater[i]);
            assert_eq!(t.moist, g.moist[i]);
            assert_eq!(t.contaminated, g.contaminated[i]);
            assert_eq!(t.entrance, g.entrance[i]);
            match g.plant[i] {
                TilePlant::Plant {
                    alive, seedling, ..
                } => {
                    plants += 1;
                    assert_eq!((t.dead, t.seedling), (!alive, seedling));
                }
                TilePlant::Ruin => assert_eq!(t.occupants[0].name, "RuinColumn"),
                TilePlant::None => assert!(!t.dead && !t.seedling),
            }
        }
        assert!(plants > 10, "{plants} plants");
        assert!(
            g.entrance.iter().any(|e| *e),
            "the district center's doorstep"
        );
        let blocks: std::collections::BTreeSet<(u32, u32)> =
            w.blocks().map(|((x, y, _), _)| (x, y)).collect();
        let built: std::collections::BTreeSet<(u32, u32)> = view
            .tiles
            .iter()
            .filter(|t| t.occupants.iter().any(|o| o.name.contains('.')))
            .map(|t| (t.x, t.y))
            .collect();
        assert!(!built.is_empty());
        assert!(built.is_subset(&blocks));
    }
}
