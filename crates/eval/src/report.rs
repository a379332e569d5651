//! `report.html`: one self-contained page (inline CSS and SVG, no script, nothing fetched) with
//! the scores table, the achievements grid and, per episode, small plots of its history
//! (population, food days, water days, wellbeing) with drought and badtide hours shaded.
//!
//! Drawn elements carry data attributes (`data-scenario`, `data-rate`, `data-series`,
//! `data-last`, ...) so tests can check the page against results.json.

use crate::history::Row;
use crate::run::Results;
use std::fmt::Write;

/// Most points drawn per series (longer histories are sampled evenly, the last row always kept).
const MAX_POINTS: usize = 400;
const W: f64 = 260.0;
const H: f64 = 90.0;

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The series of an episode plot: (key, label, colour, value of a row).
type Series = (&'static str, &'static str, &'static str, fn(&Row) -> f64);

const SERIES: &[Series] = &[
    ("population", "Population", "#2b6cb0", |r| {
        r.population().into()
    }),
    ("foodDays", "Food days", "#b7791f", |r| r.food_days.max(0.0)),
    ("waterDays", "Water days", "#3182ce", |r| {
        r.water_days.max(0.0)
    }),
    ("wellbeing", "Wellbeing", "#2f855a", |r| r.wellbeing),
];

/// The whole page.
pub fn html(r: &Results) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let _ = write!(
        out,
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Colony evaluation</title>
<style>
body{{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#1a202c;background:#fff}}
h1{{font-size:22px}} h2{{font-size:18px;margin-top:28px}} h3{{font-size:14px;margin:16px 0 4px}}
table{{border-collapse:collapse}} th,td{{border:1px solid #cbd5e0;padding:3px 8px;text-align:right}}
th:first-child,td:first-child{{text-align:left}} .grid td{{min-width:48px}}
.ok{{color:#276749}} .bad{{color:#9b2c2c}} .plots{{display:flex;gap:12px;flex-wrap:wrap}}
.plot{{margin:0}} .plot figcaption{{font-size:12px;color:#4a5568}} svg{{background:#f7fafc;border:1px solid #e2e8f0}}
.legend span{{display:inline-block;width:12px;height:12px;vertical-align:middle;margin:0 4px 0 12px}}
</style></head><body>
<h1>Colony evaluation</h1>
<p>Agent: <code>{agent}</code> · {n} episodes · {wall:.1} s wall time</p>
<p id="overall" data-score="{score}">Overall score (Crafter: geometric mean of achievement success rates): <b>{score:.2}</b></p>
"#,
        agent = esc(&r.agent),
        n = r.episodes_played,
        wall = r.wall_seconds,
        score = r.score,
    );
    scores_table(&mut out, r);
    achievements_grid(&mut out, r);
    episodes(&mut out, r);
    out.push_str("</body></html>\n");
    out
}

fn scores_table(out: &mut String, r: &Results) {
    out.push_str(
        "<h2>Scores</h2><table id=\"scores\"><tr><th>Scenario</th><th>Faction</th><th>Mode</th>\
         <th>Episodes</th><th>Mean score</th><th>± s.e.</th><th>Success</th><th>Days survived</th></tr>\n",
    );
    for (id, s) in &r.scenarios {
        let _ = writeln!(
            out,
            "<tr data-scenario=\"{id}\" data-mean=\"{m}\" data-success=\"{sr}\"><td>{id} <small>{t}</small></td><td>{f}</td><td>{mode}</td><td>{n}</td><td>{m:.1}</td><td>{se:.1}</td><td>{pct:.0}%</td><td>{d:.1}</td></tr>",
            id = esc(id),
            t = esc(&s.title),
            f = s.faction,
            mode = s.mode,
            n = s.episodes,
            m = s.mean_score,
            se = s.stderr,
            sr = s.success_rate,
            pct = 100.0 * s.success_rate,
            d = s.mean_days_survived,
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

fn episodes(out: &mut String, r: &Results) {
    out.push_str(
        "<h2>Episodes</h2><p class=\"legend\">Shaded hours:<span style=\"background:#fbd38d\"></span>drought\
         <span style=\"background:#d6bcfa\"></span>badtide</p>\n",
    );
    for e in &r.episodes {
        let _ = writeln!(
            out,
            "<section class=\"episode\" data-episode=\"{id}\" data-score=\"{s}\"><h3>{id}: score {s:.1}, {ok}, {d:.1} days, {t} turns, {calls} API calls ({errs} errors){err}</h3>\
             <p>Achievements: {ach}</p><div class=\"plots\">",
            id = esc(&e.id),
            s = e.score,
            ok = if e.success {
                "<span class=\"ok\">success</span>"
            } else {
                "<span class=\"bad\">no success</span>"
            },
            d = e.days_survived,
            t = e.turns,
            calls = e.api_calls,
            errs = e.api_errors,
            err = e
                .error
                .as_ref()
                .map(|x| format!(" — <span class=\"bad\">{}</span>", esc(x)))
                .unwrap_or_default(),
            ach = if e.achievements.is_empty() {
                "none".to_owned()
            } else {
                esc(&e.achievements.join(", "))
            },
        );
        for s in SERIES {
            plot(out, &e.rows, s);
        }
        out.push_str("</div></section>\n");
    }
}

/// Row indices drawn: all of them, or an even sample that keeps the last.
fn sample(n: usize) -> Vec<usize> {
    if n <= MAX_POINTS {
        return (0..n).collect();
    }
    let mut v: Vec<usize> = (0..MAX_POINTS - 1)
        .map(|i| i * n / (MAX_POINTS - 1))
        .collect();
    v.push(n - 1);
    v
}

fn plot(out: &mut String, rows: &[Row], (key, label, colour, f): &Series) {
    let idx = sample(rows.len());
    let t0 = rows.first().map_or(0.0, Row::time_days);
    let t1 = rows.last().map_or(1.0, Row::time_days).max(t0 + 1.0 / 24.0);
    let vmax = rows.iter().map(f).fold(1.0, f64::max) * 1.1;
    let x = |t: f64| (t - t0) / (t1 - t0) * W;
    let y = |v: f64| H - v / vmax * H;
    let last = rows.last().map_or(0.0, f);
    let _ = write!(
        out,
        "<figure class=\"plot\"><svg width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{label}\">"
    );
    // Hazard hours as shaded bands, one rect per run of equal weather.
    let mut i = 0;
    while i < rows.len() {
        let w = rows[i].hazard();
        let mut j = i;
        while j + 1 < rows.len() && rows[j + 1].hazard() == w {
            j += 1;
        }
        if let Some(h) = w {
            let fill = if h == "drought" { "#fbd38d" } else { "#d6bcfa" };
            let (a, b) = (x(rows[i].time_days() - 1.0 / 24.0), x(rows[j].time_days()));
            let _ = write!(
                out,
                "<rect class=\"hazard\" data-hazard=\"{h}\" x=\"{:.1}\" y=\"0\" width=\"{:.1}\" height=\"{H}\" fill=\"{fill}\"/>",
                a.max(0.0),
                (b - a).max(0.5)
            );
        }
        i = j + 1;
    }
    let pts: Vec<String> = idx
        .iter()
        .map(|&k| format!("{:.1},{:.1}", x(rows[k].time_days()), y(f(&rows[k]))))
        .collect();
    let _ = write!(
        out,
        "<polyline data-series=\"{key}\" data-points=\"{}\" data-last=\"{last}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"1.5\" points=\"{}\"/></svg>\
         <figcaption>{label}: {last:.1} at the end (max {:.1})</figcaption></figure>",
        pts.len(),
        pts.join(" "),
        vmax / 1.1
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_keep_the_ends_and_the_bound() {
        assert_eq!(sample(3), vec![0, 1, 2]);
        let s = sample(5000);
        assert_eq!(s.len(), MAX_POINTS);
        assert_eq!((s[0], *s.last().unwrap()), (0, 4999));
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(esc("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
    }
}
