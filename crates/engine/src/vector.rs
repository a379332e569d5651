//! Many environments stepped at once on a thread pool: `colony.gym.make_vector(n,
//! backend="engine")`. Each step runs every environment's step on the pool (each world is its
//! own, so they run side by side with nothing shared) and returns when all are done.
//!
//! Autoreset as Gymnasium 1.x's default (`AutoresetMode.NEXT_STEP`): the step after an
//! environment ended resets it instead of acting (its action is ignored) and reports the new
//! game's first observation with reward 0, not terminated, not truncated. Seeds: `reset(seed)`
//! gives environment `i` the seed `seed + i`; its `k`-th automatic reset after that plays seed
//! `seed + i + k * n`, so a run is fixed by its first seed.
//!
//! Since the seed of each world's next game is known, it is made ahead on a background thread
//! ([`crate::fresh::prefetch`]) when the world starts a game: generating a new world is most of a
//! reset (about 15 ms on the 64 map, where a step is about 1 ms), and the step on which one world
//! resets would otherwise hold every other world of the batch until it is done. The games are the
//! same either way; only when they are made changes.

use crate::env::{Env, EnvConfig, EnvError, StepOutcome};
use rayon::prelude::*;

/// `n` environments of one configuration.
pub struct VecEnv {
    envs: Vec<Slot>,
    pool: rayon::ThreadPool,
    cfg: EnvConfig,
}

/// Most worlds whose next games are made ahead: each waits in the kept games until its reset,
/// so more than half of [`crate::fresh::KEPT`] would push them out before they are used.
const AHEAD_MAX: usize = crate::fresh::KEPT / 2;

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
        Ok(VecEnv {
            envs,
            pool,
            cfg: cfg.clone(),
        })
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
        let next = next_ahead(&self.cfg, self.envs.len());
        self.pool.install(|| {
            self.envs
                .par_iter_mut()
                .enumerate()
                .map(|(i, s)| s.start(seed + i as u64, next))
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
        let next = next_ahead(&self.cfg, self.envs.len());
        self.pool.install(|| {
            self.envs
                .par_iter_mut()
                .zip(actions)
                .map(|(s, a)| {
                    if s.done {
                        s.start(s.seed + n, next)?;
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

/// What a world of `n` starting a game needs to have its next one made ahead (the settings and
/// the seeds' stride, `n`), or `None` past [`AHEAD_MAX`] worlds.
fn next_ahead(cfg: &EnvConfig, n: usize) -> Option<(&EnvConfig, u64)> {
    (n <= AHEAD_MAX).then_some((cfg, n as u64))
}

impl Slot {
    /// Starts the game of `seed`, and has the game this world plays next (`seed` plus the
    /// stride) made ahead when `next` says so.
    fn start(&mut self, seed: u64, next: Option<(&EnvConfig, u64)>) -> Result<(), EnvError> {
        self.seed = seed;
        self.done = false;
        self.env.reset(seed)?;
        if let Some((cfg, stride)) = next {
            crate::fresh::prefetch(cfg, seed + stride);
        }
        Ok(())
    }
}
