//! `Colony-v0` in-process: one game, its actions ([`crate::layout`]), observations
//! ([`crate::observe`]), mask and reward, stepped without a service. The rules of a step are the
//! HTTP environment's (`python/colony/gym/http_game.py`): the action; then `turn_hours` of game
//! time (cut at the horizon) when the action was the wait (action 0) or the turn's
//! `actions_per_turn`-th action; the observation, the mask, and the reward as the change of the
//! scenario score `colony eval` gives the game (`crate::scoring`, the code colonyd's
//! `POST /api/score` runs). With `join_paths`, a placed building's doorstep is joined to the
//! district center's by a path when one can be laid. The same seed and actions give the same
//! observations, rewards and state hashes on both (python/tests/test_engine.py).
//!
//! The mask allows only actions that do something: the wait; every placement `place` accepts
//! (`sim::colony::PlacementMasks`, kept up to date from step to step); a path to a dry tile that
//! nothing stands on and no path covers; cutting a square with a grown tree in it; planting a
//! square with a tile crops can take (moist, dry, nothing on it). Squares are clipped to the
//! map.

use crate::layout::{Action, Layout, ORIENTATIONS};
use crate::observe::{Observation, Observer};
use crate::scoring::{ScoreRows, needs_built};
use score::terms::ScoreTerm;
use serde_json::{Map, Value};
use sim::colony::PlacementMasks;
use sim::{CommandError, Faction, GameMode, MAX_ADVANCE_DAYS, World};

/// An environment's settings (see docs/python.md, "The Gymnasium environment").
#[derive(Debug, Clone)]
pub struct EnvConfig {
    pub width: u32,
    pub height: u32,
    pub faction: Faction,
    pub mode: GameMode,
    pub turn_hours: f64,
    pub horizon_days: f64,
    /// Full prefab names (`Lodge.Folktails`, `Path`).
    pub prefabs: Vec<String>,
    pub crops: Vec<String>,
    /// Side of the cutting and planting squares.
    pub area: u32,
    pub terms: Vec<ScoreTerm>,
    /// Actions before the game advances by itself (the wait advances at once); 1: every
    /// action advances.
    pub actions_per_turn: u32,
    /// Join each placed building's doorstep to the district center's by a path.
    pub join_paths: bool,
}

impl EnvConfig {
    /// The throughput benchmark's game (`examples/env_steps.rs`, `examples/vec_steps.rs`, as
    /// `python/examples/throughput.py` plays it): Folktails, Normal, a `side` map, the
    /// faction's starting set of buildings, carrots and potatoes, survive-60's terms, one action
    /// a turn and no paths joined.
    pub fn benchmark(side: u32, turn_hours: f64) -> EnvConfig {
        let term = |metric: &str, weight: f64, target: f64, lower: bool, scaled: bool| ScoreTerm {
            metric: metric.into(),
            weight,
            target,
            lower_is_better: lower,
            survival_scaled: scaled,
        };
        EnvConfig {
            width: side,
            height: side,
            faction: Faction::Folktails,
            mode: GameMode::Normal,
            turn_hours,
            horizon_days: 60.0,
            prefabs: [
                "WaterPump",
                "SmallTank",
                "Lodge",
                "GathererFlag",
                "LumberjackFlag",
                "EfficientFarmHouse",
                "SmallWarehouse",
            ]
            .map(|p| format!("{p}.Folktails"))
            .into(),
            crops: vec!["Carrot".into(), "Potato".into()],
            area: 6,
            terms: vec![
                term("days_survived", 4.0, 60.0, false, false),
                term("beavers", 2.0, 30.0, false, false),
                term("wellbeing", 1.0, 8.0, false, true),
                term("deaths_premature", 0.5, 12.0, true, true),
                term("buildings_built", 0.5, 20.0, false, false),
            ],
            actions_per_turn: 1,
            join_paths: false,
        }
    }
}

/// A refused action or a bad setting: the contract's code, its text, and the extra members.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvError {
    pub code: &'static str,
    pub detail: String,
    pub extras: Map<String, Value>,
}

impl EnvError {
    fn new(code: &'static str, detail: impl Into<String>) -> EnvError {
        EnvError {
            code,
            detail: detail.into(),
            extras: Map::new(),
        }
    }
}

impl From<CommandError> for EnvError {
    fn from(e: CommandError) -> EnvError {
        EnvError {
            code: e.code.as_str(),
            detail: e.detail,
            extras: e.extras,
        }
    }
}

impl std::fmt::Display for EnvError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.detail)
    }
}

/// What one step gave.
#[derive(Debug, Clone, PartialEq)]
pub struct StepOutcome {
    pub reward: f64,
    pub terminated: bool,
    pub truncated: bool,
    /// The action's kind (`noop`, `place`, `path`, `cut`, `plant`; `invalid` when it did not
    /// decode).
    pub action: &'static str,
    /// Why the action was refused (the game moved on all the same).
    pub error: Option<EnvError>,
}

/// One game as a Gymnasium environment.
pub struct Env {
    cfg: EnvConfig,
    layout: Layout,
    with_built: bool,
    world: Option<World>,
    masks: Option<PlacementMasks>,
    observer: Observer,
    obs: Observation,
    mask: Vec<i8>,
    rows: ScoreRows,
    hours: f64,
    score: f64,
    /// Actions since the game last advanced.
    acted: u32,
}

impl Env {
    /// An environment with these settings (checked: map size, turn, horizon and score terms);
    /// [`Env::reset`] starts its first game.
    pub fn new(cfg: EnvConfig) -> Result<Env, EnvError> {
        let bad = |detail: String, got: Value| {
            let mut e = EnvError::new("invalid_param", detail);
            e.extras.insert("got".into(), got);
            e
        };
        if !(32..=256).contains(&cfg.width) || !(32..=256).contains(&cfg.height) {
            return Err(bad(
                format!("map sides must be 32-256; got {}x{}", cfg.width, cfg.height),
                format!("{}x{}", cfg.width, cfg.height).into(),
            ));
        }
        if !(cfg.turn_hours > 0.0 && cfg.turn_hours <= MAX_ADVANCE_DAYS * 24.0) {
            return Err(bad(
                format!(
                    "turn_hours must be more than 0 and at most {}; got {}",
                    MAX_ADVANCE_DAYS * 24.0,
                    cfg.turn_hours
                ),
                cfg.turn_hours.into(),
            ));
        }
        score::terms::check_horizon(cfg.horizon_days)
            .map_err(|e| bad(format!("horizon_days {e}"), cfg.horizon_days.into()))?;
        if cfg.actions_per_turn == 0 {
            return Err(bad(
                "actions_per_turn must be at least 1".into(),
                cfg.actions_per_turn.into(),
            ));
        }
        if cfg.terms.is_empty() {
            return Err(bad(
                "score_terms must list at least one term".into(),
                Value::Null,
            ));
        }
        for (i, t) in cfg.terms.iter().enumerate() {
            t.check()
                .map_err(|e| bad(format!("terms[{i}]: {e}"), t.metric.clone().into()))?;
        }
        let layout = Layout::new(
            cfg.width,
            cfg.height,
            cfg.prefabs.len() as u32,
            cfg.crops.len() as u32,
        );
        Ok(Env {
            with_built: needs_built(cfg.terms.iter().map(|t| &t.metric)),
            layout,
            cfg,
            world: None,
            masks: None,
            observer: Observer::default(),
            obs: Observation::default(),
            mask: Vec::new(),
            rows: ScoreRows::default(),
            hours: 0.0,
            score: 0.0,
            acted: 0,
        })
    }

    /// Has the new game of `seed` made ahead on the background thread ([`crate::fresh::prefetch`]),
    /// for a [`Env::reset`] to that seed to come: the single environment's reset without a seed
    /// knows the seed it will draw next.
    pub fn prefetch(&self, seed: u64) {
        crate::fresh::prefetch(&self.cfg, seed);
    }

    /// Starts a new game with this seed (as `POST /api/game/new` with the environment's faction,
    /// mode and map size, then paused; nothing has run yet) and reads its first observation.
    pub fn reset(&mut self, seed: u64) -> Result<(), EnvError> {
        let (world, masks) = crate::fresh::fresh(&self.cfg, seed)?;
        self.masks = Some(masks);
        self.world = Some(world);
        self.rows.clear();
        self.hours = 0.0;
        self.acted = 0;
        self.read();
        self.score = self.scored();
        Ok(())
    }

    /// Carries out `action` and advances `turn_hours` (cut at the horizon).
    ///
    /// # Panics
    /// Before the first [`Env::reset`].
    pub fn step(&mut self, action: i64) -> StepOutcome {
        let (kind, error) = match self.layout.decode(action) {
            Ok(a) => (a.kind(), self.act(a).err()),
            Err(detail) => ("invalid", Some(EnvError::new("invalid_action", detail))),
        };
        self.acted += 1;
        let advance = action == 0 || self.acted >= self.cfg.actions_per_turn;
        let hours = self
            .cfg
            .turn_hours
            .min(self.cfg.horizon_days * 24.0 - self.hours);
        if advance && hours > 0.0 {
            self.acted = 0;
            // As `POST /api/game/advance {"hours": h}` turns hours into ticks.
            self.world_mut()
                .advance_ticks(sim::ticks_for_days(hours / 24.0));
            self.hours += hours;
        }
        self.read();
        let now = self.scored();
        let reward = now - self.score;
        self.score = now;
        let terminated = self.obs.over();
        let truncated = !terminated && self.hours >= self.cfg.horizon_days * 24.0 - 1e-9;
        StepOutcome {
            reward,
            terminated,
            truncated,
            action: kind,
            error,
        }
    }

    fn world_mut(&mut self) -> &mut World {
        self.world.as_mut().expect("reset() before step()")
    }

    /// The game (after the first reset).
    pub fn world(&self) -> Option<&World> {
        self.world.as_ref()
    }

    pub fn config(&self) -> &EnvConfig {
        &self.cfg
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn observation(&self) -> &Observation {
        &self.obs
    }

    /// The mask of the actions this step allows (1 allowed).
    pub fn mask(&self) -> &[i8] {
        &self.mask
    }

    /// The score so far, 0-1.
    pub fn score(&self) -> f64 {
        self.score
    }

    /// Game hours advanced since the reset.
    pub fn hours(&self) -> f64 {
        self.hours
    }

    fn act(&mut self, a: Action) -> Result<(), EnvError> {
        let (w, h, area) = (self.cfg.width, self.cfg.height, self.cfg.area);
        let terrain =
            |obs: &Observation, x: u32, y: u32| i64::from(obs.layer(0)[(y * w + x) as usize]);
        match a {
            Action::Noop => Ok(()),
            Action::Place { prefab, x, y, o } => {
                let masks = self.masks.as_ref().expect("reset");
                let spot =
                    masks.masks()[prefab as usize].spots[((y * w + x) * 4 + u32::from(o)) as usize];
                let z = if spot > 0 {
                    i64::from(spot) - 1
                } else {
                    terrain(&self.obs, x, y)
                };
                let name = self.cfg.prefabs[prefab as usize].clone();
                let id = self.world_mut().place_building(
                    &name,
                    x.into(),
                    y.into(),
                    z,
                    ORIENTATIONS[usize::from(o)],
                )?;
                if self.cfg.join_paths {
                    self.join(id);
                }
                Ok(())
            }
            Action::Path { x, y } => {
                let Some((ex, ey)) = self.obs.entrance else {
                    return Err(EnvError::new(
                        "no_district",
                        "no district center to lay a path from",
                    ));
                };
                self.world_mut().place_path(
                    ex.into(),
                    ey.into(),
                    x.into(),
                    y.into(),
                    "direct",
                    0,
                )?;
                Ok(())
            }
            Action::Cut { x, y } | Action::Plant { x, y, .. } => {
                let z = terrain(&self.obs, x, y);
                let (x2, y2) = ((x + area - 1).min(w - 1), (y + area - 1).min(h - 1));
                let (x, y) = (i64::from(x), i64::from(y));
                if let Action::Plant { crop, .. } = a {
                    let crop = self.cfg.crops[crop as usize].clone();
                    self.world_mut()
                        .mark_planting(x, y, x2.into(), y2.into(), z, &crop)?;
                } else {
                    self.world_mut()
                        .set_cutting_area(x, y, x2.into(), y2.into(), z, true)?;
                }
                Ok(())
            }
        }
    }

    /// Lays a path from the district center's doorstep to a placed building's, when both have
    /// one (the path is what a building needs to be built and worked; a path that cannot be laid
    /// leaves the building as it is).
    fn join(&mut self, id: i32) {
        let Some((ex, ey)) = self.obs.entrance else {
            return;
        };
        let world = self.world_mut();
        let door = world
            .building_view(id)
            .and_then(|v| Some((v.entrance_x?, v.entrance_y?)));
        if let Some((x, y)) = door {
            let _ = world.place_path(ex.into(), ey.into(), x.into(), y.into(), "direct", 0);
        }
    }

    /// Reads the observation and the mask of the game now.
    fn read(&mut self) {
        let world = self.world.as_ref().expect("reset");
        self.observer.observe(world, &mut self.obs);
        let masks = self.masks.as_mut().expect("reset");
        masks.update(world);
        let l = &self.layout;
        self.mask.clear();
        self.mask.resize(l.n as usize, 0);
        self.mask[0] = 1;
        for (p, m) in masks.masks().iter().enumerate() {
            let start = l.place(p as u32, 0, 0, 0) as usize;
            for (dst, z) in self.mask[start..start + m.spots.len()]
                .iter_mut()
                .zip(&m.spots)
            {
                *dst = i8::from(*z > 0);
            }
        }
        let (w, h) = (self.cfg.width as usize, self.cfg.height as usize);
        let o = &self.obs;
        let [moist, trees, crops, bushes, buildings, paths, sites] =
            [1, 3, 4, 5, 6, 7, 9].map(|k| o.layer(k));
        let empty = |i: usize| {
            o.water[i] <= 0.0
                && buildings[i] == 0
                && trees[i] == 0
                && bushes[i] == 0
                && crops[i] == 0
                && sites[i] == 0
        };
        let grown: Vec<bool> = trees.iter().map(|t| *t == 2).collect();
        let plantable: Vec<bool> = (0..w * h)
            .map(|i| moist[i] == 1 && paths[i] == 0 && empty(i))
            .collect();
        let (cut, plant) = (
            square_any(&grown, w, h, self.cfg.area as usize),
            square_any(&plantable, w, h, self.cfg.area as usize),
        );
        for i in 0..w * h {
            self.mask[l.path0 as usize + i] = i8::from(paths[i] == 0 && empty(i));
            self.mask[l.cut0 as usize + i] = i8::from(cut[i]);
            for c in 0..self.cfg.crops.len() {
                self.mask[l.plant0 as usize + c * w * h + i] = i8::from(plant[i]);
            }
        }
    }

    /// The game's score so far in 0-1.
    fn scored(&mut self) -> f64 {
        let world = self.world.as_ref().expect("reset");
        let o = self.rows.outcome(world, self.with_built);
        score::episode_score(&self.cfg.terms, self.cfg.horizon_days, o) / 100.0
    }
}

/// For each tile, whether the `k x k` square from it (clipped to the map) holds a set tile:
/// summed-area counts, so a map's squares cost a pass each.
fn square_any(set: &[bool], w: usize, h: usize, k: usize) -> Vec<bool> {
    let mut sum = vec![0u32; (w + 1) * (h + 1)];
    for y in 0..h {
        for x in 0..w {
            sum[(y + 1) * (w + 1) + x + 1] =
                u32::from(set[y * w + x]) + sum[y * (w + 1) + x + 1] + sum[(y + 1) * (w + 1) + x]
                    - sum[y * (w + 1) + x];
        }
    }
    let mut out = vec![false; w * h];
    for y in 0..h {
        for x in 0..w {
            let (x2, y2) = ((x + k).min(w), (y + k).min(h));
            let n = sum[y2 * (w + 1) + x2] + sum[y * (w + 1) + x]
                - sum[y * (w + 1) + x2]
                - sum[y2 * (w + 1) + x];
            out[y * w + x] = n > 0;
        }
    }
    out
}
