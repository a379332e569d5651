//! The start area's flood measure, shared by the `start_area` test and the `start_floods`
//! example: the deepest water seen on the land of the 11x11 square around the start spot (the
//! river's own channel does not count), sampled every game hour, nobody building.

use sim::{NewGame, World, ticks_per_day};

/// Deepest water on the start's land over the first `days` of the default map for `seed`.
pub fn deepest_at_start(seed: u64, days: u64) -> f32 {
    let mut w = World::new(&NewGame {
        seed,
        ..NewGame::default()
    });
    let (sx, sy, _) = w.map().start_spot();
    let mut deepest = 0.0f32;
    for _ in 0..days * 24 {
        w.advance_ticks(ticks_per_day() / 24);
        for y in sy - 5..=sy + 5 {
            for x in sx - 5..=sx + 5 {
                if !w.map().is_river(x, y) {
                    deepest = deepest.max(w.water_depth(x, y));
                }
            }
        }
    }
    deepest
}
