//! `colony_engine.Env` and `colony_engine.VecEnv`: `Colony-v0` stepped in Rust (crates/engine).
//! `colony.gym`'s environment with `backend="engine"` wraps `Env`; `colony.gym.make_vector(n,
//! backend="engine")` wraps `VecEnv`. Settings are checked as the HTTP environment checks them
//! (errors raised as `ColonyError`); a step's refusal comes back as a dict, never raised.

use crate::arrays;
use crate::errors::{env_refused, error_dict};
use crate::world::{faction, mode};
use engine::{EnvConfig, StepOutcome};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// A game's settings as Python gives them: any object with these attributes
/// (`colony.gym.settings.GameSettings`).
#[derive(FromPyObject)]
pub struct Settings {
    width: u32,
    height: u32,
    faction: String,
    mode: String,
    turn_hours: f64,
    horizon_days: f64,
    prefabs: Vec<String>,
    crops: Vec<String>,
    area: u32,
    terms: Vec<Term>,
    actions_per_turn: u32,
    join_paths: bool,
}

/// A score term as Python gives it (`colony.gym.reward.ScoreTerm`).
#[derive(FromPyObject)]
pub struct Term {
    metric: String,
    weight: f64,
    target: f64,
    lower_is_better: bool,
    survival_scaled: bool,
}

impl Term {
    pub fn score_term(self) -> score::terms::ScoreTerm {
        score::terms::ScoreTerm {
            metric: self.metric,
            weight: self.weight,
            target: self.target,
            lower_is_better: self.lower_is_better,
            survival_scaled: self.survival_scaled,
        }
    }
}

impl Settings {
    /// The engine's settings (faction and mode checked).
    fn config(self) -> PyResult<EnvConfig> {
        Ok(EnvConfig {
            width: self.width,
            height: self.height,
            faction: env_refused(faction(&self.faction))?,
            mode: env_refused(mode(&self.mode))?,
            turn_hours: self.turn_hours,
            horizon_days: self.horizon_days,
            prefabs: self.prefabs,
            crops: self.crops,
            area: self.area,
            terms: self.terms.into_iter().map(Term::score_term).collect(),
            actions_per_turn: self.actions_per_turn,
            join_paths: self.join_paths,
        })
    }
}

/// `(reward, terminated, truncated, action kind, error dict or None)`.
type StepTuple<'py> = (f64, bool, bool, &'static str, Option<Bound<'py, PyDict>>);

fn step_tuple<'py>(py: Python<'py>, out: StepOutcome) -> PyResult<StepTuple<'py>> {
    let error = out.error.as_ref().map(|e| error_dict(py, e)).transpose()?;
    Ok((out.reward, out.terminated, out.truncated, out.action, error))
}

/// One environment.
#[pyclass(module = "colony_engine")]
pub struct Env {
    env: engine::Env,
}

#[pymethods]
impl Env {
    /// An environment of these settings (`colony.gym.settings.GameSettings`).
    #[new]
    fn new(settings: Settings) -> PyResult<Env> {
        Ok(Env {
            env: env_refused(engine::Env::new(settings.config()?))?,
        })
    }

    /// Starts the game of this seed.
    fn reset(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        let env = &mut self.env;
        env_refused(py.detach(|| env.reset(seed)))
    }

    /// Has the game of this seed made ahead on a background thread, for a reset to it to come.
    fn prefetch(&self, seed: u64) {
        self.env.prefetch(seed);
    }

    /// One step: `(reward, terminated, truncated, action kind, error or None)`.
    fn step<'py>(&mut self, py: Python<'py>, action: i64) -> PyResult<StepTuple<'py>> {
        if self.env.world().is_none() {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "call reset() before step()",
            ));
        }
        let env = &mut self.env;
        let out = py.detach(|| env.step(action));
        step_tuple(py, out)
    }

    /// The observation now (a dict of arrays).
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        arrays::observations(py, &[], &[self.env.observation()])
    }

    /// The action mask now (int8).
    fn mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        arrays::masks(py, &[], &[self.env.mask()])
    }

    /// The score so far, 0-1.
    #[getter]
    fn score(&self) -> f64 {
        self.env.score()
    }

    /// Game hours advanced since the reset.
    #[getter]
    fn hours(&self) -> f64 {
        self.env.hours()
    }

    /// Actions in the flat space.
    #[getter]
    fn n_actions(&self) -> u64 {
        self.env.layout().n
    }

    /// The game's state hash (16 hex digits), as `GET /api/game/hash`.
    fn state_hash(&self) -> Option<String> {
        self.env.world().map(|w| format!("{:016x}", w.state_hash()))
    }

    /// The game as colonyd saves it.
    fn save(&self) -> Option<Vec<u8>> {
        self.env.world().map(sim::World::save_to_bytes)
    }
}

/// `(rewards, terminated, truncated, kinds, errors)` of a vector step.
type VecStep<'py> = (
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Bound<'py, PyList>,
    Bound<'py, PyList>,
);

/// Many environments of one configuration, stepped together on a thread pool.
#[pyclass(module = "colony_engine")]
pub struct VecEnv {
    vec: engine::VecEnv,
}

#[pymethods]
impl VecEnv {
    /// `num_envs` environments of these settings stepped on `threads` threads (0: one per
    /// core).
    #[new]
    #[pyo3(signature = (num_envs, settings, threads=0))]
    fn new(num_envs: usize, settings: Settings, threads: usize) -> PyResult<VecEnv> {
        if num_envs == 0 {
            return env_refused(Err(engine::EnvError {
                code: "invalid_param",
                detail: "num_envs must be at least 1".into(),
                extras: Default::default(),
            }));
        }
        Ok(VecEnv {
            vec: env_refused(engine::VecEnv::new(&settings.config()?, num_envs, threads))?,
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.vec.len()
    }

    /// Resets every environment: environment `i` plays `seed + i`.
    fn reset(&mut self, py: Python<'_>, seed: u64) -> PyResult<()> {
        let vec = &mut self.vec;
        env_refused(py.detach(|| vec.reset(seed)))
    }

    /// Steps every environment: `(rewards, terminated, truncated, kinds, errors)`, the first
    /// three arrays, the last two lists (an error dict or None per environment).
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<VecStep<'py>> {
        let actions = actions.as_slice()?.to_vec();
        let vec = &mut self.vec;
        let outs = env_refused(py.detach(|| vec.step(&actions)))?;
        let rewards: Vec<f64> = outs.iter().map(|o| o.reward).collect();
        let terminated: Vec<bool> = outs.iter().map(|o| o.terminated).collect();
        let truncated: Vec<bool> = outs.iter().map(|o| o.truncated).collect();
        let kinds = PyList::new(py, outs.iter().map(|o| o.action))?;
        let errors = PyList::empty(py);
        for o in &outs {
            match &o.error {
                Some(e) => errors.append(error_dict(py, e)?)?,
                None => errors.append(py.None())?,
            }
        }
        Ok((
            PyArray1::from_vec(py, rewards).into_any(),
            PyArray1::from_vec(py, terminated).into_any(),
            PyArray1::from_vec(py, truncated).into_any(),
            kinds,
            errors,
        ))
    }

    /// The observations now, stacked (each array's first axis the environments).
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let obs: Vec<_> = self.vec.envs().map(engine::Env::observation).collect();
        arrays::observations(py, &[obs.len()], &obs)
    }

    /// The masks now, stacked (`(num_envs, n_actions)` int8).
    fn masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let masks: Vec<&[i8]> = self.vec.envs().map(engine::Env::mask).collect();
        arrays::masks(py, &[masks.len()], &masks)
    }

    /// Each environment's score so far, 0-1.
    fn scores<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        PyArray1::from_vec(py, self.vec.envs().map(engine::Env::score).collect())
    }

    /// Each environment's game day.
    fn days(&self) -> Vec<u32> {
        self.vec.envs().map(|e| e.observation().day()).collect()
    }

    /// Each environment's state hash.
    fn state_hashes(&self) -> Vec<Option<String>> {
        self.vec
            .envs()
            .map(|e| e.world().map(|w| format!("{:016x}", w.state_hash())))
            .collect()
    }
}
