// Notifications (births, deaths with their cause, hazards, game over) from
// GET /api/notifications, newest first, refreshed on the events that add one; and the game-over
// state: a banner and `body[data-game-over]` while GET /api/summary says `gameOver` (or a
// `game.over` event arrived), cleared by a new game or a load.

import { $, el } from "./util.js";
import { get } from "./api.js";

/** Notifications shown (the newest). */
const SHOWN = 30;
const NOTE_EVENTS = /^(beaver\.died|beaver\.born|bot\.manufactured|character\.killed|drought\.|badtide\.|cycle\.start|game\.|wonder\.|wellbeing\.highscore|migration)/;

/** The kind of a notification, for its colour. */
function kindOf(subject) {
  if (/game over/i.test(subject)) return "over";
  // The game's death subjects: "died of thirst", "starved", "died of old age", "wore out".
  if (/ died| starved| wore out| killed/i.test(subject)) return "death";
  if (/born|bot .*made|arrived/i.test(subject)) return "birth";
  if (/drought|badtide/i.test(subject)) return "hazard";
  return "info";
}

export class NotesPanel {
  constructor(channel) {
    this.timer = null;
    this.over = false;
    if (channel) channel.on("event", (p) => this.onEvent(p));
  }

  start() {
    this.refresh();
    setInterval(() => this.refresh(), 10000);
  }

  onEvent(p) {
    if (!p?.event) return;
    if (p.event === "game.over") this.setGameOver(true, p.day);
    if (p.event === "game.new" || p.event === "game.loaded") this.setGameOver(false);
    if (NOTE_EVENTS.test(p.event)) {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.refresh(), 300);
    }
  }

  async refresh() {
    const r = await get(`/api/notifications?limit=${SHOWN}&format=json`);
    if (r.code || r.status !== 200) return;
    const items = r.body?.items ?? [];
    const list = $("#note-list");
    list.replaceChildren(...items.map((n) => el("li", { class: `note ${kindOf(n.subject)}`, dataset: { kind: kindOf(n.subject) } },
      el("span", { class: "when" }, `c${n.cycle} d${n.cycleDay}`),
      el("b", {}, n.subject),
      el("span", { class: "what" }, n.description))));
    $("#note-count").textContent = String(r.body?.total ?? items.length);
    $("#note-empty").hidden = items.length > 0;
  }

  /** Shows or clears the game-over state (from the summary's `gameOver` or the event). */
  setGameOver(on, day) {
    if (on === this.over) return;
    this.over = on;
    document.body.dataset.gameOver = String(on);
    const b = $("#game-over");
    b.hidden = !on;
    if (on) {
      b.replaceChildren(
        el("b", {}, "Game over"),
        ` — every beaver has died${day ? ` (day ${day})` : ""}. The notifications below say how. `,
        "Start again with ", el("code", {}, "POST /api/game/new"), " or load a save (",
        el("code", {}, "POST /api/game/load"), ").",
      );
    }
  }
}
