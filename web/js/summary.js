// The colony's numbers on the colony view: population (adults, children, bots, homeless), the stock
// of the main goods with the days they last, wellbeing, from GET /api/summary?format=json; and the
// alerts from GET /api/alerts (a click locates the building on the map). Refreshed every few
// seconds and on the WebSocket events that change them.

import { $, el, Emitter } from "./util.js";
import { get } from "./api.js";

/** The goods the summary projects (`projections`), in the order shown. */
const MAIN = [
  ["Water", "waterDays", ["Water"]],
  ["Food", "foodDays", null], // every good of category food (see FOOD)
  ["Log", "logDays", ["Log"]],
  ["Plank", "plankDays", ["Plank"]],
  ["Gear", "gearDays", ["Gear"]],
];
/**
 * The goods of category food in the content catalogue (data/goods.json), summed into the Food row
 * as the summary's foodDays counts them. A food this list lacks is still shown among the other
 * goods, and foodDays (the server's) stays right.
 */
const FOOD = new Set([
  "Berries", "Carrot", "SunflowerSeeds", "Kohlrabi", "MangroveFruit", "GrilledPotato",
  "GrilledChestnut", "GrilledSpadderdock", "Bread", "CattailCracker", "MaplePastry",
  "FermentedCassava", "FermentedSoybean", "FermentedMushroom", "CornRation", "EggplantRation",
  "AlgaeRation",
]);
/** Days below which a stock is shown as running low. */
const LOW_DAYS = 3;

const SUMMARY_EVENTS = /^(population\.changed|beaver\.|bot\.|character\.|building\.(finished|demolished|placed|deconstructed)|day\.start|night\.start|workhours\.|migration|game\.new|wellbeing\.)/;
const ALERT_EVENTS = /^(building\.|construction\.|status\.|population\.changed|beaver\.|power\.|game\.new)/;

export class SummaryPanel extends Emitter {
  constructor(channel) {
    super();
    this.timers = {};
    if (channel) channel.on("event", (p) => this.onEvent(p));
    $("#alert-list").addEventListener("click", (e) => {
      const li = e.target.closest("li[data-id]");
      if (li && li.classList.contains("locatable")) this.emit("locate", { id: Number(li.dataset.id), x: Number(li.dataset.x), y: Number(li.dataset.y) });
    });
    $("#alert-list").addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        const li = e.target.closest("li[data-id]");
        if (li) { e.preventDefault(); li.click(); }
      }
    });
  }

  /** Whether alerts can be located (the map view exists). */
  setLocatable(on) {
    this.locatable = on;
    for (const li of $("#alert-list").children) li.classList.toggle("locatable", on);
  }

  start() {
    this.refreshAll();
    setInterval(() => this.refreshSummary(), 5000);
    setInterval(() => this.refreshAlerts(), 5000);
  }

  refreshAll() {
    this.refreshSummary();
    this.refreshAlerts();
  }

  onEvent(p) {
    if (!p?.event) return;
    if (SUMMARY_EVENTS.test(p.event)) this.soon("summary", () => this.refreshSummary());
    if (ALERT_EVENTS.test(p.event)) this.soon("alerts", () => this.refreshAlerts());
  }

  /** Runs `fn` once, 300 ms after the last of a burst of calls. */
  soon(key, fn) {
    clearTimeout(this.timers[key]);
    this.timers[key] = setTimeout(fn, 300);
  }

  async refreshSummary() {
    const r = await get("/api/summary?format=json");
    if (r.code || r.status !== 200 || !r.body) {
      if (r.code === "unknown_endpoint") for (const c of ["population", "stock", "wellbeing"]) $(`#${c}-card`).hidden = true;
      return;
    }
    const s = r.body;
    this.emit("summary", s);
    const districts = Array.isArray(s.districts) ? s.districts : [];
    const sum = (f) => districts.reduce((n, d) => n + (Number(f(d)) || 0), 0);
    const pop = {
      adults: sum((d) => d.population?.adults),
      children: sum((d) => d.population?.children),
      bots: sum((d) => d.population?.bots),
      homeless: sum((d) => d.housing?.homeless),
      beds: sum((d) => d.housing?.occupiedBeds),
      totalBeds: sum((d) => d.housing?.totalBeds),
      unemployed: sum((d) => d.employment?.unemployed),
      vacancies: sum((d) => d.employment?.vacancies),
    };
    this.showPopulation(pop, districts.length);
    const stock = {};
    for (const d of districts) for (const [g, n] of Object.entries(d.resources ?? {})) stock[g] = (stock[g] ?? 0) + (Number(n) || 0);
    this.showStock(stock, s.projections ?? {});
    this.showWellbeing(s.wellbeing ?? {});
    // The summary counts the alerts: when the counts move, the list is stale.
    const counts = JSON.stringify(s.alerts ?? null);
    if (this.alertCounts !== undefined && counts !== this.alertCounts) this.soon("alerts", () => this.refreshAlerts());
    this.alertCounts = counts;
    $("#population-card").dataset.loaded = "true";
  }

  showPopulation(p, districts) {
    const beavers = p.adults + p.children;
    $("#pop-main").textContent = `${beavers} beaver${beavers === 1 ? "" : "s"}` + (p.bots ? ` + ${p.bots} bot${p.bots === 1 ? "" : "s"}` : "");
    for (const k of ["adults", "children", "bots", "homeless"]) {
      const cell = $(`#pop-${k}`);
      cell.textContent = String(p[k]);
      cell.closest(".stat").classList.toggle("bad", k === "homeless" && p[k] > 0);
    }
    $("#pop-sub").textContent = `Beds ${p.beds}/${p.totalBeds} · ${p.unemployed} without work · ${p.vacancies} open job${p.vacancies === 1 ? "" : "s"}` +
      (districts > 1 ? ` · ${districts} districts` : "");
  }

  showStock(stock, proj) {
    const rows = [];
    const shown = new Set();
    for (const [label, key, goods] of MAIN) {
      const names = goods ?? Object.keys(stock).filter((g) => FOOD.has(g));
      const amount = names.reduce((n, g) => n + (stock[g] ?? 0), 0);
      names.forEach((g) => shown.add(g));
      const days = typeof proj[key] === "number" ? proj[key] : null;
      const low = days !== null && days >= 0 && days < LOW_DAYS;
      const detail = goods ? "" : names.filter((g) => stock[g] > 0).map((g) => `${g} ${stock[g]}`).join(", ");
      rows.push(el("tr", { dataset: { good: label }, class: low ? "low" : "" },
        el("td", { class: "good" }, label, detail ? el("span", { class: "sub" }, ` ${detail}`) : ""),
        el("td", { class: "num amount" }, String(amount)),
        el("td", { class: "num days" }, days === null ? "–" : days < 0 ? "no one uses it" : `${days.toFixed(1)} day${days === 1 ? "" : "s"}`)));
    }
    $("#stock-body").replaceChildren(...rows);
    const others = Object.entries(stock).filter(([g, n]) => !shown.has(g) && n > 0).sort((a, b) => b[1] - a[1]);
    $("#stock-others").textContent = others.length ? `Also: ${others.map(([g, n]) => `${g} ${n}`).join(", ")}` : "";
  }

  showWellbeing(w) {
    const avg = Number(w.average ?? 0);
    $("#wb-average").textContent = avg.toFixed(1);
    $("#wb-miserable").textContent = String(w.miserable ?? 0);
    $("#wb-critical").textContent = String(w.critical ?? 0);
    $("#wb-miserable").closest(".stat").classList.toggle("bad", (w.miserable ?? 0) > 0);
    $("#wb-critical").closest(".stat").classList.toggle("bad", (w.critical ?? 0) > 0);
    const cats = Array.isArray(w.categories) ? w.categories : [];
    $("#wb-categories").replaceChildren(...cats.map((c) => {
      const share = c.max > 0 ? Math.max(0, Math.min(1, c.current / c.max)) : 0;
      return el("div", { class: "wb-cat", title: `${c.group}: ${Number(c.current).toFixed(1)} of ${Number(c.max).toFixed(1)}` },
        el("span", { class: "k" }, c.group.replace(/([a-z])([A-Z])/g, "$1 $2")),
        el("span", { class: "meter" }, el("div", { style: `width:${(share * 100).toFixed(0)}%` })));
    }));
  }

  async refreshAlerts() {
    const r = await get("/api/alerts?limit=0&format=json");
    if (r.code || r.status !== 200) {
      if (r.code === "unknown_endpoint") $("#alerts-card").hidden = true;
      return;
    }
    const list = Array.isArray(r.body) ? r.body : r.body?.items ?? [];
    $("#alert-count").textContent = String(list.length);
    $("#alert-empty").hidden = list.length > 0;
    $("#alert-list").replaceChildren(...list.map((a) => this.alertRow(a)));
    $("#alerts-card").dataset.loaded = "true";
  }

  alertRow(a) {
    const what = a.type === "unstaffed" ? `${a.workers || "?"} workers`
      : a.type === "unpowered" ? "no power"
        : a.type === "unreachable" ? "not connected by paths"
          : a.status || a.type;
    const where = Number.isFinite(a.x) ? `${a.x}, ${a.y}` : "";
    return el("li", {
      class: this.locatable ? "locatable" : "",
      tabindex: "0",
      title: this.locatable ? "Show it on the map" : "",
      dataset: { id: a.id, type: a.type, x: a.x ?? "", y: a.y ?? "" },
    },
    el("span", { class: `chip ${a.type}` }, a.type),
    el("span", { class: "n" }, String(a.name ?? "").split(".")[0]),
    el("span", { class: "d" }, what),
    el("span", { class: "t" }, where));
  }
}
