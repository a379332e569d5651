// The settings panel: every key from GET /api/settings with its value and a short explanation;
// changes go through POST /api/settings (the server rewrites the file, debounced and atomically).

import { $, el } from "./util.js";
import { get, post, bus } from "./api.js";

/** What each key does (keys the server adds later still show, without a text). */
const HELP = {
  httpPort: "HTTP port of the API and this dashboard (a value of 0 or less gives 8085).",
  wsPort: "WebSocket port (0 or less gives 8086).",
  wsEnabled: "Open the WebSocket listener. Off: clients poll GET /api/agent/state.",
  listenAddress: "Bind address of both listeners. + or 0.0.0.0 binds every interface and needs an authToken.",
  authToken: "Bearer token for every /api route but /api/ping. Empty: no token (loopback only).",
  maxBodyBytes: "Largest POST body in bytes; 0 unlimited, negative gives 1048576.",
  debugEndpointEnabled: "Enables debug-only routes such as POST /api/benchmark.",
  writeBudgetMs: "Milliseconds per frame the game spends applying queued writes (0 or less gives 1.0).",
  corsOrigin: "Echoed in Access-Control-Allow-Origin on /api responses; empty sends no CORS headers. The dashboard is same-origin and needs none.",
  actionLoggingEnabled: "Keep the action log shown in the agent widget (POST /api/agent/message).",
  widgetLeft: "Saved horizontal position of the agent widget (drag the widget to change it).",
  widgetTop: "Saved vertical position of the agent widget.",
  strictHttpStatus: "Domain errors answer with real HTTP statuses (404, 400, 422...) instead of 200.",
  writeQueueCapacity: "Bound of the game's write queue; when full, writes answer 503 queue_full.",
  autosaveDays: "In-game days between autosaves; 0 turns autosave off.",
  wsPingSeconds: "Seconds between the server's WebSocket pings; a connection silent for three intervals is closed, and so is one that has not taken a frame sent to it within as long (new connections).",
  httpIdleSeconds: "Seconds a connection may take to send a request after opening or after its previous answer before it is closed (new connections).",
  httpBodySeconds: "Seconds a request's whole body may take to arrive after its head; a later one is answered 408 and its connection closed (new connections).",
  maxConnections: "Open connections per listener; at the cap a new connection closes the one that waited longest for its client (idle, or its body late). Keep it below the open-files limit.",
};

export class SettingsPanel {
  constructor() {
    this.loaded = false;
    this.notes = new Map(); // key -> [text, class], kept across re-renders
    bus.on("gate", (open) => { if (open && !this.loaded) this.load(); });
    bus.on("settings", (view) => { if (view && view.settings) this.render(view); });
  }

  async load() {
    const r = await get("/api/settings");
    const note = $("#settings-note");
    if (r.code === "game_not_ready") {
      note.hidden = false;
      note.textContent = "The settings routes are behind the ready gate. Press Launch in the agent widget to see and change them.";
      return;
    }
    if (r.code || r.status !== 200) {
      note.hidden = false;
      note.textContent = `Cannot read the settings: ${r.body?.error ?? r.status}`;
      return;
    }
    note.hidden = true;
    this.loaded = true;
    this.render(r.body);
  }

  render(view) {
    this.restartKeys = new Set(view.restartKeys ?? this.restartKeys ?? []);
    $("#settings-path").textContent = view.path ? `File: ${view.path}` : "";
    const body = $("#settings-body");
    const focused = document.activeElement?.dataset?.key;
    const rows = Object.entries(view.settings).map(([key, value]) => {
      const existing = body.querySelector(`tr[data-key="${key}"]`);
      // Never overwrite what the user is typing.
      if (existing && focused === key) return existing;
      return this.row(key, value);
    });
    body.replaceChildren(...rows);
    for (const [key, [text, cls]] of this.notes) {
      const msg = body.querySelector(`tr[data-key="${key}"] td.msg`);
      if (msg) {
        msg.textContent = text;
        msg.className = `msg ${cls}`;
      }
    }
  }

  row(key, value) {
    const restart = this.restartKeys.has(key);
    const [text, cls] = this.notes.get(key) ?? ["", ""];
    const msg = el("td", { class: `msg ${cls}` }, text);
    const input = editor(key, value);
    input.dataset.key = key;
    input.addEventListener("change", () => this.change(key, input, msg));
    return el("tr", { dataset: { key } },
      el("td", { class: "key" }, key, restart ? el("span", { class: "tag restart", title: "Takes effect after a restart" }, "restart") : null),
      el("td", { class: "val" }, input),
      msg,
      el("td", { class: "sub" }, HELP[key] ?? ""));
  }

  async change(key, input, msg) {
    let value;
    const kind = input.dataset.kind;
    if (kind === "bool") value = input.checked;
    else if (kind === "number") {
      value = Number(input.value);
      if (input.value.trim() === "" || !Number.isFinite(value)) {
        msg.textContent = "not a number";
        msg.className = "msg err";
        return;
      }
    } else if (kind === "nullable") value = input.value === "" ? null : input.value;
    else value = input.value;
    msg.textContent = "saving…";
    msg.className = "msg sub";
    const r = await post("/api/settings", { [key]: value });
    if (r.code) {
      this.notes.set(key, ["refused", "err"]);
      msg.textContent = "refused";
      msg.className = "msg err";
      msg.title = r.body.error;
      return;
    }
    this.notes.set(key, [this.restartKeys.has(key) ? "saved; restart to apply" : "saved", "ok"]);
    this.render(r.body);
    if (key === "actionLoggingEnabled") bus.emit("actionLogging", value);
  }
}

function editor(key, value) {
  if (typeof value === "boolean") {
    const i = el("input", { type: "checkbox", "aria-label": key });
    i.checked = value;
    i.dataset.kind = "bool";
    return i;
  }
  if (typeof value === "number") {
    const i = el("input", { type: "number", step: Number.isInteger(value) && key !== "writeBudgetMs" ? "1" : "any", "aria-label": key });
    i.value = String(value);
    i.dataset.kind = "number";
    return i;
  }
  if (key === "authToken") {
    const i = el("input", { type: "password", autocomplete: "off", placeholder: value ? "set (hidden); type to change" : "empty: no token", "aria-label": key });
    i.dataset.kind = "string";
    return i;
  }
  const i = el("input", { type: "text", "aria-label": key, placeholder: value === null ? "not set" : "" });
  i.value = value ?? "";
  i.dataset.kind = value === null || key.startsWith("widget") ? "nullable" : "string";
  return i;
}
