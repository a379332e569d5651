//! Water: per-tile depth and badwater, sources, flow between 4-neighbours, evaporation and outflow
//! at the map edges.
//!
//! The model is a virtual-pipe cellular model. Each tile holds `depth` of water on its floor (the
//! terrain, or a barrier's height when one is set); `bad` is the badwater volume in it (its share is
//! `bad / depth`). Every edge between two 4-neighbours is a pipe with a signed flux (m3/s). One
//! water step (every `water.simulation.stepTicks` ticks, so `dt = stepTicks x 0.6 s`):
//! 1. each pipe's flux keeps `1 - friction` of itself and accelerates by `A x dt x (surface
//!    difference) + B x dt x (difference of the two tiles' rises in the last step)`, with
//!    `A = pipeStability / dt^2` (the explicit scheme is stable for `pipeStability <= 0.25`) and
//!    `B = damping / dt^2`. A tile's rise is what its pipes and its source added to it in the
//!    last step, worked out from the stored fluxes, so the damping needs no state of its own:
//!    in steady flow every rise is 0 and the river flows as undamped; in standing water the term
//!    opposes each oscillation in proportion to how fast the surfaces move, so lakes come to rest.
//!    A pipe never carries water into a tile whose floor lies at or above the giving tile's
//!    surface, so barriers hold water below their height and spill above it;
//! 2. pipes out of a tile are scaled down together so they never take more than it holds: depths
//!    never go negative; into and out of a capped tile (a valve) they are scaled down together so
//!    they carry no more than its cap (m3/s) into it and no more out of it (a cap of 0 makes it
//!    a wall);
//! 3. depths (and badwater, carried at the giving tile's share) move along the pipes;
//! 4. sources add `strength x dt` (clean, or with the weather's badwater share);
//!    inflows (aquifer drills, set by the colony before each step) add their m3/s of clean water
//!    whatever the weather;
//! 5. evaporation removes `rate x dt` (`shallowPerSecond` below `shallowBelowDepth`, else
//!    `normalPerSecond`; the cluster modifier is not modelled) and water thinner than `minDepth`.
//!
//! Map edges: a tile on the edge has a pipe to the outside, whose surface is the tile's own floor
//! (a free fall), so water leaves the map; the edge tiles of the river's upstream end are closed
//! (the river enters the map there, where its sources stand). Running totals (`added`, `evaporated`,
//! `edgeLost`) close the balance: stored water = initial + added - evaporated - edgeLost, up to f32
//! rounding.
//!
//! A new map's water is run to rest before anything grows on it ([`Water::settle`]), so a game
//! starts with its river flowing as it will flow and its soil moist where it stays moist.
//!
//! Why a coarse step: the whole land step must run well over 10 game days a second on 128x128; at
//! one water step per 4 ticks that is 192 steps a day. The friction and the pipe constant are chosen
//! for that step (data `water.simulation`), not the game's own `flowFactor`.

use serde::{Deserialize, Serialize};

use crate::catalog::world_rules;

/// Seconds of water time per tick (real seconds at 1x, as the data's rates use).
pub(crate) fn seconds_per_tick() -> f64 {
    crate::clock::real_seconds_per_tick_at_1x()
}

/// Ticks between two water steps (`water.simulation.stepTicks`).
pub fn water_step_ticks() -> u32 {
    world_rules().water.simulation.value.step_ticks
}

/// What sources do this step, from the weather.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum SourceMode {
    /// Temperate: clean sources emit clean water; badwater sources are dormant.
    Temperate,
    /// Drought: clean sources stop; badwater sources stay dormant.
    Drought,
    /// Badtide: clean sources emit water with this badwater share; badwater sources emit badwater.
    Badtide(f32),
}

/// A water source.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaterSource {
    pub x: u32,
    pub y: u32,
    /// m3/s while it flows.
    pub strength: f32,
    /// A badwater source: dormant except during badtides, when it emits pure badwater.
    pub badwater: bool,
    /// Capped by a building standing on it (a badwater rig): it emits nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub capped: bool,
}

#[cfg(test)]
impl WaterSource {
    /// An uncapped source (tests).
    pub(crate) fn at(x: u32, y: u32, strength: f32, badwater: bool) -> WaterSource {
        WaterSource {
            x,
            y,
            strength,
            badwater,
            capped: false,
        }
    }
}

impl WaterSource {
    /// What it emits under `mode`: m3/s, and the badwater share of it.
    fn emission(&self, mode: SourceMode) -> (f32, f32) {
        match (self.badwater, mode) {
            (false, SourceMode::Temperate) => (self.strength, 0.0),
            (false, SourceMode::Drought) | (true, SourceMode::Temperate | SourceMode::Drought) => {
                (0.0, 0.0)
            }
            (false, SourceMode::Badtide(share)) => (self.strength, share),
            (true, SourceMode::Badtide(_)) => (self.strength, 1.0),
        }
    }
}

/// Running totals of water that entered or left the world (m3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WaterTotals {
    /// Water stored when the totals started (at world creation).
    pub initial: f64,
    /// Added by sources.
    pub added: f64,
    /// Removed by evaporation (including films thinner than `minDepth`).
    pub evaporated: f64,
    /// Lost over the map edges.
    pub edge_lost: f64,
    /// Drawn by pumps (absent from saves while 0, so older saves and hashes are unchanged).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub pumped: f64,
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

/// The numbers one water step uses, from the data.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WaterParams {
    dt: f32,
    accel_dt: f32,
    /// The drive per metre of the difference of the two tiles' last rises (the damping).
    damp_dt: f32,
    keep: f32,
    normal_evap: f32,
    shallow_evap: f32,
    shallow_depth: f32,
    min_depth: f32,
}

impl WaterParams {
    pub(crate) fn from_rules() -> WaterParams {
        let w = &world_rules().water;
        let sim = &w.simulation.value;
        let ev = &w.evaporation.value;
        let dt = f64::from(sim.step_ticks) * seconds_per_tick();
        let accel = sim.pipe_stability / (dt * dt);
        WaterParams {
            dt: dt as f32,
            accel_dt: (accel * dt) as f32,
            damp_dt: (sim.damping / dt) as f32,
            keep: (1.0 - sim.friction) as f32,
            normal_evap: (ev.normal_per_second * dt) as f32,
            shallow_evap: (ev.shallow_per_second * dt) as f32,
            shallow_depth: ev.shallow_below_depth.max(sim.shallow_depth) as f32,
            min_depth: sim.min_depth as f32,
        }
    }
}

/// The smallest range of columns `[lo, hi)` holding both (an empty one, `lo >= hi`, holds
/// nothing).
pub(crate) fn columns_union(a: (usize, usize), b: (usize, usize)) -> (usize, usize) {
    match (a.0 < a.1, b.0 < b.1) {
        (false, _) => b,
        (_, false) => a,
        _ => (a.0.min(b.0), a.1.max(b.1)),
    }
}

/// What a pipe of flux `v` adds to the outflow of the tile on its low side (west or south):
/// `v` when it flows out of it, else +0 (which leaves a sum unchanged).
#[inline(always)]
fn east_out(v: f32) -> f32 {
    if v > 0.0 { v } else { 0.0 }
}

/// What a pipe of flux `v` adds to the outflow of the tile on its high side (east or north):
/// `-v` when it flows into that tile's low neighbour, else +0.
#[inline(always)]
fn west_out(v: f32) -> f32 {
    if v > 0.0 { 0.0 } else { -v }
}

/// The badwater tile `i` gains this step from its moves `[west, east, south, north]` (volumes,
/// inflow positive on west and south, as the pipes point): inflows carry the giver's share
/// (`share`, before the move), outflows the tile's own; a pipe whose far side is off the map
/// (`inside` false) brings clean water.
#[inline]
fn bad_change(
    share: &[f32],
    i: usize,
    [fw, fe, fs, fnn]: [f32; 4],
    inside: [bool; 4],
    w: usize,
) -> f32 {
    let own = share[i];
    let mut db = 0.0f32;
    db += if fw > 0.0 {
        if inside[0] { fw * share[i - 1] } else { 0.0 }
    } else {
        fw * own
    };
    db -= if fe > 0.0 {
        fe * own
    } else if inside[1] {
        fe * share[i + 1]
    } else {
        0.0
    };
    db += if fs > 0.0 {
        if inside[2] { fs * share[i - w] } else { 0.0 }
    } else {
        fs * own
    };
    db -= if fnn > 0.0 {
        fnn * own
    } else if inside[3] {
        fnn * share[i + w]
    } else {
        0.0
    };
    db
}

/// The water of a map.
#[derive(Debug, Clone)]
pub(crate) struct Water {
    pub width: u32,
    pub height: u32,
    pub depth: Vec<f32>,
    pub bad: Vec<f32>,
    /// Flux across the west edge of each tile, eastward positive; `(width + 1) x height`, the last
    /// column being the map's east edge.
    pub fx: Vec<f32>,
    /// Flux across the south edge of each tile, northward positive; `width x (height + 1)`.
    pub fy: Vec<f32>,
    /// Barrier floor height per tile; `NEG_INFINITY` where there is none.
    pub barrier: Vec<f32>,
    /// Edge tiles whose outer edges are closed (derived from the river, not saved).
    pub closed: Vec<bool>,
    pub sources: Vec<WaterSource>,
    /// Clean water the colony adds each step whatever the weather (aquifer drills): tile index
    /// and m3/s. Set before every step from the buildings (not saved).
    pub inflows: Vec<(usize, f32)>,
    /// Tiles whose outflow is capped (valves and fill valves): tile index and the most m3/s
    /// their pipes may carry out of them together, ascending by tile. Set from the buildings
    /// (not saved).
    pub caps: Vec<(usize, f32)>,
    pub totals: WaterTotals,
    surface: Vec<f32>,
    /// How much each tile's surface rose in the last step by the pipes and sources (scratch of
    /// `step`, worked out from the stored fluxes).
    rise: Vec<f32>,
    out: Vec<f32>,
    /// Badwater share of each tile before the move (scratch of `step`).
    share: Vec<f32>,
    /// Active span per row, `[lo, hi)`: one tile either side of the row's wet tiles.
    span: Vec<(usize, usize)>,
    ext: Vec<(usize, usize)>,
    /// False until the spans are computed from the depths (after `new` or a load).
    spans_valid: bool,
}

impl Water {
    /// Dry water for a map; `closed` lists the edge tiles that let no water out.
    pub(crate) fn new(width: u32, height: u32, closed_tiles: &[usize]) -> Water {
        let n = width as usize * height as usize;
        let mut closed = vec![false; n];
        for &i in closed_tiles {
            closed[i] = true;
        }
        Water {
            width,
            height,
            depth: vec![0.0; n],
            bad: vec![0.0; n],
            fx: vec![0.0; (width as usize + 1) * height as usize],
            fy: vec![0.0; width as usize * (height as usize + 1)],
            barrier: vec![f32::NEG_INFINITY; n],
            closed,
            sources: Vec::new(),
            inflows: Vec::new(),
            caps: Vec::new(),
            totals: WaterTotals::default(),
            surface: vec![0.0; n],
            rise: vec![0.0; n],
            out: vec![0.0; n],
            share: vec![0.0; n],
            span: vec![(0, 0); height as usize],
            ext: vec![(0, 0); height as usize],
            spans_valid: false,
        }
    }

    /// Total water stored on the map (m3), summed in f64.
    pub(crate) fn stored(&self) -> f64 {
        self.depth.iter().map(|d| f64::from(*d)).sum()
    }

    /// Total badwater stored (m3).
    pub(crate) fn stored_bad(&self) -> f64 {
        self.bad.iter().map(|d| f64::from(*d)).sum()
    }

    /// Badwater share of a tile, 0-1.
    pub(crate) fn share(&self, i: usize) -> f32 {
        let d = self.depth[i];
        if d > 0.0 {
            (self.bad[i] / d).clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// Per row, the columns `[lo, hi)` outside which the row holds no water (depth 0): the
    /// active spans the last step left. `None` until a step has computed them (after `new` or a
    /// load).
    pub(crate) fn water_columns(&self) -> Option<&[(usize, usize)]> {
        self.spans_valid.then_some(self.span.as_slice())
    }

    /// Takes up to `volume` of water from a tile (pumps), clean and bad in proportion; returns
    /// what was taken.
    pub(crate) fn remove_water(&mut self, x: u32, y: u32, volume: f32) -> f32 {
        let i = y as usize * self.width as usize + x as usize;
        let d = self.depth[i];
        let t = volume.min(d).max(0.0);
        if t > 0.0 {
            let share = self.share(i);
            self.depth[i] = d - t;
            self.bad[i] = (self.bad[i] - t * share).max(0.0);
            self.totals.pumped += f64::from(t);
        }
        t
    }

    /// m3/s leaving tile `i` through its four pipes in the last step.
    pub(crate) fn outflow(&self, i: usize) -> f32 {
        let w = self.width as usize;
        let (x, y) = (i % w, i / w);
        let west = self.fx[y * (w + 1) + x];
        let east = self.fx[y * (w + 1) + x + 1];
        let south = self.fy[i];
        let north = self.fy[i + w];
        (-west).max(0.0) + east.max(0.0) + (-south).max(0.0) + north.max(0.0)
    }

    /// Sets or clears a barrier; the pipes of the tile are stopped so it holds at once.
    pub(crate) fn set_barrier(&mut self, x: u32, y: u32, height: Option<f32>) {
        let (w, x, y) = (self.width as usize, x as usize, y as usize);
        self.barrier[y * w + x] = height.unwrap_or(f32::NEG_INFINITY);
        self.fx[y * (w + 1) + x] = 0.0;
        self.fx[y * (w + 1) + x + 1] = 0.0;
        self.fy[y * w + x] = 0.0;
        self.fy[(y + 1) * w + x] = 0.0;
    }

    /// Mean flux through a tile (m3/s, east and north components).
    pub(crate) fn flux(&self, x: u32, y: u32) -> [f32; 2] {
        let (w, x, y) = (self.width as usize, x as usize, y as usize);
        let ex = 0.5 * (self.fx[y * (w + 1) + x] + self.fx[y * (w + 1) + x + 1]);
        let ny = 0.5 * (self.fy[y * w + x] + self.fy[(y + 1) * w + x]);
        [ex, ny]
    }

    /// Recomputes the active spans from the depths (after a load or outside changes).
    pub(crate) fn refresh_spans(&mut self) {
        let w = self.width as usize;
        for y in 0..self.height as usize {
            let row = &self.depth[y * w..(y + 1) * w];
            self.span[y] = match (
                row.iter().position(|d| *d > 0.0),
                row.iter().rposition(|d| *d > 0.0),
            ) {
                (Some(lo), Some(hi)) => (lo.saturating_sub(1), (hi + 2).min(w)),
                _ => (0, 0),
            };
        }
    }

    /// Runs one water step over `terrain` (row by row, same size).
    ///
    /// Only the active span of each row is visited: the tiles from one left of its first wet tile
    /// to one right of its last. Pipes outside the spans carry nothing (a tile that dries has its
    /// pipes stopped), so skipping them changes nothing but the cost.
    // The passes index several parallel per-tile and per-edge arrays by the same computed indexes.
    #[allow(clippy::needless_range_loop)]
    pub(crate) fn step(&mut self, terrain: &[u8], mode: SourceMode, p: &WaterParams) {
        if !self.spans_valid {
            self.refresh_spans();
            self.spans_valid = true;
        }
        let w = self.width as usize;
        let h = self.height as usize;
        debug_assert_eq!(terrain.len(), w * h);
        // Source and inflow tiles are active.
        let at = |i: usize| (i % w, i / w);
        let fed = self.sources.iter().map(|s| (s.x as usize, s.y as usize));
        let fed = fed.chain(self.inflows.iter().map(|&(i, _)| at(i)));
        for (x, y) in fed.collect::<Vec<_>>() {
            self.span[y] = columns_union(self.span[y], (x.saturating_sub(1), (x + 2).min(w)));
        }
        // Rows reach one row up and down: the tiles whose depth can change this step.
        for y in 0..h {
            let mut e = self.span[y];
            if y > 0 {
                e = columns_union(e, self.span[y - 1]);
            }
            if y + 1 < h {
                e = columns_union(e, self.span[y + 1]);
            }
            self.ext[y] = e;
        }
        // Clean water: no badwater in any tile the step visits and none from the sources. Every
        // badwater share is then +0, every badwater change a sum of zeros that leaves +0 where
        // it is added, so the badwater passes are skipped (the same bits, without the work).
        let clean = !matches!(mode, SourceMode::Badtide(_))
            && self.ext.iter().enumerate().all(|(y, &(lo, hi))| {
                lo >= hi
                    || self.bad[y * w + lo..y * w + hi]
                        .iter()
                        .fold(0, |any, b| any | b.to_bits())
                        == 0
            });
        // 1. Surfaces, the outflow accumulators and the badwater shares (depth and badwater stay
        // as they are until the move).
        for y in 0..h {
            let (lo, hi) = self.ext[y];
            let r = y * w + lo..y * w + hi;
            let n = hi.saturating_sub(lo);
            let (t, bar) = (&terrain[r.clone()], &self.barrier[r.clone()]);
            let (dep, bad) = (&self.depth[r.clone()], &self.bad[r.clone()]);
            let (sur, out) = (&mut self.surface[r.clone()], &mut self.out[r.clone()]);
            let sh = &mut self.share[r];
            let (t, bar, dep, bad, sur, out, sh) = (
                &t[..n],
                &bar[..n],
                &dep[..n],
                &bad[..n],
                &mut sur[..n],
                &mut out[..n],
                &mut sh[..n],
            );
            for j in 0..n {
                sur[j] = f32::from(t[j]).max(bar[j]) + dep[j];
                out[j] = 0.0;
            }
            if !clean {
                for j in 0..n {
                    let d = dep[j];
                    sh[j] = if d > 0.0 {
                        (bad[j] / d).clamp(0.0, 1.0)
                    } else {
                        0.0
                    };
                }
            }
        }
        // 1b. Each tile's rise in the last step by its pipes and its source: the damping's
        // input (0 in steady flow, whatever the flux).
        self.last_rises(mode, p.dt);
        let (keep, a, b) = (p.keep, p.accel_dt, p.damp_dt);
        // A pipe's new flux from `f` and its two tiles' surfaces, depths and last rises: 0 where
        // it would flow onto a floor (the surface less the depth, as the surface was made) at or
        // above the giver's surface.
        let pipe = |f: f32, s0: f32, s1: f32, d0: f32, d1: f32, r0: f32, r1: f32| -> f32 {
            let (floor0, floor1) = (s0 - d0, s1 - d1);
            let drive = a * (s0 - s1) + b * (r0 - r1);
            let v = f * keep + drive;
            // (Non-short-circuit tests, so the loops over a row compile to vector selects.)
            let stop = ((v > 0.0) & (s0 <= floor1)) | ((v < 0.0) & (s1 <= floor0));
            if stop { 0.0 } else { v }
        };
        // Outflows are summed per tile in the same order as ever (west, east, south, north
        // pipes).
        {
            let s = &self.surface;
            let rise = &self.rise;
            let depth = &self.depth;
            let out = &mut self.out;
            // 2a. East-west pipes of each row's span.
            for y in 0..h {
                let (lo, hi) = self.span[y];
                if lo >= hi {
                    continue;
                }
                let row = y * w;
                let frow = y * (w + 1);
                if lo == 0 {
                    let i = row;
                    let f = &mut self.fx[frow];
                    *f = if self.closed[i] {
                        0.0
                    } else {
                        (*f * keep - a * depth[i]).min(0.0)
                    };
                    out[i] -= *f;
                }
                let n = hi - lo;
                let sr = &s[row + lo..row + hi][..n];
                let dr = &depth[row + lo..row + hi][..n];
                let or = &mut out[row + lo..row + hi][..n];
                let fr = &mut self.fx[frow + lo + 1..frow + hi][..n - 1];
                // The pipe between tiles j and j + 1 of the span is fr[j].
                let m = n - 1;
                let (s0, s1, d0, d1) = (&sr[..m], &sr[1..][..m], &dr[..m], &dr[1..][..m]);
                let rr = &rise[row + lo..row + hi][..n];
                let (r0, r1) = (&rr[..m], &rr[1..][..m]);
                for j in 0..m {
                    fr[j] = pipe(fr[j], s0[j], s1[j], d0[j], d1[j], r0[j], r1[j]);
                }
                // Each tile's outflow: its west pipe, then its east pipe (a pipe adds to the
                // tile it flows out of; adding the other tile's +0 changes nothing, as an
                // outflow total is never -0).
                if m > 0 {
                    or[0] += east_out(fr[0]);
                    for j in 1..m {
                        or[j] = or[j] + west_out(fr[j - 1]) + east_out(fr[j]);
                    }
                    or[m] += west_out(fr[m - 1]);
                }
                if hi == w {
                    let i = row + w - 1;
                    let f = &mut self.fx[frow + w];
                    *f = if self.closed[i] {
                        0.0
                    } else {
                        (*f * keep + a * depth[i]).max(0.0)
                    };
                    out[i] += *f;
                }
            }
            // 2b. North-south pipes: the map's south edge over the first row's span, between
            // rows y-1 and y over both rows' spans, the north edge over the last row's span.
            let (lo, hi) = self.span[0];
            for x in lo..hi {
                let f = &mut self.fy[x];
                *f = if self.closed[x] {
                    0.0
                } else {
                    (*f * keep - a * depth[x]).min(0.0)
                };
                out[x] += -1.0 * *f;
            }
            for y in 1..h {
                let (lo, hi) = columns_union(self.span[y - 1], self.span[y]);
                if lo >= hi {
                    continue;
                }
                let n = hi - lo;
                let (b, t) = ((y - 1) * w + lo, y * w + lo);
                let (sb, st) = (&s[b..b + n], &s[t..t + n]);
                let (db, dt) = (&depth[b..b + n], &depth[t..t + n]);
                let (below, above) = out.split_at_mut(y * w);
                let ob = &mut below[b..b + n];
                let ot = &mut above[lo..lo + n];
                let fr = &mut self.fy[t..t + n];
                let (rb, rt) = (&rise[b..b + n], &rise[t..t + n]);
                for j in 0..n {
                    let v = pipe(fr[j], sb[j], st[j], db[j], dt[j], rb[j], rt[j]);
                    fr[j] = v;
                    ob[j] += east_out(v);
                    ot[j] += west_out(v);
                }
            }
            let (lo, hi) = self.span[h - 1];
            for x in lo..hi {
                let i = (h - 1) * w + x;
                let f = &mut self.fy[h * w + x];
                *f = if self.closed[i] {
                    0.0
                } else {
                    (*f * keep + a * depth[i]).max(0.0)
                };
                out[i] += 1.0 * *f;
            }
        }
        // 3 and 4, row by row: a tile's scale factor (reusing `out`: the share of its outflow it
        // can supply), its pipes scaled by the giving side's factor, then its water moved. Row
        // y's moves need its pipes and the pipes to rows y - 1 and y + 1 scaled, so the factors
        // run one row ahead; every factor comes from the depths before any move, as each row's
        // is worked out before that row moves. Water crossing the map's edges is summed in tile
        // order (a tile's west, east, south, north edges), as the running total always was.
        // A capped tile's factor is at most its cap over its outflow (worked out before the
        // factors replace the outflows).
        let dt = p.dt;
        self.cap_inflows();
        let capped = self.cap_ratios();
        let mut edge = 0.0f64;
        self.scale_factors(0, dt);
        self.apply_caps(0, &capped);
        self.scale_edge_pipes(0);
        for y in 0..h {
            if y + 1 < h {
                self.scale_factors(y + 1, dt);
                self.apply_caps(y + 1, &capped);
                self.scale_north_pipes(y);
            } else {
                self.scale_edge_pipes(h);
            }
            self.scale_east_pipes(y);
            self.move_row(y, dt, clean, &mut edge);
        }
        self.totals.edge_lost += edge;
        // 5. Sources.
        for src in self.sources.iter().filter(|s| !s.capped) {
            let i = src.y as usize * w + src.x as usize;
            let (amount, bad_share) = src.emission(mode);
            let v = amount * dt;
            if v > 0.0 {
                self.depth[i] += v;
                self.bad[i] += v * bad_share;
                self.totals.added += f64::from(v);
            }
        }
        // Inflows (aquifer drills): clean, whatever the weather.
        for &(i, rate) in &self.inflows {
            let v = rate * dt;
            if v > 0.0 {
                self.depth[i] += v;
                self.totals.added += f64::from(v);
            }
        }
        // 6. Evaporation, clean-up and the next spans. A tile that dries out is emptied and its
        // pipes stopped.
        let mut evaporated = 0.0f64;
        for y in 0..h {
            let (lo, hi) = self.ext[y];
            if lo >= hi {
                self.span[y] = (0, 0);
                continue;
            }
            let n = hi - lo;
            let (row, frow) = (y * w, y * (w + 1));
            let dep = &mut self.depth[row + lo..row + hi][..n];
            let bad = &mut self.bad[row + lo..row + hi][..n];
            let fxr = &mut self.fx[frow + lo..frow + hi + 1][..n + 1];
            let (fsr, fnr) = self.fy[row + lo..row + w + hi].split_at_mut(w);
            let (fsr, fnr) = (&mut fsr[..n], &mut fnr[..n]);
            let (mut first, mut last) = (usize::MAX, 0usize);
            for j in 0..n {
                let d = dep[j];
                let left = if d <= 0.0 {
                    // Rounding can leave a hair below zero; it counts as evaporated (negative).
                    if d < 0.0 {
                        evaporated += f64::from(d);
                    }
                    None
                } else {
                    let rate = if d < p.shallow_depth {
                        p.shallow_evap
                    } else {
                        p.normal_evap
                    };
                    let left = d - rate;
                    if left < p.min_depth {
                        evaporated += f64::from(d);
                        None
                    } else {
                        evaporated += f64::from(d) - f64::from(left);
                        Some(left)
                    }
                };
                if let Some(left) = left {
                    dep[j] = left;
                    if !clean {
                        bad[j] = (bad[j] * (left / d)).clamp(0.0, left);
                    }
                    first = first.min(j);
                    last = j;
                } else {
                    dep[j] = 0.0;
                    bad[j] = 0.0;
                    fxr[j] = 0.0;
                    fxr[j + 1] = 0.0;
                    fsr[j] = 0.0;
                    fnr[j] = 0.0;
                }
            }
            self.span[y] = if first == usize::MAX {
                (0, 0)
            } else {
                ((lo + first).saturating_sub(1), (lo + last + 2).min(w))
            };
        }
        self.totals.evaporated += evaporated;
    }

    /// Each tile's rise (m) in the last step, from the stored fluxes (what the last move
    /// carried) and its source's emission under `mode`, over the tiles this step visits.
    fn last_rises(&mut self, mode: SourceMode, dt: f32) {
        let w = self.width as usize;
        for y in 0..self.height as usize {
            let (lo, hi) = self.ext[y];
            if lo >= hi {
                continue;
            }
            let n = hi - lo;
            let (row, frow) = (y * w, y * (w + 1));
            let fxr = &self.fx[frow + lo..frow + hi + 1][..n + 1];
            let fsr = &self.fy[row + lo..row + hi][..n];
            let fnr = &self.fy[row + w + lo..row + w + hi][..n];
            let ri = &mut self.rise[row + lo..row + hi][..n];
            for j in 0..n {
                ri[j] = (fxr[j] - fxr[j + 1] + fsr[j] - fnr[j]) * dt;
            }
        }
        for src in self.sources.iter().filter(|s| !s.capped) {
            let i = src.y as usize * w + src.x as usize;
            self.rise[i] += src.emission(mode).0 * dt;
        }
        for &(i, rate) in &self.inflows {
            self.rise[i] += rate * dt;
        }
    }

    /// Scales the pipes into each capped tile down together so they carry no more than its cap
    /// into it (the givers' outflows, already summed, then overstate what they give: their
    /// factors only come out lower, never letting a depth go negative).
    fn cap_inflows(&mut self) {
        let w = self.width as usize;
        for &(i, cap) in &self.caps {
            let (x, y) = (i % w, i / w);
            let (west, east) = (y * (w + 1) + x, y * (w + 1) + x + 1);
            let (south, north) = (i, i + w);
            let inflow = self.fx[west].max(0.0)
                + (-self.fx[east]).max(0.0)
                + self.fy[south].max(0.0)
                + (-self.fy[north]).max(0.0);
            if inflow <= cap {
                continue;
            }
            let k = cap.max(0.0) / inflow;
            if self.fx[west] > 0.0 {
                self.fx[west] *= k;
            }
            if self.fx[east] < 0.0 {
                self.fx[east] *= k;
            }
            if self.fy[south] > 0.0 {
                self.fy[south] *= k;
            }
            if self.fy[north] < 0.0 {
                self.fy[north] *= k;
            }
        }
    }

    /// For each capped tile the step visits whose outflow is above its cap: the tile and the
    /// share of its outflow the cap lets out.
    fn cap_ratios(&self) -> Vec<(usize, f32)> {
        let w = self.width as usize;
        self.caps
            .iter()
            .filter(|&&(i, _)| {
                let (lo, hi) = self.ext[i / w];
                (lo..hi).contains(&(i % w))
            })
            .filter(|&&(i, cap)| self.out[i] > cap)
            .map(|&(i, cap)| (i, cap.max(0.0) / self.out[i]))
            .collect()
    }

    /// Lowers the scale factors of row `y`'s capped tiles to their caps' shares.
    fn apply_caps(&mut self, y: usize, capped: &[(usize, f32)]) {
        let w = self.width as usize;
        for &(i, r) in capped.iter().filter(|(i, _)| i / w == y) {
            self.out[i] = self.out[i].min(r);
        }
    }

    /// Step 3 for row `y`: each tile's scale factor, in place of its outflow total.
    fn scale_factors(&mut self, y: usize, dt: f32) {
        let w = self.width as usize;
        let (lo, hi) = self.ext[y];
        let n = hi.saturating_sub(lo);
        let r = y * w + lo..y * w + hi;
        let (dep, out) = (&self.depth[r.clone()][..n], &mut self.out[r][..n]);
        for (k, &d) in out.iter_mut().zip(dep) {
            let o = *k * dt;
            *k = if o > d && o > 0.0 { d / o } else { 1.0 };
        }
    }

    /// Step 3 for the east-west pipes of row `y`'s span (the map's edges included).
    fn scale_east_pipes(&mut self, y: usize) {
        let w = self.width as usize;
        let (lo, hi) = self.span[y];
        if lo >= hi {
            return;
        }
        let (row, frow) = (y * w, y * (w + 1));
        let k = &self.out;
        if lo == 0 {
            self.fx[frow] *= k[row];
        }
        let n = hi - lo;
        let kr = &k[row + lo..row + hi][..n];
        let fr = &mut self.fx[frow + lo + 1..frow + hi][..n - 1];
        for ((f, &k0), &k1) in fr.iter_mut().zip(&kr[..n - 1]).zip(&kr[1..]) {
            *f *= if *f > 0.0 { k0 } else { k1 };
        }
        if hi == w {
            self.fx[frow + w] *= k[row + w - 1];
        }
    }

    /// Step 3 for the pipes between rows `y` and `y + 1`, over both rows' spans.
    fn scale_north_pipes(&mut self, y: usize) {
        let w = self.width as usize;
        let (lo, hi) = columns_union(self.span[y], self.span[y + 1]);
        if lo >= hi {
            return;
        }
        let n = hi - lo;
        let k = &self.out;
        let (kb, kt) = (&k[y * w + lo..][..n], &k[(y + 1) * w + lo..][..n]);
        let fr = &mut self.fy[(y + 1) * w + lo..(y + 1) * w + hi][..n];
        for ((f, &k0), &k1) in fr.iter_mut().zip(kb).zip(kt) {
            *f *= if *f > 0.0 { k0 } else { k1 };
        }
    }

    /// Step 3 for the map's south edge (`y_edge` 0, under row 0's span) or north edge
    /// (`y_edge` = height, over the last row's span).
    fn scale_edge_pipes(&mut self, y_edge: usize) {
        let w = self.width as usize;
        let y = y_edge.min(self.height as usize - 1);
        let (lo, hi) = self.span[y];
        for x in lo..hi {
            self.fy[y_edge * w + x] *= self.out[y * w + x];
        }
    }

    /// Step 4 for row `y`: moves water and badwater along its tiles' scaled pipes (inflows carry
    /// the giver's share, outflows this tile's; off-map water is clean), adding what crosses
    /// the map's edges to `edge`.
    fn move_row(&mut self, y: usize, dt: f32, clean: bool, edge: &mut f64) {
        let (w, h) = (self.width as usize, self.height as usize);
        let (lo, hi) = self.ext[y];
        if lo >= hi {
            return;
        }
        if y == 0 || y + 1 == h {
            return self.move_row_checked(y, lo, hi, dt, clean, edge);
        }
        let n = hi - lo;
        let (row, frow) = (y * w, y * (w + 1));
        let fxr = &self.fx[frow + lo..frow + hi + 1][..n + 1];
        let fsr = &self.fy[row + lo..row + hi][..n];
        let fnr = &self.fy[row + w + lo..row + w + hi][..n];
        let dep = &mut self.depth[row + lo..row + hi][..n];
        if clean {
            // (A tile whose four moves are all ±0 gets a ±0, which leaves its depth as it is: a
            // depth is never -0.)
            let (fw, fe) = (&fxr[..n], &fxr[1..]);
            for j in 0..n {
                dep[j] += fw[j] * dt - fe[j] * dt + fsr[j] * dt - fnr[j] * dt;
            }
        } else {
            let bad = &mut self.bad[row + lo..row + hi][..n];
            let share = &self.share;
            for j in 0..n {
                let (fw, fe) = (fxr[j] * dt, fxr[j + 1] * dt);
                let (fs, fnn) = (fsr[j] * dt, fnr[j] * dt);
                if fw == 0.0 && fe == 0.0 && fs == 0.0 && fnn == 0.0 {
                    continue;
                }
                dep[j] += fw - fe + fs - fnn;
                let (i, x) = (row + lo + j, lo + j);
                let inside = [x > 0, x + 1 < w, true, true];
                bad[j] += bad_change(share, i, [fw, fe, fs, fnn], inside, w);
            }
        }
        // Only the row's first and last tiles have an outer edge (west, then east).
        if lo == 0 {
            let fw = fxr[0] * dt;
            if fw != 0.0 {
                *edge -= f64::from(fw);
            }
        }
        if hi == w {
            let fe = fxr[n] * dt;
            if fe != 0.0 {
                *edge += f64::from(fe);
            }
        }
    }

    /// Step 4 on the map's first or last row (tiles `lo..hi`), where every tile has an outer
    /// edge: the moves of [`Water::step`] with each edge's water added to `edge` in tile order.
    fn move_row_checked(
        &mut self,
        y: usize,
        lo: usize,
        hi: usize,
        dt: f32,
        clean: bool,
        edge: &mut f64,
    ) {
        let (w, h) = (self.width as usize, self.height as usize);
        let (row, frow) = (y * w, y * (w + 1));
        for x in lo..hi {
            let i = row + x;
            let fw = self.fx[frow + x] * dt;
            let fe = self.fx[frow + x + 1] * dt;
            let fs = self.fy[i] * dt;
            let fnn = self.fy[i + w] * dt;
            if fw == 0.0 && fe == 0.0 && fs == 0.0 && fnn == 0.0 {
                continue;
            }
            self.depth[i] += fw - fe + fs - fnn;
            if !clean {
                let inside = [x > 0, x + 1 < w, y > 0, y + 1 < h];
                self.bad[i] += bad_change(&self.share, i, [fw, fe, fs, fnn], inside, w);
            }
            if x == 0 {
                *edge -= f64::from(fw);
            }
            if x + 1 == w {
                *edge += f64::from(fe);
            }
            if y == 0 {
                *edge -= f64::from(fs);
            }
            if y + 1 == h {
                *edge += f64::from(fnn);
            }
        }
    }
}

mod settle;
#[cfg(test)]
mod tests;
