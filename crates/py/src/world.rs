//! `colony_engine.World`: one game without colonyd. Its commands are the HTTP routes' (the same
//! sim calls behind `POST /api/building/place`, `/api/path/place`, `/api/cutting/area`...), with
//! the same validation and error codes; `advance` turns hours into ticks as
//! `POST /api/game/advance` does; `save`/`load` use colonyd's save format; `state_hash` is
//! `GET /api/game/hash`'s.

use crate::arrays;
use crate::errors::{env_refused, refused};
use engine::observe::{Observation, Observer};
use engine::scoring::ScoreRows;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use score::terms::ScoreTerm;
use sim::{Faction, GameMode, NewGame};

/// A faction by name (`Folktails`, `IronTeeth`).
pub fn faction(name: &str) -> Result<Faction, engine::EnvError> {
    name.parse().map_err(|_| {
        invalid(format!(
            "faction must be Folktails or IronTeeth; got {name:?}"
        ))
    })
}

/// A game mode by name, any case.
pub fn mode(name: &str) -> Result<GameMode, engine::EnvError> {
    match name.to_ascii_lowercase().as_str() {
        "easy" => Ok(GameMode::Easy),
        "normal" => Ok(GameMode::Normal),
        "hard" => Ok(GameMode::Hard),
        _ => Err(invalid(format!(
            "mode must be Easy, Normal or Hard; got {name:?}"
        ))),
    }
}

fn invalid(detail: String) -> engine::EnvError {
    engine::EnvError {
        code: "invalid_param",
        detail,
        extras: Default::default(),
    }
}

/// One game.
#[pyclass(module = "colony_engine")]
pub struct World {
    world: sim::World,
    observer: Observer,
    obs: Observation,
    rows: ScoreRows,
}

impl World {
    fn of(world: sim::World) -> World {
        World {
            world,
            observer: Observer::default(),
            obs: Observation::default(),
            rows: ScoreRows::default(),
        }
    }
}

#[pymethods]
impl World {
    /// A new game (as `POST /api/game/new`): `map` is a side (`64`) or `"WxH"`.
    #[new]
    #[pyo3(signature = (seed, faction="Folktails", mode="Normal", width=64, height=64))]
    fn new(seed: u64, faction: &str, mode: &str, width: u32, height: u32) -> PyResult<World> {
        let cfg = NewGame {
            seed,
            faction: env_refused(self::faction(faction))?,
            mode: env_refused(self::mode(mode))?,
            map_width: width,
            map_height: height,
            ..Default::default()
        };
        Ok(World::of(refused(sim::World::try_new(&cfg))?))
    }

    /// A game from a colonyd save's bytes.
    #[staticmethod]
    fn load(bytes: &[u8]) -> PyResult<World> {
        sim::World::load_from_bytes(bytes)
            .map(World::of)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("not a save: {e}")))
    }

    /// The game as colonyd saves it.
    fn save(&self) -> Vec<u8> {
        self.world.save_to_bytes()
    }

    /// `GET /api/game/hash`'s `stateHash` (16 hex digits).
    fn state_hash(&self) -> String {
        format!("{:016x}", self.world.state_hash())
    }

    #[getter]
    fn ticks(&self) -> u64 {
        self.world.ticks()
    }

    #[getter]
    fn day(&self) -> u32 {
        self.world.time().day_number
    }

    #[getter]
    fn hour(&self) -> f64 {
        self.world.time().hour
    }

    /// Runs `hours` of game time (the GIL released); returns the ticks run.
    fn advance(&mut self, py: Python<'_>, hours: f64) -> PyResult<u64> {
        let max = sim::MAX_ADVANCE_DAYS * 24.0;
        if !(hours > 0.0 && hours <= max) {
            return env_refused(Err(invalid(format!(
                "advance must be more than 0 and at most {max} hours; got {hours}"
            ))));
        }
        let ticks = sim::ticks_for_days(hours / 24.0);
        let w = &mut self.world;
        py.detach(|| w.advance_ticks(ticks));
        Ok(ticks)
    }

    /// `POST /api/speed` (0 paused, 1-3; the speed is part of the game's state, and `advance`
    /// runs whatever it is).
    fn set_speed(&mut self, speed: u8) -> PyResult<()> {
        refused(self.world.set_speed(speed))
    }

    /// `POST /api/building/place`: the new building's id.
    fn place(&mut self, prefab: &str, x: i64, y: i64, z: i64, orientation: &str) -> PyResult<i32> {
        refused(self.world.place_building(prefab, x, y, z, orientation))
    }

    /// `POST /api/path/place`: `{paths, stairs, platforms, skipped}`.
    #[pyo3(signature = (x1, y1, x2, y2, style="direct"))]
    fn path<'py>(
        &mut self,
        py: Python<'py>,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
        style: &str,
    ) -> PyResult<Bound<'py, PyDict>> {
        let r = refused(self.world.place_path(x1, y1, x2, y2, style, 0))?;
        let d = PyDict::new(py);
        d.set_item("paths", r.paths)?;
        d.set_item("stairs", r.stairs)?;
        d.set_item("platforms", r.platforms)?;
        d.set_item("skipped", r.skipped)?;
        Ok(d)
    }

    /// `POST /api/building/demolish`: the demolished building's name.
    fn demolish(&mut self, id: i32) -> PyResult<String> {
        refused(self.world.demolish_building(id))
    }

    /// `POST /api/cutting/area`: the tiles marked (or unmarked).
    #[pyo3(signature = (x1, y1, x2, y2, z, marked=true))]
    fn cutting_area(
        &mut self,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
        z: i64,
        marked: bool,
    ) -> PyResult<u32> {
        refused(self.world.set_cutting_area(x1, y1, x2, y2, z, marked))
    }

    /// `POST /api/planting/mark`: `(marked, skipped)` tiles.
    #[allow(clippy::too_many_arguments)]
    fn planting_mark(
        &mut self,
        x1: i64,
        y1: i64,
        x2: i64,
        y2: i64,
        z: i64,
        crop: &str,
    ) -> PyResult<(u32, u32)> {
        refused(self.world.mark_planting(x1, y1, x2, y2, z, crop))
    }

    /// `POST /api/building/pause`.
    fn pause(&mut self, id: i32, paused: bool) -> PyResult<()> {
        refused(self.world.set_paused(id, paused)).map(|_| ())
    }

    /// `POST /api/building/workers`: the workers now wanted.
    fn workers(&mut self, id: i32, count: i64) -> PyResult<u32> {
        refused(self.world.set_workers(id, count)).map(|(_, n, _, _)| n)
    }

    /// `POST /api/building/priority` (`kind`: `workplace`, `construction` or `hauling`... as the
    /// route takes it).
    #[pyo3(signature = (id, priority, kind="workplace"))]
    fn priority(&mut self, id: i32, priority: &str, kind: &str) -> PyResult<()> {
        refused(self.world.set_priority(id, priority, kind)).map(|_| ())
    }

    /// `POST /api/science/unlock`.
    fn unlock(&mut self, building: &str) -> PyResult<()> {
        refused(self.world.unlock(building)).map(|_| ())
    }

    /// Every spot `place` accepts for a prefab: a `(height, width, 4)` uint8 array of z + 1 per
    /// tile and orientation (0 refused); `POST /api/placement/mask`'s answer.
    fn placement_mask<'py>(&self, py: Python<'py>, prefab: &str) -> PyResult<Bound<'py, PyAny>> {
        let m = refused(self.world.placement_mask(prefab))?;
        arrays::placement(py, &m)
    }

    /// The observation `Colony-v0` gives of this game (a dict of arrays).
    fn observe<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.observer.observe(&self.world, &mut self.obs);
        arrays::observations(py, &[], &[&self.obs])
    }

    /// The scenario score so far (0-100) for these terms (`colony.gym.ScoreTerm`s) and horizon,
    /// as `POST /api/score`.
    fn score(&mut self, terms: Vec<crate::gym::Term>, horizon_days: f64) -> PyResult<f64> {
        let terms: Vec<ScoreTerm> = terms
            .into_iter()
            .map(crate::gym::Term::score_term)
            .collect();
        env_refused(
            score::terms::check_horizon(horizon_days)
                .map_err(|e| invalid(format!("horizon_days {e}"))),
        )?;
        for t in &terms {
            env_refused(t.check().map_err(invalid))?;
        }
        let with_built = engine::scoring::needs_built(terms.iter().map(|t| &t.metric));
        let o = self.rows.outcome(&self.world, with_built);
        Ok(score::episode_score(&terms, horizon_days, o))
    }
}
