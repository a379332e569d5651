//! The settled-water measure, shared by the `settled_water` test and the `settled_share`
//! example: how many wet tiles (depth at least 5 cm) change their depth by more than 1 mm in one
//! water step.

use sim::{World, water_step_ticks};

/// Depth (m) from which a tile counts as wet.
pub const WET: f32 = 0.05;
/// Change of depth in one step (m) above which a tile counts as moving.
pub const MOVING: f32 = 0.001;

/// Every tile's water depth, row by row.
pub fn depths(w: &World) -> Vec<f32> {
    let (mw, mh) = (w.map().width(), w.map().height());
    (0..mh)
        .flat_map(|y| (0..mw).map(move |x| (x, y)))
        .map(|(x, y)| w.water_depth(x, y))
        .collect()
}

/// Runs one water step; returns the wet tiles and how many of them moved.
pub fn step_and_count_moving(w: &mut World) -> (usize, usize) {
    let before = depths(w);
    w.advance_ticks(u64::from(water_step_ticks()));
    let after = depths(w);
    let (mut wet, mut moving) = (0, 0);
    for (b, a) in before.iter().zip(&after) {
        if b.max(*a) >= WET {
            wet += 1;
            moving += usize::from((a - b).abs() > MOVING);
        }
    }
    (wet, moving)
}
