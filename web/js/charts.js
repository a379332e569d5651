// The History card: the colony over the last 30 game days from GET /api/stats (one row per game
// hour): population, food and water days, and wellbeing, each a small SVG chart with the
// drought and badtide hours shaded. Refreshed at each new day, after a long advance, and every
// 30 s. Each line carries data attributes (series, points, last value) for the browser tests.

import { $ } from "./util.js";
import { get } from "./api.js";

/** Days the card shows. */
const WINDOW_DAYS = 30;
const W = 250;
const H = 90;
const NS = "http://www.w3.org/2000/svg";
const CHARTS = [
  { id: "population", title: "Population", series: [["population", "#2b6cb0", (r) => r.adults + r.children + r.bots, "", 0]] },
  { id: "stores", title: "Days of food and water", series: [
    ["foodDays", "#b7791f", (r) => Math.max(0, r.foodDays), "food ", 1],
    ["waterDays", "#3182ce", (r) => Math.max(0, r.waterDays), "water ", 1],
  ] },
  { id: "wellbeing", title: "Wellbeing", series: [["wellbeing", "#2f855a", (r) => r.wellbeing, "", 1]] },
];
const HAZARD_FILL = { drought: "#fbd38d", badtide: "#d6bcfa" };
const REFRESH_EVENTS = /^(day\.start|game\.new|game\.over|drought\.|badtide\.)/;

function svg(tag, attrs = {}) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

export class HistoryCharts {
  constructor(channel) {
    this.timer = null;
    if (channel) channel.on("event", (p) => this.onEvent(p));
  }

  start() {
    this.refresh();
    setInterval(() => this.refresh(), 30000);
  }

  onEvent(p) {
    if (!p?.event || !REFRESH_EVENTS.test(p.event)) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.refresh(), 500);
  }

  async refresh() {
    const t = await get("/api/time");
    if (t.code || t.status !== 200) return;
    const from = Math.max(1, t.body.dayNumber - WINDOW_DAYS + 1);
    const r = await get(`/api/stats?from=${from}&format=json`);
    if (r.code === "unknown_endpoint") { $("#history-card").hidden = true; return; }
    if (r.code || r.status !== 200) return;
    this.draw(r.body.rows ?? [], from);
  }

  draw(rows, from) {
    const card = $("#history-charts");
    card.dataset.rows = String(rows.length);
    card.dataset.from = String(from);
    $("#history-empty").hidden = rows.length > 0;
    const time = (r) => (r.day - 1) + r.hour / 24;
    const t0 = rows.length ? time(rows[0]) - 1 / 24 : 0;
    const t1 = rows.length ? Math.max(time(rows[rows.length - 1]), t0 + 1 / 24) : 1;
    const x = (t) => ((t - t0) / (t1 - t0)) * W;
    card.replaceChildren(...CHARTS.map((c) => {
      const values = c.series.map(([, , f]) => rows.map(f));
      // The scale takes in 0 and every value (wellbeing can go below 0).
      const lo = Math.min(0, ...values.flat());
      const hi = Math.max(1, ...values.flat());
      const pad = (hi - lo) * 0.08;
      const y = (v) => H - ((v - lo + pad) / (hi - lo + 2 * pad)) * H;
      const box = svg("svg", { width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": c.title, "data-chart": c.id });
      // Hazard hours, one band per run of the same weather.
      for (let i = 0; i < rows.length;) {
        let j = i;
        while (j + 1 < rows.length && rows[j + 1].weather === rows[i].weather) j++;
        const fill = HAZARD_FILL[rows[i].weather];
        if (fill) {
          const a = x(time(rows[i]) - 1 / 24);
          box.append(svg("rect", { class: "hazard", "data-hazard": rows[i].weather, x: a.toFixed(1), y: 0, width: Math.max(0.5, x(time(rows[j])) - a).toFixed(1), height: H, fill }));
        }
        i = j + 1;
      }
      c.series.forEach(([key, colour], k) => {
        const pts = rows.map((r, i) => `${x(time(r)).toFixed(1)},${y(values[k][i]).toFixed(1)}`).join(" ");
        const last = rows.length ? values[k][rows.length - 1] : 0;
        box.append(svg("polyline", { points: pts, fill: "none", stroke: colour, "stroke-width": 1.5, "data-series": key, "data-points": rows.length, "data-last": last }));
      });
      const fig = document.createElement("figure");
      fig.className = "chart";
      const cap = document.createElement("figcaption");
      const now = c.series.map(([, , , label, digits], k) =>
        `${label}${rows.length ? values[k][rows.length - 1].toFixed(digits) : "–"}`);
      cap.textContent = `${c.title}: ${now.join(" · ")}`;
      fig.append(box, cap);
      return fig;
    }));
  }
}
