// Deaths and game over are visible: the notifications card lists what GET /api/notifications
// says (deaths with their cause, newest first) and a game-over banner appears when the colony
// dies (Normal mode starts without water: with nobody building a pump, everyone dies within a
// week); a new game clears it.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, screenshot, until } from "./support.mjs";

let server, b;

before(async () => {
  server = await Colonyd.start();
  b = await browser();
  await server.post("/api/speed", { speed: 0 });
});

after(async () => {
  await b?.close();
  await server?.stop();
});

test("deaths, their causes and game over show on the colony view, and a new game clears them", async () => {
  const { page } = b;
  await page.goto(server.url);
  await until(() => page.evaluate(() => document.body.dataset.booted === "true"), "the dashboard boots");
  assert.equal(await page.isHidden("#game-over"), true, "a living colony shows no game over");

  // Ten days without water: everyone dies of thirst.
  await server.post("/api/game/advance", { days: 10 });
  const notes = await server.get("/api/notifications?limit=30&format=json");
  assert.ok(notes.items.some((n) => /died of thirst/.test(n.subject)), JSON.stringify(notes.items.slice(0, 3)));
  await until(async () => !(await page.isHidden("#game-over")), "the game-over banner");
  assert.match(await page.textContent("#game-over"), /Game over/);
  assert.equal(await page.evaluate(() => document.body.dataset.gameOver), "true");
  // It stays through the panels' own refreshes.
  await page.evaluate(() => window.colonyDashboard.summary.refreshSummary());
  await page.evaluate(() => window.colonyDashboard.notes.refresh());
  assert.equal(await page.isHidden("#game-over"), false, "still shown after a refresh");

  // The card shows the server's notifications, newest first, deaths marked as deaths.
  const shown = await until(async () => {
    const items = await page.$$eval("#note-list li", (ls) => ls.map((l) => ({ kind: l.dataset.kind, subject: l.querySelector("b").textContent })));
    return items.length === Math.min(30, notes.items.length) ? items : null;
  }, "the notifications card");
  assert.deepEqual(shown.map((i) => i.subject), notes.items.map((n) => n.subject));
  assert.equal(shown[0].kind, "over");
  assert.ok(shown.filter((i) => i.kind === "death").length >= 1);
  assert.equal(await page.textContent("#note-count"), String(notes.total));
  await screenshot(page, "notes-game-over");

  await server.post("/api/game/new", { seed: 7, map: 64 });
  await server.post("/api/ready", { ready: true });
  await until(async () => await page.isHidden("#game-over"), "the banner cleared by a new game");
  assert.deepEqual(b.errors, []);
});
