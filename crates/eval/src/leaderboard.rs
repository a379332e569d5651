//! `colony eval leaderboard DIR...`: one row per run (the agent's command, with the version
//! stamp), per scenario the mean and the interquartile mean (IQM) of the episode scores with 95%
//! bootstrap intervals and the success rate, the run's Crafter score, and the overall IQM over
//! every scenario with its stratified bootstrap interval (Agarwal et al. 2021, rliable); rows
//! sorted by overall IQM. Markdown on stdout, or `--out FILE.md|FILE.html` written atomically
//! (the HTML page self-contained). Runs played under different rules are refused unless
//! `--force`.

use crate::results_file::{self, Run};
use crate::stats::{self, Estimate, Stat};
use clap::Parser;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::PathBuf;

/// The flags of `colony eval leaderboard`.
#[derive(Parser, Debug)]
#[command(
    name = "colony eval leaderboard",
    about = "Rank runs of `colony eval`: per scenario mean and IQM with 95% bootstrap intervals, success rate, Crafter score, and the overall IQM",
    after_help = "Example: colony eval leaderboard eval-idle/ eval-random/ eval-scripted/ --out leaderboard.html\n\
                  Exit code 0 when written, 2 when a run cannot be read or the rules differ (without --force)."
)]
pub struct LeaderboardArgs {
    /// The runs: output folders or results.json files, one row each.
    #[arg(required = true, value_name = "DIR")]
    pub runs: Vec<PathBuf>,
    /// Write to FILE.md (Markdown) or FILE.html (a self-contained page) instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Rank runs even when their rules or scenario files differ (or are unknown); warns instead.
    #[arg(long)]
    pub force: bool,
    /// Markdown in two tables: the runs overall, then one row per scenario and run (narrow enough
    /// to read with many scenarios; the HTML page is not changed by it).
    #[arg(long)]
    pub by_scenario: bool,
}

/// One scenario of one run.
#[derive(Clone, Debug)]
pub struct Cell {
    pub episodes: usize,
    /// Episodes whose status is not `ok` (counted as score 0).
    pub not_ok: usize,
    pub mean: Estimate,
    pub iqm: Estimate,
    pub success_rate: f64,
}

/// One run's row.
#[derive(Clone, Debug)]
pub struct Row {
    pub agent: String,
    pub path: String,
    pub stamp: String,
    pub split: Option<String>,
    pub crafter: Option<f64>,
    pub episodes: usize,
    pub not_ok: usize,
    /// IQM of every episode's score, the interval resampling seeds within each scenario.
    pub overall: Estimate,
    pub scenarios: BTreeMap<String, Cell>,
}

/// The whole leaderboard.
#[derive(Clone, Debug)]
pub struct Board {
    /// Rows best first (overall IQM, then agent and path).
    pub rows: Vec<Row>,
    /// Every scenario any run played, sorted.
    pub scenarios: Vec<String>,
    /// Notes printed under the table (scenarios not covered by every run...).
    pub notes: Vec<String>,
}

/// Runs `colony eval leaderboard` with its arguments (after `leaderboard`); the exit code.
pub fn main(args: Vec<String>) -> i32 {
    crate::cli::<LeaderboardArgs>("colony eval leaderboard", args, run)
}

enum Format {
    Markdown,
    Html,
}

/// The exit code once written (see [`crate::compare::print_out`] for stdout).
fn run(a: &LeaderboardArgs) -> Result<i32, String> {
    let format = match &a.out {
        None => Format::Markdown,
        Some(p) => match p.extension().and_then(|e| e.to_str()) {
            Some("md" | "markdown") => Format::Markdown,
            Some("html" | "htm") => Format::Html,
            _ => {
                return Err(format!(
                    "--out {}: the name must end in .md (Markdown) or .html (a web page)",
                    p.display()
                ));
            }
        },
    };
    let runs = a
        .runs
        .iter()
        .map(|p| results_file::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    let board = build(&runs, a.force)?;
    for n in &board.notes {
        eprintln!("note: {n}");
    }
    let text = match format {
        Format::Markdown if a.by_scenario => markdown_by_scenario(&board),
        Format::Markdown => markdown(&board),
        Format::Html => html(&board),
    };
    match &a.out {
        None => Ok(crate::compare::print_out(&text)),
        Some(p) => {
            crate::run::write_atomic(p, text.as_bytes())?;
            eprintln!(
                "leaderboard of {} runs in {}",
                board.rows.len(),
                p.display()
            );
            Ok(0)
        }
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// One run's row.
fn row(r: &Run) -> Result<Row, String> {
    let mut scenarios = BTreeMap::new();
    let mut strata = Vec::new();
    for s in r.scenarios() {
        let scores: Vec<f64> = r.of(s).map(|e| e.score).collect();
        let n = scores.len();
        let successes = r.of(s).filter(|e| e.success).count();
        scenarios.insert(
            s.to_owned(),
            Cell {
                episodes: n,
                not_ok: r.of(s).filter(|e| !e.ok()).count(),
                mean: stats::bootstrap(&[&scores], Stat::Mean)
                    .expect("a played scenario has episodes")
                    .round3(),
                iqm: stats::bootstrap(&[&scores], Stat::Iqm)
                    .expect("a played scenario has episodes")
                    .round3(),
                success_rate: round3(successes as f64 / n as f64),
            },
        );
        strata.push(scores);
    }
    let slices: Vec<&[f64]> = strata.iter().map(Vec::as_slice).collect();
    let overall = stats::bootstrap(&slices, Stat::Iqm)
        .ok_or_else(|| format!("{} holds no episodes", r.path.display()))?
        .round3();
    Ok(Row {
        agent: r.agent.clone(),
        path: r.path.display().to_string(),
        stamp: r.stamp(),
        split: r.split.clone(),
        crafter: r.crafter,
        episodes: r.episodes.len(),
        not_ok: r.episodes.iter().filter(|e| !e.ok()).count(),
        overall,
        scenarios,
    })
}

/// Builds the leaderboard of loaded runs (the rules checked first: refused unless `force`).
pub fn build(runs: &[Run], force: bool) -> Result<Board, String> {
    let all: BTreeSet<&str> = runs.iter().flat_map(|r| r.scenarios()).collect();
    if runs.len() > 1 {
        let refs: Vec<&Run> = runs.iter().collect();
        results_file::check_rules(&refs, &all, force)?;
    }
    let mut rows = runs.iter().map(row).collect::<Result<Vec<_>, _>>()?;
    rows.sort_by(|x, y| {
        y.overall
            .value
            .total_cmp(&x.overall.value)
            .then_with(|| x.agent.cmp(&y.agent))
            .then_with(|| x.path.cmp(&y.path))
    });
    let mut notes = Vec::new();
    let partial: Vec<&str> = all
        .iter()
        .copied()
        .filter(|s| rows.iter().any(|r| !r.scenarios.contains_key(*s)))
        .collect();
    if !partial.is_empty() {
        notes.push(format!(
            "not every run played {}: overall IQMs over different scenarios are not comparable",
            partial.join(", ")
        ));
    }
    Ok(Board {
        rows,
        scenarios: all.into_iter().map(str::to_owned).collect(),
        notes,
    })
}

/// `61.2 [55.0, 66.3]`
fn est(e: &Estimate) -> String {
    format!("{:.1} [{:.1}, {:.1}]", e.value, e.lo, e.hi)
}

/// What the leaderboard's numbers are, under the table.
fn legend() -> String {
    format!(
        "Scores are 0-100 per episode; episodes whose status is not ok count as 0 (marked *). \
         IQM: interquartile mean, the mean of the middle 50% of the scores (as rliable: a \
         quarter of the scores, rounded down, dropped from each end). [lo, hi]: {:.0}% \
         percentile bootstrap intervals ({} resamples, fixed seed): a scenario's interval \
         resamples its seeds; overall is the IQM of every episode of the run, its interval \
         resampling seeds within each scenario (stratified bootstrap, Agarwal et al. 2021). \
         Crafter: the run's score over the achievements. Rows are sorted by overall IQM.",
        100.0 * stats::CONFIDENCE,
        stats::RESAMPLES
    )
}

/// The name a row shows: the agent's command, with its results path when two rows share it.
fn names(b: &Board) -> Vec<String> {
    b.rows
        .iter()
        .map(|r| {
            if b.rows.iter().filter(|o| o.agent == r.agent).count() > 1 {
                format!("{} ({})", r.agent, r.path)
            } else {
                r.agent.clone()
            }
        })
        .collect()
}

fn version(r: &Row) -> String {
    match &r.split {
        Some(s) => format!("{} ({s})", r.stamp),
        None => r.stamp.clone(),
    }
}

fn md(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

/// The Markdown table (GitHub's flavour) with its legend.
pub fn markdown(b: &Board) -> String {
    let mut out = String::from("| # | agent | version | episodes | overall IQM | Crafter |");
    let mut rule = String::from("|---:|---|---|---:|---:|---:|");
    for s in &b.scenarios {
        let _ = write!(out, " {0} mean | {0} IQM | {0} success |", md(s));
        rule.push_str("---:|---:|---:|");
    }
    out.push('\n');
    out.push_str(&rule);
    out.push('\n');
    for (i, (r, name)) in b.rows.iter().zip(names(b)).enumerate() {
        let _ = write!(
            out,
            "| {} | {} | {} | {}{} | {} | {} |",
            i + 1,
            md(&name),
            md(&version(r)),
            r.episodes,
            if r.not_ok > 0 { "*" } else { "" },
            est(&r.overall),
            r.crafter.map_or("–".to_owned(), |c| format!("{c:.2}")),
        );
        for s in &b.scenarios {
            match r.scenarios.get(s) {
                Some(c) => {
                    let _ = write!(
                        out,
                        " {} | {} | {:.0}%{} |",
                        est(&c.mean),
                        est(&c.iqm),
                        100.0 * c.success_rate,
                        if c.not_ok > 0 { "*" } else { "" }
                    );
                }
                None => out.push_str(" – | – | – |"),
            }
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\n{}", legend());
    for n in &b.notes {
        let _ = writeln!(out, "\nNote: {n}.");
    }
    out
}

/// Markdown in two tables: the runs overall (rank, agent, version, episodes, overall IQM,
/// Crafter), then a row per scenario and run, the runs of a scenario in rank order.
pub fn markdown_by_scenario(b: &Board) -> String {
    let names = names(b);
    let mut out = String::from(
        "| # | agent | version | episodes | overall IQM | Crafter |\n|---:|---|---|---:|---:|---:|\n",
    );
    for (i, (r, name)) in b.rows.iter().zip(&names).enumerate() {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {}{} | {} | {} |",
            i + 1,
            md(name),
            md(&version(r)),
            r.episodes,
            if r.not_ok > 0 { "*" } else { "" },
            est(&r.overall),
            r.crafter.map_or("–".to_owned(), |c| format!("{c:.2}")),
        );
    }
    out.push_str(
        "\n| scenario | agent | episodes | mean | IQM | success |\n|---|---|---:|---:|---:|---:|\n",
    );
    for s in &b.scenarios {
        for (r, name) in b.rows.iter().zip(&names) {
            if let Some(c) = r.scenarios.get(s) {
                let _ = writeln!(
                    out,
                    "| `{}` | {} | {}{} | {} | {} | {:.0}% |",
                    md(s),
                    md(name),
                    c.episodes,
                    if c.not_ok > 0 { "*" } else { "" },
                    est(&c.mean),
                    est(&c.iqm),
                    100.0 * c.success_rate,
                );
            }
        }
    }
    let _ = writeln!(out, "\n{}", legend());
    for n in &b.notes {
        let _ = writeln!(out, "\nNote: {n}.");
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A number with its interval as a table cell with data attributes.
fn est_td(scenario: &str, stat: &str, e: &Estimate) -> String {
    format!(
        "<td data-scenario=\"{}\" data-stat=\"{stat}\" data-value=\"{}\" data-lo=\"{}\" data-hi=\"{}\">{:.1} <small>[{:.1}, {:.1}]</small></td>",
        esc(scenario),
        e.value,
        e.lo,
        e.hi,
        e.value,
        e.lo,
        e.hi
    )
}

/// The self-contained HTML page (inline CSS, no script, nothing fetched). Rows carry
/// `data-rank`, `data-agent`, `data-path`, `data-iqm`; cells `data-scenario`, `data-stat`,
/// `data-value`, `data-lo`, `data-hi` for tests.
pub fn html(b: &Board) -> String {
    let mut out = String::with_capacity(16 * 1024);
    out.push_str(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Colony leaderboard</title>
<link rel="icon" href="data:,">
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1a202c;background:#fff}
h1{font-size:22px} table{border-collapse:collapse} th,td{border:1px solid #cbd5e0;padding:3px 8px;text-align:right}
th{background:#edf2f7} td{white-space:nowrap} .agent,.version{text-align:left} td.agent code{white-space:pre-wrap}
small{color:#4a5568} .legend{max-width:70em;color:#2d3748} .note{color:#9b2c2c}
</style></head><body>
<h1>Colony leaderboard</h1>
<table id="leaderboard"><thead><tr><th rowspan="2">#</th><th rowspan="2" class="agent">Agent</th><th rowspan="2" class="version">Version</th><th rowspan="2">Episodes</th><th rowspan="2">Overall IQM</th><th rowspan="2">Crafter</th>"#,
    );
    for s in &b.scenarios {
        let _ = write!(out, "<th colspan=\"3\">{}</th>", esc(s));
    }
    out.push_str("</tr>\n<tr>");
    for _ in &b.scenarios {
        out.push_str("<th>Mean</th><th>IQM</th><th>Success</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (i, (r, name)) in b.rows.iter().zip(names(b)).enumerate() {
        let _ = write!(
            out,
            "<tr data-rank=\"{rank}\" data-agent=\"{agent}\" data-path=\"{path}\" data-iqm=\"{iqm}\"><td>{rank}</td><td class=\"agent\" title=\"{path}\"><code>{name}</code></td><td class=\"version\">{version}</td><td data-stat=\"episodes\">{n}{star}</td>{overall}<td data-stat=\"crafter\">{crafter}</td>",
            rank = i + 1,
            agent = esc(&r.agent),
            path = esc(&r.path),
            iqm = r.overall.value,
            name = esc(&name),
            version = esc(&version(r)),
            n = r.episodes,
            star = if r.not_ok > 0 { "*" } else { "" },
            overall = est_td("all", "iqm", &r.overall),
            crafter = r.crafter.map_or("–".to_owned(), |c| format!("{c:.2}")),
        );
        for s in &b.scenarios {
            match r.scenarios.get(s) {
                Some(c) => {
                    out.push_str(&est_td(s, "mean", &c.mean));
                    out.push_str(&est_td(s, "iqm", &c.iqm));
                    let _ = write!(
                        out,
                        "<td data-scenario=\"{}\" data-stat=\"success\" data-value=\"{}\">{:.0}%{}</td>",
                        esc(s),
                        c.success_rate,
                        100.0 * c.success_rate,
                        if c.not_ok > 0 { "*" } else { "" }
                    );
                }
                None => out.push_str("<td>–</td><td>–</td><td>–</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    let _ = writeln!(
        out,
        "</tbody></table>\n<p class=\"legend\">{}</p>",
        esc(&legend())
    );
    for n in &b.notes {
        let _ = writeln!(out, "<p class=\"note\">Note: {}.</p>", esc(n));
    }
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results_file::{Episode, Version};

    fn run(name: &str, digest: &str, scores: &[(&str, &[f64])]) -> Run {
        let mut episodes = Vec::new();
        for (s, v) in scores {
            for (i, x) in v.iter().enumerate() {
                episodes.push(Episode {
                    id: format!("{s}-s{}", i + 1),
                    scenario: (*s).into(),
                    seed: i as u64 + 1,
                    score: *x,
                    success: *x >= 50.0,
                    status: "ok".into(),
                });
            }
        }
        Run {
            path: PathBuf::from(format!("{name}/results.json")),
            agent: format!("python3 agents/{name}.py"),
            crafter: Some(1.5),
            version: Some(Version {
                colony: Some("0.1.0".into()),
                commit: None,
                rules_digest: Some(digest.into()),
                scenarios: [("x".into(), "dx".into()), ("y".into(), "dy".into())].into(),
            }),
            split: None,
            episodes,
        }
    }

    #[test]
    fn rows_are_ranked_by_overall_iqm() {
        let weak = run(
            "weak",
            "r",
            &[("x", &[10.0, 20.0, 30.0, 40.0]), ("y", &[0.0, 5.0])],
        );
        let strong = run(
            "strong",
            "r",
            &[("x", &[60.0, 70.0, 80.0, 90.0]), ("y", &[50.0, 55.0])],
        );
        let b = build(&[weak, strong], false).unwrap();
        let agents: Vec<&str> = b.rows.iter().map(|r| r.agent.as_str()).collect();
        assert_eq!(
            agents,
            ["python3 agents/strong.py", "python3 agents/weak.py"]
        );
        let x = &b.rows[0].scenarios["x"];
        assert_eq!(
            (x.mean.value, x.iqm.value, x.success_rate),
            (75.0, 75.0, 1.0)
        );
        // Overall: the IQM of the six scores 50 55 60 70 80 90 (one dropped from each end).
        assert_eq!(b.rows[0].overall.value, 66.25);
        assert!(b.rows[0].overall.lo <= 66.25 && 66.25 <= b.rows[0].overall.hi);
        assert!(b.notes.is_empty());
        let m = markdown(&b);
        assert!(m.starts_with("| # | agent | version | episodes | overall IQM | Crafter | x mean | x IQM | x success | y mean |"), "{m}");
        assert!(
            m.contains("| 1 | python3 agents/strong.py | colony 0.1.0 rules r | 6 | 66."),
            "{m}"
        );
        let h = html(&b);
        assert!(h.contains("data-rank=\"2\" data-agent=\"python3 agents/weak.py\""));
        assert!(!h.contains("<script") && !h.contains("http://") && !h.contains("https://"));
    }

    #[test]
    fn mixed_rules_are_refused_and_partial_coverage_noted() {
        let a = run("a", "r1", &[("x", &[1.0])]);
        let b = run("b", "r2", &[("y", &[2.0])]);
        let e = build(&[a.clone(), b.clone()], false).unwrap_err();
        assert!(e.contains("r1") && e.contains("r2"), "{e}");
        let board = build(&[a, b], true).unwrap();
        assert_eq!(board.notes.len(), 1, "{:?}", board.notes);
        assert!(markdown(&board).contains("| – | – | – |"));
    }

    #[test]
    fn by_scenario_lists_each_scenario_and_run_once_in_rank_order() {
        let a = run("a", "r", &[("x", &[1.0, 2.0]), ("y", &[3.0])]);
        let b = run("b", "r", &[("x", &[5.0, 6.0])]);
        let m = markdown_by_scenario(&build(&[a, b], true).unwrap());
        let rows: Vec<&str> = m.lines().filter(|l| l.starts_with("| `")).collect();
        assert_eq!(rows.len(), 3, "{m}");
        assert!(rows[0].starts_with("| `x` | python3 agents/b.py |"), "{m}");
        assert!(rows[1].starts_with("| `x` | python3 agents/a.py |"), "{m}");
        assert!(rows[2].starts_with("| `y` | python3 agents/a.py |"), "{m}");
    }

    #[test]
    fn markdown_cells_escape_pipes() {
        let mut a = run("a", "r", &[("x", &[1.0])]);
        a.agent = "sh -c 'a | b'".into();
        let m = markdown(&build(&[a], false).unwrap());
        assert!(m.contains("sh -c 'a \\| b'"), "{m}");
    }
}
