// The service's health on screen: polls GET /api/ping (never gated, no token) and shows a banner
// while the game host has stopped (ping answers 503 `host_stopped`: writes are refused and the
// clock stands still until colonyd is restarted) or while colonyd does not answer at all. The
// banner goes away by itself when ping answers `ok` again.

import { $ } from "./util.js";

/** How often ping is asked, in milliseconds. */
export const HEALTH_POLL_MS = 5000;

export class HealthWatch {
  constructor(pollMs = HEALTH_POLL_MS) {
    this.pollMs = pollMs;
    this.state = "ok";
    this.timer = null;
  }

  start() {
    this.check();
    this.timer = setInterval(() => this.check(), this.pollMs);
  }

  /** Asks ping once and shows what it says; resolves to "ok", "host_stopped" or "unreachable". */
  async check() {
    let state;
    try {
      const r = await fetch("/api/ping", { cache: "no-store", headers: { Accept: "application/json" } });
      const body = await r.json().catch(() => null);
      state = r.ok && body?.status === "ok" ? "ok" : body?.status || `http_${r.status}`;
    } catch {
      state = "unreachable";
    }
    this.show(state);
    return state;
  }

  show(state) {
    this.state = state;
    document.body.dataset.health = state;
    const b = $("#host-down");
    if (state === "ok") {
      b.hidden = true;
      return;
    }
    b.hidden = false;
    b.textContent =
      state === "unreachable"
        ? `colonyd does not answer at ${location.host}: is it still running? The dashboard asks again every ${this.pollMs / 1000} s.`
        : state === "host_stopped"
          ? "The game host has stopped: the clock stands still and every change is refused. Restart colonyd (its log says why); the last save and autosave are kept."
          : `colonyd answers ping with ${state}; the game may not respond.`;
  }
}
