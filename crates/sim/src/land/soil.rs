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
//! - each hour only the areas around the tiles whose inputs (water tiles, levels, seeds)
//!   changed are spread again (`Soil::spread_moisture`), to the same values a full spread gives;
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
#[derive(Debug, Clone)]
pub(crate) struct Soil {
    /// Moisture in tenths; 0 on water tiles and dry land.
    pub moisture: Vec<Tenths>,
    /// Hours the tile stays contaminated; 0 means clean.
    pub contamination: Vec<u8>,
    /// What the last moisture spread was computed from (derived, not saved; `None` after a load).
    pub last: Option<Box<SpreadInputs>>,
}

impl PartialEq for Soil {
    /// The soil's state; `last` is derived from the water.
    fn eq(&self, other: &Soil) -> bool {
        self.moisture == other.moisture && self.contamination == other.contamination
    }
}

/// The inputs of a moisture spread, per tile. A tile's moisture depends only on the inputs within
/// `Model::reach` tiles of it, so an hour that changes a few tiles recomputes only around them.
#[derive(Debug, Clone, Default)]
pub(crate) struct SpreadInputs {
    wet: Vec<bool>,
    level: Vec<u8>,
    /// A water tile's emission when it irrigates (a moisture seed), else 0.
    seed: Vec<u16>,
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

    /// The farthest (in tiles, along each axis) a seed's moisture can reach: its greatest
    /// emission over the cheaper step.
    fn reach(&self) -> usize {
        let top = (self.emit * self.max_sat * 10.0).round() as usize;
        top / usize::from(self.orth.min(self.diag).max(1)) + 1
    }
}

impl Soil {
    pub(crate) fn new(n: usize) -> Soil {
        Soil {
            moisture: vec![0; n],
            contamination: vec![0; n],
            last: None,
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
        let wet: Vec<bool> = water.depth[..n].iter().map(|d| *d >= m.min_depth).collect();
        let wet_tiles: Vec<usize> = (0..n).filter(|i| wet[*i]).collect();
        // A land tile's level is its terrain; a water tile's its water surface.
        let mut level: Vec<u8> = terrain[..n].to_vec();
        for &i in &wet_tiles {
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
        // Emission by the count of water tiles around (the same for every tile).
        let by_count: Vec<u16> = (0..(m.window * m.window) as u32)
            .map(|count| {
                let sat = (m.per_wet * f64::from(count)).min(m.max_sat);
                (m.emit * sat * 10.0).round() as u16
            })
            .collect();
        let emission = |i: usize| -> u16 {
            let (x, y) = (i % w, i / w);
            let (x0, y0) = (x.saturating_sub(r), y.saturating_sub(r));
            let (x1, y1) = ((x + r + 1).min(w), (y + r + 1).min(h));
            let count = sat_table[y1 * (w + 1) + x1] + sat_table[y0 * (w + 1) + x0]
                - sat_table[y0 * (w + 1) + x1]
                - sat_table[y1 * (w + 1) + x0]
                - 1;
            by_count[count as usize]
        };
        let mut moist_seeds = Vec::new();
        let mut bad_seeds = Vec::new();
        for &i in &wet_tiles {
            let share = water.share(i);
            let e = emission(i);
            if share <= m.max_irrigation_share && e > 0 {
                moist_seeds.push((i, e));
            }
            if share >= m.contaminating_share && e > 0 {
                bad_seeds.push((i, e));
            }
        }
        let mut seed = vec![0u16; n];
        for &(i, e) in &moist_seeds {
            seed[i] = e;
        }
        let now = SpreadInputs { wet, level, seed };
        self.spread_moisture(&m, w, h, &now, &moist_seeds);
        let SpreadInputs { wet, level, .. } = &**self.last.insert(Box::new(now));
        let reached = if bad_seeds.is_empty() {
            None
        } else {
            Some(spread(&m, w, h, wet, level, &bad_seeds))
        };
        let mut change = SoilChange::default();
        // (`max` rather than `all`: a pass without an early exit, which vectorizes.)
        if reached.is_none() && self.contamination.iter().max().is_none_or(|c| *c == 0) {
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

    /// Sets the moisture from `now`'s inputs: around the tiles whose inputs changed since the
    /// last spread when there is one, else everywhere.
    ///
    /// A tile's moisture depends only on the inputs within `Model::reach` of it, so only the
    /// tiles that near a change can take a new value (an area). Outside an area every value
    /// stands, and any path into the area enters through the ring of tiles around it: the area
    /// is spread afresh from its own seeds and from that ring, each ring tile seeded with its
    /// standing moisture (or, on water, its emission).
    fn spread_moisture(
        &mut self,
        m: &Model,
        w: usize,
        h: usize,
        now: &SpreadInputs,
        seeds: &[(usize, u16)],
    ) {
        let last = self.last.as_deref().filter(|l| l.wet.len() == w * h);
        let areas = last.map_or_else(Vec::new, |l| changed_areas(l, now, w, h, m.reach()));
        let local_tiles: usize = areas.iter().map(|a| a.grown(1, w, h).tiles()).sum();
        if last.is_none() || local_tiles >= w * h / 2 {
            let moisture = spread(m, w, h, &now.wet, &now.level, seeds);
            for (dst, v) in self.moisture.iter_mut().zip(&moisture) {
                *dst = (*v).min(255) as u8;
            }
            return;
        }
        for area in areas {
            let win = area.grown(1, w, h);
            let (ww, wh) = (win.x1 - win.x0, win.y1 - win.y0);
            let mut wet = Vec::with_capacity(ww * wh);
            let mut level = Vec::with_capacity(ww * wh);
            let mut local_seeds = Vec::new();
            for y in win.y0..win.y1 {
                let r = y * w + win.x0..y * w + win.x1;
                wet.extend_from_slice(&now.wet[r.clone()]);
                level.extend_from_slice(&now.level[r]);
                for x in win.x0..win.x1 {
                    let i = y * w + x;
                    let ring = !area.holds(x, y);
                    let v = match now.seed[i] {
                        0 if ring => u16::from(self.moisture[i]),
                        e => e,
                    };
                    if v > 0 {
                        local_seeds.push(((y - win.y0) * ww + x - win.x0, v));
                    }
                }
            }
            let local = spread(m, ww, wh, &wet, &level, &local_seeds);
            for y in area.y0..area.y1 {
                for x in area.x0..area.x1 {
                    let v = local[(y - win.y0) * ww + x - win.x0];
                    self.moisture[y * w + x] = v.min(255) as u8;
                }
            }
        }
    }
}

/// A rectangle of tiles, `[x0, x1) x [y0, y1)`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Area {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Area {
    /// The area grown by `by` tiles on every side, within the map.
    fn grown(self, by: usize, w: usize, h: usize) -> Area {
        Area {
            x0: self.x0.saturating_sub(by),
            y0: self.y0.saturating_sub(by),
            x1: (self.x1 + by).min(w),
            y1: (self.y1 + by).min(h),
        }
    }

    fn holds(&self, x: usize, y: usize) -> bool {
        (self.x0..self.x1).contains(&x) && (self.y0..self.y1).contains(&y)
    }

    fn tiles(&self) -> usize {
        (self.x1 - self.x0) * (self.y1 - self.y0)
    }

    fn overlaps(&self, o: &Area) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }

    fn union(self, o: Area) -> Area {
        Area {
            x0: self.x0.min(o.x0),
            y0: self.y0.min(o.y0),
            x1: self.x1.max(o.x1),
            y1: self.y1.max(o.y1),
        }
    }
}

/// The areas whose moisture the change from `last` to `now` can alter: the tiles within `reach`
/// of a tile whose inputs differ, as rectangles merged until none lies within a tile of another
/// (so no area's ring reaches into another area).
fn changed_areas(
    last: &SpreadInputs,
    now: &SpreadInputs,
    w: usize,
    h: usize,
    reach: usize,
) -> Vec<Area> {
    let mut areas: Vec<Area> = Vec::new();
    // Rows are compared whole first: most are unchanged.
    let same = |r: std::ops::Range<usize>| {
        last.wet[r.clone()] == now.wet[r.clone()]
            && last.level[r.clone()] == now.level[r.clone()]
            && last.seed[r.clone()] == now.seed[r]
    };
    let changed = (0..h)
        .filter(|y| !same(y * w..(y + 1) * w))
        .flat_map(|y| (y * w..(y + 1) * w).filter(|i| !same(*i..*i + 1)));
    for i in changed {
        let (x, y) = (i % w, i / w);
        let mut a = Area {
            x0: x,
            y0: y,
            x1: x + 1,
            y1: y + 1,
        }
        .grown(reach, w, h);
        // Merge with every area it overlaps, until none is left to merge.
        while let Some(k) = areas.iter().position(|b| b.overlaps(&a.grown(1, w, h))) {
            a = a.union(areas.swap_remove(k));
        }
        areas.push(a);
    }
    areas
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
    fn recomputing_around_changes_gives_the_moisture_of_a_full_spread() {
        // Rolling terrain, a lake and scattered ponds; then hours in which a few water tiles
        // come and go and surfaces rise and fall, near each other or far apart.
        let (w, h) = (90usize, 70usize);
        let terrain: Vec<u8> = (0..w * h)
            .map(|i| (4 + (i % w) / 23 + (i / w) / 31 + (i * 7 % 13 == 0) as usize) as u8)
            .collect();
        let mut water = Water::new(w as u32, h as u32, &[]);
        for y in 0..h {
            for x in 0..12 {
                water.depth[y * w + x] = 1.2;
            }
        }
        let mut soil = Soil::new(w * h);
        soil.recompute(&terrain, &water);
        let mut state = 12345u64;
        let mut next = |below: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize % below
        };
        let reach = Model::from_rules().reach();
        let mut locals = 0;
        for hour in 0..60 {
            for _ in 0..1 + hour % 7 {
                let i = next(w * h);
                water.depth[i] = match next(4) {
                    0 => 0.0,
                    1 => 0.06,
                    2 => 0.9,
                    _ => water.depth[i] + 1.0,
                };
            }
            let last = soil.last.clone();
            soil.recompute(&terrain, &water);
            let mut fresh = Soil::new(w * h);
            fresh.recompute(&terrain, &water);
            assert_eq!(soil.moisture, fresh.moisture, "hour {hour}");
            let areas = changed_areas(&last.unwrap(), soil.last.as_ref().unwrap(), w, h, reach);
            let tiles: usize = areas.iter().map(|a| a.grown(1, w, h).tiles()).sum();
            locals += usize::from(!areas.is_empty() && tiles < w * h / 2);
        }
        assert!(locals > 30, "only {locals} hours recomputed locally");
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
