// The History card draws GET /api/stats: after 18 game days (seed 7's first cycle ends with a
// drought on days 17-18), each chart has one point per hourly row, ends at the last row's
// numbers, and shades the drought hours.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, screenshot, until } from "./support.mjs";

let server, b;

before(async () => {
  server = await Colonyd.start();
  b = await browser({ width: 1280, height: 1100 });
  await server.post("/api/speed", { speed: 0 });
});

after(async () => {
  await b?.close();
  await server?.stop();
});

test("the History card plots population, food and water days and wellbeing from /api/stats", async () => {
  const { page } = b;
  await page.goto(server.url);
  await until(() => page.evaluate(() => document.body.dataset.booted === "true"), "the dashboard boots");
  await server.post("/api/game/advance", { days: 18 });
  await page.evaluate(() => window.colonyDashboard.charts.refresh());
  const stats = await server.get("/api/stats?from=1&format=json");
  const rows = stats.rows;
  assert.equal(rows.length, 18 * 24);
  await until(async () => Number(await page.getAttribute("#history-charts", "data-rows")) === rows.length, "the chart rows");
  const lines = await page.$$eval("#history-charts polyline", (ps) => ps.map((p) => ({
    series: p.dataset.series, points: Number(p.dataset.points), last: Number(p.dataset.last),
    drawn: p.getAttribute("points").trim().split(/\s+/).length,
  })));
  assert.deepEqual(lines.map((l) => l.series), ["population", "foodDays", "waterDays", "wellbeing"]);
  const last = rows[rows.length - 1];
  const want = {
    population: last.adults + last.children + last.bots,
    foodDays: Math.max(0, last.foodDays), waterDays: Math.max(0, last.waterDays), wellbeing: last.wellbeing,
  };
  for (const l of lines) {
    assert.equal(l.points, rows.length, l.series);
    assert.equal(l.drawn, rows.length, l.series);
    assert.equal(l.last, want[l.series], l.series);
  }
  // Hazard hours are shaded, one band per run of hazard rows.
  const droughtRows = rows.filter((r) => r.weather === "drought").length;
  assert.ok(droughtRows > 0, "a drought in the first 18 days");
  const bands = await page.$$eval("#history-charts svg[data-chart='population'] rect.hazard", (rs) => rs.map((r) => r.dataset.hazard));
  assert.deepEqual(bands, ["drought"]);
  await screenshot(page, "history-charts");
  assert.deepEqual(b.errors, []);
});
