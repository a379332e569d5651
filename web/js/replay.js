// Replay mode (colonyd --replay DIR, which `colony replay OUT/episodes/ID` starts): when
// GET /api/replay answers, a bar under the header with the episode, a turn slider, step back,
// play/pause and step forward, the shown turn's day and hour, and the agent's requests of that
// turn, refused ones highlighted. Choosing a turn calls POST /api/replay/turn (the one write a
// replay takes); the page's panels then read the game again through the API.

import { $, el, Emitter, gameClock } from "./util.js";
import { get, post } from "./api.js";

/** How long each turn shows while playing. */
const PLAY_MS = 1500;

/** The replay colonyd serves, or null when it plays a game (the route answers `disabled`). */
export async function probeReplay() {
  const r = await get("/api/replay");
  return r.status === 200 && !r.code && Array.isArray(r.body?.turns) ? r.body : null;
}

/** Whether a recorded request was refused (an error answer or an HTTP error status). */
function refused(req) {
  return Boolean(req.error) || req.status >= 400;
}

export class ReplayBar extends Emitter {
  constructor(info) {
    super();
    this.info = info;
    this.turns = info.turns;
    this.index = Math.max(0, this.turns.findIndex((t) => t.turn === info.turn));
    this.timer = null;
    this.loading = null;
    this.box = $("#replay-bar");
    this.slider = $("#replay-slider");
    this.playButton = $("#replay-play");
    $("#replay-title").textContent =
      `Replay of ${info.episode} (scenario ${info.scenario}, seed ${info.seed})`;
    this.slider.min = "0";
    this.slider.max = String(this.turns.length - 1);
    this.slider.addEventListener("input", () => this.choose(Number(this.slider.value)));
    $("#replay-back").addEventListener("click", () => this.step(-1));
    $("#replay-forward").addEventListener("click", () => this.step(1));
    this.playButton.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    this.box.hidden = false;
    document.body.dataset.replay = "true";
    this.show();
  }

  /** The turn record shown. */
  get current() {
    return this.turns[this.index];
  }

  step(delta) {
    const next = this.index + delta;
    if (next >= 0 && next < this.turns.length) this.choose(next);
  }

  play() {
    if (this.index >= this.turns.length - 1) this.choose(0);
    this.playButton.textContent = "Pause";
    this.playButton.setAttribute("aria-pressed", "true");
    this.timer = setInterval(() => {
      if (this.loading) return;
      if (this.index >= this.turns.length - 1) this.pause();
      else this.step(1);
    }, PLAY_MS);
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.playButton.textContent = "Play";
    this.playButton.setAttribute("aria-pressed", "false");
  }

  /** Loads the turn at `index` of the list; the last choice wins while one loads. */
  async choose(index) {
    this.wanted = index;
    if (this.loading) return this.loading;
    this.loading = (async () => {
      while (this.wanted !== undefined) {
        const at = this.wanted;
        this.wanted = undefined;
        const turn = this.turns[at].turn;
        const r = await post("/api/replay/turn", { turn });
        const error = $("#replay-error");
        if (r.code || r.status !== 200) {
          error.textContent = r.body?.error ?? `HTTP ${r.status}`;
          error.hidden = false;
          this.show(); // the slider back on the turn still shown
          continue;
        }
        error.hidden = true;
        this.index = at;
        this.show();
        this.emit("turn", this.current);
      }
    })();
    try {
      await this.loading;
    } finally {
      this.loading = null;
    }
  }

  /** Shows the current turn: slider, numbers, day and its requests. */
  show() {
    const t = this.current;
    const last = this.turns[this.turns.length - 1].turn;
    this.slider.value = String(this.index);
    this.box.dataset.turn = String(t.turn);
    $("#replay-turn").textContent = t.turn === 0 ? `Start (turn 0 of ${last})` : `Turn ${t.turn} of ${last}`;
    $("#replay-day").textContent = `Day ${t.day}, ${gameClock(t.hour)}`;
    $("#replay-hash").textContent = t.stateHash ? `state ${t.stateHash}` : "after the setup";
    $("#replay-back").disabled = this.index === 0;
    $("#replay-forward").disabled = this.index === this.turns.length - 1;
    const list = $("#replay-requests");
    const bad = t.requests.filter(refused).length;
    $("#replay-request-count").textContent = t.turn === 0
      ? "the game as the scenario set it up, before the agent's first turn"
      : `${t.requests.length} requests this turn${bad ? `, ${bad} refused` : ""}, then ${t.hours ?? 0} game hours`;
    list.replaceChildren(...t.requests.map((req) =>
      el("li", { class: refused(req) ? "refused" : "", dataset: { method: req.method } },
        el("span", { class: "method" }, req.method),
        el("span", { class: "status" }, String(req.status)),
        el("span", { class: "path" }, req.path),
        req.error ? el("span", { class: "error", title: req.error }, req.error) : null)));
    $("#replay-empty").hidden = t.requests.length > 0;
  }
}
