//! Many environments stepped at once on a thread pool: `colony.gym.make_vector(n,
//! backend="engine")`. Each step runs every environment's step on the pool (each world is its
//! own, so they run side by side with nothing shared) and returns when all are done.
//!
//! Autoreset as Gymnasium 1.x's default (`AutoresetMode.NEXT_STEP`): the step after an
//! environment ended resets it instead of acting (its action is ignored) and reports the new
//! game's first observation with reward 0, not terminated, not truncated. Seeds: `reset(seed)`
//! gives environment `i` the seed `seed + i`; its `k`-th automatic reset after that plays seed
//! `seed + i + k * n`, so a run is fixed by its first seed.

use crate::env::{Env, EnvConfig, EnvError, StepOutcome};
use rayon::prelude::*;

/// `n` environments of one configuration.
pub struct VecEnv {
    envs: Vec<Slot>,
    pool: rayon::ThreadPool,
}

struct Slot {
    env: Env,
    seed: u64,
    done: bool,
}

impl VecEnv {
    /// `n` environments of `cfg` stepped on `threads` threads (0: one per core).
    pub fn new(cfg: &EnvConfig, n: usize, threads: usize) -> Result<VecEnv, EnvError> {
        let mut envs = Vec::with_capacity(n);
        for _ in 0..n {
            envs.push(Slot {
                env: Env::new(cfg.clone())?,
                seed: 0,
                done: false,
            });
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("colony-env-{i}"))
            .build()
            .map_err(|e| EnvError {
                code: "operation_failed",
                detail: format!("no thread pool: {e}"),
                extras: Default::default(),
            })?;
        Ok(VecEnv { envs, pool })
    }

    pub fn len(&self) -> usize {
        self.envs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    /// The environments, in order.
    pub fn envs(&self) -> impl Iterator<Item = &Env> {
        self.envs.iter().map(|s| &s.env)
    }

    /// Resets every environment: environment `i` plays `seed + i`.
    pub fn reset(&mut self, seed: u64) -> Result<(), EnvError> {
        self.pool.install(|| {
            self.envs
                .par_iter_mut()
                .enumerate()
                .map(|(i, s)| {
                    s.seed = seed + i as u64;
                    s.done = false;
                    s.env.reset(s.seed)
                })
                .collect::<Result<Vec<()>, EnvError>>()
        })?;
        Ok(())
    }

    /// Steps every environment with its action (one per environment); an environment that
    /// ended on the last step is reset instead (see the module's doc).
    pub fn step(&mut self, actions: &[i64]) -> Result<Vec<StepOutcome>, EnvError> {
        if actions.len() != self.envs.len() {
            return Err(EnvError {
                code: "invalid_param",
                detail: format!(
                    "one action per environment: {} environments, {} actions",
                    self.envs.len(),
                    actions.len()
                ),
                extras: Default::default(),
            });
        }
        let n = self.envs.len() as u64;
        self.pool.install(|| {
            self.envs
                .par_iter_mut()
                .zip(actions)
                .map(|(s, a)| {
                    if s.done {
                        s.seed += n;
                        s.done = false;
                        s.env.reset(s.seed)?;
                        return Ok(StepOutcome {
                            reward: 0.0,
                            terminated: false,
                            truncated: false,
                            action: "reset",
                            error: None,
                        });
                    }
                    let out = s.env.step(*a);
                    s.done = out.terminated || out.truncated;
                    Ok(out)
                })
                .collect()
        })
    }
}
