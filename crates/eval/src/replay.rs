//! `colony replay --check OUT/episodes/ID`: rebuilds a recorded episode and checks it turn by
//! turn. The game is deterministic, so the scenario, the seed and the writes the agent made are
//! the whole episode: a fresh colonyd gets the episode's game and setup exactly as the harness
//! made them, then each turn's recorded writes (`requests` with a `body` in trajectory.jsonl, in
//! the order the proxy forwarded them) and the harness's advance of the turn's `hours`, and the
//! state hash (`GET /api/game/hash`) must equal the turn's recorded `stateHash`. The first turn
//! that differs ends the check with exit 1, naming the turn and both rule digests: a change of
//! build or rules, or an edited trajectory. With `--keep DIR` every turn that matched is also
//! saved into a replay folder (`replay_saves`).

use crate::episode::{self, state_hash};
use crate::minimap;
use crate::replay_saves::ReplayFolder;
use crate::scenario::Scenario;
use crate::service::{self, Service};
use clap::Parser;
use serde::Deserialize;
use serde_json::json;
use std::path::{Path, PathBuf};

/// The flags of `colony replay`.
#[derive(Parser, Debug)]
#[command(
    name = "colony replay",
    about = "Rebuild an episode of `colony eval` from its scenario, seed and recorded writes, check the game's state hash after every turn, and serve it in the dashboard (a timeline of its turns)",
    after_help = "Examples: colony replay eval-results/episodes/survive-60-s1   (watch it: prints the dashboard's address, Ctrl-C stops)\n\
                  colony replay --check eval-results/episodes/survive-60-s1\n\
                  colony replay --export eval-results/episodes/survive-60-s1 --out survive-60-s1.gif\n\
                  Exit code 0 when every turn's state hash matches, 1 at the first turn that differs, 2 when the episode cannot be read or played."
)]
pub struct ReplayArgs {
    /// The episode's folder: `OUT/episodes/ID` of a `colony eval` run (its results.json is
    /// `OUT/results.json`).
    pub episode: PathBuf,
    /// Check every turn's state hash against the recording and exit.
    #[arg(long)]
    pub check: bool,
    /// Write the replay as an animated GIF (`--out FILE.gif`): the map after the setup and after
    /// every turn, one frame each; every turn's hash is checked as well.
    #[arg(long, requires = "out")]
    pub export: bool,
    /// The GIF `--export` writes.
    #[arg(long, value_name = "FILE.gif")]
    pub out: Option<PathBuf>,
    /// With `--export`: each tile's size in the GIF, in pixels.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub scale: u32,
    /// With `--export`: how long each frame shows, in milliseconds.
    #[arg(long, default_value_t = 250)]
    pub frame_ms: u16,
    /// The scenario file the run played (default: the copy in the episode's folder,
    /// `scenario.toml`, else the shipped scenario of its id); its digest must equal the one
    /// results.json records.
    #[arg(long)]
    pub scenario: Option<String>,
    /// The colonyd binary (default: $COLONYD, beside this program, or on PATH).
    #[arg(long)]
    pub colonyd: Option<PathBuf>,
    /// Print each turn's hash as it is checked.
    #[arg(long, short)]
    pub verbose: bool,
    /// Save the game after the setup and after every turn that matches into this folder
    /// (`turn-NNNN.colony.json` and the index `replay.json`), which `colonyd --replay DIR`
    /// serves (default without `--check`/`--export`: a temporary folder, removed at the end).
    #[arg(long, value_name = "DIR")]
    pub keep: Option<PathBuf>,
    /// Serving (no `--check`, no `--export`): the loopback HTTP port of the dashboard (default:
    /// a free one).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..), conflicts_with_all = ["check", "export"])]
    pub port: Option<u16>,
}

/// Runs `colony replay` (`args` without the command's name).
pub fn main(args: Vec<String>) -> i32 {
    crate::cli::<ReplayArgs>("colony replay", args, run)
}

/// What results.json says of the run and of the episode replayed.
#[derive(Debug)]
pub struct Recorded {
    pub scenario: String,
    pub seed: u64,
    /// The rules digest the run was played under, when stamped.
    pub rules_digest: Option<String>,
    /// The digest of the scenario file the run played, when stamped.
    pub scenario_digest: Option<String>,
}

/// One line of trajectory.jsonl, as far as a replay reads it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnLine {
    pub turn: u32,
    #[serde(default)]
    pub requests: Vec<Call>,
    #[serde(default)]
    pub hours: Option<f64>,
    #[serde(default)]
    pub state_hash: Option<String>,
}

/// A recorded request; only writes forwarded to colonyd carry a `body`.
#[derive(Debug, Deserialize)]
pub struct Call {
    pub method: String,
    pub path: String,
    #[serde(default)]
    pub forwarded: Option<String>,
    pub status: u16,
    /// The code of an error answer.
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub body: Option<String>,
}

/// Reads the episode's record: its line of results.json (two folders up) and its trajectory.
pub fn load(dir: &Path) -> Result<(Recorded, Vec<TurnLine>), String> {
    let id = dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| format!("{} does not name an episode folder", dir.display()))?;
    let traj_path = dir.join("trajectory.jsonl");
    if !traj_path.is_file() {
        return Err(format!(
            "{} holds no trajectory.jsonl: give an episode's folder, OUT/episodes/ID",
            dir.display()
        ));
    }
    let out = dir.parent().and_then(Path::parent).ok_or_else(|| {
        format!(
            "{} is not inside a run's OUT/episodes folder: give OUT/episodes/ID",
            dir.display()
        )
    })?;
    let run = crate::results_file::load(out)?;
    let ep = run
        .episodes
        .iter()
        .find(|e| e.id == id)
        .ok_or_else(|| format!("{} lists no episode {id}", run.path.display()))?;
    let recorded = Recorded {
        scenario_digest: run.scenario_digest(&ep.scenario).map(str::to_owned),
        rules_digest: run.rules_digest().map(str::to_owned),
        scenario: ep.scenario.clone(),
        seed: ep.seed,
    };
    let traj = std::fs::read_to_string(&traj_path)
        .map_err(|e| format!("cannot read {}: {e}", traj_path.display()))?;
    let mut turns = Vec::new();
    for (n, line) in traj
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let t: TurnLine = serde_json::from_str(line)
            .map_err(|e| format!("{} line {}: {e}", traj_path.display(), n + 1))?;
        turns.push(t);
    }
    if turns.iter().all(|t| t.state_hash.is_none()) {
        return Err(format!(
            "{} records no state hashes (made by an older `colony eval`, or the episode ended before its first advance): it cannot be checked",
            traj_path.display()
        ));
    }
    Ok((recorded, turns))
}

/// The outcome of a replay.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Every turn's hash matched; the number of turns checked and the last hash.
    Matches { turns: u32, last: String },
    /// The first difference: the turn and what differed.
    Differs { turn: u32, what: String },
}

/// A turn the replay reached: turn 0 is the start, after the setup (no hash, no recorded line);
/// every other turn's hash matched the recording.
pub struct Step<'a> {
    pub turn: u32,
    pub hash: Option<&'a str>,
    /// The turn's line of trajectory.jsonl.
    pub line: Option<&'a TurnLine>,
    /// Per request of the line, the `error` text of the replayed answer of a write that was
    /// refused (`None` for reads and accepted writes).
    pub answers: &'a [Option<String>],
}

/// What a replay tells its caller: each turn checked, with the service holding the game at that
/// point.
pub type Observer<'a> = &'a mut dyn FnMut(&Step<'_>, &Service) -> Result<(), String>;

/// Replays `turns` of the episode on a fresh colonyd (`colonyd`) and compares every turn.
pub fn replay(
    colonyd: &Path,
    scenario: &Scenario,
    seed: u64,
    turns: &[TurnLine],
    observe: Observer<'_>,
) -> Result<Verdict, String> {
    let svc = Service::start(colonyd)?;
    episode::set_up(&svc, scenario, seed)?;
    let start = Step {
        turn: 0,
        hash: None,
        line: None,
        answers: &[],
    };
    observe(&start, &svc)?;
    let mut checked = 0;
    let mut last = String::new();
    for t in turns {
        let mut answers = vec![None; t.requests.len()];
        for (k, c) in t.requests.iter().enumerate() {
            let Some(body) = &c.body else { continue };
            let path = c.forwarded.as_deref().unwrap_or(&c.path);
            let (status, error) = svc
                .send_as_recorded(&c.method, path, body)
                .map_err(|e| format!("turn {}: sending {} {path} failed: {e}", t.turn, c.method))?;
            if status != c.status {
                return Ok(Verdict::Differs {
                    turn: t.turn,
                    what: format!(
                        "request {} ({} {path}) was answered with HTTP {status}, recorded {}",
                        k + 1,
                        c.method,
                        c.status
                    ),
                });
            }
            answers[k] = error;
        }
        let (Some(hours), Some(want)) = (t.hours, &t.state_hash) else {
            // The episode ended in this turn, before the harness's advance.
            break;
        };
        svc.post("/api/game/advance", &json!({ "hours": hours }))
            .map_err(|e| format!("turn {}: advancing {hours} hours failed: {e}", t.turn))?;
        let got = state_hash(&svc)?;
        if &got != want {
            return Ok(Verdict::Differs {
                turn: t.turn,
                what: format!("the state hash after the turn is {got}, recorded {want}"),
            });
        }
        let step = Step {
            turn: t.turn,
            hash: Some(&got),
            line: Some(t),
            answers: &answers,
        };
        observe(&step, &svc)?;
        checked += 1;
        last = got;
    }
    Ok(Verdict::Matches {
        turns: checked,
        last,
    })
}

/// Writes `frames` as a GIF at `out`, atomically (a temporary file renamed into place).
fn write_gif(
    out: &Path,
    frames: &[minimap::Picture],
    scale: u32,
    frame_ms: u16,
) -> Result<(), String> {
    let mut bytes = Vec::new();
    minimap::gif(frames, scale, frame_ms, &mut bytes)?;
    crate::run::write_atomic(out, &bytes)
}

fn run(a: &ReplayArgs) -> Result<i32, String> {
    // Without --check or --export the replay is served in the dashboard, from a folder of saves.
    let serving = !a.check && !a.export;
    let temp_folder = match (&a.keep, serving) {
        (None, true) => Some(
            tempfile::Builder::new()
                .prefix("colony-replay-turns-")
                .tempdir()
                .map_err(|e| format!("cannot make the replay folder: {e}"))?,
        ),
        _ => None,
    };
    let keep = a.keep.as_deref().or(temp_folder.as_ref().map(|d| d.path()));
    let (rec, turns) = load(&a.episode)?;
    let kept = a.episode.join("scenario.toml");
    let scenario = match &a.scenario {
        Some(s) => Scenario::find(s),
        None if kept.is_file() => Scenario::from_file(&kept),
        None => Scenario::find(&rec.scenario),
    }
    .map_err(|e| e.to_string())?;
    if scenario.id != rec.scenario {
        return Err(format!(
            "the scenario file is {}, but the episode played {}",
            scenario.id, rec.scenario
        ));
    }
    if let Some(d) = &rec.scenario_digest
        && *d != scenario.digest()
    {
        return Err(format!(
            "scenario {}: the run played a file with digest {}, this one's is {} (give the run's file with --scenario FILE)",
            scenario.id,
            short(d),
            short(&scenario.digest())
        ));
    }
    let colonyd = service::find_colonyd(a.colonyd.as_deref());
    let rules_now = crate::run::build_info(&colonyd)?.rules_digest;
    let rules_then = rec.rules_digest.as_deref().unwrap_or("unknown");
    let (verbose, export) = (a.verbose, a.export);
    let mut frames = Vec::new();
    let mut folder = match keep {
        Some(dir) => Some(ReplayFolder::create(
            dir,
            &episode_id(&a.episode),
            &rec.scenario,
            rec.seed,
        )?),
        None => None,
    };
    let mut observe = |step: &Step<'_>, svc: &Service| {
        if verbose && let Some(h) = step.hash {
            println!("turn {}: {h}", step.turn);
        }
        if export {
            frames.push(minimap::capture(svc)?);
        }
        if let Some(f) = folder.as_mut() {
            f.record(step, svc)?;
        }
        Ok(())
    };
    let verdict = replay(&colonyd, &scenario, rec.seed, &turns, &mut observe)?;
    if let (Verdict::Matches { .. }, Some(f)) = (&verdict, &folder) {
        f.finish()?;
        println!(
            "{}: {} turns saved (turn 0 is the start)",
            f.dir().display(),
            f.index().turns.len()
        );
    }
    if let (Verdict::Matches { .. }, Some(out)) = (&verdict, a.out.as_ref().filter(|_| export)) {
        write_gif(out, &frames, a.scale, a.frame_ms)?;
        println!("{}: {} frames written", out.display(), frames.len());
    }
    match verdict {
        Verdict::Matches { turns, last } => {
            println!(
                "{}: {turns} turns replayed, every state hash matches the recording (last {last})",
                a.episode.display()
            );
            match (serving, &folder) {
                (true, Some(f)) => crate::replay_serve::serve(&colonyd, f.dir(), a.port),
                _ => Ok(0),
            }
        }
        Verdict::Differs { turn, what } => {
            let rules = if rules_then == rules_now {
                format!("the rules digest is the same ({})", short(&rules_now))
            } else {
                format!(
                    "the rules changed: recorded under {}, replayed under {}",
                    short(rules_then),
                    short(&rules_now)
                )
            };
            eprintln!(
                "{}: turn {turn} differs: {what}; {rules}. A different build, different rules or an edited trajectory.",
                a.episode.display()
            );
            Ok(1)
        }
    }
}

/// The episode's id: its folder's name.
fn episode_id(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn short(d: &str) -> &str {
    crate::results_file::short(d, 12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_port_is_for_serving_only() {
        let parse = |args: &[&str]| {
            ReplayArgs::try_parse_from(std::iter::once("colony replay").chain(args.iter().copied()))
        };
        let a = parse(&["ep", "--port", "8090"]).unwrap();
        assert_eq!(a.port, Some(8090));
        assert!(!a.check && !a.export, "no flag: served");
        assert!(parse(&["ep", "--check", "--port", "8090"]).is_err());
        assert!(parse(&["ep", "--port", "0"]).is_err());
        let k = parse(&["ep", "--check", "--keep", "dir"]).unwrap();
        assert_eq!(k.keep.as_deref(), Some(Path::new("dir")));
    }
}
