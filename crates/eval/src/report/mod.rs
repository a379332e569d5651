//! `report.html`: one self-contained page (inline CSS, SVG and PNG, no script, nothing fetched) with
//! the version stamp the run was made under, the scores table (episodes that do not count
//! counted apart), the achievements grid and, per scenario, its episodes: each one's status
//! (anything but `ok` in red with the reason), its score by term, its deaths by cause, and
//! plots of its history ([`plots`]) on axes shared by every episode of the scenario, a strip of
//! pictures of its map (the start, every few turns, hazards' edges, the end; [`crate::minimap`]) and
//! the `colony replay` command for it.
//!
//! Drawn elements carry data attributes (`data-scenario`, `data-rate`, `data-status`,
//! `data-points`, `data-cause`, `data-series`, `data-last`, ...) so tests can check the page
//! against results.json.

mod plots;

use crate::episode::{EpisodeResult, Status};
use crate::run::Results;
use crate::usage::Usage;
use std::collections::BTreeMap;
use std::fmt::Write;

pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A number as short as it reads: at most three decimals, trailing zeros dropped.
fn num(v: f64) -> String {
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// The first `n` characters of a digest.
fn short(digest: &str, n: usize) -> &str {
    digest.get(..n).unwrap_or(digest)
}

/// Colours of the score terms' bar segments, in term order (repeating).
const TERM_COLOURS: &[&str] = &[
    "#2b6cb0", "#2f855a", "#b7791f", "#6b46c1", "#c05621", "#2c7a7b", "#b83280",
];

const STYLE: &str = "
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1a202c;background:#fff}
h1{font-size:22px;margin-bottom:4px} h2{font-size:18px;margin-top:28px} h3{font-size:14px;margin:0 0 4px}
.stamp{color:#4a5568;font-size:12px;margin:2px 0} code{font-size:12px}
table{border-collapse:collapse} th,td{border:1px solid #cbd5e0;padding:3px 8px;text-align:right}
th:first-child,td:first-child{text-align:left} .grid td{min-width:48px}
.ok{color:#276749} .bad{color:#c53030} td.bad{font-weight:bold}
.episode{border-left:4px solid #cbd5e0;padding:6px 0 6px 12px;margin:14px 0}
.episode.not-ok{border-left-color:#c53030;background:#fff5f5}
.status{color:#c53030;font-weight:bold;margin:2px 0}
.facts{display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start;margin:6px 0}
.facts p{margin:2px 0}
.terms{font-size:12px} .terms td,.terms th{padding:1px 6px} .terms tr.total td{font-weight:bold}
.bar{display:block;margin:0 0 4px;border:1px solid #cbd5e0;background:#edf2f7}
.plots{display:flex;gap:12px;flex-wrap:wrap}
.plot{margin:0} .plot figcaption{font-size:12px;color:#4a5568;max-width:330px}
svg{background:#fff} .plot svg{border:1px solid #e2e8f0}
.axis text{font-size:10px;fill:#4a5568} .axis line{stroke:#718096} .axis line.grid{stroke:#edf2f7}
.axis .axis-label{font-size:11px;fill:#2d3748}
.maps{display:flex;gap:8px;flex-wrap:wrap;margin-top:8px}
.map{margin:0} .map img{width:160px;image-rendering:pixelated;border:1px solid #cbd5e0;display:block}
.map figcaption{font-size:11px;color:#4a5568} .replay{font-size:12px;color:#4a5568}
.key,.legend span{display:inline-block;width:12px;height:12px;vertical-align:middle;margin:0 4px}
.legend span{margin-left:12px}
";

/// The whole page.
pub fn html(r: &Results) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Colony evaluation</title><style>{STYLE}</style></head><body>\n\
         <h1>Colony evaluation</h1>\n"
    );
    stamp(&mut out, r);
    let not_ok = r.episodes.iter().filter(|e| e.status != Status::Ok).count();
    let _ = write!(
        out,
        "<p>Agent: <code title=\"{resolved}\">{agent}</code> · {n} episodes{nc} · {wall:.1} s wall time</p>\n\
         <p id=\"overall\" data-score=\"{score}\">Overall score (Crafter: geometric mean of achievement success rates): <b>{score:.2}</b></p>\n",
        agent = esc(&r.agent),
        resolved = esc(&r.harness.agent_resolved),
        n = r.episodes_played,
        nc = if not_ok > 0 {
            format!(
                ", <span class=\"bad\">{not_ok} not counted ({} invalid, {} tampered, {} errors)</span>",
                r.invalid_episodes,
                r.tampered_episodes,
                count(&r.episodes, Status::Error)
            )
        } else {
            String::new()
        },
        wall = r.wall_seconds,
        score = r.score,
    );
    if let Some(u) = &r.agent_usage {
        let _ = writeln!(
            out,
            "<p id=\"usage\">Agent usage, all episodes: {}</p>",
            usage(u)
        );
    }
    scores_table(&mut out, r);
    achievements_grid(&mut out, r);
    episodes(&mut out, r);
    out.push_str("</body></html>\n");
    out
}

fn count(episodes: &[EpisodeResult], st: Status) -> usize {
    episodes.iter().filter(|e| e.status == st).count()
}

/// The version stamp: what made the run (colonyd's build and rules, the scenario files, the
/// split) and how the harness played.
fn stamp(out: &mut String, r: &Results) {
    let v = &r.version;
    let h = &r.harness;
    let _ = writeln!(
        out,
        "<p id=\"version\" class=\"stamp\" data-colony=\"{colony}\" data-commit=\"{commit}\" \
         data-rules-revision=\"{rev}\" data-rules-digest=\"{digest}\" data-split=\"{split}\">\
         colony {colony} · commit <code title=\"{commit}\">{commit_short}</code> · rules revision {rev}, \
         digest <code title=\"{digest}\">{digest_short}</code> · split <b>{split}</b> · \
         harness: agent {mode}, turn timeout {timeout} s, {hours}, MCP tools {tools}{allow}</p>",
        colony = esc(&v.colony),
        commit = esc(v.commit.as_deref().unwrap_or("unknown")),
        commit_short = esc(short(v.commit.as_deref().unwrap_or("unknown"), 10)),
        rev = v.rules_revision,
        digest = esc(&v.rules_digest),
        digest_short = esc(short(&v.rules_digest, 12)),
        split = esc(&r.split),
        mode = esc(h.agent_mode),
        timeout = num(h.turn_timeout_seconds),
        hours = match h.turn_hours {
            Some(x) => format!("{} game hours a turn (--turn-hours)", num(x)),
            None => "each scenario's own turn length".into(),
        },
        tools = esc(&h.mcp_tools),
        allow = if h.allow_invalid {
            ", --allow-invalid"
        } else {
            ""
        },
    );
    out.push_str("<p id=\"scenario-files\" class=\"stamp\">Scenario files (SHA-256):");
    for (i, (id, digest)) in v.scenarios.iter().enumerate() {
        let seeds = r.seeds.get(id).map_or_else(String::new, |s| {
            let list: Vec<String> = s.iter().map(u64::to_string).collect();
            format!(", seeds {}", list.join(","))
        });
        let _ = write!(
            out,
            "{} <span data-scenario=\"{id}\" data-digest=\"{d}\">{id} <code title=\"{d}\">{ds}</code>{seeds}</span>",
            if i > 0 { ";" } else { "" },
            id = esc(id),
            d = esc(digest),
            ds = esc(short(digest, 12)),
        );
    }
    out.push_str("</p>\n");
}

fn scores_table(out: &mut String, r: &Results) {
    out.push_str(
        "<h2>Scores</h2><table id=\"scores\"><tr><th>Scenario</th><th>Faction</th><th>Mode</th>\
         <th>Episodes</th><th>Mean score</th><th>± s.e.</th><th>Success</th><th>Days survived</th>\
         <th title=\"the agent failed on more than half its turns; scored 0\">Invalid</th>\
         <th title=\"the game was changed around the harness; scored 0\">Tampered</th>\
         <th title=\"the episode could not be played; scored 0\">Errors</th></tr>\n",
    );
    for (id, s) in &r.scenarios {
        let errors = r
            .episodes
            .iter()
            .filter(|e| &e.scenario == id && e.status == Status::Error)
            .count();
        let flag = |n: usize| {
            if n > 0 {
                format!("<td class=\"bad\">{n}</td>")
            } else {
                "<td>0</td>".into()
            }
        };
        let _ = writeln!(
            out,
            "<tr data-scenario=\"{id}\" data-mean=\"{m}\" data-success=\"{sr}\" data-invalid=\"{inv}\" \
             data-tampered=\"{tam}\" data-errors=\"{errors}\"><td>{id} <small>{t}</small></td><td>{f}</td>\
             <td>{mode}</td><td>{n}</td><td>{m:.1}</td><td>{se:.1}</td><td>{pct:.0}%</td><td>{d:.1}</td>\
             {fi}{ft}{fe}</tr>",
            id = esc(id),
            t = esc(&s.title),
            f = esc(&s.faction),
            mode = esc(&s.mode),
            n = s.episodes,
            m = s.mean_score,
            se = s.stderr,
            sr = s.success_rate,
            pct = 100.0 * s.success_rate,
            d = s.mean_days_survived,
            inv = s.invalid_episodes,
            tam = s.tampered_episodes,
            fi = flag(s.invalid_episodes),
            ft = flag(s.tampered_episodes),
            fe = flag(errors),
        );
    }
    out.push_str("</table>\n");
}

fn achievements_grid(out: &mut String, r: &Results) {
    out.push_str("<h2>Achievements</h2><table id=\"achievements\" class=\"grid\"><tr><th>Achievement</th><th>All</th>");
    for id in r.scenarios.keys() {
        let _ = write!(out, "<th>{}</th>", esc(id));
    }
    out.push_str("</tr>\n");
    // In the order achievements are defined (roughly the order a colony reaches them).
    for a in crate::achievements::ALL {
        let (aid, title) = (a.id, a.title);
        let Some(rate) = r.achievements.get(aid) else {
            continue;
        };
        let _ = write!(
            out,
            "<tr data-achievement=\"{aid}\"><td title=\"{aid}\">{t}</td>{c}",
            t = esc(title),
            c = cell("all", *rate)
        );
        for (sid, s) in &r.scenarios {
            match s.achievements.get(aid) {
                Some(v) => out.push_str(&cell(sid, *v)),
                None => out.push_str("<td>–</td>"),
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

fn cell(scenario: &str, rate: f64) -> String {
    let alpha = 0.1 + 0.8 * rate;
    format!(
        "<td data-scenario=\"{}\" data-rate=\"{rate}\" style=\"background:rgba(47,133,90,{alpha:.2})\">{:.0}%</td>",
        esc(scenario),
        100.0 * rate
    )
}

/// The episodes, by scenario: each scenario's plots share one x and one y scale per chart.
fn episodes(out: &mut String, r: &Results) {
    out.push_str(
        "<h2>Episodes</h2><p class=\"legend\">Plots: x is game days since the start (day 1, hour 0 \
         is 0); within a scenario every episode is drawn on the same axes. Shaded hours:\
         <span style=\"background:#fbd38d\"></span>drought<span style=\"background:#d6bcfa\"></span>badtide</p>\n",
    );
    let mut by: BTreeMap<&str, Vec<&EpisodeResult>> = BTreeMap::new();
    for e in &r.episodes {
        by.entry(e.scenario.as_str()).or_default().push(e);
    }
    for (sid, eps) in by {
        let scales = plots::Scales::of(eps.iter().map(|e| e.rows.as_slice()));
        let title = r.scenarios.get(sid).map_or("", |s| s.title.as_str());
        let _ = writeln!(
            out,
            "<section class=\"scenario\" data-scenario=\"{id}\"><h2>{id} <small>{t}</small></h2>",
            id = esc(sid),
            t = esc(title)
        );
        for e in eps {
            episode(out, e, &scales);
        }
        out.push_str("</section>\n");
    }
}

/// Why an episode does not count: its error, or for an invalid one its failed turns.
fn reason(e: &EpisodeResult) -> String {
    match (&e.error, e.status) {
        (Some(x), _) => x.clone(),
        (None, Status::Invalid) => format!(
            "the agent failed on {} of {} turns ({} timed out); more than half failed, so the \
             episode scores 0",
            e.agent_failures, e.turns, e.timeouts
        ),
        (None, _) => "no reason recorded".into(),
    }
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Ok => "ok",
        Status::Invalid => "invalid",
        Status::Tampered => "tampered",
        Status::Error => "error",
    }
}

fn episode(out: &mut String, e: &EpisodeResult, scales: &plots::Scales) {
    let ok = e.status == Status::Ok;
    let status = status_name(e.status);
    let _ = writeln!(
        out,
        "<section class=\"episode{cls}\" data-episode=\"{id}\" data-scenario=\"{sc}\" data-score=\"{s}\" \
         data-status=\"{status}\"><h3>{id}: score {s:.1}, {succ}, {d:.1} days, {t} turns, {calls} API \
         calls ({errs} errors)</h3>",
        cls = if ok { "" } else { " not-ok" },
        id = esc(&e.id),
        sc = esc(&e.scenario),
        s = e.score,
        succ = if e.success {
            "<span class=\"ok\">success</span>"
        } else {
            "<span class=\"bad\">no success</span>"
        },
        d = e.days_survived,
        t = e.turns,
        calls = e.api_calls,
        errs = e.api_errors,
    );
    if !ok {
        let _ = writeln!(
            out,
            "<p class=\"status\" data-status=\"{status}\">{status}: {}</p>",
            esc(&reason(e))
        );
    }
    out.push_str("<div class=\"facts\">");
    terms(out, e);
    out.push_str("<div>");
    deaths(out, e);
    if let Some(u) = &e.agent_usage {
        let _ = writeln!(out, "<p class=\"usage\">Agent usage: {}</p>", usage(u));
    }
    let _ = write!(
        out,
        "<p>Achievements: {}</p></div></div><div class=\"plots\">",
        if e.achievements.is_empty() {
            "none".to_owned()
        } else {
            esc(&e.achievements.join(", "))
        },
    );
    for (c, y) in plots::CHARTS.iter().zip(&scales.y) {
        plots::chart(out, &e.rows, c, &scales.x, y);
    }
    out.push_str("</div>");
    maps(out, e);
    out.push_str("</section>\n");
}

/// The episode's map pictures as a strip (inline PNGs, a pixel per tile drawn two pixels wide),
/// each captioned with its day and moment, and the command that replays the episode.
fn maps(out: &mut String, e: &EpisodeResult) {
    use base64::Engine;
    if !e.maps.is_empty() {
        let _ = write!(out, "<div class=\"maps\" data-maps=\"{}\">", e.maps.len());
        for m in &e.maps {
            let caption = if m.label.is_empty() {
                format!("day {}", m.day)
            } else {
                format!("day {}: {}", m.day, m.label)
            };
            let _ = write!(
                out,
                "<figure class=\"map\" data-turn=\"{turn}\" data-day=\"{day}\" data-label=\"{label}\">\
                 <img alt=\"the map on {caption}\" src=\"data:image/png;base64,{png}\">\
                 <figcaption>{caption}</figcaption></figure>",
                turn = m.turn,
                day = m.day,
                label = esc(&m.label),
                caption = esc(&caption),
                png = base64::engine::general_purpose::STANDARD.encode(&m.png),
            );
        }
        out.push_str("</div>");
    }
    let _ = writeln!(
        out,
        "<p class=\"replay\">Replay (from this report's folder): <code>colony replay --check episodes/{}</code></p>",
        esc(&e.id)
    );
}

/// What an agent reported spending (`agentUsage`), each member it named, with data attributes
/// for scripts.
fn usage(u: &Usage) -> String {
    let mut parts = Vec::new();
    if let Some(m) = &u.model {
        parts.push(format!(
            "<span data-model=\"{m}\">model {m}</span>",
            m = esc(m)
        ));
    }
    if let Some(n) = u.prompt_tokens {
        parts.push(format!(
            "<span data-prompt-tokens=\"{n}\">{n} prompt tokens</span>"
        ));
    }
    if let Some(n) = u.completion_tokens {
        parts.push(format!(
            "<span data-completion-tokens=\"{n}\">{n} completion tokens</span>"
        ));
    }
    if let Some(c) = u.cost {
        parts.push(format!("<span data-cost=\"{c}\">${c:.4}</span>"));
    }
    parts.join(", ")
}

/// The score by term: a bar of the 0-100 score in segments, and a table whose points sum to
/// the score. Nothing when results.json has no terms.
fn terms(out: &mut String, e: &EpisodeResult) {
    if e.score_terms.is_empty() {
        return;
    }
    const BW: f64 = 300.0;
    let _ = write!(
        out,
        "<div class=\"breakdown\"><svg class=\"bar\" width=\"{BW}\" height=\"14\" viewBox=\"0 0 {BW} 14\" \
         role=\"img\" aria-label=\"score {} of 100 by term\">",
        num(e.score)
    );
    let mut at = 0.0;
    for (i, t) in e.score_terms.iter().enumerate() {
        let w = (t.points.max(0.0) / 100.0 * BW).min(BW - at);
        let _ = write!(
            out,
            "<rect x=\"{at:.1}\" y=\"0\" width=\"{w:.1}\" height=\"14\" fill=\"{}\"><title>{}: {} points</title></rect>",
            TERM_COLOURS[i % TERM_COLOURS.len()],
            esc(&t.metric),
            num(t.points)
        );
        at += w;
    }
    out.push_str(
        "</svg><table class=\"terms\"><tr><th>Score term</th><th>Value</th><th>Target</th>\
         <th>Weight</th><th>Points</th></tr>",
    );
    for (i, t) in e.score_terms.iter().enumerate() {
        let _ = write!(
            out,
            "<tr class=\"term\" data-metric=\"{m}\" data-points=\"{p}\"><td><span class=\"key\" \
             style=\"background:{c}\"></span>{m}</td><td>{v}</td><td>{dir}{target}</td><td>{w}</td>\
             <td>{p:.1}</td></tr>",
            m = esc(&t.metric),
            p = t.points,
            c = TERM_COLOURS[i % TERM_COLOURS.len()],
            v = num(t.value),
            dir = if t.lower_is_better { "≤ " } else { "" },
            target = num(t.target),
            w = num(t.weight),
        );
    }
    let _ = write!(
        out,
        "<tr class=\"total\" data-points=\"{s}\"><td>score</td><td></td><td></td><td></td><td>{s:.1}</td></tr></table></div>",
        s = e.score
    );
}

/// Deaths by cause over the episode, counted from its hourly rows, most first.
fn death_causes(e: &EpisodeResult) -> Vec<(String, u32)> {
    let mut by: BTreeMap<&str, u32> = BTreeMap::new();
    for r in &e.rows {
        for (cause, n) in &r.deaths {
            if *n > 0 {
                *by.entry(cause.as_str()).or_default() += n;
            }
        }
    }
    let mut v: Vec<(String, u32)> = by.into_iter().map(|(c, n)| (c.to_owned(), n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

fn deaths(out: &mut String, e: &EpisodeResult) {
    let causes = death_causes(e);
    let total: u32 = causes.iter().map(|c| c.1).sum();
    let _ = write!(
        out,
        "<p class=\"deaths\" data-deaths=\"{total}\">Deaths by cause: "
    );
    if causes.is_empty() {
        out.push_str("none");
    }
    for (i, (cause, n)) in causes.iter().enumerate() {
        let _ = write!(
            out,
            "{}<span data-cause=\"{c}\" data-count=\"{n}\">{c} {n}</span>",
            if i > 0 { ", " } else { "" },
            c = esc(cause),
        );
    }
    out.push_str("</p>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::tests::row;
    use crate::score::TermScore;

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }

    #[test]
    fn numbers_read_short() {
        assert_eq!(num(60.0), "60");
        assert_eq!(num(12.5), "12.5");
        assert_eq!(num(20.83333), "20.833");
        assert_eq!(num(-0.0001), "0");
    }

    fn results(episodes: Vec<EpisodeResult>) -> Results {
        let stamp = crate::run::Stamp {
            version: crate::run::Version {
                colony: "0.1.0".into(),
                commit: Some("42132d28a229007ff759c6108a3be82b991cb7ed".into()),
                rules_revision: 1,
                rules_digest: "2bdb8ecc0cbe9de4d42d43ab70cb553ef474b8a5cbf62fb3f1d634024ca6e9e0"
                    .into(),
                scenarios: [("t".to_owned(), "d457eabb1975ad28".to_owned())].into(),
            },
            split: "dev".into(),
            seeds: [("t".to_owned(), vec![1, 2])].into(),
            harness: crate::run::Harness {
                agent_mode: "per-turn",
                agent_resolved: "python3 /x/agent.py".into(),
                turn_timeout_seconds: 120.0,
                turn_hours: None,
                allow_invalid: true,
                mcp_tools: "core".into(),
            },
        };
        let s = crate::scenario::Scenario::parse(
            "id = \"t\"\ntitle = \"T <b>\"\ngoal = \"Live.\"\nhorizon_days = 2\n[game]\n\
             faction = \"Folktails\"\nmode = \"Normal\"\nseeds = [1, 2]\n[[score]]\n\
             metric = \"days_survived\"\ntarget = 2\n",
            "t.toml",
        )
        .unwrap();
        crate::run::summarize("python3 agent.py", stamp, &[s], episodes, 1.0)
    }

    fn ep(seed: u64, status: Status, rows: Vec<crate::history::Row>) -> EpisodeResult {
        EpisodeResult {
            id: format!("t-s{seed}"),
            scenario: "t".into(),
            seed,
            status,
            days_survived: 1.0,
            wall_seconds: 0.1,
            turns: 4,
            turn_hours: 12.0,
            timeouts: 1,
            agent_failures: 3,
            rows,
            ..EpisodeResult::default()
        }
    }

    #[test]
    fn the_page_shows_the_stamp_the_terms_the_deaths_and_who_does_not_count() {
        let mut a_rows: Vec<_> = (0..30).map(|h| row(1 + h / 24, h % 24, 5)).collect();
        a_rows[3].deaths.insert("thirst".into(), 2);
        a_rows[9].deaths.insert("hunger".into(), 1);
        a_rows[12].deaths.insert("thirst".into(), 1);
        let mut a = ep(1, Status::Ok, a_rows);
        a.score = 62.5;
        a.score_terms = vec![
            TermScore {
                metric: "days_survived".into(),
                value: 1.25,
                target: 2.0,
                weight: 3.0,
                lower_is_better: false,
                survival_scale: None,
                points: 46.875,
            },
            TermScore {
                metric: "deaths".into(),
                value: 3.0,
                target: 4.0,
                weight: 1.0,
                lower_is_better: true,
                survival_scale: None,
                points: 15.625,
            },
        ];
        a.agent_usage = Some(Usage {
            model: Some("gpt-<x>".into()),
            prompt_tokens: Some(1200),
            completion_tokens: Some(300),
            cost: Some(0.0125),
        });
        let b = ep(2, Status::Invalid, (0..10).map(|h| row(1, h, 40)).collect());
        let mut r = results(vec![a, b]);
        r.agent_usage = crate::usage::sum(r.episodes.iter().filter_map(|e| e.agent_usage.as_ref()));
        let html = html(&r);
        // What the agent spent: per episode that reported it, and over the run.
        assert!(html.contains(
            "<p class=\"usage\">Agent usage: <span data-model=\"gpt-&lt;x&gt;\">model gpt-&lt;x&gt;</span>, \
             <span data-prompt-tokens=\"1200\">1200 prompt tokens</span>, \
             <span data-completion-tokens=\"300\">300 completion tokens</span>, \
             <span data-cost=\"0.0125\">$0.0125</span></p>"
        ), "{html}");
        assert_eq!(
            html.matches("class=\"usage\"").count(),
            1,
            "the other episode reported none"
        );
        assert!(html.contains("<p id=\"usage\">Agent usage, all episodes: <span data-model"));
        // The stamp.
        assert!(html.contains("data-rules-digest=\"2bdb8ecc0cbe9de4"));
        assert!(html.contains(
            "commit <code title=\"42132d28a229007ff759c6108a3be82b991cb7ed\">42132d28a2</code>"
        ));
        assert!(html.contains("split <b>dev</b>") && html.contains("--allow-invalid"));
        assert!(html.contains("MCP tools core"));
        assert!(html.contains("data-digest=\"d457eabb1975ad28\""));
        // The terms sum to the score; the invalid episode has none and says why, in red.
        let pts: f64 = html
            .split("class=\"term\" data-metric=")
            .skip(1)
            .map(|s| {
                let p = s.split("data-points=\"").nth(1).unwrap();
                p[..p.find('"').unwrap()].parse::<f64>().unwrap()
            })
            .sum();
        assert_eq!(pts, 62.5);
        assert!(html.contains("≤ 4"));
        assert_eq!(html.matches("class=\"breakdown\"").count(), 1);
        assert!(html.contains(
            "<p class=\"status\" data-status=\"invalid\">invalid: the agent failed on 3 of 4 turns (1 timed out)"
        ));
        assert!(html.contains("class=\"episode not-ok\" data-episode=\"t-s2\""));
        assert!(html.contains("data-invalid=\"1\""));
        assert!(html.contains("1 not counted (1 invalid, 0 tampered, 0 errors)"));
        // Deaths by cause, most first; none for the other.
        assert!(html.contains(
            "<p class=\"deaths\" data-deaths=\"4\">Deaths by cause: <span data-cause=\"thirst\" data-count=\"3\">thirst 3</span>, \
             <span data-cause=\"hunger\" data-count=\"1\">hunger 1</span></p>"
        ));
        assert!(html.contains("data-deaths=\"0\">Deaths by cause: none"));
        // One scale for both: the longer episode sets x, the larger population sets y.
        let ranges: Vec<&str> = html
            .split("data-chart=\"population\" ")
            .skip(1)
            .map(|s| &s[..s.find(" width").unwrap()])
            .collect();
        assert_eq!(ranges.len(), 2);
        assert_eq!(ranges[0], ranges[1]);
        assert!(ranges[0].contains("data-y-max=\"40\""), "{}", ranges[0]);
        // Self-contained, markup escaped.
        assert!(!html.contains("<script") && !html.contains("http"));
        assert!(html.contains("T &lt;b&gt;"));
    }
}
