// The colony panel: the page loads and shows day and time, the speed control, events and the
// dashboard's own routes.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, screenshot, until } from "./support.mjs";

let server, b;

before(async () => {
  server = await Colonyd.start();
  b = await browser();
});

after(async () => {
  await b?.close();
  await server?.stop();
});

test("the page loads and shows day, time and weather", async () => {
  const { page } = b;
  await page.goto(server.url);
  await page.waitForSelector("body[data-booted=true]");
  await until(async () => /^Day \d+$/.test(await page.textContent("#day")), "the day");
  assert.match(await page.textContent("#clock"), /^\d\d:\d\d · \d+% of the day$/);
  await until(async () => /^Cycle \d+, day \d+$/.test(await page.textContent("#weather-main")), "the weather");
  assert.match(await page.textContent("#weather-sub"), /Temperate|now/);
  // Science: a new game has no points and nothing unlocked.
  const science = await server.get("/api/science");
  await until(async () => (await page.textContent("#science-main")) === "0 points", "the science points");
  assert.match(await page.textContent("#science-sub"), new RegExp(`^0 of ${science.unlockables.length} unlocked; cheapest next: `));
  assert.equal(await page.textContent("#settlement"), (await server.get("/api/settlement")).name);
  await until(async () => (await page.getAttribute("#conn", "data-state")) === "open", "the WebSocket");
  assert.deepEqual(b.errors, []);
});

test("the speed control changes the game speed and follows speed.changed", async () => {
  const { page } = b;
  await page.click('.speed button[data-speed="2"]');
  await until(async () => (await server.get("/api/speed")).speed === 2, "GET /api/speed to say 2");
  assert.equal(await page.getAttribute('.speed button[data-speed="2"]', "aria-checked"), "true");
  // A change made by someone else arrives as a speed.changed event.
  await server.post("/api/speed", { speed: 0 });
  await until(async () => (await page.getAttribute('.speed button[data-speed="0"]', "aria-checked")) === "true",
    "the control to show 0 after speed.changed");
  await until(async () => (await page.$$('#event-log li[data-event="speed.changed"]')).length >= 2, "speed.changed in the event log");
  await server.post("/api/speed", { speed: 1 });
});

test("the event log filters by name", async () => {
  const { page } = b;
  // Make some events of other names.
  await server.post("/api/game/advance", { days: 1 });
  await until(async () => (await page.$$('#event-log li[data-event="day.start"]')).length >= 1, "day.start");
  await page.fill("#event-filter", "speed");
  const names = await page.$$eval("#event-log li", (lis) => lis.map((l) => l.dataset.event));
  assert.ok(names.length >= 2, `speed events shown: ${names}`);
  assert.ok(names.every((n) => n.includes("speed")), `only speed events: ${names}`);
  assert.match(await page.textContent("#event-count"), /^\d+ of \d+$/);
  await page.fill("#event-filter", "no-such-event");
  assert.equal((await page.$$("#event-log li")).length, 0);
  assert.equal(await page.isVisible("#event-empty"), true);
  await page.fill("#event-filter", "");
  assert.ok((await page.$$("#event-log li")).length > names.length);
  await screenshot(page, "colony");
});

test("dashboard files have content types, are not gated and stay out of the OpenAPI document", async () => {
  const base = `http://127.0.0.1:${server.httpPort}`;
  for (const [p, type] of [
    ["/", "text/html"], ["/dashboard/dashboard.css", "text/css"], ["/dashboard/js/app.js", "text/javascript"],
    ["/dashboard/favicon.svg", "image/svg+xml"], ["/dashboard/config.json", "application/json"],
  ]) {
    const r = await fetch(base + p);
    assert.equal(r.status, 200, p);
    assert.ok(r.headers.get("content-type").startsWith(type), `${p}: ${r.headers.get("content-type")}`);
  }
  assert.equal((await fetch(`${base}/dashboard/nope.js`)).status, 404);
  const config = await (await fetch(`${base}/dashboard/config.json`)).json();
  assert.equal(config.wsPort, server.wsPort);
  assert.equal(config.wsEnabled, true);
  assert.equal(config.authRequired, false);
  const doc = await server.get("/api/openapi.json");
  assert.deepEqual(Object.keys(doc.paths).filter((p) => !p.startsWith("/api/")), []);
  // A closed gate does not close the page.
  await server.post("/api/ready", { ready: false });
  assert.equal((await fetch(base + "/")).status, 200);
  await server.post("/api/ready", { ready: true });
});
