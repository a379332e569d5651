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
//! - the inputs are kept from hour to hour (`SpreadInputs`) and worked out again only where they
//!   can differ from dry land's: per row, within the columns that hold water now (the water's
//!   active spans) or held it last hour; elsewhere only a changed terrain changes a level, found by
//!   comparing the terrain with the copy kept (`SpreadInputs::update`). A water tile's
//!   saturation is counted over its window, row by row, from the kept water tiles;
//! - a land tile is `moist` while its moisture is above 0. It dries at the first recompute after
//!   its water left (within an hour; the data's drying speed is about 13 ticks).
//!
//! - a soil barrier (a building with the `soilBarrier` flag standing on the ground: an impermeable
//!   floor, a levee, a contamination or irrigation barrier) closes its tile to the soil: moisture
//!   and contamination neither enter nor cross it, and water standing on it seeps nowhere (it is no
//!   seed). The barriers are kept per tile (`Soil::barrier`, derived from the buildings) and are an
//!   input of the spread like the water tiles.
//!
//! Contamination spreads the same way from water tiles whose badwater share is at least
//! `soilContaminatedWhenWaterShareAtLeast`; a tile reached is contaminated and stays so for
//! `decontaminationHours` after it is last reached. The count of contaminated tiles is kept, so
//! the hours with none contaminated and none reached skip the contamination pass.

use crate::catalog::world_rules;

use super::water::{Water, columns_union};

/// Moisture in tenths (a tile-step is 10).
pub(crate) type Tenths = u8;

/// Soil state per tile.
#[derive(Debug, Clone)]
pub(crate) struct Soil {
    /// Moisture in tenths; 0 on water tiles and dry land.
    pub moisture: Vec<Tenths>,
    /// Hours the tile stays contaminated; 0 means clean.
    pub contamination: Vec<u8>,
    /// Tiles a soil barrier closes (derived from the buildings, not saved).
    pub barrier: Vec<bool>,
    /// What the last moisture spread was computed from (derived, not saved; `None` after a load).
    pub last: Option<Box<SpreadInputs>>,
}

impl PartialEq for Soil {
    /// The soil's state; `last` is derived from the water.
    fn eq(&self, other: &Soil) -> bool {
        self.moisture == other.moisture
            && self.contamination == other.contamination
            && self.barrier == other.barrier
    }
}

/// The inputs of the last moisture spread, per tile, kept from hour to hour. A tile's moisture
/// depends only on the inputs within `Model::reach` tiles of it, so an hour that changes a few
/// tiles recomputes only around them.
///
/// Outside `rows` a tile holds no water, so its inputs are those of dry land (not wet, its
/// terrain for level, no seed): each hour updates them only within its own and the last hour's
/// rows, and where the terrain changed (`SpreadInputs::update`).
#[derive(Debug, Clone, Default)]
pub(crate) struct SpreadInputs {
    wet: Vec<bool>,
    /// Tiles a soil barrier closes.
    barrier: Vec<bool>,
    level: Vec<u8>,
    /// A water tile's emission when it irrigates (a moisture seed), else 0.
    seed: Vec<u16>,
    /// The terrain the dry tiles' levels were taken from.
    terrain: Vec<u8>,
    /// Per row, the columns `[lo, hi)` outside which it had no water tile (none when `lo >= hi`).
    rows: Vec<(usize, usize)>,
    /// Tiles contaminated after the last recompute.
    contaminated: usize,
}

/// What one hour's update of the inputs found.
struct Update {
    /// Tiles whose inputs changed, ascending.
    changed: Vec<usize>,
    /// Water tiles that irrigate, with their emission, ascending.
    moist_seeds: Vec<(usize, u16)>,
    /// Water tiles that contaminate, with their emission, ascending.
    bad_seeds: Vec<(usize, u16)>,
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
            barrier: vec![false; n],
            last: None,
        }
    }

    /// Sets the tiles soil barriers close (the next recompute spreads around them).
    pub(crate) fn set_barriers(&mut self, barrier: Vec<bool>) {
        debug_assert_eq!(barrier.len(), self.barrier.len());
        self.barrier = barrier;
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
        let rows = water_rows(&m, water, w, h);
        let (mut inputs, fresh) = match self.last.take() {
            Some(last) if last.wet.len() == n && last.terrain.len() == n => (last, false),
            _ => {
                let contaminated = self.contamination.iter().filter(|c| **c > 0).count();
                (
                    Box::new(SpreadInputs::dry(terrain, w, h, contaminated)),
                    true,
                )
            }
        };
        let update = inputs.update(&m, terrain, water, &self.barrier, rows, w, h);
        let areas = (!fresh).then(|| changed_areas(&update.changed, w, h, m.reach()));
        self.spread_moisture(&m, w, h, &inputs, &update.moist_seeds, areas);
        let reached = if update.bad_seeds.is_empty() {
            None
        } else {
            Some(spread(
                &m,
                w,
                h,
                &inputs.wet,
                &inputs.barrier,
                &inputs.level,
                &update.bad_seeds,
            ))
        };
        let mut change = SoilChange::default();
        if reached.is_none() && inputs.contaminated == 0 {
            // Nothing contaminated and nothing reached: nothing changes.
            self.last = Some(inputs);
            return change;
        }
        let mut contaminated = 0;
        for i in 0..n {
            let hit = reached.as_ref().is_some_and(|r| r[i] > 0);
            let was = self.contamination[i] > 0;
            if hit {
                self.contamination[i] = m.decontamination_hours.max(1);
            } else if was {
                self.contamination[i] -= 1;
            }
            let now = self.contamination[i] > 0;
            contaminated += usize::from(now);
            if now && !was {
                change.contaminated += 1;
            } else if was && !now {
                change.cleaned += 1;
            }
        }
        inputs.contaminated = contaminated;
        self.last = Some(inputs);
        change
    }

    /// Sets the moisture from `now`'s inputs: only within `areas` (around the tiles whose inputs
    /// changed since the last spread) when they are known, else everywhere.
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
        areas: Option<Vec<Area>>,
    ) {
        // Areas covering half the map or more: one spread over all of it is cheaper.
        let local = |areas: &Vec<Area>| {
            areas
                .iter()
                .map(|a| a.grown(1, w, h).tiles())
                .sum::<usize>()
                < w * h / 2
        };
        let Some(areas) = areas.filter(local) else {
            return self.spread_everywhere(m, w, h, now, seeds);
        };
        for area in areas {
            let win = area.grown(1, w, h);
            let (ww, wh) = (win.x1 - win.x0, win.y1 - win.y0);
            let mut wet = Vec::with_capacity(ww * wh);
            let mut barrier = Vec::with_capacity(ww * wh);
            let mut level = Vec::with_capacity(ww * wh);
            let mut local_seeds = Vec::new();
            for y in win.y0..win.y1 {
                let r = y * w + win.x0..y * w + win.x1;
                wet.extend_from_slice(&now.wet[r.clone()]);
                barrier.extend_from_slice(&now.barrier[r.clone()]);
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
            let local = spread(m, ww, wh, &wet, &barrier, &level, &local_seeds);
            for y in area.y0..area.y1 {
                for x in area.x0..area.x1 {
                    let v = local[(y - win.y0) * ww + x - win.x0];
                    self.moisture[y * w + x] = v.min(255) as u8;
                }
            }
        }
    }

    fn spread_everywhere(
        &mut self,
        m: &Model,
        w: usize,
        h: usize,
        now: &SpreadInputs,
        seeds: &[(usize, u16)],
    ) {
        let moisture = spread(m, w, h, &now.wet, &now.barrier, &now.level, seeds);
        for (dst, v) in self.moisture.iter_mut().zip(&moisture) {
            *dst = (*v).min(255) as u8;
        }
    }
}

impl SpreadInputs {
    /// The inputs of a map without water.
    fn dry(terrain: &[u8], w: usize, h: usize, contaminated: usize) -> SpreadInputs {
        let n = w * h;
        SpreadInputs {
            wet: vec![false; n],
            barrier: vec![false; n],
            level: terrain[..n].to_vec(),
            seed: vec![0; n],
            terrain: terrain[..n].to_vec(),
            rows: vec![(0, 0); h],
            contaminated,
        }
    }

    /// Brings the inputs up to the water and terrain as they are now; `rows` are this hour's
    /// (`water_rows`). Returns the tiles that changed and the seeds.
    ///
    /// Outside both this hour's and the last hour's rows a tile was and is dry land, so only its
    /// level can change, with its terrain: the terrain is compared with the one kept (a byte per
    /// tile, row by row) and those tiles are set. Within the rows every input is computed afresh
    /// and compared. Tiles whose soil barrier came or went (`barrier`) changed too.
    #[allow(clippy::too_many_arguments)]
    fn update(
        &mut self,
        m: &Model,
        terrain: &[u8],
        water: &Water,
        barrier: &[bool],
        rows: Vec<(usize, usize)>,
        w: usize,
        h: usize,
    ) -> Update {
        let mut changed = Vec::new();
        if self.barrier[..] != barrier[..w * h] {
            for (i, (kept, now)) in self.barrier.iter_mut().zip(barrier).enumerate() {
                if *kept != *now {
                    *kept = *now;
                    changed.push(i);
                }
            }
        }
        // Terrain changes outside last hour's rows (within them, the passes below see them).
        if self.terrain[..] != terrain[..w * h] {
            for y in 0..h {
                let r = y * w..(y + 1) * w;
                if self.terrain[r.clone()] == terrain[r.clone()] {
                    continue;
                }
                let (lo, hi) = self.rows[y];
                for i in r.clone() {
                    if terrain[i] != self.terrain[i] && !(lo..hi).contains(&(i - y * w)) {
                        self.level[i] = terrain[i];
                        changed.push(i);
                    }
                }
                self.terrain[r.clone()].copy_from_slice(&terrain[r]);
            }
        }
        let both: Vec<(usize, usize)> = (0..h)
            .map(|y| columns_union(self.rows[y], rows[y]))
            .collect();
        // Water tiles (only within this hour's rows).
        for y in 0..h {
            let ((lo, hi), now) = (both[y], rows[y]);
            for x in lo..hi {
                let i = y * w + x;
                let wet = (now.0..now.1).contains(&x) && water.depth[i] >= m.min_depth;
                if self.wet[i] != wet {
                    self.wet[i] = wet;
                    changed.push(i);
                }
            }
        }
        // Levels and seeds, from the water tiles as they are now.
        let r = m.window / 2;
        // Emission by the count of water tiles around (the same for every tile).
        let by_count: Vec<u16> = (0..(m.window * m.window) as u32)
            .map(|count| {
                let sat = (m.per_wet * f64::from(count)).min(m.max_sat);
                (m.emit * sat * 10.0).round() as u16
            })
            .collect();
        let (mut moist_seeds, mut bad_seeds) = (Vec::new(), Vec::new());
        // Running count of water tiles over the window's rows, column by column from `x0`.
        let mut counts: Vec<u32> = Vec::new();
        for y in 0..h {
            let ((lo, hi), now) = (both[y], rows[y]);
            let (x0, y0, y1) = (
                now.0.saturating_sub(r),
                y.saturating_sub(r),
                (y + r + 1).min(h),
            );
            counts.clear();
            if now.0 < now.1 {
                counts.push(0);
                let mut total = 0;
                for x in x0..(now.1 + r).min(w) {
                    total += (y0..y1)
                        .map(|yy| u32::from(self.wet[yy * w + x]))
                        .sum::<u32>();
                    counts.push(total);
                }
            }
            for x in lo..hi {
                let i = y * w + x;
                let (level, seed) = if self.wet[i] {
                    let floor = f32::from(terrain[i]).max(water.barrier[i]);
                    let level = (floor + water.depth[i]).floor().clamp(0.0, 255.0) as u8;
                    let (a, b) = (x.saturating_sub(r) - x0, (x + r + 1).min(w) - x0);
                    let e = by_count[(counts[b] - counts[a] - 1) as usize];
                    let share = water.share(i);
                    // Water on a soil barrier seeps into no soil.
                    let seeps = e > 0 && !self.barrier[i];
                    let irrigates = share <= m.max_irrigation_share && seeps;
                    if irrigates {
                        moist_seeds.push((i, e));
                    }
                    if share >= m.contaminating_share && seeps {
                        bad_seeds.push((i, e));
                    }
                    (level, if irrigates { e } else { 0 })
                } else {
                    (terrain[i], 0)
                };
                if self.level[i] != level || self.seed[i] != seed {
                    self.level[i] = level;
                    self.seed[i] = seed;
                    changed.push(i);
                }
            }
        }
        self.rows = rows;
        changed.sort_unstable();
        changed.dedup();
        Update {
            changed,
            moist_seeds,
            bad_seeds,
        }
    }
}

/// Per row, the columns `[lo, hi)` outside which it has no water tile: the water's active spans
/// when it knows them, else found from the depths.
fn water_rows(m: &Model, water: &Water, w: usize, h: usize) -> Vec<(usize, usize)> {
    // Outside the spans the depth is 0: no water tile while the threshold is above 0.
    if let Some(spans) = water.water_columns()
        && spans.len() == h
        && m.min_depth > 0.0
    {
        return spans.to_vec();
    }
    (0..h)
        .map(|y| {
            let row = &water.depth[y * w..(y + 1) * w];
            let wet = |d: &f32| *d >= m.min_depth;
            match (row.iter().position(wet), row.iter().rposition(wet)) {
                (Some(lo), Some(hi)) => (lo, hi + 1),
                _ => (0, 0),
            }
        })
        .collect()
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

/// The areas whose moisture the changes at `changed` (ascending tiles) can alter: the tiles
/// within `reach` of a changed tile, as rectangles merged until none lies within a tile of
/// another (so no area's ring reaches into another area).
fn changed_areas(changed: &[usize], w: usize, h: usize, reach: usize) -> Vec<Area> {
    let mut areas: Vec<Area> = Vec::new();
    for &i in changed {
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

/// Best-first spread over land from seeds (tile, value in tenths), exact via a bucket queue;
/// water tiles and soil barriers (`barrier`) are never entered.
#[allow(clippy::too_many_arguments)]
fn spread(
    m: &Model,
    w: usize,
    h: usize,
    wet: &[bool],
    barrier: &[bool],
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
    let w32 = u32::try_from(w).expect("a map row fits in u32");
    for v in (min_cost..=top).rev() {
        while let Some(i) = buckets[v].pop() {
            let i = i as usize;
            if best[i] as usize != v {
                continue;
            }
            let mut reach = |j: usize, diag: bool| {
                if wet[j] || barrier[j] {
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
            // (A 32-bit division: maps are far smaller than 2^32 tiles, and it is the cheaper.)
            let (x, y) = ((i as u32 % w32) as usize, (i as u32 / w32) as usize);
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
mod tests;
