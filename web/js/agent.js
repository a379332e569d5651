// The agent widget: mode, goal, the ready gate, the prompt slot, agentStatus, lastError and the
// action log. Live from `state` frames; draggable, its position saved in widgetLeft/widgetTop.

import { $, el, clockTime } from "./util.js";
import { get, post, bus } from "./api.js";

export class AgentWidget {
  constructor(channel, config) {
    this.state = null;
    this.channel = channel;
    this.logEnabled = config.actionLoggingEnabled !== false;
    this.pendingPosition = null;
    this.heldPrompt = null;

    $("#agent-mode").addEventListener("change", (e) => this.configure({ mode: e.target.value }));
    $("#agent-goal-save").addEventListener("click", () => this.saveGoal());
    $("#agent-goal").addEventListener("keydown", (e) => { if (e.key === "Enter") this.saveGoal(); });
    $("#agent-goal").addEventListener("input", () => { this.goalDirty = true; });
    $("#agent-launch").addEventListener("click", () => this.setReady(true));
    $("#agent-stop").addEventListener("click", () => this.setReady(false));
    $("#agent-send").addEventListener("click", () => this.send(false));
    $("#agent-prompt").addEventListener("keydown", (e) => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) this.send(false);
    });
    $("#agent-replace").addEventListener("click", () => this.send(true));
    $("#agent-keep").addEventListener("click", () => { $("#agent-busy").hidden = true; });
    $("#agent-error-dismiss").addEventListener("click", () => this.configure({ lastError: null }));
    $("#agent-collapse").addEventListener("click", () => {
      const w = $("#agent");
      w.classList.toggle("collapsed");
      $("#agent-collapse").innerHTML = w.classList.contains("collapsed") ? "&#x2b;" : "&#x2212;";
    });

    if (channel) channel.on("state", ({ state }) => this.render(state));
    this.restorePosition(config.widgetLeft, config.widgetTop);
    this.enableDrag();
    $("#agent-log-wrap").hidden = !this.logEnabled;
  }

  async start(polling) {
    const r = await get("/api/agent/state");
    if (r.status === 200 && !r.code && !this.state) this.renderAnswer(r.body);
    // Without the WebSocket the state is polled.
    if (polling) setInterval(async () => {
      const s = await get("/api/agent/state");
      if (s.status === 200 && !s.code) this.render(s.body);
    }, 2000);
    this.refreshLog();
    setInterval(() => this.refreshLog(), 3000);
  }

  setLogEnabled(on) {
    this.logEnabled = on;
    $("#agent-log-wrap").hidden = !on;
    if (on) this.refreshLog();
  }

  /**
   * Whether state frames are arriving. Then they alone update the widget: an HTTP answer can be
   * processed after a newer frame, and rendering it would put stale state back.
   */
  live() {
    return Boolean(this.channel?.socket && this.channel.socket.readyState === WebSocket.OPEN);
  }

  /** Renders state from an HTTP answer, unless frames are live. */
  renderAnswer(s) {
    if (!this.live()) this.render(s);
  }

  render(s) {
    if (!s) return;
    const wasReady = this.state ? this.state.ready : null;
    this.state = s;
    $("#agent").dataset.ready = String(s.ready);
    if (document.activeElement !== $("#agent-mode")) $("#agent-mode").value = s.mode;
    if (!this.goalDirty && document.activeElement !== $("#agent-goal")) $("#agent-goal").value = s.goal;
    const pill = $("#agent-ready");
    pill.textContent = s.ready ? "gate open" : "gate closed";
    pill.classList.toggle("open", s.ready);
    $("#agent-launch").disabled = s.ready;
    $("#agent-stop").disabled = !s.ready;
    $("#agent-status").textContent = s.agentStatus || "–";
    this.showConnector(s);
    $("#agent-error").hidden = !s.lastError;
    $("#agent-error-text").textContent = s.lastError ? `Last error: ${s.lastError}` : "";
    const p = s.pendingRequest;
    $("#agent-pending").hidden = !p;
    if (p) {
      $("#agent-pending-id").textContent = p.id;
      $("#agent-pending-prompt").textContent = p.prompt;
    } else {
      $("#agent-busy").hidden = true;
    }
    if (wasReady !== s.ready) bus.emit("gate", s.ready);
  }

  /** Whether a connector is attached (an open WebSocket that sent a heartbeat lately). */
  showConnector(s) {
    const c = $("#agent-connector");
    const attached = s.connectorAttached === true;
    c.dataset.attached = String(attached);
    if (attached) {
      const ago = s.lastHeartbeatAt ? Math.max(0, Math.round(Date.now() / 1000 - s.lastHeartbeatAt)) : null;
      c.textContent = `Connector attached${ago === null ? "" : ` (heartbeat ${ago} s ago)`}: prompts go to it.`;
    } else {
      c.replaceChildren("No connector attached: prompts wait in the slot until one runs (",
        Object.assign(document.createElement("code"), { textContent: "colony connect --agent 'COMMAND'" }), ").");
    }
  }

  async configure(body) {
    const r = await post("/api/agent/config", body);
    if (r.code) this.note(r.body.error, true);
    else this.renderAnswer(r.body);
    return r;
  }

  async saveGoal() {
    const r = await this.configure({ goal: $("#agent-goal").value });
    if (!r.code) {
      this.goalDirty = false;
      this.note("Goal saved");
    }
  }

  async setReady(ready) {
    const r = await post("/api/ready", { ready });
    if (r.code) return this.note(r.body.error, true);
    if (this.state) this.renderAnswer({ ...this.state, ready: r.body.ready });
  }

  async send(replace) {
    const prompt = replace && this.heldPrompt !== null ? this.heldPrompt : $("#agent-prompt").value;
    if (!prompt.trim()) return this.note("Type a prompt first", true);
    const r = await post("/api/agent/request", replace ? { prompt, replace: true } : { prompt });
    if (r.code === "request_pending") {
      this.heldPrompt = prompt;
      const p = r.body.pendingRequest || {};
      $("#agent-busy-id").textContent = `#${p.id ?? "?"}`;
      $("#agent-busy-prompt").textContent = p.prompt ?? "";
      $("#agent-busy").hidden = false;
      this.note("The slot is busy", true);
      return;
    }
    if (r.code) return this.note(r.body.error, true);
    this.heldPrompt = null;
    $("#agent-busy").hidden = true;
    $("#agent-prompt").value = "";
    const id = r.body.pendingRequest.id;
    this.note(r.body.replaced ? `Sent as #${id}, replacing #${r.body.replaced.id}` : `Sent as #${id}`);
    if (this.state) this.renderAnswer({ ...this.state, pendingRequest: r.body.pendingRequest });
  }

  note(text, bad = false) {
    const n = $("#agent-send-note");
    n.textContent = text;
    n.className = bad ? "sub err" : "sub ok";
    clearTimeout(this.noteTimer);
    this.noteTimer = setTimeout(() => { n.textContent = ""; }, 6000);
  }

  async refreshLog() {
    if (!this.logEnabled) return;
    const r = await get("/api/agent/log");
    if (r.status !== 200 || r.code || !Array.isArray(r.body)) return;
    const log = $("#agent-log");
    if (this.logLength === r.body.length && r.body.length < 500) return;
    this.logLength = r.body.length;
    log.replaceChildren(...r.body.slice(-100).reverse().map((l) =>
      el("li", {}, el("span", { class: "t" }, clockTime(l.timestamp)), el("span", { class: "d" }, l.message))));
    if (!r.body.length) log.append(el("li", { class: "empty" }, "Nothing logged yet."));
  }

  // ---- position ----

  restorePosition(left, top) {
    const w = $("#agent");
    if (!left || !top) return;
    const l = parseFloat(left), t = parseFloat(top);
    if (!Number.isFinite(l) || !Number.isFinite(t)) return;
    w.style.right = "auto";
    w.style.left = left;
    w.style.top = top;
    // Keep at least the handle on screen when the window is smaller than before.
    requestAnimationFrame(() => this.clamp());
  }

  clamp() {
    const w = $("#agent");
    const r = w.getBoundingClientRect();
    const maxL = Math.max(0, window.innerWidth - 80);
    const maxT = Math.max(0, window.innerHeight - 40);
    if (r.left > maxL) w.style.left = `${maxL}px`;
    if (r.top > maxT) w.style.top = `${maxT}px`;
    if (r.left < 0) w.style.left = "0px";
    if (r.top < 0) w.style.top = "0px";
  }

  enableDrag() {
    const w = $("#agent");
    const handle = $("#agent-handle");
    let start = null;
    handle.addEventListener("pointerdown", (e) => {
      if (e.target.closest("button")) return;
      const r = w.getBoundingClientRect();
      start = { x: e.clientX, y: e.clientY, left: r.left, top: r.top };
      handle.setPointerCapture(e.pointerId);
      e.preventDefault();
    });
    handle.addEventListener("pointermove", (e) => {
      if (!start) return;
      const left = Math.round(Math.min(Math.max(0, start.left + e.clientX - start.x), window.innerWidth - 80));
      const top = Math.round(Math.min(Math.max(0, start.top + e.clientY - start.y), window.innerHeight - 40));
      w.style.right = "auto";
      w.style.left = `${left}px`;
      w.style.top = `${top}px`;
    });
    const end = (e) => {
      if (!start) return;
      const moved = e.clientX !== start.x || e.clientY !== start.y;
      start = null;
      if (moved) this.savePosition();
    };
    handle.addEventListener("pointerup", end);
    handle.addEventListener("pointercancel", end);
    // A position that could not be saved while the gate was closed is saved when it opens.
    bus.on("gate", (open) => { if (open && this.pendingPosition) this.savePosition(); });
  }

  async savePosition() {
    const w = $("#agent");
    const pos = { widgetLeft: w.style.left, widgetTop: w.style.top };
    this.pendingPosition = pos;
    const r = await post("/api/settings", pos);
    if (!r.code) {
      this.pendingPosition = null;
      bus.emit("settings", r.body);
    } else if (r.code !== "game_not_ready") {
      this.note(r.body.error, true);
    }
  }
}
