// The WebSocket channel: connects to ws://<page host>:<wsPort>/api/ws (token as ?token=),
// reconnects with backoff (1 s doubling to 30 s, +/-20% jitter) and hands frames to listeners.
// The first state frame after each (re)connect is the truth.

import { Emitter } from "./util.js";
import { token, askToken } from "./api.js";

export class Channel extends Emitter {
  constructor(port) {
    super();
    this.port = port;
    this.delay = 1000;
    this.socket = null;
    this.timer = null;
    this.stopped = false;
  }

  url() {
    const t = token();
    const q = t ? `?token=${encodeURIComponent(t)}` : "";
    return `ws://${location.hostname}:${this.port}/api/ws${q}`;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.emit("status", "connecting");
    let opened = false;
    const s = new WebSocket(this.url());
    this.socket = s;
    s.onopen = () => {
      opened = true;
      this.fresh = true;
      this.emit("status", "open");
    };
    s.onmessage = (m) => {
      let frame;
      try { frame = JSON.parse(m.data); } catch { return; }
      const type = String(frame.type || "").toLowerCase();
      if (type === "state") {
        // A good frame: the connection works, reset the backoff.
        this.delay = 1000;
        this.emit("state", { state: frame.payload, first: this.fresh });
        this.fresh = false;
      } else if (type === "event") {
        this.emit("event", frame.payload);
      } else if (type === "error") {
        console.warn("ws error frame", frame.payload);
      }
    };
    s.onclose = (ev) => {
      if (this.socket !== s) return;
      this.socket = null;
      this.emit("status", "closed");
      if (!opened && this.authRequired && !token()) {
        // Refused before the upgrade: most likely the token. Ask, then retry at once.
        askToken().then(() => this.connect());
        return;
      }
      this.schedule(ev);
    };
  }

  schedule() {
    if (this.stopped) return;
    const jitter = 1 + (Math.random() * 0.4 - 0.2);
    const wait = Math.round(this.delay * jitter);
    this.delay = Math.min(this.delay * 2, 30000);
    this.emit("retry", wait);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  /** Reconnects now (e.g. after a new token). */
  restart() {
    this.delay = 1000;
    const s = this.socket;
    this.socket = null;
    if (s) s.close();
    this.connect();
  }
}
