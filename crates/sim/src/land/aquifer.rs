//! Aquifers: the patches of a map where an aquifer drill may stand (`water.aquiferGeneration`).
//!
//! A map's aquifers are drawn from their own ChaCha8 stream of the game seed
//! ([`AQUIFER_STREAM`]) over the map as the seed generates it, so they move no other feature of
//! any seed's map and need no place in a save: a load draws them again from the seed over the map
//! generated afresh (`aquifers_of_seed`), so they stay where they are when the terrain is dug.
//!
//! `count` patches per 128x128 (rolled, scaled with the map's area, at least 1), each a square
//! of `size` tiles of one terrain height (so a drill stands on it), whose every tile lies at least
//! `minDistanceFromRiver` (Chebyshev) from the river's channel and `minDistanceFromStart` from the
//! start spot, a tile at least apart from every other patch. Each patch tries up to 400 random spots; one that finds
//! none is left out (tiny or rugged maps).

use crate::catalog::world_rules;
use crate::map::Map;
use crate::rng::WorldRng;

/// The ChaCha8 stream of the game seed that places aquifers.
pub const AQUIFER_STREAM: u64 = 0x6171_7566; // "aquf"

/// Spots a patch tries before it is left out.
const TRIES: u32 = 400;

/// The aquifer tiles of the map `seed` generates at this size (for a loaded game, whose terrain
/// may have been dug since).
pub(crate) fn aquifers_of_seed(seed: u64, width: u32, height: u32) -> Vec<bool> {
    aquifers(seed, &crate::map::generate(seed, width, height))
}

/// The aquifer tiles of `map`, the map `seed` generated: one flag per tile, row-major.
pub(crate) fn aquifers(seed: u64, map: &Map) -> Vec<bool> {
    let g = &world_rules().water.aquifer_generation.value;
    let (w, h) = (map.width(), map.height());
    let mut out = vec![false; w as usize * h as usize];
    let size = g.size.max(1);
    if size + 2 > w || size + 2 > h {
        return out;
    }
    let mut rng = WorldRng::new(seed, AQUIFER_STREAM);
    let area = f64::from(w) * f64::from(h) / (128.0 * 128.0);
    let count = (f64::from(rng.range_u32(g.count[0], g.count[1])) * area)
        .round()
        .max(1.0) as u32;
    let (sx, sy, _) = map.start_spot();
    let near_river = |x: u32, y: u32| {
        let d = g.min_distance_from_river;
        (x.saturating_sub(d)..=(x + d).min(w - 1))
            .any(|tx| (y.saturating_sub(d)..=(y + d).min(h - 1)).any(|ty| map.is_river(tx, ty)))
    };
    for _ in 0..count {
        for _ in 0..TRIES {
            // One tile of margin from the map's edges.
            let x0 = rng.range_u32(1, w - size - 1);
            let y0 = rng.range_u32(1, h - size - 1);
            let tiles = || (x0..x0 + size).flat_map(move |x| (y0..y0 + size).map(move |y| (x, y)));
            let z = map.terrain_height(x0, y0);
            let fits = tiles().all(|(x, y)| {
                map.terrain_height(x, y) == z
                    && x.abs_diff(sx).max(y.abs_diff(sy)) >= g.min_distance_from_start
                    && !near_river(x, y)
            });
            // Apart from every other patch by a tile at least (so each is a square of its own).
            let apart = (x0 - 1..=x0 + size)
                .all(|x| (y0 - 1..=y0 + size).all(|y| !out[(y * w + x) as usize]));
            if fits && apart {
                for (x, y) in tiles() {
                    out[(y * w + x) as usize] = true;
                }
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NewGame, World};

    #[test]
    fn aquifers_are_squares_away_from_the_river_and_the_start_and_the_same_for_a_seed() {
        let g = &world_rules().water.aquifer_generation.value;
        for seed in 1..=5 {
            let w = World::new(&NewGame {
                seed,
                ..NewGame::default()
            });
            let a = aquifers(seed, &w.map);
            assert_eq!(a, aquifers_of_seed(seed, w.map.width(), w.map.height()));
            let tiles = a.iter().filter(|t| **t).count() as u32;
            assert!(
                tiles >= g.size * g.size,
                "seed {seed}: {tiles} aquifer tiles"
            );
            assert_eq!(tiles % (g.size * g.size), 0, "seed {seed}: whole patches");
            // Every patch is flat, so a drill stands on it.
            for (px, py) in w.aquifer_patches() {
                let z = w.map.terrain_height(px, py);
                for (x, y) in (px..px + g.size).flat_map(|x| (py..py + g.size).map(move |y| (x, y)))
                {
                    assert!(w.is_aquifer(x, y) && w.map.terrain_height(x, y) == z);
                }
            }
            let (sx, sy, _) = w.map.start_spot();
            for (i, _) in a.iter().enumerate().filter(|(_, t)| **t) {
                let (x, y) = (i as u32 % w.map.width(), i as u32 / w.map.width());
                assert!(!w.map.is_river(x, y));
                assert!(x.abs_diff(sx).max(y.abs_diff(sy)) >= g.min_distance_from_start);
            }
        }
    }
}
