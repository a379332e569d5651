//! `colony eval compare A B`: two runs set side by side episode by episode. Episodes pair up by
//! (scenario, seed); per scenario the mean scores of A and B, the mean difference B - A with a
//! 95% paired bootstrap interval (the pairs resampled), and the success rates; the episodes in
//! only one run listed, and those whose status is not `ok` counted as 0 and marked. Runs played
//! under different rules are refused unless `--force`. A table on stdout, or `--json`.

use crate::results_file::{self, Episode, Run};
use crate::stats::{self, Estimate, Stat};
use clap::Parser;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::PathBuf;

/// The flags of `colony eval compare`.
#[derive(Parser, Debug)]
#[command(
    name = "colony eval compare",
    about = "Compare two runs of `colony eval` episode by episode: per scenario the mean score difference B - A with a 95% paired bootstrap interval",
    after_help = "Example: colony eval compare eval-baseline/ eval-new/\n\
                  Exit code 0 when compared, 2 when a run cannot be read or the rules differ (without --force)."
)]
pub struct CompareArgs {
    /// Run A (the baseline): its output folder or its results.json.
    pub a: PathBuf,
    /// Run B: its output folder or its results.json.
    pub b: PathBuf,
    /// Compare even when the rules or scenario files differ (or are unknown); warns instead.
    #[arg(long)]
    pub force: bool,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
}

/// What `--json` prints.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Comparison {
    pub a: Side,
    pub b: Side,
    /// The intervals' confidence level, resamples and generator seed.
    pub confidence: f64,
    pub resamples: usize,
    pub seed: u64,
    /// Rule differences set aside with `--force` (empty otherwise).
    pub warnings: Vec<String>,
    /// One row per scenario with pairs, sorted by id.
    pub scenarios: Vec<Row>,
    /// Every pair together (`scenario` is `all`), the interval stratified by scenario.
    pub overall: Row,
    /// Episodes in one run only.
    pub unpaired: Vec<Listed>,
    /// Episodes whose status is not `ok` (counted as score 0 and failed), paired or not.
    pub not_ok: Vec<Listed>,
}

/// One run.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Side {
    pub path: String,
    pub agent: String,
    /// `colony 0.1.0 3f01d06 rules 9c1e2a4b`, or `unversioned`.
    pub stamp: String,
    pub rules_digest: Option<String>,
    pub split: Option<String>,
    /// The run's own Crafter score.
    pub crafter_score: Option<f64>,
    pub episodes: usize,
}

/// One scenario's pairs.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub scenario: String,
    pub pairs: usize,
    pub mean_a: f64,
    pub mean_b: f64,
    /// Mean of B - A over the pairs, with its 95% interval.
    pub diff: Estimate,
    /// 1 when the interval lies above 0 (B better), -1 below (B worse), 0 when it holds 0.
    pub sign: i8,
    pub success_rate_a: f64,
    pub success_rate_b: f64,
    /// Paired episodes whose status is not `ok`, in A and in B.
    pub not_ok_a: usize,
    pub not_ok_b: usize,
}

/// An episode named in a list.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    /// `A` or `B`.
    pub run: &'static str,
    pub id: String,
    pub scenario: String,
    pub seed: u64,
    pub status: String,
}

/// Runs `colony eval compare` with its arguments (after `compare`); returns the exit code.
pub fn main(args: Vec<String>) -> i32 {
    crate::cli::<CompareArgs>("colony eval compare", args, |a| {
        run(a).map(|out| print_out(&out))
    })
}

/// Writes `text` to stdout; a closed pipe (`... | head`) ends quietly with 0 instead of a panic
/// (`colony eval` keeps SIGPIPE ignored for its agents). Another write error: 1.
pub(crate) fn print_out(text: &str) -> i32 {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => 0,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("error: cannot write to stdout: {e}");
            1
        }
    }
}

fn run(args: &CompareArgs) -> Result<String, String> {
    let a = results_file::load(&args.a)?;
    let b = results_file::load(&args.b)?;
    let c = compare(&a, &b, args.force)?;
    if args.json {
        let mut s = serde_json::to_string_pretty(&c).map_err(|e| e.to_string())?;
        s.push('\n');
        Ok(s)
    } else {
        Ok(table(&c))
    }
}

type Key<'a> = (&'a str, u64);

fn by_key(r: &Run) -> BTreeMap<Key<'_>, &Episode> {
    r.episodes
        .iter()
        .map(|e| ((e.scenario.as_str(), e.seed), e))
        .collect()
}

fn listed(run: &'static str, e: &Episode) -> Listed {
    Listed {
        run,
        id: e.id.clone(),
        scenario: e.scenario.clone(),
        seed: e.seed,
        status: e.status.clone(),
    }
}

fn side(r: &Run) -> Side {
    Side {
        path: r.path.display().to_string(),
        agent: r.agent.clone(),
        stamp: r.stamp(),
        rules_digest: r.rules_digest().map(str::to_owned),
        split: r.split.clone(),
        crafter_score: r.crafter,
        episodes: r.episodes.len(),
    }
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// A row over pairs grouped in strata (one per scenario; one stratum for a scenario's row).
fn row(scenario: &str, strata: &[Vec<(&Episode, &Episode)>]) -> Row {
    let pairs: Vec<&(&Episode, &Episode)> = strata.iter().flatten().collect();
    let diffs: Vec<Vec<f64>> = strata
        .iter()
        .map(|s| s.iter().map(|(a, b)| b.score - a.score).collect())
        .collect();
    let slices: Vec<&[f64]> = diffs.iter().map(Vec::as_slice).collect();
    let diff = stats::bootstrap(&slices, Stat::Mean)
        .expect("a row has pairs")
        .round3();
    let n = pairs.len() as f64;
    let rate = |f: fn(&(&Episode, &Episode)) -> bool| {
        round3(pairs.iter().filter(|p| f(p)).count() as f64 / n)
    };
    Row {
        scenario: scenario.to_owned(),
        pairs: pairs.len(),
        mean_a: round3(pairs.iter().map(|(a, _)| a.score).sum::<f64>() / n),
        mean_b: round3(pairs.iter().map(|(_, b)| b.score).sum::<f64>() / n),
        sign: diff.sign(),
        diff,
        success_rate_a: rate(|(a, _)| a.success),
        success_rate_b: rate(|(_, b)| b.success),
        not_ok_a: pairs.iter().filter(|(a, _)| !a.ok()).count(),
        not_ok_b: pairs.iter().filter(|(_, b)| !b.ok()).count(),
    }
}

/// Compares two loaded runs (the rules checked first: refused unless `force`).
pub fn compare(a: &Run, b: &Run, force: bool) -> Result<Comparison, String> {
    let (ka, kb) = (by_key(a), by_key(b));
    let mut per: BTreeMap<&str, Vec<(&Episode, &Episode)>> = BTreeMap::new();
    for (k, ea) in &ka {
        if let Some(eb) = kb.get(k) {
            per.entry(k.0).or_default().push((ea, eb));
        }
    }
    if per.is_empty() {
        return Err(format!(
            "no episode (scenario and seed) is in both {} and {}: nothing to compare",
            a.path.display(),
            b.path.display()
        ));
    }
    let compared: BTreeSet<&str> = per.keys().copied().collect();
    let warnings = results_file::rule_differences(&[a, b], &compared);
    results_file::check_rules(&[a, b], &compared, force)?;
    if let (Some(sa), Some(sb)) = (&a.split, &b.split)
        && sa != sb
    {
        eprintln!(
            "warning: {} is a {sa} run and {} a {sb} run",
            a.path.display(),
            b.path.display()
        );
    }
    let scenarios = per
        .iter()
        .map(|(s, pairs)| row(s, std::slice::from_ref(pairs)))
        .collect();
    let strata: Vec<Vec<(&Episode, &Episode)>> = per.into_values().collect();
    let overall = row("all", &strata);
    let mut unpaired: Vec<Listed> = ka
        .iter()
        .filter(|(k, _)| !kb.contains_key(k))
        .map(|(_, e)| listed("A", e))
        .collect();
    unpaired.extend(
        kb.iter()
            .filter(|(k, _)| !ka.contains_key(k))
            .map(|(_, e)| listed("B", e)),
    );
    let mut not_ok: Vec<Listed> = ka
        .values()
        .filter(|e| !e.ok())
        .map(|e| listed("A", e))
        .collect();
    not_ok.extend(kb.values().filter(|e| !e.ok()).map(|e| listed("B", e)));
    Ok(Comparison {
        a: side(a),
        b: side(b),
        confidence: stats::CONFIDENCE,
        resamples: stats::RESAMPLES,
        seed: stats::SEED,
        warnings: if force { warnings } else { Vec::new() },
        scenarios,
        overall,
        unpaired,
        not_ok,
    })
}

/// The human table.
pub fn table(c: &Comparison) -> String {
    let mut out = String::new();
    for (name, s) in [("A", &c.a), ("B", &c.b)] {
        let split = s
            .split
            .as_deref()
            .map(|x| format!(", {x}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{name}: {}  agent: {}  ({}{split})",
            s.path, s.agent, s.stamp
        );
    }
    out.push('\n');
    let mut rows: Vec<&Row> = c.scenarios.iter().collect();
    if c.scenarios.len() > 1 {
        rows.push(&c.overall);
    }
    let w = rows
        .iter()
        .map(|r| r.scenario.len())
        .max()
        .unwrap_or(0)
        .max(8);
    let _ = writeln!(
        out,
        "{:<w$}  {:>6}  {:>6}  {:>6}  {:>6}  {:<16}  {:>9}  {:>9}  verdict",
        "scenario", "pairs", "mean A", "mean B", "B-A", "95% CI", "success A", "success B",
    );
    for r in rows {
        let marked = if r.not_ok_a + r.not_ok_b > 0 { "*" } else { "" };
        let verdict = match r.sign {
            1 => "B better",
            -1 => "B worse",
            _ => "no clear difference",
        };
        let _ = writeln!(
            out,
            "{:<w$}  {:>6}  {:>6.1}  {:>6.1}  {:>+6.1}  {:<16}  {:>8.0}%  {:>8.0}%  {verdict}",
            r.scenario,
            format!("{}{marked}", r.pairs),
            r.mean_a,
            r.mean_b,
            r.diff.value,
            format!("[{:+.1}, {:+.1}]", r.diff.lo, r.diff.hi),
            100.0 * r.success_rate_a,
            100.0 * r.success_rate_b,
        );
    }
    let _ = writeln!(
        out,
        "\n95% CI: paired bootstrap of the mean difference, the pairs resampled ({} resamples, fixed seed){}.",
        c.resamples,
        if c.scenarios.len() > 1 {
            "; `all` resamples within each scenario"
        } else {
            ""
        }
    );
    if !c.not_ok.is_empty() {
        out.push_str("* not ok (counted as score 0, failed):");
        for e in &c.not_ok {
            let _ = write!(out, " {} {} ({});", e.run, e.id, e.status);
        }
        out.pop();
        out.push('\n');
    }
    if !c.unpaired.is_empty() {
        out.push_str("unpaired (in one run only, not compared):");
        for e in &c.unpaired {
            let _ = write!(out, " {} {};", e.run, e.id);
        }
        out.pop();
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ep(scenario: &str, seed: u64, score: f64, status: &str) -> Episode {
        Episode {
            id: format!("{scenario}-s{seed}"),
            scenario: scenario.into(),
            seed,
            score: if status == "ok" { score } else { 0.0 },
            success: status == "ok" && score >= 50.0,
            status: status.into(),
        }
    }

    fn run(name: &str, episodes: Vec<Episode>) -> Run {
        Run {
            path: PathBuf::from(format!("{name}/results.json")),
            agent: name.into(),
            crafter: None,
            version: Some(results_file::Version {
                rules_digest: Some("r1".into()),
                scenarios: [("x".into(), "dx".into()), ("y".into(), "dy".into())].into(),
                ..Default::default()
            }),
            split: None,
            episodes,
        }
    }

    #[test]
    fn pairs_by_scenario_and_seed() {
        let a = run(
            "a",
            vec![
                ep("x", 1, 10.0, "ok"),
                ep("x", 2, 20.0, "ok"),
                ep("x", 3, 30.0, "ok"),
                ep("x", 9, 30.0, "ok"),
                ep("y", 1, 50.0, "ok"),
            ],
        );
        let b = run(
            "b",
            vec![
                ep("x", 1, 40.0, "ok"),
                ep("x", 2, 45.0, "ok"),
                ep("x", 3, 60.0, "invalid"),
                ep("y", 1, 70.0, "ok"),
                ep("y", 2, 70.0, "ok"),
            ],
        );
        let c = compare(&a, &b, false).unwrap();
        assert_eq!(c.scenarios.len(), 2);
        let x = &c.scenarios[0];
        assert_eq!((x.scenario.as_str(), x.pairs), ("x", 3));
        assert_eq!((x.mean_a, x.mean_b), (20.0, 28.333));
        // Differences 30, 25, -30 (the invalid episode counts as 0).
        assert_eq!(x.diff.value, 8.333);
        assert!(x.diff.lo <= 8.333 && 8.333 <= x.diff.hi);
        assert_eq!((x.not_ok_a, x.not_ok_b), (0, 1));
        assert_eq!((x.success_rate_a, x.success_rate_b), (0.0, 0.0));
        assert_eq!(c.overall.pairs, 4);
        let unpaired: Vec<(&str, &str)> =
            c.unpaired.iter().map(|e| (e.run, e.id.as_str())).collect();
        assert_eq!(unpaired, vec![("A", "x-s9"), ("B", "y-s2")]);
        assert_eq!(c.not_ok.len(), 1);
        assert_eq!(c.not_ok[0].id, "x-s3");
        let t = table(&c);
        assert!(t.contains("3*"), "{t}");
        assert!(t.contains("x-s3 (invalid)"), "{t}");
        assert!(
            t.contains("unpaired (in one run only, not compared): A x-s9; B y-s2"),
            "{t}"
        );
    }

    #[test]
    fn a_clear_gain_has_an_interval_above_zero() {
        let a = run(
            "a",
            (1..=10)
                .map(|s| ep("x", s, 20.0 + s as f64, "ok"))
                .collect(),
        );
        let b = run(
            "b",
            (1..=10)
                .map(|s| ep("x", s, 40.0 + (s % 3) as f64, "ok"))
                .collect(),
        );
        let c = compare(&a, &b, false).unwrap();
        assert_eq!(c.scenarios[0].sign, 1, "{:?}", c.scenarios[0]);
        assert!(table(&c).contains("B better"));
        let back = compare(&b, &a, false).unwrap();
        assert_eq!(back.scenarios[0].sign, -1);
        assert_eq!(back.scenarios[0].diff.value, -c.scenarios[0].diff.value);
    }

    #[test]
    fn different_rules_are_refused_unless_forced() {
        let a = run("a", vec![ep("x", 1, 10.0, "ok")]);
        let mut b = run("b", vec![ep("x", 1, 20.0, "ok")]);
        b.version.as_mut().unwrap().rules_digest = Some("r2".into());
        let e = compare(&a, &b, false).unwrap_err();
        assert!(
            e.contains("r1") && e.contains("r2") && e.contains("--force"),
            "{e}"
        );
        let c = compare(&a, &b, true).unwrap();
        assert_eq!(c.warnings.len(), 1);
        // Nothing in common.
        let d = run("d", vec![ep("y", 5, 1.0, "ok")]);
        assert!(
            compare(&a, &d, false)
                .unwrap_err()
                .contains("nothing to compare")
        );
    }
}
