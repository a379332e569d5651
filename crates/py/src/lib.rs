//! `colony_engine`, the Python extension module behind `colony.engine`: the game in-process,
//! without colonyd. `World` is one game with the commands the HTTP routes carry (same
//! validation, same error codes, raised as `colony.errors.ColonyError`), advancing by hours,
//! saves in colonyd's save format and the state hash; `Env` is `Colony-v0` stepped in Rust
//! (crates/engine) and `VecEnv` many of them on a thread pool, their observations and masks
//! written into NumPy arrays. The GIL is released while worlds step.

mod arrays;
mod errors;
mod gym;
mod world;

use pyo3::prelude::*;

#[pymodule]
fn colony_engine(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<world::World>()?;
    m.add_class::<gym::Env>()?;
    m.add_class::<gym::VecEnv>()?;
    m.add("CODE_LAYERS", engine::CODE_LAYERS.to_vec())?;
    m.add("COLONY_FIELDS", engine::COLONY_FIELDS.to_vec())?;
    m.add("ROLES", engine::ROLES.to_vec())?;
    m.add("FOODS", engine::observe::foods())?;
    m.add("RULES_DIGEST", sim::rules::rules_digest())?;
    Ok(())
}
