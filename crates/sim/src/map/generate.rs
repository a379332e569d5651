//! Seeded terrain generation: a meandering river valley across the map, terraced land rising away
//! from it (flat terraces joined by slopes where the land rises gently and by cliffs where it rises
//! fast), and a flat start area on the river bank.
//!
//! The generator draws from its own ChaCha8 stream of the game seed ([`MAP_STREAM`]), so changes
//! to the map generator never reshuffle the world RNG that drives weather and everything else.
//! Tunables come from `map.generation` in `data/world.json`.

use super::noise::{Noise, wave};
use super::{Map, River, RiverAxis};
use crate::catalog::{MapGeneration, world_rules};
use crate::rng::WorldRng;

/// The ChaCha8 stream of the game seed used for map generation.
pub const MAP_STREAM: u64 = 0x006d_6170; // "map"

/// Noise octaves: (cell size in tiles, weight).
const OCTAVES: [(u32, f64); 3] = [(32, 0.55), (16, 0.3), (8, 0.15)];

/// Octaves of the noise that decides where terraces meet in cliffs rather than slopes.
const CLIFF_OCTAVES: [(u32, f64); 2] = [(32, 0.6), (16, 0.4)];

/// The river's centre line and half width at each position along its axis.
struct Channel {
    centre: Vec<f64>,
    half_width: Vec<f64>,
}

/// Generates the map for a seed. Sizes must already be validated (`NewGame::validate`).
pub(crate) fn generate(seed: u64, width: u32, height: u32) -> Map {
    let g = &world_rules().map.generation.value;
    let mut rng = WorldRng::new(seed, MAP_STREAM);
    let axis = if rng.chance(0.5) {
        RiverAxis::AlongX
    } else {
        RiverAxis::AlongY
    };
    let (along, across) = match axis {
        RiverAxis::AlongX => (width, height),
        RiverAxis::AlongY => (height, width),
    };
    let channel = channel(&mut rng, g, along, across);
    let spans: Vec<[u32; 2]> = (0..along as usize)
        .map(|t| span(channel.centre[t], channel.half_width[t], across))
        .collect();
    let noise = Noise::new(&mut rng, width, height, &OCTAVES);
    let cliffiness = Noise::new(&mut rng, width, height, &CLIFF_OCTAVES);

    let mut terrain = vec![0u8; width as usize * height as usize];
    let valley_width = g.valley_width_fraction * f64::from(across);
    for y in 0..height {
        for x in 0..width {
            let (t, s) = match axis {
                RiverAxis::AlongX => (x, y),
                RiverAxis::AlongY => (y, x),
            };
            let [lo, hi] = spans[t as usize];
            let h = if (lo..=hi).contains(&s) {
                if s == lo || s == hi {
                    g.river_bank_height
                } else {
                    g.riverbed_height
                }
            } else {
                let d = f64::from(if s > hi { s - hi } else { lo - s });
                let valley = g.valley_rise * d / (d + valley_width);
                let n = noise.at(x, y);
                let e = f64::from(g.lowest_land_height)
                    + valley * (0.5 + n)
                    + (n - 0.5) * g.noise_amplitude;
                terrace(e, cliffiness.at(x, y), g)
            };
            terrain[y as usize * width as usize + x as usize] = h;
        }
    }

    let start = carve_start_area(&mut rng, g, &mut terrain, &spans, axis, width, height);
    let river = River { axis, spans };
    Map::from_parts(width, height, terrain, river, start).expect("generated map is consistent")
}

/// Rolls the river's meanders: two waves of random length, amplitude and phase, kept in the middle
/// half of the map, and a slowly varying width.
fn channel(rng: &mut WorldRng, g: &MapGeneration, along: u32, across: u32) -> Channel {
    let (len, wide) = (f64::from(along), f64::from(across));
    let base = wide / 2.0 + rng.range_f64(-wide / 10.0, wide / 10.0);
    let (a1, l1, p1) = (
        wide * rng.range_f64(0.04, 0.10),
        len * rng.range_f64(0.6, 1.2),
        rng.unit_f64(),
    );
    let (a2, l2, p2) = (
        wide * rng.range_f64(0.01, 0.04),
        len * rng.range_f64(0.15, 0.3),
        rng.unit_f64(),
    );
    let (wa, wl, wp) = (
        rng.range_f64(0.0, 0.3),
        len * rng.range_f64(0.3, 0.8),
        rng.unit_f64(),
    );
    let half = (g.river_half_width_fraction * wide).max(g.river_min_half_width);
    let (min_c, max_c) = (wide * 0.25, wide * 0.75 - 1.0);
    let mut c = Channel {
        centre: Vec::new(),
        half_width: Vec::new(),
    };
    for t in 0..along {
        let t = f64::from(t);
        let centre = base + a1 * wave(t / l1 + p1) + a2 * wave(t / l2 + p2);
        c.centre.push(centre.clamp(min_c, max_c));
        c.half_width.push(half * (1.0 + wa * wave(t / wl + wp)));
    }
    c
}

/// The tiles across the river at one position: `|s - centre| <= half_width`, at least 3 wide.
fn span(centre: f64, half_width: f64, across: u32) -> [u32; 2] {
    let max = f64::from(across - 1);
    let lo = (centre - half_width).ceil().clamp(0.0, max) as u32;
    let hi = (centre + half_width).floor().clamp(0.0, max) as u32;
    if hi >= lo + 2 {
        [lo, hi]
    } else {
        let mid = centre.round().clamp(1.0, max - 1.0) as u32;
        [mid - 1, mid + 1]
    }
}

/// Quantises a raw elevation into terraces `terraceStep` high. Within each step the land is flat
/// and then ramps up to the next terrace over the last `share` of the step: `share` is wide where
/// `cliffiness` is low (gentle slopes) and narrow where it is high (cliffs).
fn terrace(e: f64, cliffiness: f64, g: &MapGeneration) -> u8 {
    let lowest = f64::from(g.lowest_land_height);
    let step = f64::from(g.terrace_step);
    let c = ((cliffiness - 0.4) / 0.2).clamp(0.0, 1.0);
    let share = 0.6 - 0.57 * c * c * (3.0 - 2.0 * c);
    // k >= 0, so truncating casts are floor and `+ 0.5` truncation is round (no libm calls in
    // this per-tile path).
    let k = ((e - lowest) / step).max(0.0);
    let whole = k as u32;
    let f = k - f64::from(whole);
    let flat = 1.0 - share;
    let ramp = if f > flat {
        (((f - flat) / share * step) + 0.5) as u32
    } else {
        0
    };
    let h = lowest + step * f64::from(whole) + f64::from(ramp);
    h.clamp(lowest, f64::from(g.highest_land_height)) as u8
}

/// Flattens a `startAreaSize` square of land touching the river near the middle of its course to
/// the lowest land height, with a gentle ramp around it; returns its centre `(x, y, z)`.
fn carve_start_area(
    rng: &mut WorldRng,
    g: &MapGeneration,
    terrain: &mut [u8],
    spans: &[[u32; 2]],
    axis: RiverAxis,
    width: u32,
    height: u32,
) -> (u32, u32, u32) {
    let along = spans.len() as i64;
    let across = i64::from(match axis {
        RiverAxis::AlongX => height,
        RiverAxis::AlongY => width,
    });
    let r = i64::from(g.start_area_size / 2);
    let jitter = (g.start_area_jitter * along as f64) as i64;
    let at = (g.start_area_along * along as f64) as i64;
    let t0 = (at + i64::from(rng.range_u32(0, (2 * jitter) as u32)) - jitter)
        .clamp(r + 1, along - 2 - r);
    // The river's extent over the rows of the area (plus one row each way), so no meander
    // reaches into it.
    let rows = &spans[(t0 - r - 1) as usize..=(t0 + r + 1) as usize];
    let lo = rows.iter().map(|[lo, _]| i64::from(*lo)).min().unwrap_or(0);
    let hi = rows.iter().map(|[_, hi]| i64::from(*hi)).max().unwrap_or(0);
    let room_high = across - 1 - hi;
    let room_low = lo;
    let mut high_side = rng.chance(0.5);
    let need = 2 * r + 2;
    if (high_side && room_high < need) || (!high_side && room_low < need) {
        high_side = room_high >= room_low;
    }
    // Small maps: shrink the area to the room on its side of the river.
    let room = if high_side { room_high } else { room_low };
    let r = r.min(((room - 2) / 2).max(2));
    // The area hugs the river bank row by row: on each row it starts right beside that row's
    // channel, so the water is always at its edge.
    let base = |t: i64| -> i64 {
        let [rlo, rhi] = spans[t.clamp(0, along - 1) as usize].map(i64::from);
        if high_side { rhi + 1 } else { rlo - 1 }
    };
    let toward = if high_side { 1 } else { -1 };
    // The spot stands clear of the channel on its rows and the two either side.
    let edge = (t0 - 2..=t0 + 2)
        .map(base)
        .reduce(|a, b| if high_side { a.max(b) } else { a.min(b) })
        .unwrap_or(base(t0));
    let s0 = (edge + toward * (r / 2).max(2)).clamp(0, across - 1);
    let ramp = i64::from(g.start_area_ramp);
    let w = i64::from(width);
    for dt in -(r + ramp)..=(r + ramp) {
        let t = t0 + dt;
        if t < 0 || t >= along {
            continue;
        }
        let b = base(t);
        // `k` counts tiles away from the bank: 0..=flat is the flat area (at least 2r, and past
        // the spot's 5x5 square), beyond is the ramp.
        let flat = (2 * r).max((s0 - b) * toward + 3);
        for k in 0..=(flat + ramp) {
            let s = b + toward * k;
            if s < 0 || s >= across {
                continue;
            }
            let [rlo, rhi] = spans[t as usize].map(i64::from);
            if (rlo..=rhi).contains(&s) {
                continue;
            }
            let (x, y) = match axis {
                RiverAxis::AlongX => (t, s),
                RiverAxis::AlongY => (s, t),
            };
            let ring = (dt.abs() - r).max(k - flat).max(0);
            let cap = i64::from(g.lowest_land_height) + ring;
            let cell = &mut terrain[(y * w + x) as usize];
            *cell = i64::from(*cell)
                .min(cap)
                .max(i64::from(g.lowest_land_height)) as u8;
        }
    }
    let (x, y) = match axis {
        RiverAxis::AlongX => (t0, s0),
        RiverAxis::AlongY => (s0, t0),
    };
    (x as u32, y as u32, u32::from(g.lowest_land_height))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> &'static MapGeneration {
        &world_rules().map.generation.value
    }

    /// Prints a map as digits (run with `--ignored --nocapture` to look at one).
    #[test]
    #[ignore]
    fn show_map() {
        let m = generate(1, 96, 64);
        for y in (0..64).rev() {
            let row: String = (0..96)
                .map(|x| {
                    if m.is_river(x, y) {
                        '~'
                    } else {
                        char::from_digit(u32::from(m.terrain_height(x, y)), 36).unwrap()
                    }
                })
                .collect();
            println!("{row}");
        }
        println!("start {:?}", m.start_spot());
    }

    #[test]
    fn same_seed_same_map_and_different_seeds_differ() {
        let a = generate(11, 128, 128);
        let b = generate(11, 128, 128);
        assert_eq!(a, b);
        for seed in [12, 13, 14] {
            let c = generate(seed, 128, 128);
            let differing = a
                .terrain()
                .iter()
                .zip(c.terrain())
                .filter(|(p, q)| p != q)
                .count();
            assert!(
                differing > 128 * 128 / 10,
                "seed {seed}: only {differing} tiles differ"
            );
        }
    }

    #[test]
    fn heights_stay_within_limits_and_form_several_levels() {
        let g = rules();
        for (seed, w, h) in [
            (1, 128, 128),
            (2, 32, 32),
            (3, 256, 256),
            (4, 40, 200),
            (5, 200, 48),
        ] {
            let m = generate(seed, w, h);
            assert_eq!((m.width(), m.height()), (w, h));
            assert!(m.highest_terrain() <= g.highest_land_height);
            assert!(m.highest_terrain() <= m.max_height());
            assert!(m.terrain().iter().all(|&t| t >= g.riverbed_height));
            let mut levels: Vec<u8> = m.terrain().to_vec();
            levels.sort_unstable();
            levels.dedup();
            assert!(levels.len() >= 4, "seed {seed} {w}x{h}: levels {levels:?}");
        }
    }

    #[test]
    fn river_crosses_the_map_below_its_banks() {
        for seed in 1..=12 {
            let m = generate(seed, 96, 96);
            let river = m.river();
            assert_eq!(river.spans.len(), 96);
            assert!(river.spans.iter().all(|[lo, hi]| hi - lo >= 2));
            for y in 0..96 {
                for x in 0..96 {
                    if !m.is_river(x, y) {
                        continue;
                    }
                    let h = m.terrain_height(x, y);
                    for (nx, ny) in [
                        (x + 1, y),
                        (x, y + 1),
                        (x.wrapping_sub(1), y),
                        (x, y.wrapping_sub(1)),
                    ] {
                        if let Some(nh) = m.get_terrain_height(nx, ny)
                            && !m.is_river(nx, ny)
                        {
                            assert!(nh > h, "seed {seed}: river ({x},{y}) {h} next to land {nh}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn land_has_both_slopes_and_cliffs() {
        let m = generate(21, 128, 128);
        let (mut slopes, mut cliffs) = (0, 0);
        for y in 0..128 {
            for x in 0..127 {
                if m.is_river(x, y) || m.is_river(x + 1, y) {
                    continue;
                }
                match m.terrain_height(x, y).abs_diff(m.terrain_height(x + 1, y)) {
                    1 => slopes += 1,
                    d if d >= 2 => cliffs += 1,
                    _ => {}
                }
            }
        }
        assert!(
            slopes > 50 && cliffs > 20,
            "slopes {slopes}, cliffs {cliffs}"
        );
    }

    #[test]
    fn start_spot_is_flat_land_beside_the_river() {
        let g = rules();
        for (seed, w, h) in [
            (1, 128, 128),
            (2, 32, 32),
            (3, 256, 256),
            (4, 32, 256),
            (5, 256, 32),
            (6, 64, 64),
        ] {
            for extra in 0..6 {
                let seed = seed * 100 + extra;
                let m = generate(seed, w, h);
                let (sx, sy, sz) = m.start_spot();
                assert!(
                    sx >= 2 && sy >= 2 && sx + 2 < w && sy + 2 < h,
                    "seed {seed}: {sx},{sy}"
                );
                assert_eq!(sz, u32::from(g.lowest_land_height));
                // A 5x5 flat square of land around the spot (room for a 3x3 district center).
                for y in sy - 2..=sy + 2 {
                    for x in sx - 2..=sx + 2 {
                        assert!(!m.is_river(x, y), "seed {seed}: river at ({x},{y})");
                        assert_eq!(
                            u32::from(m.terrain_height(x, y)),
                            sz,
                            "seed {seed} ({x},{y})"
                        );
                    }
                }
                // The river borders the start area (within half its size plus a few tiles).
                let d = g.start_area_size / 2 + 3;
                let near = (sy.saturating_sub(d)..=(sy + d).min(h - 1))
                    .flat_map(|y| (sx.saturating_sub(d)..=(sx + d).min(w - 1)).map(move |x| (x, y)))
                    .any(|(x, y)| m.is_river(x, y));
                assert!(near, "seed {seed}: start spot far from the river");
            }
        }
    }
}
