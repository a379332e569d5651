//! The history plots of report.html: inline SVG with labelled axes and tick values (x: game
//! days since the start; y: population, days of food and water in store, wellbeing), drought
//! and badtide hours shaded, and one scale per scenario ([`Scales`]) shared by all its episodes
//! so they compare by eye.
//!
//! Each `<svg>` carries `data-chart` and its axes' ranges (`data-x-min`, `data-x-max`,
//! `data-y-min`, `data-y-max`); each line `data-series`, `data-points` and `data-last`; each tick
//! `data-value`, so tests can check the drawing against results.json.

use super::esc;
use crate::history::Row;
use std::fmt::Write;

/// Most points drawn per series (longer histories are sampled evenly, the last row always kept).
pub(super) const MAX_POINTS: usize = 400;
/// The SVG's size and the plot area's margins, in pixels.
const W: f64 = 330.0;
const H: f64 = 180.0;
const LEFT: f64 = 50.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 38.0;
/// The most intervals between ticks an axis has.
const X_TICKS: f64 = 8.0;
const Y_TICKS: f64 = 6.0;

/// One line of a chart: its key (`data-series`), label, colour and value of a row.
pub(super) struct Line {
    pub key: &'static str,
    pub label: &'static str,
    pub colour: &'static str,
    pub value: fn(&Row) -> f64,
}

/// One chart: its key (`data-chart`), title, y-axis label (with its unit) and lines.
pub(super) struct Chart {
    pub key: &'static str,
    pub title: &'static str,
    pub y_label: &'static str,
    /// Unit after a value in the caption (`days`), or empty.
    pub unit: &'static str,
    pub lines: &'static [Line],
}

/// The charts of every episode, in order.
pub(super) const CHARTS: &[Chart] = &[
    Chart {
        key: "population",
        title: "Population",
        y_label: "population (beavers + bots)",
        unit: "",
        lines: &[Line {
            key: "population",
            label: "Population",
            colour: "#2b6cb0",
            value: |r| r.population().into(),
        }],
    },
    Chart {
        key: "stores",
        title: "Food and water in store",
        y_label: "days of food / water",
        unit: " days",
        lines: &[
            Line {
                key: "foodDays",
                label: "Food",
                colour: "#b7791f",
                value: |r| r.food_days.max(0.0),
            },
            Line {
                key: "waterDays",
                label: "Water",
                colour: "#3182ce",
                value: |r| r.water_days.max(0.0),
            },
        ],
    },
    Chart {
        key: "wellbeing",
        title: "Wellbeing",
        y_label: "wellbeing (points)",
        unit: "",
        lines: &[Line {
            key: "wellbeing",
            label: "Wellbeing",
            colour: "#2f855a",
            value: |r| r.wellbeing,
        }],
    },
];

/// An axis: a range widened to whole ticks, and the step between ticks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub step: f64,
}

impl Axis {
    /// The range `lo..hi` widened to multiples of the smallest round step (1, 2 or 5 times a
    /// power of ten) that needs at most `intervals` intervals: the tightest round range.
    pub fn nice(lo: f64, hi: f64, intervals: f64) -> Axis {
        let (lo, hi) = if lo.is_finite() && hi.is_finite() && hi >= lo {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        let hi = if hi - lo > 1e-9 { hi } else { lo + 1.0 };
        let widen = |step: f64| {
            (
                (lo / step + 1e-9).floor() * step,
                (hi / step - 1e-9).ceil() * step,
            )
        };
        let mut mag = 10f64.powf(((hi - lo) / intervals).log10().floor());
        loop {
            for m in [1.0, 2.0, 5.0] {
                let step = m * mag;
                let (a, b) = widen(step);
                if (b - a) / step <= intervals + 1e-9 {
                    return Axis { lo: a, hi: b, step };
                }
            }
            mag *= 10.0;
        }
    }

    /// Decimals a tick label needs (those of the step, at most 3).
    fn decimals(&self) -> i32 {
        (0..=3)
            .find(|d| {
                let k = self.step * 10f64.powi(*d);
                (k - k.round()).abs() < 1e-6
            })
            .unwrap_or(3)
    }

    /// The tick values, `lo` to `hi`, rounded to the step's decimals.
    pub fn ticks(&self) -> Vec<f64> {
        let n = ((self.hi - self.lo) / self.step).round() as usize;
        let k = 10f64.powi(self.decimals());
        (0..=n)
            .map(|i| {
                let v = ((self.lo + i as f64 * self.step) * k).round() / k;
                // No `-0`.
                if v == 0.0 { 0.0 } else { v }
            })
            .collect()
    }

    /// A tick's label, with as many decimals as the step needs.
    pub fn label(&self, v: f64) -> String {
        format!("{v:.*}", self.decimals() as usize)
    }

    /// Where `v` falls between `from` (at `lo`) and `to` (at `hi`).
    fn map(&self, v: f64, from: f64, to: f64) -> f64 {
        from + (v - self.lo) / (self.hi - self.lo) * (to - from)
    }
}

/// The axes shared by every episode of a scenario: one x axis (game days since the start) and
/// one y axis per chart of [`CHARTS`].
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Scales {
    pub x: Axis,
    pub y: Vec<Axis>,
}

impl Scales {
    /// Scales that hold every row of every history: x from the start to the longest episode's
    /// last hour, y from 0 (or the least value, when below) to the greatest value.
    pub fn of<'a>(histories: impl Iterator<Item = &'a [Row]> + Clone) -> Scales {
        let end = histories
            .clone()
            .filter_map(|rows| rows.last().map(Row::time_days))
            .fold(1.0 / 24.0, f64::max);
        let y = CHARTS
            .iter()
            .map(|c| {
                let (mut lo, mut hi) = (0.0f64, 1.0f64);
                for rows in histories.clone() {
                    for r in rows {
                        for l in c.lines {
                            let v = (l.value)(r);
                            if v.is_finite() {
                                lo = lo.min(v);
                                hi = hi.max(v);
                            }
                        }
                    }
                }
                Axis::nice(lo, hi, Y_TICKS)
            })
            .collect();
        Scales {
            x: Axis::nice(0.0, end, X_TICKS),
            y,
        }
    }
}

/// Row indices drawn: all of them, or an even sample that keeps the last.
pub(super) fn sample(n: usize) -> Vec<usize> {
    if n <= MAX_POINTS {
        return (0..n).collect();
    }
    let mut v: Vec<usize> = (0..MAX_POINTS - 1)
        .map(|i| i * n / (MAX_POINTS - 1))
        .collect();
    v.push(n - 1);
    v
}

/// One chart of an episode's history on the scenario's scales.
pub(super) fn chart(out: &mut String, rows: &[Row], c: &Chart, x: &Axis, y: &Axis) {
    let (x0, x1, y0, y1) = (LEFT, W - RIGHT, H - BOTTOM, TOP);
    let px = |t: f64| x.map(t, x0, x1).clamp(x0, x1);
    let py = |v: f64| y.map(v, y0, y1).clamp(y1, y0);
    let _ = write!(
        out,
        "<figure class=\"plot\"><svg data-chart=\"{key}\" data-x-min=\"{}\" data-x-max=\"{}\" \
         data-y-min=\"{}\" data-y-max=\"{}\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" \
         role=\"img\" aria-label=\"{title} by game day\">",
        x.lo,
        x.hi,
        y.lo,
        y.hi,
        key = c.key,
        title = c.title,
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
            let (a, b) = (
                px(rows[i].time_days() - 1.0 / 24.0),
                px(rows[j].time_days()),
            );
            let _ = write!(
                out,
                "<rect class=\"hazard\" data-hazard=\"{h}\" x=\"{a:.1}\" y=\"{y1}\" width=\"{:.1}\" \
                 height=\"{:.1}\" fill=\"{fill}\"/>",
                (b - a).max(0.5),
                y0 - y1
            );
        }
        i = j + 1;
    }
    // The y axis: grid lines and tick labels, then its title turned upright.
    let _ = write!(
        out,
        "<g class=\"axis y\" data-min=\"{}\" data-max=\"{}\">",
        y.lo, y.hi
    );
    for v in y.ticks() {
        let p = py(v);
        let _ = write!(
            out,
            "<g class=\"tick\" data-value=\"{v}\"><line class=\"grid\" x1=\"{x0}\" x2=\"{x1}\" \
             y1=\"{p:.1}\" y2=\"{p:.1}\"/><line x1=\"{:.1}\" x2=\"{x0}\" y1=\"{p:.1}\" y2=\"{p:.1}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text></g>",
            x0 - 4.0,
            x0 - 6.0,
            p + 3.5,
            y.label(v)
        );
    }
    let _ = write!(
        out,
        "<line class=\"domain\" x1=\"{x0}\" x2=\"{x0}\" y1=\"{y1}\" y2=\"{y0}\"/>\
         <text class=\"axis-label\" transform=\"translate(12 {:.1}) rotate(-90)\" \
         text-anchor=\"middle\">{}</text></g>",
        (y0 + y1) / 2.0,
        esc(c.y_label)
    );
    // The x axis: ticks at round game days, then its title.
    let _ = write!(
        out,
        "<g class=\"axis x\" data-min=\"{}\" data-max=\"{}\">",
        x.lo, x.hi
    );
    for t in x.ticks() {
        let p = px(t);
        let _ = write!(
            out,
            "<g class=\"tick\" data-value=\"{t}\"><line x1=\"{p:.1}\" x2=\"{p:.1}\" y1=\"{y0}\" \
             y2=\"{:.1}\"/><text x=\"{p:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></g>",
            y0 + 4.0,
            y0 + 15.0,
            x.label(t)
        );
    }
    let _ = write!(
        out,
        "<line class=\"domain\" x1=\"{x0}\" x2=\"{x1}\" y1=\"{y0}\" y2=\"{y0}\"/>\
         <text class=\"axis-label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">game day \
         (days since the start)</text></g>",
        (x0 + x1) / 2.0,
        H - 5.0
    );
    let idx = sample(rows.len());
    for l in c.lines {
        let pts: Vec<String> = idx
            .iter()
            .map(|&k| {
                let r = &rows[k];
                // Not clamped: the scales hold every row, so a point outside shows a bad scale.
                let (a, b) = (x.map(r.time_days(), x0, x1), y.map((l.value)(r), y0, y1));
                format!("{a:.1},{b:.1}")
            })
            .collect();
        let _ = write!(
            out,
            "<polyline data-series=\"{}\" data-points=\"{}\" data-last=\"{}\" fill=\"none\" \
             stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>",
            l.key,
            pts.len(),
            rows.last().map_or(0.0, l.value),
            l.colour,
            pts.join(" ")
        );
    }
    out.push_str("</svg><figcaption>");
    let _ = write!(out, "<b>{}</b>: ", c.title);
    for (n, l) in c.lines.iter().enumerate() {
        let last = rows.last().map_or(0.0, l.value);
        let max = rows.iter().map(l.value).fold(f64::NEG_INFINITY, f64::max);
        let _ = write!(
            out,
            "{}<span class=\"key\" style=\"background:{}\"></span>{} {last:.1}{u} at the end \
             (max {:.1})",
            if n > 0 { "; " } else { "" },
            l.colour,
            if c.lines.len() > 1 { l.label } else { "" },
            if max.is_finite() { max } else { 0.0 },
            u = c.unit,
        );
    }
    out.push_str("</figcaption></figure>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::tests::row;

    #[test]
    fn samples_keep_the_ends_and_the_bound() {
        assert_eq!(sample(3), vec![0, 1, 2]);
        let s = sample(5000);
        assert_eq!(s.len(), MAX_POINTS);
        assert_eq!((s[0], *s.last().unwrap()), (0, 4999));
    }

    #[test]
    fn axes_widen_to_round_ticks() {
        let a = Axis::nice(0.0, 5.75, 8.0);
        assert_eq!((a.lo, a.hi, a.step), (0.0, 6.0, 1.0));
        assert_eq!(a.ticks(), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(a.label(3.0), "3");
        let a = Axis::nice(0.0, 9.3, 8.0);
        assert_eq!((a.lo, a.hi, a.step), (0.0, 10.0, 2.0));
        let a = Axis::nice(0.0, 60.0, 8.0);
        assert_eq!((a.lo, a.hi, a.step), (0.0, 60.0, 10.0));
        let a = Axis::nice(0.0, 12.0, 6.0);
        assert_eq!((a.lo, a.hi, a.step), (0.0, 12.0, 2.0));
        let a = Axis::nice(-22.0, 5.0, 6.0);
        assert_eq!((a.lo, a.hi, a.step), (-25.0, 5.0, 5.0));
        assert_eq!(a.ticks(), vec![-25.0, -20.0, -15.0, -10.0, -5.0, 0.0, 5.0]);
        // Short spans step in fractions, labelled with the decimals they need.
        let a = Axis::nice(0.0, 0.45, 8.0);
        assert_eq!((a.hi, a.step), (0.5, 0.1));
        assert_eq!(a.label(0.3), "0.3");
        assert_eq!(a.ticks()[3], 0.3);
        // Empty, flat and broken ranges still make an axis.
        let a = Axis::nice(0.0, 0.0, 6.0);
        assert!(a.hi > a.lo);
        let a = Axis::nice(f64::NAN, 3.0, 6.0);
        assert!(a.hi > a.lo);
        let a = Axis::nice(5.0, 5.0, 6.0);
        assert!(a.lo <= 5.0 && a.hi > 5.0);
    }

    #[test]
    fn scales_hold_every_episode() {
        let a: Vec<Row> = (0..48).map(|h| row(1 + h / 24, h % 24, 3)).collect();
        let mut b: Vec<Row> = (0..24).map(|h| row(1, h, 9)).collect();
        b[5].wellbeing = -3.0;
        b[6].water_days = 42.0;
        let s = Scales::of([a.as_slice(), b.as_slice()].into_iter());
        assert_eq!((s.x.lo, s.x.hi), (0.0, 2.0));
        assert_eq!((s.y[0].lo, s.y[0].hi), (0.0, 10.0));
        assert_eq!(s.y[0].step, 2.0);
        assert_eq!((s.y[1].lo, s.y[1].hi), (0.0, 50.0));
        assert!(s.y[2].lo <= -3.0 && s.y[2].hi >= 1.0);
        // The same scales whatever the order.
        assert_eq!(s, Scales::of([b.as_slice(), a.as_slice()].into_iter()));
    }

    #[test]
    fn a_chart_has_both_axes_with_ticks_and_its_lines() {
        let mut rows: Vec<Row> = (0..30).map(|h| row(1 + h / 24, h % 24, 3)).collect();
        rows[3].weather = "drought".into();
        let s = Scales::of(std::iter::once(rows.as_slice()));
        let mut out = String::new();
        chart(&mut out, &rows, &CHARTS[1], &s.x, &s.y[1]);
        assert!(out.contains("class=\"axis x\"") && out.contains("class=\"axis y\""));
        assert!(out.contains("game day") && out.contains("days of food / water"));
        assert!(out.matches("class=\"tick\"").count() >= 4);
        assert!(
            out.contains("data-series=\"foodDays\"") && out.contains("data-series=\"waterDays\"")
        );
        assert!(out.contains("data-hazard=\"drought\""));
    }
}
