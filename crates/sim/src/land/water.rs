//! Water: per-tile depth and badwater, sources, flow between 4-neighbours, evaporation and outflow
//! at the map edges.
//!
//! The model is a virtual-pipe cellular model. Each tile holds `depth` of water on its floor (the
//! terrain, or a barrier's height when one is set); `bad` is the badwater volume in it (its share is
//! `bad / depth`). Every edge between two 4-neighbours is a pipe with a signed flux (m3/s). One
//! water step (every `water.simulation.stepTicks` ticks, so `dt = stepTicks x 0.6 s`):
//! 1. each pipe's flux keeps `1 - friction` of itself and accelerates by `A x dt x (surface
//!    difference)`, with `A = pipeStability / dt^2` (the explicit scheme is stable for
//!    `pipeStability <= 0.25`); a pipe never carries water into a tile whose floor lies at or above
//!    the giving tile's surface, so barriers hold water below their height and spill above it;
//! 2. pipes out of a tile are scaled down together so they never take more than it holds: depths
//!    never go negative;
//! 3. depths (and badwater, carried at the giving tile's share) move along the pipes;
//! 4. sources add `strength x dt` (clean, or with the weather's badwater share);
//! 5. evaporation removes `rate x dt` (`shallowPerSecond` below `shallowBelowDepth`, else
//!    `normalPerSecond`; the cluster modifier is not modelled) and water thinner than `minDepth`.
//!
//! Map edges: a tile on the edge has a pipe to the outside, whose surface is the tile's own floor
//! (a free fall), so water leaves the map; the edge tiles of the river's upstream end are closed
//! (the river enters the map there, where its sources stand). Running totals (`added`, `evaporated`,
//! `edgeLost`) close the balance: stored water = initial + added - evaporated - edgeLost, up to f32
//! rounding.
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
}

/// The numbers one water step uses, from the data.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WaterParams {
    dt: f32,
    accel_dt: f32,
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
            keep: (1.0 - sim.friction) as f32,
            normal_evap: (ev.normal_per_second * dt) as f32,
            shallow_evap: (ev.shallow_per_second * dt) as f32,
            shallow_depth: ev.shallow_below_depth.max(sim.shallow_depth) as f32,
            min_depth: sim.min_depth as f32,
        }
    }
}

/// The water of a map.
#[derive(Debug, Clone, PartialEq)]
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
    pub totals: WaterTotals,
    surface: Vec<f32>,
    out: Vec<f32>,
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
            totals: WaterTotals::default(),
            surface: vec![0.0; n],
            out: vec![0.0; n],
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

    /// Runs one water step over `terrain` (row by row, same size).
    pub(crate) fn step(&mut self, terrain: &[u8], mode: SourceMode, p: &WaterParams) {
        let w = self.width as usize;
        let h = self.height as usize;
        let n = w * h;
        debug_assert_eq!(terrain.len(), n);
        // 1. Surfaces.
        for i in 0..n {
            let floor = f32::from(terrain[i]).max(self.barrier[i]);
            self.surface[i] = floor + self.depth[i];
        }
        self.out.fill(0.0);
        let (keep, a) = (p.keep, p.accel_dt);
        let s = &self.surface;
        let depth = &self.depth;
        let out = &mut self.out;
        // Floors, recomputed where needed: surface - depth.
        let floor = |i: usize| s[i] - depth[i];
        // 2a. East-west pipes.
        for y in 0..h {
            let row = y * w;
            let frow = y * (w + 1);
            // West boundary (outflow only).
            {
                let i = row;
                let f = &mut self.fx[frow];
                *f = if self.closed[i] {
                    0.0
                } else {
                    (*f * keep - a * depth[i]).min(0.0)
                };
                out[i] -= *f;
            }
            for x in 1..w {
                let (l, r) = (row + x - 1, row + x);
                let f = &mut self.fx[frow + x];
                let mut v = *f * keep + a * (s[l] - s[r]);
                if (v > 0.0 && s[l] <= floor(r)) || (v < 0.0 && s[r] <= floor(l)) {
                    v = 0.0;
                }
                *f = v;
                if v > 0.0 {
                    out[l] += v;
                } else {
                    out[r] -= v;
                }
            }
            // East boundary.
            {
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
        // 2b. North-south pipes.
        for x in 0..w {
            let f = &mut self.fy[x];
            *f = if self.closed[x] {
                0.0
            } else {
                (*f * keep - a * depth[x]).min(0.0)
            };
            out[x] -= *f;
        }
        for y in 1..h {
            let (below, above) = ((y - 1) * w, y * w);
            for x in 0..w {
                let (b, t) = (below + x, above + x);
                let f = &mut self.fy[above + x];
                let mut v = *f * keep + a * (s[b] - s[t]);
                if (v > 0.0 && s[b] <= floor(t)) || (v < 0.0 && s[t] <= floor(b)) {
                    v = 0.0;
                }
                *f = v;
                if v > 0.0 {
                    out[b] += v;
                } else {
                    out[t] -= v;
                }
            }
        }
        {
            let top = (h - 1) * w;
            for x in 0..w {
                let i = top + x;
                let f = &mut self.fy[h * w + x];
                *f = if self.closed[i] {
                    0.0
                } else {
                    (*f * keep + a * depth[i]).max(0.0)
                };
                out[i] += *f;
            }
        }
        // 3. Scale factor per tile (reusing `out`): the share of its outflow a tile can supply.
        let dt = p.dt;
        for i in 0..n {
            let o = out[i] * dt;
            out[i] = if o > depth[i] && o > 0.0 {
                depth[i] / o
            } else {
                1.0
            };
        }
        let k = &self.out;
        for y in 0..h {
            let row = y * w;
            let frow = y * (w + 1);
            let f = &mut self.fx[frow];
            *f *= k[row];
            for x in 1..w {
                let f = &mut self.fx[frow + x];
                *f *= if *f > 0.0 { k[row + x - 1] } else { k[row + x] };
            }
            self.fx[frow + w] *= k[row + w - 1];
        }
        for x in 0..w {
            self.fy[x] *= k[x];
        }
        for y in 1..h {
            for x in 0..w {
                let f = &mut self.fy[y * w + x];
                *f *= if *f > 0.0 {
                    k[(y - 1) * w + x]
                } else {
                    k[y * w + x]
                };
            }
        }
        for x in 0..w {
            self.fy[h * w + x] *= k[(h - 1) * w + x];
        }
        // 4. Move water and badwater. `surface` becomes the badwater share before the move.
        for i in 0..n {
            let d = self.depth[i];
            self.surface[i] = if d > 0.0 {
                (self.bad[i] / d).clamp(0.0, 1.0)
            } else {
                0.0
            };
        }
        let share = &self.surface;
        let mut edge = 0.0f64;
        for y in 0..h {
            let row = y * w;
            let frow = y * (w + 1);
            for x in 0..w {
                let i = row + x;
                let fw = self.fx[frow + x] * dt;
                let fe = self.fx[frow + x + 1] * dt;
                let fs = self.fy[row + x] * dt;
                let fnn = self.fy[row + w + x] * dt;
                self.depth[i] += fw - fe + fs - fnn;
                // Badwater: inflows carry the giver's share, outflows this tile's.
                let carried = |v: f32, giver: Option<usize>| -> f32 {
                    match giver {
                        Some(g) => v * share[g],
                        None => 0.0,
                    }
                };
                let mut db = 0.0f32;
                // West edge: positive is inflow from x-1.
                if fw > 0.0 {
                    db += carried(fw, (x > 0).then(|| i - 1));
                } else {
                    db += fw * share[i];
                }
                if fe > 0.0 {
                    db -= fe * share[i];
                } else {
                    db -= carried(fe, (x + 1 < w).then_some(i + 1));
                }
                if fs > 0.0 {
                    db += carried(fs, (y > 0).then(|| i - w));
                } else {
                    db += fs * share[i];
                }
                if fnn > 0.0 {
                    db -= fnn * share[i];
                } else {
                    db -= carried(fnn, (y + 1 < h).then_some(i + w));
                }
                self.bad[i] += db;
                if x == 0 {
                    edge -= f64::from(fw);
                }
                if x + 1 == w {
                    edge += f64::from(fe);
                }
                if y == 0 {
                    edge -= f64::from(fs);
                }
                if y + 1 == h {
                    edge += f64::from(fnn);
                }
            }
        }
        self.totals.edge_lost += edge;
        // 5. Sources.
        for src in &self.sources {
            let i = src.y as usize * w + src.x as usize;
            let (amount, bad_share) = match (src.badwater, mode) {
                (false, SourceMode::Temperate) => (src.strength, 0.0),
                (false, SourceMode::Drought)
                | (true, SourceMode::Temperate | SourceMode::Drought) => (0.0, 0.0),
                (false, SourceMode::Badtide(share)) => (src.strength, share),
                (true, SourceMode::Badtide(_)) => (src.strength, 1.0),
            };
            let v = amount * dt;
            if v > 0.0 {
                self.depth[i] += v;
                self.bad[i] += v * bad_share;
                self.totals.added += f64::from(v);
            }
        }
        // 6. Evaporation and clean-up.
        let mut evaporated = 0.0f64;
        for i in 0..n {
            let d = self.depth[i];
            if d <= 0.0 {
                // Rounding can leave a hair below zero; it counts as evaporated (negative).
                if d < 0.0 {
                    evaporated += f64::from(d);
                }
                self.depth[i] = 0.0;
                self.bad[i] = 0.0;
                continue;
            }
            let rate = if d < p.shallow_depth {
                p.shallow_evap
            } else {
                p.normal_evap
            };
            let left = d - rate;
            if left < p.min_depth {
                evaporated += f64::from(d);
                self.depth[i] = 0.0;
                self.bad[i] = 0.0;
            } else {
                evaporated += f64::from(d) - f64::from(left);
                self.depth[i] = left;
                self.bad[i] = (self.bad[i] * (left / d)).clamp(0.0, left);
            }
        }
        self.totals.evaporated += evaporated;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> WaterParams {
        WaterParams::from_rules()
    }

    /// A closed basin of `w x h` flat tiles at height 2 with walls of height 9 around.
    fn basin(w: u32, h: u32) -> (Water, Vec<u8>) {
        let mut terrain = vec![9u8; (w * h) as usize];
        for y in 1..h - 1 {
            for x in 1..w - 1 {
                terrain[(y * w + x) as usize] = 2;
            }
        }
        (Water::new(w, h, &[]), terrain)
    }

    #[test]
    fn a_heap_of_water_spreads_level_and_keeps_its_volume() {
        let (mut water, terrain) = basin(12, 12);
        water.depth[5 * 12 + 5] = 100.0;
        water.totals.initial = water.stored();
        let p = params();
        for _ in 0..1500 {
            water.step(&terrain, SourceMode::Temperate, &p);
            assert!(water.depth.iter().all(|d| *d >= 0.0));
        }
        let t = water.totals;
        let expect = t.initial + t.added - t.evaporated - t.edge_lost;
        assert!(
            (water.stored() - expect).abs() < 1e-3,
            "{} vs {expect}",
            water.stored()
        );
        assert_eq!(t.edge_lost, 0.0);
        // Level: 100 m3 over 100 tiles, minus evaporation (0.0001 m/s for an hour).
        let inner: Vec<f32> = (1..11)
            .flat_map(|y| (1..11).map(move |x| (y, x)))
            .map(|(y, x)| water.depth[y * 12 + x])
            .collect();
        let (lo, hi) = inner
            .iter()
            .fold((f32::MAX, f32::MIN), |(a, b), d| (a.min(*d), b.max(*d)));
        assert!(hi - lo < 0.01, "not level: {lo}..{hi}");
        assert!(lo > 0.6 && hi < 1.0, "{lo}..{hi}");
    }

    #[test]
    fn a_barrier_holds_water_below_its_height_and_spills_above() {
        // A 1-wide channel: source at the west end, barrier in the middle.
        let (w, h) = (20u32, 3u32);
        let mut terrain = vec![9u8; (w * h) as usize];
        for x in 1..w - 1 {
            terrain[(w + x) as usize] = 2;
        }
        let mut water = Water::new(w, h, &[]);
        water.set_barrier(10, 1, Some(3.0));
        water.sources.push(WaterSource {
            x: 2,
            y: 1,
            strength: 0.05,
            badwater: false,
        });
        let p = params();
        let mut spilled = false;
        for _ in 0..4000 {
            water.step(&terrain, SourceMode::Temperate, &p);
            let upstream = water.depth[(w + 9) as usize] + 2.0;
            let downstream: f32 = (11..w - 1).map(|x| water.depth[(w + x) as usize]).sum();
            if upstream < 3.0 && !spilled {
                assert_eq!(downstream, 0.0, "water passed below the barrier");
            } else if downstream > 0.0 {
                spilled = true;
            }
        }
        assert!(spilled, "water never spilled over the barrier");
        water.set_barrier(10, 1, None);
        assert_eq!(water.barrier[(w + 10) as usize], f32::NEG_INFINITY);
    }

    #[test]
    fn droughts_stop_clean_sources_and_badtides_foul_them() {
        let (mut water, terrain) = basin(8, 8);
        water.sources.push(WaterSource {
            x: 3,
            y: 3,
            strength: 1.0,
            badwater: false,
        });
        water.sources.push(WaterSource {
            x: 5,
            y: 5,
            strength: 1.0,
            badwater: true,
        });
        let p = params();
        water.step(&terrain, SourceMode::Drought, &p);
        assert_eq!(water.totals.added, 0.0);
        water.step(&terrain, SourceMode::Temperate, &p);
        assert!((water.totals.added - f64::from(p.dt)).abs() < 1e-6);
        assert_eq!(water.stored_bad(), 0.0);
        water.step(&terrain, SourceMode::Badtide(0.5), &p);
        assert!((water.stored_bad() - 1.5 * f64::from(p.dt)).abs() < 1e-3);
    }

    #[test]
    fn water_runs_off_open_edges_only() {
        let (w, h) = (6u32, 6u32);
        let terrain = vec![2u8; (w * h) as usize];
        let closed: Vec<usize> = (0..w as usize).collect();
        let mut water = Water::new(w, h, &closed);
        water.depth.fill(1.0);
        water.totals.initial = water.stored();
        let p = params();
        for _ in 0..200 {
            water.step(&terrain, SourceMode::Temperate, &p);
        }
        let t = water.totals;
        assert!(t.edge_lost > 1.0);
        let expect = t.initial + t.added - t.evaporated - t.edge_lost;
        assert!((water.stored() - expect).abs() < 1e-3);
        // The closed south row drains only sideways and north, so it is not drier than the north row.
        assert!(water.depth[2] >= water.depth[(5 * w + 2) as usize]);
    }
}
