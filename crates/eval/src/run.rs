//! `colony eval`: plans the episodes (scenarios x seeds), plays up to `--parallel` at once, shows
//! progress on stderr, and writes `results.json` and `report.html` into the output folder.

use crate::achievements;
use crate::agent::AgentMode;
use crate::episode::{self, EpisodeResult, PlayOpts, Status};
use crate::report;
use crate::scenario::{self, Scenario, Split};
use crate::score::{self, ScenarioSummary};
use clap::Parser;
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The flags of `colony eval`.
#[derive(Parser, Debug)]
#[command(
    name = "colony eval",
    about = "Evaluate an agent: play scenarios against fresh colonyd processes and score them",
    after_help = "Example: colony eval --scenario survive-60 --agent 'python3 agents/random_agent.py' --seeds 1..10 --parallel 2"
)]
pub struct EvalArgs {
    /// List the shipped scenarios (id, faction, mode, days, title) and exit.
    #[arg(long)]
    pub list: bool,
    /// Scenario ids or .toml files (repeat or comma-separate).
    #[arg(long, value_delimiter = ',')]
    pub scenario: Vec<String>,
    /// The agent's shell command, run once per turn (or once per episode with
    /// `--agent-mode persistent`).
    #[arg(long)]
    pub agent: Option<String>,
    /// `per-turn`: the command runs once per turn, the prompt on stdin. `persistent`: once per
    /// episode, a JSON line per turn on stdin, a reply line `{"done": true}` per turn on stdout
    /// (docs/evaluation.md, "Agent modes").
    #[arg(long, value_enum, default_value = "per-turn")]
    pub agent_mode: AgentMode,
    /// The tools the episode's MCP server offers (`colony mcp --tools`, in COLONY_MCP_COMMAND
    /// and COLONY_MCP_CONFIG): `core` (the composite tools and what a turn needs), `all`, or
    /// tool names separated by commas (docs/mcp.md, "Tool profiles").
    #[arg(long, default_value = "core")]
    pub tools: String,
    /// Seeds replacing the split's: `7,8,9`, `1..10` (the results then name the split `custom`).
    #[arg(long, conflicts_with_all = ["episodes", "split"])]
    pub seeds: Option<String>,
    /// Which seed set of each scenario: `dev` (listed in its file, for tuning) or `test`
    /// (1001-1010 unless the file names its own; never used for tuning).
    #[arg(long, value_enum, default_value = "dev")]
    pub split: Split,
    /// Episodes per scenario: its first N seeds (continued past its list when it is shorter).
    #[arg(long)]
    pub episodes: Option<usize>,
    /// Episodes played at once (each runs its own colonyd).
    #[arg(long, default_value_t = 1)]
    pub parallel: usize,
    /// Game hours per turn (default: each scenario's own).
    #[arg(long)]
    pub turn_hours: Option<f64>,
    /// Seconds an agent's turn may take before its process group is killed (persistent mode:
    /// before the turn counts as timed out and the agent is stopped, to be started again).
    #[arg(long, default_value_t = 120.0)]
    pub turn_timeout: f64,
    /// Output folder (created; existing results in it are replaced).
    #[arg(long, default_value = "eval-results")]
    pub out: PathBuf,
    /// The colonyd binary (default: $COLONYD, beside this program, or on PATH).
    #[arg(long)]
    pub colonyd: Option<PathBuf>,
    /// No progress lines.
    #[arg(long)]
    pub quiet: bool,
    /// Exit 0 even when some episodes are invalid (the agent failed on more than half its turns).
    #[arg(long)]
    pub allow_invalid: bool,
}

/// What a run was made with: the build and rules of colonyd, and each scenario file.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Version {
    /// colonyd's version (`colonyd --build-info`).
    pub colony: String,
    /// The commit colonyd was built from, when known.
    pub commit: Option<String>,
    pub rules_revision: u32,
    /// SHA-256 of the rules revision and the game's data files: results are comparable only
    /// under equal digests.
    pub rules_digest: String,
    /// Scenario id -> SHA-256 of its file.
    pub scenarios: BTreeMap<String, String>,
}

/// How the harness played (what changes results besides the agent and the seeds).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Harness {
    /// `per-turn`: the agent command runs once per turn; `persistent`: once per episode.
    pub agent_mode: &'static str,
    /// The agent command as run (relative paths made absolute).
    pub agent_resolved: String,
    pub turn_timeout_seconds: f64,
    /// `--turn-hours`, when it replaced the scenarios' own.
    pub turn_hours: Option<f64>,
    pub allow_invalid: bool,
    /// The tools the episodes' MCP servers offered (`--tools`: `core`, `all` or names).
    pub mcp_tools: String,
}

/// `colonyd --build-info`.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BuildInfo {
    version: String,
    commit: Option<String>,
    rules_revision: u32,
    pub(crate) rules_digest: String,
}

pub(crate) fn build_info(colonyd: &std::path::Path) -> Result<BuildInfo, String> {
    let o = std::process::Command::new(colonyd)
        .arg("--build-info")
        .output()
        .map_err(|e| format!("cannot run {} --build-info: {e}", colonyd.display()))?;
    if !o.status.success() {
        return Err(format!(
            "{} --build-info failed ({}): {}; is it an older colonyd? build this one (cargo build -p colony-server)",
            colonyd.display(),
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    serde_json::from_slice(&o.stdout)
        .map_err(|e| format!("{} --build-info answered {e}", colonyd.display()))
}

/// What results.json says of how it was made.
pub struct Stamp {
    pub version: Version,
    pub split: String,
    pub seeds: BTreeMap<String, Vec<u64>>,
    pub harness: Harness,
}

/// The whole results.json.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Results {
    pub agent: String,
    pub version: Version,
    /// `dev`, `test`, or `custom` (seeds given with `--seeds`).
    pub split: String,
    /// Scenario id -> the seeds played.
    pub seeds: BTreeMap<String, Vec<u64>>,
    pub harness: Harness,
    /// Crafter score over every episode: geometric mean of the achievement success rates.
    pub score: f64,
    pub episodes_played: usize,
    /// Episodes whose agent failed on more than half of its turns (scored 0).
    pub invalid_episodes: usize,
    /// Episodes whose game was changed around the harness (scored 0).
    pub tampered_episodes: usize,
    pub wall_seconds: f64,
    /// What the agent reported it spent, summed over every episode; absent when it reported
    /// nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_usage: Option<crate::usage::Usage>,
    /// Achievement id -> share of all episodes that unlocked it.
    pub achievements: BTreeMap<String, f64>,
    /// Achievement id -> title.
    pub achievement_titles: BTreeMap<String, String>,
    pub scenarios: BTreeMap<String, ScenarioSummary>,
    pub episodes: Vec<EpisodeResult>,
}

/// One planned episode.
struct Plan {
    scenario: usize,
    seed: u64,
    id: String,
}

fn seeds_for(s: &Scenario, a: &EvalArgs) -> Result<Vec<u64>, String> {
    if let Some(text) = &a.seeds {
        return scenario::parse_seeds(text);
    }
    let mut seeds = s.split_seeds(a.split);
    if let Some(n) = a.episodes {
        if n == 0 {
            return Err("--episodes must be at least 1".into());
        }
        let mut next = seeds.iter().max().copied().unwrap_or(0);
        while seeds.len() < n {
            next += 1;
            seeds.push(next);
        }
        seeds.truncate(n);
    }
    Ok(seeds)
}

/// Seeds as ranges: `1-5,9`.
fn seed_ranges(seeds: &[u64]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < seeds.len() {
        let mut j = i;
        while j + 1 < seeds.len() && seeds[j + 1] == seeds[j] + 1 {
            j += 1;
        }
        parts.push(if j > i {
            format!("{}-{}", seeds[i], seeds[j])
        } else {
            seeds[i].to_string()
        });
        i = j + 1;
    }
    parts.join(",")
}

/// Runs `colony eval` with its arguments (after `eval`); returns the exit code.
pub fn main(args: Vec<String>) -> i32 {
    if args.first().is_some_and(|a| a == crate::guard::ARG) {
        return crate::guard::main(&args[1..]);
    }
    crate::cli::<EvalArgs>("colony eval", args, run)
}

/// The exit code of a run with invalid or tampered episodes (without `--allow-invalid`).
pub const EXIT_INVALID: i32 = 3;

/// The exit code of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT, as a shell reports it).
pub const EXIT_INTERRUPTED: i32 = crate::interrupt::EXIT_AT_ONCE;

fn run(a: &EvalArgs) -> Result<i32, String> {
    if a.list {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        for s in Scenario::shipped().map_err(|e| e.to_string())? {
            // A closed pipe (`| head`) ends the listing quietly.
            if writeln!(
                out,
                "{:<22} {:<9} {:<10} {:<7} {:>4} days  dev {:<12} test {:<10} {}",
                s.id,
                s.tier.to_string(),
                s.game.faction,
                s.game.mode,
                s.horizon_days,
                seed_ranges(&s.split_seeds(Split::Dev)),
                seed_ranges(&s.split_seeds(Split::Test)),
                s.title,
            )
            .is_err()
            {
                break;
            }
        }
        return Ok(0);
    }
    let agent = a
        .agent
        .clone()
        .ok_or("--agent 'COMMAND' is required (or --list to see the scenarios)")?;
    if a.scenario.is_empty() {
        return Err("--scenario ID|FILE is required; `colony eval --list` shows the ids".into());
    }
    if let Some(h) = a.turn_hours {
        scenario::check_turn_hours(h).map_err(|e| e.replace("turn_hours", "--turn-hours"))?;
    }
    if !(a.turn_timeout.is_finite() && a.turn_timeout > 0.0) {
        return Err(format!(
            "--turn-timeout must be a positive number of seconds; got {}",
            a.turn_timeout
        ));
    }
    let scenarios = a
        .scenario
        .iter()
        .map(|id| Scenario::find(id).map_err(|e| e.to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    let mut plans = VecDeque::new();
    let mut seeds = BTreeMap::new();
    for (i, s) in scenarios.iter().enumerate() {
        let list = seeds_for(s, a)?;
        seeds.insert(s.id.clone(), list.clone());
        for seed in list {
            let id = format!("{}-s{seed}", s.id);
            if plans.iter().any(|p: &Plan| p.id == id) {
                continue;
            }
            plans.push_back(Plan {
                scenario: i,
                seed,
                id,
            });
        }
    }
    let launch_dir = std::env::current_dir().map_err(|e| format!("no working folder: {e}"))?;
    let resolved = crate::agent::resolve_command(&agent, &launch_dir);
    let colonyd = crate::service::find_colonyd(a.colonyd.as_deref());
    let info = build_info(&colonyd)?;
    let stamp = Stamp {
        version: Version {
            colony: info.version,
            commit: info.commit,
            rules_revision: info.rules_revision,
            rules_digest: info.rules_digest,
            scenarios: scenarios
                .iter()
                .map(|s| (s.id.clone(), s.digest()))
                .collect(),
        },
        split: if a.seeds.is_some() {
            "custom".into()
        } else {
            format!("{:?}", a.split).to_lowercase()
        },
        seeds,
        harness: Harness {
            agent_mode: a.agent_mode.name(),
            agent_resolved: resolved.clone(),
            turn_timeout_seconds: a.turn_timeout,
            turn_hours: a.turn_hours,
            allow_invalid: a.allow_invalid,
            mcp_tools: a.tools.clone(),
        },
    };
    let opts = PlayOpts {
        agent: resolved,
        agent_mode: a.agent_mode,
        mcp_tools: a.tools.clone(),
        turn_hours: a.turn_hours,
        turn_timeout: Duration::from_secs_f64(a.turn_timeout),
        colonyd,
        launch_dir,
    };
    // What an agent detaches from its turn is handed to this process; `guard::sweep` ends it.
    crate::guard::become_subreaper();
    std::fs::create_dir_all(a.out.join("episodes"))
        .map_err(|e| format!("cannot make {}: {e}", a.out.display()))?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let total = plans.len();
    let queue = Mutex::new(plans);
    let done: Mutex<Vec<EpisodeResult>> = Mutex::new(Vec::new());
    let quiet = a.quiet;
    // A line per episode every 10 game days.
    let shown: Mutex<BTreeMap<String, u32>> = Mutex::new(BTreeMap::new());
    let progress = move |id: &str, day: u32, horizon: f64| {
        let mut shown = shown.lock().expect("not poisoned");
        let last = shown.entry(id.to_owned()).or_insert(0);
        if !quiet && day / 10 > *last / 10 {
            eprintln!("  {id}: day {day} of {horizon}");
        }
        *last = (*last).max(day);
    };
    if !quiet {
        eprintln!(
            "colony eval: {total} episodes, {} at once, agent ({}): {agent}",
            a.parallel.max(1),
            a.agent_mode.name()
        );
    }
    // Ctrl-C or SIGTERM: no episode or turn is started after it; the turns under way end (at
    // most --turn-timeout), every episode's colonyd and folder are removed, and no results.
    crate::interrupt::catch();
    std::thread::scope(|scope| {
        for _ in 0..a.parallel.clamp(1, 64) {
            scope.spawn(|| {
                loop {
                    if crate::interrupt::stopped() {
                        break;
                    }
                    let Some(p) = queue.lock().expect("not poisoned").pop_front() else {
                        break;
                    };
                    let s = &scenarios[p.scenario];
                    let dir = a.out.join("episodes").join(&p.id);
                    let _ = std::fs::remove_dir_all(&dir);
                    let r = episode::play(&episode::Episode {
                        scenario: s,
                        seed: p.seed,
                        id: &p.id,
                        opts: &opts,
                        dir: &dir,
                        rt: rt.handle(),
                        progress: &progress,
                    });
                    let mut d = done.lock().expect("not poisoned");
                    d.push(r);
                    if !quiet {
                        let r = d.last().expect("pushed");
                        let mean = d.iter().map(|e| e.score).sum::<f64>() / d.len() as f64;
                        eprintln!(
                            "[{}/{total}] {}: score {:.1}{} days {:.1}, {} turns, {:.1} s{}  (mean so far {mean:.1})",
                            d.len(),
                            r.id,
                            r.score,
                            if r.success { " success," } else { "," },
                            r.days_survived,
                            r.turns,
                            r.wall_seconds,
                            r.error.as_ref().map(|e| format!(", error: {e}")).unwrap_or_default()
                        );
                    }
                }
            });
        }
    });
    crate::guard::sweep();
    let mut episodes = done.into_inner().expect("not poisoned");
    if crate::interrupt::stopped() {
        eprintln!(
            "colony eval: interrupted; {} of {total} episodes started (those under way cut short), {} never; results.json and report.html not written",
            episodes.len(),
            total - episodes.len()
        );
        return Ok(EXIT_INTERRUPTED);
    }
    episodes.sort_by(|x, y| (x.scenario.as_str(), x.seed).cmp(&(y.scenario.as_str(), y.seed)));
    let results = summarize(
        &agent,
        stamp,
        &scenarios,
        episodes,
        start.elapsed().as_secs_f64(),
    );
    let json = serde_json::to_string_pretty(&results).map_err(|e| e.to_string())?;
    write_atomic(&a.out.join("results.json"), json.as_bytes())?;
    write_atomic(
        &a.out.join("report.html"),
        report::html(&results).as_bytes(),
    )?;
    if !quiet {
        eprintln!(
            "score (Crafter, over {} achievements): {:.2}; results in {}",
            results.achievements.len(),
            results.score,
            a.out.display()
        );
        for (id, s) in &results.scenarios {
            eprintln!(
                "  {id}: mean {:.1} ± {:.1}, success {:.0}% over {} episodes",
                s.mean_score,
                s.stderr,
                100.0 * s.success_rate,
                s.episodes
            );
        }
    }
    let flagged: Vec<&EpisodeResult> = results
        .episodes
        .iter()
        .filter(|e| matches!(e.status, Status::Invalid | Status::Tampered))
        .collect();
    if let Some(first) = flagged.first()
        && !a.allow_invalid
    {
        eprintln!(
            "error: {} of {} episodes do not count ({} invalid: the agent failed on more than half \
             its turns; {} tampered); first: {} ({}); see {} (--allow-invalid exits 0 anyway)",
            flagged.len(),
            results.episodes.len(),
            results.invalid_episodes,
            results.tampered_episodes,
            first.id,
            first.error.clone().unwrap_or_else(|| format!(
                "{} of {} turns failed",
                first.agent_failures, first.turns
            )),
            a.out
                .join("episodes")
                .join(&first.id)
                .join("agent.log")
                .display()
        );
        return Ok(EXIT_INVALID);
    }
    Ok(0)
}

/// The aggregates of a run.
pub fn summarize(
    agent: &str,
    stamp: Stamp,
    scenarios: &[Scenario],
    episodes: Vec<EpisodeResult>,
    wall: f64,
) -> Results {
    let counted_by = |s: &Scenario| -> Vec<&'static str> {
        achievements::ALL
            .iter()
            .map(|x| x.id)
            .filter(|id| s.counts(id))
            .collect()
    };
    let mut per = BTreeMap::new();
    for s in scenarios {
        let eps: Vec<&EpisodeResult> = episodes.iter().filter(|e| e.scenario == s.id).collect();
        if eps.is_empty() {
            continue;
        }
        let scores: Vec<f64> = eps.iter().map(|e| e.score).collect();
        let (mean, stderr) = score::mean_stderr(&scores);
        let days: Vec<f64> = eps.iter().map(|e| e.days_survived).collect();
        per.insert(
            s.id.clone(),
            ScenarioSummary {
                title: s.title.clone(),
                faction: s.game.faction.clone(),
                mode: s.game.mode.clone(),
                episodes: eps.len(),
                invalid_episodes: eps.iter().filter(|e| e.status == Status::Invalid).count(),
                tampered_episodes: eps.iter().filter(|e| e.status == Status::Tampered).count(),
                mean_score: mean,
                stderr,
                success_rate: crate::metrics::round3(
                    eps.iter().filter(|e| e.success).count() as f64 / eps.len() as f64,
                ),
                mean_days_survived: score::mean_stderr(&days).0,
                achievements: score::achievement_rates(
                    counted_by(s).into_iter(),
                    eps.iter().map(|e| e.achievements.as_slice()),
                ),
            },
        );
    }
    let overall = score::achievement_rates(
        achievements::ALL.iter().map(|x| x.id),
        episodes.iter().map(|e| e.achievements.as_slice()),
    );
    let rates: Vec<f64> = overall.values().copied().collect();
    let count = |st: Status| episodes.iter().filter(|e| e.status == st).count();
    Results {
        agent: agent.to_owned(),
        version: stamp.version,
        split: stamp.split,
        seeds: stamp.seeds,
        harness: stamp.harness,
        score: score::crafter_score(&rates),
        episodes_played: episodes.len(),
        invalid_episodes: count(Status::Invalid),
        tampered_episodes: count(Status::Tampered),
        wall_seconds: (wall * 100.0).round() / 100.0,
        agent_usage: crate::usage::sum(episodes.iter().filter_map(|e| e.agent_usage.as_ref())),
        achievements: overall,
        achievement_titles: achievements::ALL
            .iter()
            .map(|x| (x.id.to_owned(), x.title.to_owned()))
            .collect(),
        scenarios: per,
        episodes,
    }
}

/// Writes a file atomically: a temporary file in the same folder, flushed, then renamed. The
/// file is readable by all (0644, as results are made to be shared; a temporary file alone would
/// leave it 0600).
pub(crate) fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    // (A bare file name's parent is the empty path: the current folder.)
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .permissions(std::fs::Permissions::from_mode(0o644))
        .tempfile_in(dir)
        .map_err(|e| e.to_string())?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    tmp.persist(path)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}
