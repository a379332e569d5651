//! The game in-process for learning: `Colony-v0` (the Gymnasium environment of the Python
//! package) on a `sim::World` directly, with no service, HTTP or JSON between the agent and the
//! game. `layout` is the action space, `observe` the observation, `env` one environment (`fresh` its new games, the last few kept),
//! `vector` many stepped on a thread pool at once, and `scoring` the bridge from a world to the
//! harness's scores (which colonyd's `POST /api/score` uses too). The Python extension module
//! (`crates/py`, `colony.engine`) wraps this crate.

pub mod env;
pub mod fresh;
pub mod layout;
pub mod observe;
pub mod scoring;
pub mod vector;

pub use env::{Env, EnvConfig, EnvError, StepOutcome};
pub use layout::{Action, Layout};
pub use observe::{CODE_LAYERS, COLONY_FIELDS, Observation, ROLES};
pub use vector::VecEnv;
