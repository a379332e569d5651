//! One episode: a fresh colonyd, the scenario's game and setup, the game paused, then turns
//! (the agent acts through the recording proxy, then the harness advances the game by the turn
//! length) until the horizon, game over, or — for lab-play scenarios — success. Each turn is a
//! line of `trajectory.jsonl`; the final save, the agent's output and the scores are kept in the
//! episode's folder.
//!
//! After every agent turn the harness checks that the game is still the episode's own: the same
//! game (the agent-state epoch, which changes on every new game and load, so faction, seed and
//! mode with it), the clock where the harness's last advance left it, and the game paused. Anything else means the
//! agent reached colonyd around the proxy: the episode ends as `tampered`, with score 0.

use crate::agent::{self, AgentMode, TurnEnv, TurnRun};
use crate::hazards::HazardSpell;
use crate::history::{Row, Stats};
use crate::metrics::Outcome;
use crate::minimap;
use crate::proxy::{ApiCall, Proxy};
use crate::scenario::Scenario;
use crate::score;
use crate::service::Service;
use crate::usage::{self, Usage};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How episodes are played (shared by every episode of a run).
#[derive(Clone, Debug)]
pub struct PlayOpts {
    pub agent: String,
    /// Once per turn, or one process per episode.
    pub agent_mode: AgentMode,
    /// `colony mcp --tools` of the episode's MCP server.
    pub mcp_tools: String,
    /// Replaces the scenario's turn length.
    pub turn_hours: Option<f64>,
    pub turn_timeout: Duration,
    pub colonyd: PathBuf,
    /// The folder `colony eval` was started in.
    pub launch_dir: PathBuf,
}

/// How an episode counts.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum Status {
    /// Played as intended.
    #[default]
    Ok,
    /// The agent failed (non-zero exit, crash, time-out) on more than half of its turns.
    Invalid,
    /// The game was changed around the harness (time, speed, a new game or load).
    Tampered,
    /// The episode could not be played (setup failed, colonyd died...).
    Error,
}

/// What results.json says of one episode.
#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EpisodeResult {
    pub id: String,
    pub scenario: String,
    pub seed: u64,
    /// `ok`, or why the episode does not count as played: `invalid`, `tampered` or `error`
    /// (its score and success are then 0 and false).
    pub status: Status,
    pub score: f64,
    /// The score by term (their points sum to `score`).
    pub score_terms: Vec<score::TermScore>,
    pub success: bool,
    pub achievements: Vec<String>,
    pub days_survived: f64,
    pub game_over: bool,
    pub wall_seconds: f64,
    pub turns: u32,
    pub turn_hours: f64,
    pub timeouts: u32,
    pub agent_failures: u32,
    pub api_calls: usize,
    pub api_errors: usize,
    /// Persistent mode: the agent processes started (1 unless one timed out or exited).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_processes: Option<u32>,
    /// What the agent reported it spent, summed over its turns; absent when it reported nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_usage: Option<Usage>,
    pub metrics: BTreeMap<String, f64>,
    /// Each drought and badtide: stores before it, lows, births and deaths by cause during it.
    pub hazards: Vec<HazardSpell>,
    /// Why the episode could not be played (setup failed, colonyd died...); scores are 0 then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The history (hourly rows), for the report; kept out of results.json.
    #[serde(skip)]
    pub rows: Vec<Row>,
    /// Pictures of the map through the episode, for the report; kept out of results.json.
    #[serde(skip)]
    pub maps: Vec<minimap::Shot>,
}

/// One line of trajectory.jsonl.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TurnRecord<'a> {
    turn: u32,
    day: u32,
    prompt: &'a str,
    agent: &'a TurnRun,
    /// What the agent reported it spent on this turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    agent_usage: Option<&'a Usage>,
    requests: &'a [ApiCall],
    /// The MCP tool calls the agent made through the episode's `colony mcp` (absent when none).
    #[serde(skip_serializing_if = "<[Value]>::is_empty")]
    tool_calls: &'a [Value],
    /// The last history row after the turn's advance.
    row: Option<&'a Row>,
    /// The game hours the harness advanced after the turn (absent when the episode ended before
    /// its advance).
    #[serde(skip_serializing_if = "Option::is_none")]
    hours: Option<f64>,
    /// `GET /api/game/hash` after that advance: what `colony replay --check` compares.
    #[serde(skip_serializing_if = "Option::is_none")]
    state_hash: Option<&'a str>,
}

/// What the harness did after a turn: the hours it advanced and the state hash then.
struct Advanced {
    hours: f64,
    state_hash: String,
}

/// Progress reports: (episode id, day reached, horizon days).
pub type Progress<'a> = &'a (dyn Fn(&str, u32, f64) + Sync);

/// One episode to play: the scenario and seed, its id and folder, how to play, the runtime that
/// serves the recording proxy, and where progress goes.
pub struct Episode<'a> {
    pub scenario: &'a Scenario,
    pub seed: u64,
    pub id: &'a str,
    pub opts: &'a PlayOpts,
    /// The episode's folder (created).
    pub dir: &'a Path,
    pub rt: &'a tokio::runtime::Handle,
    pub progress: Progress<'a>,
}

/// Plays one episode into its folder.
pub fn play(ep: &Episode<'_>) -> EpisodeResult {
    let (s, seed, id, opts) = (ep.scenario, ep.seed, ep.id, ep.opts);
    let start = Instant::now();
    let turn_hours = opts.turn_hours.unwrap_or(s.turn_hours);
    let mut r = EpisodeResult {
        id: id.to_owned(),
        scenario: s.id.clone(),
        seed,
        turn_hours,
        ..EpisodeResult::default()
    };
    let outcome = match run_turns(ep, turn_hours, &mut r) {
        Ok(o) => o,
        Err(e) => {
            r.status = if e.starts_with(TAMPERED) {
                Status::Tampered
            } else {
                Status::Error
            };
            r.error = Some(e);
            Outcome {
                rows: std::mem::take(&mut r.rows),
                ..Outcome::default()
            }
        }
    };
    if r.status == Status::Ok && 2 * r.agent_failures > r.turns {
        r.status = Status::Invalid;
    }
    let counts = r.status == Status::Ok;
    r.score_terms = score::score_terms(s, &outcome);
    if !counts {
        r.score_terms.iter_mut().for_each(|t| t.points = 0.0);
    }
    r.score_terms
        .iter_mut()
        .for_each(|t| t.points = crate::metrics::round3(t.points));
    r.score = if counts {
        score::episode_score(s, &outcome)
    } else {
        0.0
    };
    r.success = counts && score::episode_success(s, &outcome);
    r.achievements = score::episode_achievements(s, &outcome);
    r.days_survived = outcome.days_survived();
    r.game_over = outcome
        .rows
        .last()
        .is_some_and(|l| l.game_over || l.population() == 0);
    r.metrics = outcome.all_metrics();
    r.hazards = crate::hazards::spells(&outcome.rows);
    r.rows = outcome.rows;
    r.wall_seconds = (start.elapsed().as_secs_f64() * 100.0).round() / 100.0;
    r
}

/// The new-game body of the scenario.
fn new_game_body(s: &Scenario, seed: u64) -> Value {
    let mut body = json!({
        "seed": seed,
        "faction": s.game.faction,
        "mode": s.game.mode,
        "map": s.game.map,
    });
    if let Some(name) = &s.game.settlement {
        body["settlement"] = json!(name);
    }
    if s.setup.needs_game_setup() {
        body["setup"] = json!({
            "goods": s.setup.goods,
            "science": s.setup.science,
            "unlocked": s.setup.unlocked,
        });
    }
    body
}

/// Starts the game: new game with the setup, the gate open, setup commands, paused (also how
/// `colony replay` rebuilds an episode's start).
pub fn set_up(svc: &Service, s: &Scenario, seed: u64) -> Result<(), String> {
    svc.post("/api/game/new", &new_game_body(s, seed))
        .map_err(|e| format!("starting the scenario's game failed: {e}"))?;
    svc.post("/api/ready", &json!({"ready": true}))
        .map_err(|e| format!("opening the ready gate failed: {e}"))?;
    for (i, c) in s.setup.commands.iter().enumerate() {
        let (m, p) = c.method_path();
        let res = if m == "GET" {
            svc.get(p)
        } else {
            let body = c.body.as_ref().map_or_else(
                || Ok(json!({})),
                |b| serde_json::to_value(b).map_err(|e| crate::service::CallError(e.to_string())),
            );
            body.and_then(|b| svc.post(p, &b))
        };
        res.map_err(|e| format!("setup command {} ({}) failed: {e}", i + 1, c.route))?;
    }
    svc.post("/api/speed", &json!({"speed": 0}))
        .map_err(|e| format!("pausing the game failed: {e}"))?;
    Ok(())
}

/// The start of the error of a tampered episode.
const TAMPERED: &str = "tampered:";

/// What the harness knows of its game between turns. The faction, seed and mode are not read:
/// only a new game or a load changes them, and either changes the epoch.
#[derive(Debug, PartialEq)]
pub struct Seal {
    pub epoch: String,
    pub ticks: u64,
    pub speed: f64,
}

/// `route`'s member `key`, or an error naming both.
fn member<'v>(v: &'v Value, key: &str, route: &str) -> Result<&'v Value, String> {
    v.get(key)
        .ok_or_else(|| format!("{route} answered without `{key}`"))
}

/// Reads the game's identity (the agent-state epoch) and clock (ticks and speed), with the
/// cheap reads that hold them.
pub fn seal(svc: &Service) -> Result<Seal, String> {
    let read = |route: &str| {
        svc.get(route)
            .map_err(|e| format!("reading {route} failed: {e}"))
    };
    let (state, time, speed) = (
        read("/api/agent/state")?,
        read("/api/time")?,
        read("/api/speed")?,
    );
    Ok(Seal {
        epoch: member(&state, "epoch", "/api/agent/state")?
            .as_str()
            .unwrap_or("")
            .to_owned(),
        ticks: member(&time, "ticks", "/api/time")?
            .as_u64()
            .unwrap_or(u64::MAX),
        speed: member(&speed, "speed", "/api/speed")?
            .as_f64()
            .unwrap_or(f64::NAN),
    })
}

/// `Ok` when the game is the one the harness left (`expected`), else what changed, as a
/// `tampered:` error.
pub fn check_seal(svc: &Service, expected: &Seal) -> Result<(), String> {
    let now = seal(svc)?;
    let mut changed = Vec::new();
    if now.epoch != expected.epoch {
        changed.push("a new game was started or a save loaded (the epoch changed)".to_owned());
    }
    if now.ticks != expected.ticks {
        changed.push(format!(
            "the clock moved from tick {} to {} during the agent's turn",
            expected.ticks, now.ticks
        ));
    }
    if now.speed != 0.0 {
        changed.push(format!(
            "the game runs at speed {} instead of paused",
            now.speed
        ));
    }
    if changed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{TAMPERED} the game was changed around the evaluation harness: {}",
            changed.join("; ")
        ))
    }
}

/// The game's state hash (`GET /api/game/hash`).
pub fn state_hash(svc: &Service) -> Result<String, String> {
    let v = svc
        .get("/api/game/hash")
        .map_err(|e| format!("reading /api/game/hash failed: {e}"))?;
    member(&v, "stateHash", "/api/game/hash")?
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| "/api/game/hash answered a stateHash that is not text".to_owned())
}

/// Rows after `after_ticks`, read from `/api/stats` from the day of the last known row.
fn new_rows(svc: &Service, from_day: u32, after_ticks: u64) -> Result<Vec<Row>, String> {
    let v = svc
        .get(&format!("/api/stats?from={}", from_day.max(1)))
        .map_err(|e| format!("reading /api/stats failed: {e}"))?;
    let stats: Stats = serde_json::from_value(v)
        .map_err(|e| format!("/api/stats answered an unexpected shape: {e}"))?;
    Ok(stats
        .rows
        .into_iter()
        .filter(|r| r.ticks > after_ticks)
        .collect())
}

/// Finished buildings at the end by prefab base name (`LumberMill.Folktails` -> `LumberMill`).
fn built(svc: &Service) -> Result<BTreeMap<String, u32>, String> {
    let v = svc
        .get("/api/buildings?limit=0")
        .map_err(|e| format!("reading /api/buildings failed: {e}"))?;
    let mut out = BTreeMap::new();
    for b in v.as_array().into_iter().flatten() {
        if b.get("finished").and_then(Value::as_bool) != Some(true) {
            continue;
        }
        if let Some(name) = b.get("name").and_then(Value::as_str) {
            let base = name.split('.').next().unwrap_or(name);
            *out.entry(base.to_owned()).or_insert(0) += 1;
        }
    }
    Ok(out)
}

/// The turn's prompt: the goal, where the episode stands and a compact observation.
fn prompt(
    s: &Scenario,
    turn: u32,
    turns: u32,
    day: u32,
    days_left: f64,
    turn_hours: f64,
    obs: &str,
) -> String {
    format!(
        "Scenario {id}: {title}\nGoal: {goal}\nTurn {turn} of {turns}: day {day}, {days_left:.1} days left; \
         after your turn the game advances {turn_hours} hours. The game is paused while you act.\n\
         Colony now (GET /api/summary):\n{obs}\n",
        id = s.id,
        title = s.title,
        goal = s.goal.trim(),
    )
}

fn run_turns(ep: &Episode<'_>, turn_hours: f64, r: &mut EpisodeResult) -> Result<Outcome, String> {
    let (s, seed, id, opts, dir) = (ep.scenario, ep.seed, ep.id, ep.opts, ep.dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    // Absolute: the agent runs in it, and `--out` may be relative (COLONY_AGENT_STATE_DIR must
    // name the same folder from there).
    let state_dir = std::path::absolute(dir.join("agent-state")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&state_dir).map_err(|e| e.to_string())?;
    // The scenario as played, for `colony replay` (its digest is the run's).
    std::fs::write(dir.join("scenario.toml"), &s.text)
        .map_err(|e| format!("cannot keep the scenario file: {e}"))?;
    let svc = Service::start(&opts.colonyd)?;
    set_up(&svc, s, seed)?;
    let mut sealed = seal(&svc)?;
    let proxy = ep
        .rt
        .block_on(Proxy::start(svc.http_port, svc.ws_port, &svc.token))
        .map_err(|e| format!("cannot start the recording proxy: {e}"))?;
    // The MCP server of this episode, for agents driven through MCP (COLONY_MCP_CONFIG; absolute,
    // as the agent runs in its notes folder and `--out` may be relative).
    let mcp_config = std::path::absolute(dir.join("mcp.json")).map_err(|e| e.to_string())?;
    // Its tool calls, one JSON line each (`colony mcp --record`), read after every turn.
    // (Absolute: the agent runs in its notes folder, and `--out` may be relative.)
    let mcp_record = std::path::absolute(dir.join("mcp-calls.jsonl")).map_err(|e| e.to_string())?;
    std::fs::write(&mcp_record, "")
        .map_err(|e| format!("cannot write {}: {e}", mcp_record.display()))?;
    let mut record_read = 0u64;
    let mcp_argv = agent::mcp_argv(proxy.port, proxy.ws_port, &opts.mcp_tools, &mcp_record);
    let mcp_command = agent::shell_join(&mcp_argv);
    let config = agent::mcp_config(&mcp_argv);
    std::fs::write(&mcp_config, format!("{config:#}\n"))
        .map_err(|e| format!("cannot write {}: {e}", mcp_config.display()))?;
    let mut traj = std::fs::File::create(dir.join("trajectory.jsonl"))
        .map_err(|e| format!("cannot write the trajectory: {e}"))?;
    let turns = s.turns(turn_hours);
    let horizon_hours = s.horizon_days * 24.0;
    let mut rows: Vec<Row> = new_rows(&svc, 1, 0)?;
    // The map pictures of the report: the start, every `every` turns, hazards' edges, the end.
    let every = minimap::every(turns);
    r.maps.extend(minimap::shot(&svc, 0, 1, "start"));
    let mut played_hours = 0.0;
    let log = dir.join("agent.log");
    // Persistent mode: one process for the episode (stopped when this returns, however).
    let mut persistent = (opts.agent_mode == AgentMode::Persistent)
        .then(|| crate::persistent::Persistent::new(&opts.agent, log.clone()));
    let mut reports: Vec<Usage> = Vec::new();
    for turn in 1..=turns {
        if crate::interrupt::stopped() {
            break; // Ctrl-C: the run writes no results (`run`)
        }
        let day = rows.last().map_or(1, |l| l.day);
        let days_left = (horizon_hours - played_hours) / 24.0;
        let obs = svc
            .get_text("/api/summary?format=toon-text")
            .unwrap_or_default();
        let text = prompt(s, turn, turns, day, days_left, turn_hours, obs.trim_end());
        let env = TurnEnv {
            prompt: &text,
            goal: &s.goal,
            scenario: &s.id,
            episode: id,
            turn,
            turns,
            day,
            days_left,
            turn_hours,
            proxy_port: proxy.port,
            ws_port: proxy.ws_port,
            state_dir: &state_dir,
            mcp_config: &mcp_config,
            mcp_command: &mcp_command,
            launch_dir: &opts.launch_dir,
        };
        proxy.open_turn();
        let (run, used) = match persistent.as_mut() {
            Some(p) => p.turn(&env, opts.turn_timeout, turns - turn + 1),
            None => {
                let run = agent::run_turn(&opts.agent, &env, opts.turn_timeout, &log);
                (run, usage::take_file(&state_dir, &log))
            }
        };
        proxy.close_turn(Duration::from_secs(10));
        let calls = proxy.take_calls();
        let tool_calls = take_tool_calls(&mcp_record, &mut record_read);
        r.agent_processes = persistent.as_ref().map(|p| p.starts);
        reports.extend(used.clone());
        r.agent_usage = usage::sum(&reports);
        let out = TurnOut {
            run: &run,
            usage: used.as_ref(),
            calls: &calls,
            tool_calls: &tool_calls,
        };
        r.turns = turn;
        r.timeouts += u32::from(run.timed_out);
        r.agent_failures += u32::from(run.failed);
        r.api_calls += calls.len();
        r.api_errors += calls
            .iter()
            .filter(|c| c.error.is_some() || c.status >= 400)
            .count();
        if let Err(e) = check_seal(&svc, &sealed) {
            write_turn(&mut traj, turn, day, &text, &out, rows.last(), None);
            r.rows = rows;
            return Err(e);
        }
        let hours = turn_hours.min(horizon_hours - played_hours);
        let advanced = svc.post("/api/game/advance", &json!({"hours": hours}));
        if let Err(e) = advanced {
            write_turn(&mut traj, turn, day, &text, &out, rows.last(), None);
            r.rows = rows;
            return Err(format!("advancing the game failed: {e}"));
        }
        sealed = seal(&svc)?;
        let after = Advanced {
            hours,
            state_hash: state_hash(&svc)?,
        };
        played_hours += hours;
        let last = rows.last().map_or((1, 0), |l| (l.day, l.ticks));
        let hazard_before = rows.last().and_then(|l| l.hazard()).map(str::to_owned);
        rows.extend(new_rows(&svc, last.0, last.1)?);
        write_turn(&mut traj, turn, day, &text, &out, rows.last(), Some(&after));
        let now = rows.last().map_or(1, |l| l.day);
        (ep.progress)(id, now, s.horizon_days);
        let over = rows
            .last()
            .is_some_and(|l| l.game_over || l.population() == 0);
        let done = s.stop_on_success
            && score::episode_success(
                s,
                &Outcome {
                    rows: rows.clone(),
                    ..Outcome::default()
                },
            );
        let finished = over || done || played_hours >= horizon_hours - 1e-9;
        let hazard_after = rows.last().and_then(|l| l.hazard());
        if let Some(label) = minimap::label(
            turn,
            every,
            finished,
            hazard_before.as_deref(),
            hazard_after,
        ) {
            r.maps.extend(minimap::shot(&svc, turn, now, &label));
        }
        if finished {
            break;
        }
    }
    if let Some(p) = persistent.take() {
        p.finish();
    }
    let built = built(&svc)?;
    svc.post("/api/game/save", &json!({"name": "final"}))
        .map_err(|e| format!("saving the final game failed: {e}"))?;
    let from = svc.dir.path().join("saves").join("final.colony.json");
    std::fs::copy(&from, dir.join("final.colony.json"))
        .map_err(|e| format!("cannot keep the final save {}: {e}", from.display()))?;
    Ok(Outcome { rows, built })
}

/// What a turn of the agent gave: how its process did, the usage it reported, its requests.
struct TurnOut<'a> {
    run: &'a TurnRun,
    usage: Option<&'a Usage>,
    calls: &'a [ApiCall],
    tool_calls: &'a [Value],
}

/// The tool calls `colony mcp --record` appended to `path` since byte `read` (whole lines only:
/// a line still being written waits for the next turn), moving `read` past them.
fn take_tool_calls(path: &Path, read: &mut u64) -> Vec<Value> {
    use std::io::{Read, Seek, SeekFrom};
    let mut buf = Vec::new();
    let Ok(mut f) = std::fs::File::open(path) else {
        return Vec::new();
    };
    if f.seek(SeekFrom::Start(*read)).is_err() || f.read_to_end(&mut buf).is_err() {
        return Vec::new();
    }
    let Some(end) = buf.iter().rposition(|&b| b == b'\n') else {
        return Vec::new();
    };
    *read += end as u64 + 1;
    buf[..end]
        .split(|&b| b == b'\n')
        .filter_map(|l| serde_json::from_slice::<Value>(l).ok())
        .collect()
}

fn write_turn(
    f: &mut std::fs::File,
    turn: u32,
    day: u32,
    prompt: &str,
    out: &TurnOut<'_>,
    row: Option<&Row>,
    after: Option<&Advanced>,
) {
    let rec = TurnRecord {
        turn,
        day,
        prompt,
        agent: out.run,
        agent_usage: out.usage,
        requests: out.calls,
        tool_calls: out.tool_calls,
        row,
        hours: after.map(|a| a.hours),
        state_hash: after.map(|a| a.state_hash.as_str()),
    };
    if let Ok(line) = serde_json::to_string(&rec) {
        let _ = writeln!(f, "{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_calls_are_read_a_turn_at_a_time_whole_lines_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mcp-calls.jsonl");
        let mut read = 0;
        assert!(take_tool_calls(&path, &mut read).is_empty());
        std::fs::write(&path, "{\"tool\":\"a\"}\n{\"tool\":\"b\"}\n{\"tool\":").unwrap();
        let tools = |v: Vec<Value>| v.iter().map(|c| c["tool"].clone()).collect::<Vec<_>>();
        assert_eq!(
            tools(take_tool_calls(&path, &mut read)),
            [json!("a"), json!("b")]
        );
        assert!(take_tool_calls(&path, &mut read).is_empty());
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        writeln!(f, "\"c\"}}").unwrap();
        assert_eq!(tools(take_tool_calls(&path, &mut read)), [json!("c")]);
    }
}
