// The colony panel: day and time, the speed control, the weather cycle, science and the event log.

import { $, $$, el, clockTime, gameClock } from "./util.js";
import { get, post } from "./api.js";

const MAX_EVENTS = 500;
const WEATHER_EVENTS = /^(day\.start|cycle\.|weather\.|drought\.)/;

export class ColonyPanel {
  constructor(channel) {
    this.events = [];
    this.filter = "";
    this.gateClosed = false;
    $$(".speed button").forEach((b) =>
      b.addEventListener("click", () => this.setSpeed(Number(b.dataset.speed))));
    $("#event-filter").addEventListener("input", (e) => {
      this.filter = e.target.value.trim().toLowerCase();
      this.renderEvents();
    });
    $("#event-clear").addEventListener("click", () => {
      this.events = [];
      this.renderEvents();
    });
    if (channel) {
      channel.on("event", (p) => this.onEvent(p));
    }
  }

  start() {
    this.refreshAll();
    setInterval(() => this.refreshTime(), 1000);
    setInterval(() => this.refreshWeather(), 5000);
    setInterval(() => this.refreshSpeed(), 10000);
    setInterval(() => this.refreshScience(), 10000);
  }

  refreshAll() {
    this.refreshSettlement();
    this.refreshTime();
    this.refreshSpeed();
    this.refreshWeather();
    this.refreshScience();
  }

  async refreshScience() {
    const r = await get("/api/science");
    if (!this.gate(r)) return;
    const { points, unlockables } = r.body;
    const unlocked = unlockables.filter((u) => u.unlocked).length;
    const next = unlockables.filter((u) => !u.unlocked).sort((a, b) => a.cost - b.cost)[0];
    $("#science-main").textContent = `${points} point${points === 1 ? "" : "s"}`;
    $("#science-sub").textContent = `${unlocked} of ${unlockables.length} unlocked` +
      (next ? `; cheapest next: ${next.name.replace(/\.(Folktails|IronTeeth)$/, "")} (${next.cost})` : "");
  }

  gate(r) {
    const closed = r.code === "game_not_ready";
    if (closed !== this.gateClosed) {
      this.gateClosed = closed;
      $("#gate-note").hidden = !closed;
    }
    return !closed && r.status === 200 && !r.code;
  }

  async refreshSettlement() {
    const r = await get("/api/settlement");
    if (this.gate(r)) {
      $("#settlement").textContent = r.body.name;
      document.title = `${r.body.name} · Colony`;
    }
  }

  async refreshTime() {
    const r = await get("/api/time");
    if (!this.gate(r)) return;
    const t = r.body;
    $("#day").textContent = `Day ${t.dayNumber}`;
    const hour = typeof t.hour === "number" ? t.hour : t.dayProgress * 24;
    $("#clock").textContent = `${gameClock(hour)} · ${Math.round(t.dayProgress * 100)}% of the day`;
    $("#day-bar").style.width = `${(t.dayProgress * 100).toFixed(1)}%`;
    this.dayProgress = t.dayProgress;
  }

  async refreshSpeed() {
    const r = await get("/api/speed");
    if (this.gate(r)) this.showSpeed(r.body.speed);
  }

  showSpeed(speed) {
    this.speed = speed;
    $$(".speed button").forEach((b) =>
      b.setAttribute("aria-checked", String(Number(b.dataset.speed) === speed)));
    $("#speed-card").dataset.speed = String(speed);
    $("#speed-note").textContent = ["Paused", "Normal speed", "Fast", "Fastest"][speed] ?? "";
  }

  async setSpeed(speed) {
    const r = await post("/api/speed", { speed });
    if (this.gate(r)) this.showSpeed(r.body.speed);
    else if (r.code) $("#speed-note").textContent = r.body.error;
  }

  async refreshWeather() {
    const r = await get("/api/weather");
    if (!this.gate(r)) return;
    const w = r.body;
    const hazard = w.hazard || "hazard";
    $("#weather-main").textContent = `Cycle ${w.cycle}, day ${w.cycleDay}`;
    const sub = $("#weather-sub");
    if (w.isHazardous) {
      const day = w.cycleDay - w.temperateWeatherDuration;
      sub.textContent = `${cap(hazard)} now: day ${day} of ${w.hazardousWeatherDuration}`;
      sub.className = "sub hazard-on";
    } else {
      const until = w.temperateWeatherDuration + 1 - w.cycleDay;
      const when = until <= 1 ? "tomorrow" : `in ${until} days`;
      sub.textContent = `Temperate; ${hazard} (${w.hazardousWeatherDuration} days) ${when}`;
      sub.className = "sub";
    }
    const len = Math.max(1, w.cycleLengthInDays);
    $("#cycle-temperate").style.width = `${(w.temperateWeatherDuration / len) * 100}%`;
    $("#cycle-hazard").style.width = `${(w.hazardousWeatherDuration / len) * 100}%`;
    $(".meter.cycle").classList.toggle("badtide", w.hazard === "badtide");
    const now = (w.cycleDay - 1 + (this.dayProgress ?? 0)) / len;
    $("#cycle-now").style.left = `${Math.min(99.5, now * 100)}%`;
  }

  onEvent(p) {
    if (!p || !p.event) return;
    this.events.push(p);
    if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
    if (p.event === "speed.changed" && p.data && typeof p.data.speed === "number") this.showSpeed(p.data.speed);
    if (WEATHER_EVENTS.test(p.event)) this.refreshWeather();
    if (p.event === "building.unlocked") this.refreshScience();
    if (p.event === "game.new") this.refreshAll();
    if (this.matches(p)) {
      $("#event-log").prepend(this.row(p));
      const log = $("#event-log");
      while (log.children.length > MAX_EVENTS) log.lastChild.remove();
    }
    this.count();
  }

  matches(p) {
    return !this.filter || p.event.toLowerCase().includes(this.filter);
  }

  row(p) {
    const data = p.data === null || p.data === undefined ? "" : JSON.stringify(p.data);
    return el("li", { dataset: { event: p.event } },
      el("span", { class: "t" }, `${clockTime(p.timestamp)} · day ${p.day}`),
      el("span", { class: "n" }, p.event),
      el("span", { class: "d", title: data }, data));
  }

  renderEvents() {
    const log = $("#event-log");
    log.replaceChildren(...this.events.filter((p) => this.matches(p)).reverse().map((p) => this.row(p)));
    this.count();
  }

  count() {
    const shown = $("#event-log").children.length;
    $("#event-count").textContent = this.filter ? `${shown} of ${this.events.length}` : `${this.events.length}`;
    $("#event-empty").hidden = shown > 0;
    $("#event-empty").textContent = this.events.length
      ? "No event matches the filter."
      : "No events yet. They arrive over the WebSocket as the game runs.";
  }
}

function cap(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
