//! Soil: moisture from nearby water (the irrigation model) and contamination from badwater.
//!
//! Recomputed every `irrigation.simulation.recomputeTicks` (an hour) from the water as it is then:
//! - a water tile is one with at least `waterTileMinDepth` of water. Its saturation is
//!   `saturationPerWetNeighbour x` the water tiles in the `saturationWindow` square around it
//!   (itself excluded), capped at `maxSaturation` (8); it emits `emitPerSaturation x saturation`
//!   (up to 16) if its badwater share is at most `maxWaterContaminationForIrrigation`;
//! - land moisture = best over the 8 neighbours of (their moisture - 1 per orthogonal step, 1.414
//!   per diagonal step, - 6 per level climbed), where a water tile's level is its water surface
//!   (rounded down) and a land tile's its terrain. Computed exactly with a bucket queue over tenths;
//! - a land tile is `moist` while its moisture is above 0. It dries at the first recompute after
//!   its water left (within an hour; the data's drying speed is about 13 ticks).
//!
//! Contamination spreads the same way from water tiles whose badwater share is at least
//! `soilContaminatedWhenWaterShareAtLeast`; a tile reached is contaminated and stays so for
//! `decontaminationHours` after it is last reached.

use crate::catalog::world_rules;

use super::water::Water;

/// Moisture in tenths (a tile-step is 10).
pub(crate) type Tenths = u8;

/// Soil state per tile.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Soil {
    /// Moisture in tenths; 0 on water tiles and dry land.
    pub moisture: Vec<Tenths>,
    /// Hours the tile stays contaminated; 0 means clean.
    pub contamination: Vec<u8>,
}

/// Counts of soil flags that changed in one recompute.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct SoilChange {
    pub contaminated: u32,
    pub cleaned: u32,
}

struct Model {
    min_depth: f32,
    window: usize,
    per_wet: f64,
    max_sat: f64,
    emit: f64,
    orth: u16,
    diag: u16,
    climb: u16,
    max_irrigation_share: f32,
    contaminating_share: f32,
    decontamination_hours: u8,
}

impl Model {
    fn from_rules() -> Model {
        let r = world_rules();
        let m = &r.irrigation.moisture_model.value;
        let s = &r.irrigation.simulation.value;
        Model {
            min_depth: s.water_tile_min_depth as f32,
            window: s.saturation_window as usize,
            per_wet: s.saturation_per_wet_neighbour,
            max_sat: f64::from(m.max_saturation),
            emit: m.emit_per_saturation,
            orth: (m.orthogonal_step * 10.0).round() as u16,
            diag: (m.diagonal_step * 10.0).round() as u16,
            climb: (m.climb_per_level * 10.0).round() as u16,
            max_irrigation_share: r.irrigation.max_water_contamination_for_irrigation.value as f32,
            contaminating_share: r
                .contamination
                .soil_contaminated_when_water_share_at_least
                .value as f32,
            decontamination_hours: r
                .contamination
                .soil_spread
                .value
                .decontamination_hours
                .min(255) as u8,
        }
    }
}

impl Soil {
    pub(crate) fn new(n: usize) -> Soil {
        Soil {
            moisture: vec![0; n],
            contamination: vec![0; n],
        }
    }

    pub(crate) fn is_moist(&self, i: usize) -> bool {
        self.moisture[i] > 0
    }

    pub(crate) fn is_contaminated(&self, i: usize) -> bool {
        self.contamination[i] > 0
    }

    /// Recomputes moisture and contamination from the water; returns the flag changes of
    /// contamination.
    pub(crate) fn recompute(&mut self, terrain: &[u8], water: &Water) -> SoilChange {
        let m = Model::from_rules();
        let (w, h) = (water.width as usize, water.height as usize);
        let n = w * h;
        // Water tiles and their levels.
        let wet: Vec<bool> = water.depth.iter().map(|d| *d >= m.min_depth).collect();
        // A land tile's level is its terrain; a water tile's its water surface.
        let mut level: Vec<u8> = terrain[..n].to_vec();
        for (i, _) in wet.iter().enumerate().filter(|(_, w)| **w) {
            let floor = f32::from(terrain[i]).max(water.barrier[i]);
            level[i] = (floor + water.depth[i]).floor().clamp(0.0, 255.0) as u8;
        }
        // Summed-area table of wet tiles for the saturation window.
        let mut sat_table = vec![0u32; (w + 1) * (h + 1)];
        for y in 0..h {
            let mut row = 0u32;
            for x in 0..w {
                row += u32::from(wet[y * w + x]);
                sat_table[(y + 1) * (w + 1) + x + 1] = sat_table[y * (w + 1) + x + 1] + row;
            }
        }
        let r = m.window / 2;
        let emission = |i: usize| -> u16 {
            let (x, y) = (i % w, i / w);
            let (x0, y0) = (x.saturating_sub(r), y.saturating_sub(r));
            let (x1, y1) = ((x + r + 1).min(w), (y + r + 1).min(h));
            let count = sat_table[y1 * (w + 1) + x1] + sat_table[y0 * (w + 1) + x0]
                - sat_table[y0 * (w + 1) + x1]
                - sat_table[y1 * (w + 1) + x0]
                - 1;
            let sat = (m.per_wet * f64::from(count)).min(m.max_sat);
            (m.emit * sat * 10.0).round() as u16
        };
        let mut moist_seeds = Vec::new();
        let mut bad_seeds = Vec::new();
        for (i, _) in wet.iter().enumerate().filter(|(_, w)| **w) {
            let share = water.share(i);
            let e = emission(i);
            if share <= m.max_irrigation_share && e > 0 {
                moist_seeds.push((i, e));
            }
            if share >= m.contaminating_share && e > 0 {
                bad_seeds.push((i, e));
            }
        }
        let moisture = spread(&m, w, h, &wet, &level, &moist_seeds);
        for (dst, v) in self.moisture.iter_mut().zip(&moisture) {
            *dst = (*v).min(255) as u8;
        }
        let reached = if bad_seeds.is_empty() {
            None
        } else {
            Some(spread(&m, w, h, &wet, &level, &bad_seeds))
        };
        let mut change = SoilChange::default();
        if reached.is_none() && self.contamination.iter().all(|c| *c == 0) {
            // Nothing contaminated and nothing reached: nothing changes.
            return change;
        }
        for i in 0..n {
            let hit = reached.as_ref().is_some_and(|r| r[i] > 0);
            let was = self.contamination[i] > 0;
            if hit {
                self.contamination[i] = m.decontamination_hours.max(1);
            } else if was {
                self.contamination[i] -= 1;
            }
            let now = self.contamination[i] > 0;
            if now && !was {
                change.contaminated += 1;
            } else if was && !now {
                change.cleaned += 1;
            }
        }
        change
    }
}

/// Best-first spread over land from seeds (tile, value in tenths), exact via a bucket queue.
fn spread(
    m: &Model,
    w: usize,
    h: usize,
    wet: &[bool],
    level: &[u8],
    seeds: &[(usize, u16)],
) -> Vec<u16> {
    let n = w * h;
    let mut best = vec![0u16; n];
    let top = seeds.iter().map(|s| s.1).max().unwrap_or(0) as usize;
    let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); top + 1];
    for &(i, v) in seeds {
        best[i] = v;
        buckets[v as usize].push(i as u32);
    }
    const DIRS: [(i32, i32, bool); 8] = [
        (1, 0, false),
        (-1, 0, false),
        (0, 1, false),
        (0, -1, false),
        (1, 1, true),
        (1, -1, true),
        (-1, 1, true),
        (-1, -1, true),
    ];
    // A step costs at least the cheaper of the two steps: values below it reach no neighbour.
    let min_cost = usize::from(m.orth.min(m.diag).max(1));
    // Neighbour offsets of tiles off the map's border, where no bounds need checking.
    let offsets = DIRS.map(|(dx, dy, diag)| (dy as isize * w as isize + dx as isize, diag));
    for v in (min_cost..=top).rev() {
        while let Some(i) = buckets[v].pop() {
            let i = i as usize;
            if best[i] as usize != v {
                continue;
            }
            let mut reach = |j: usize, diag: bool| {
                if wet[j] {
                    return;
                }
                let climb = u16::from(level[j].saturating_sub(level[i]));
                let cost = if diag { m.diag } else { m.orth } + climb * m.climb;
                if let Some(c) = (v as u16).checked_sub(cost)
                    && c > best[j]
                {
                    best[j] = c;
                    buckets[c as usize].push(j as u32);
                }
            };
            let (x, y) = (i % w, i / w);
            if x > 0 && y > 0 && x + 1 < w && y + 1 < h {
                for (off, diag) in offsets {
                    reach(i.wrapping_add_signed(off), diag);
                }
                continue;
            }
            let (x, y) = (x as i32, y as i32);
            for (dx, dy, diag) in DIRS {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w as i32 || ny >= h as i32 {
                    continue;
                }
                reach(ny as usize * w + nx as usize, diag);
            }
        }
    }
    // Seeds are water tiles: their own value is not soil moisture.
    for &(i, _) in seeds {
        best[i] = 0;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A flat map of height 4 with a wide lake (a band of water tiles) along the west side.
    fn lake(w: u32, h: u32, lake_cols: u32) -> (Vec<u8>, Water) {
        let terrain = vec![4u8; (w * h) as usize];
        let mut water = Water::new(w, h, &[]);
        for y in 0..h {
            for x in 0..lake_cols {
                water.depth[(y * w + x) as usize] = 1.0;
            }
        }
        (terrain, water)
    }

    #[test]
    fn moisture_reaches_about_fifteen_tiles_from_a_large_body_on_flat_land() {
        let (terrain, water) = lake(40, 20, 10);
        let mut soil = Soil::new(800);
        soil.recompute(&terrain, &water);
        let row = 10 * 40;
        let moist_cols: Vec<u32> = (10..40)
            .filter(|x| soil.is_moist(row + *x as usize))
            .collect();
        assert_eq!(moist_cols.first(), Some(&10));
        let reach = moist_cols.len();
        assert!((14..=16).contains(&reach), "reach {reach}");
        // Water tiles themselves are not moist soil.
        assert!(!soil.is_moist(row + 5));
        // Monotone decreasing away from the shore.
        for x in 10..24 {
            assert!(soil.moisture[row + x] >= soil.moisture[row + x + 1]);
        }
    }

    #[test]
    fn climbing_costs_six_per_level_and_dry_land_dries() {
        let (mut terrain, mut water) = lake(40, 20, 10);
        for y in 0..20 {
            for x in 15..40 {
                terrain[y * 40 + x] = 6;
            }
        }
        let mut soil = Soil::new(800);
        soil.recompute(&terrain, &water);
        let row = 10 * 40;
        // The lake's surface (level 5) is above the flat land (4): no climb to tile 10, which gets
        // 16 - 1 = 15 and tile 14 gets 11; climbing 2 levels to the terrace at 15 costs 13 more.
        assert!(soil.is_moist(row + 14));
        let terrace: usize = (15..40).filter(|x| soil.is_moist(row + x)).count();
        assert!(terrace <= 2, "terrace moist tiles {terrace}");
        water.depth.fill(0.0);
        soil.recompute(&terrain, &water);
        assert!(soil.moisture.iter().all(|m| *m == 0));
    }

    #[test]
    fn badwater_contaminates_soil_which_recovers_later() {
        let (terrain, mut water) = lake(30, 10, 6);
        for i in 0..300 {
            water.bad[i] = water.depth[i] * 0.8;
        }
        let mut soil = Soil::new(300);
        let c = soil.recompute(&terrain, &water);
        assert!(c.contaminated > 0 && c.cleaned == 0);
        // Too dirty to irrigate.
        assert!(soil.moisture.iter().all(|m| *m == 0));
        assert!(soil.is_contaminated(5 * 30 + 8));
        water.depth.fill(0.0);
        water.bad.fill(0.0);
        let hours = world_rules()
            .contamination
            .soil_spread
            .value
            .decontamination_hours;
        let mut cleaned = 0;
        for _ in 0..hours {
            cleaned += soil.recompute(&terrain, &water).cleaned;
        }
        assert_eq!(cleaned, c.contaminated);
        assert!(soil.contamination.iter().all(|c| *c == 0));
    }
}
