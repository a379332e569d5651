//! The evaluation harness behind `colony eval`: scenarios as data files, episodes played by any
//! agent command against a fresh colonyd each (over HTTP only, through a recording proxy),
//! scores, Crafter-style achievements, and the run's `results.json` and `report.html`.
//!
//! Modules: `scenario` (the TOML schema and its validation), `history` (the hourly rows of
//! `GET /api/stats`) and `metrics` (named metrics over a history), both from `colony-score`
//! (crates/score, shared with colonyd's `POST /api/score`), `achievements`, `score` (episode
//! scores, computed by `colony-score`, and a run's aggregates), `service` (an episode's
//! colonyd), `proxy` (the recording proxy; `proxy_path` normalises what it decides on,
//! `proxy_ws` joins WebSockets),
//! `agent` (one turn of the agent's process), `persistent` (one process per episode taking its
//! turns on stdin), `usage` (what the agent reports it spent), `guard` (nothing the agent starts outlives its
//! turn), `episode` (the turn loop and the check that the game is still the episode's own),
//! `run` (the command: planning, parallel episodes, progress, output), `report` (the HTML page),
//! `minimap` (map pictures: report strips, replay GIFs), `replay` (`colony replay --check`: an episode rebuilt from its recorded writes, hash by hash; `replay_saves` keeps a save per turn for `colonyd --replay`, `replay_serve` serves them in the dashboard),
//! `score` also holds an episode's score by term;
//! `compare` and `leaderboard` (the subcommands that read finished runs back: `results_file`
//! reads results.json, `stats` has the IQM and the bootstrap intervals).
//! `docs/evaluation.md` describes the whole loop for users.

pub mod achievements;
pub mod agent;
pub mod compare;
pub mod episode;
pub mod guard;
pub mod hazards;
pub mod interrupt;
pub use ::score::history;
pub mod leaderboard;
pub mod metrics;
pub mod minimap;
pub mod persistent;
pub mod proxy;
pub mod proxy_path;
pub mod proxy_ws;
pub mod replay;
pub mod replay_saves;
pub mod replay_serve;
pub mod report;
pub mod results_file;
pub mod run;
pub mod scenario;
pub mod score;
pub mod service;
pub mod stats;
pub mod usage;

/// Parses a subcommand's flags (`name` is how its usage names it) and runs it: a flag error is
/// printed with exit 2 (`--help`, 0), a run's error as `error: ...` with exit 2.
pub(crate) fn cli<A: clap::Parser>(
    name: &str,
    args: Vec<String>,
    run: impl FnOnce(&A) -> Result<i32, String>,
) -> i32 {
    let a = match A::try_parse_from(std::iter::once(name.to_owned()).chain(args)) {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match run(&a) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

/// Runs `colony eval` with its arguments (after `eval`) and returns the exit code: `compare` and
/// `leaderboard` as a first argument pick those subcommands, anything else plays a run.
pub fn main(args: Vec<String>) -> i32 {
    match args.first().map(String::as_str) {
        Some("compare") => compare::main(args[1..].to_vec()),
        Some("leaderboard") => leaderboard::main(args[1..].to_vec()),
        _ => run::main(args),
    }
}
