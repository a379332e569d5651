// `colony eval`'s report.html in Chromium: a real evaluation (the random baseline on a short
// scenario, two seeds, each its own colonyd) is run with the real `colony` binary, then the page
// is opened from disk and what it draws is checked against results.json.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, COLONYD, browser, screenshot } from "./support.mjs";

const COLONY = process.env.COLONY || path.join(path.dirname(COLONYD), "colony");
let dir, results, b;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "colony-report-"));
  const scenario = path.join(dir, "short.toml");
  fs.writeFileSync(scenario, `
id = "report-short"
title = "Three short days"
goal = "Live three days."
horizon_days = 3
turn_hours = 12
[game]
faction = "Folktails"
mode = "Normal"
map = 64
seeds = [7]
[[score]]
metric = "days_survived"
target = 3
`);
  execFileSync(COLONY, [
    "eval", "--scenario", scenario, "--agent", `python3 ${path.join(ROOT, "agents/random_agent.py")}`,
    "--seeds", "7,8", "--parallel", "2", "--out", path.join(dir, "out"), "--colonyd", COLONYD, "--quiet",
  ], { stdio: ["ignore", "inherit", "inherit"], timeout: 300000 });
  results = JSON.parse(fs.readFileSync(path.join(dir, "out/results.json"), "utf8"));
  b = await browser({ width: 1280, height: 1400 });
});

after(async () => {
  await b?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("report.html draws the scores, the achievements and each episode's history from results.json", async () => {
  const { page } = b;
  await page.goto(pathToFileURL(path.join(dir, "out/report.html")).href);
  assert.equal(results.episodesPlayed, 2);

  // The overall score and the scores table.
  assert.equal(Number(await page.getAttribute("#overall", "data-score")), results.score);
  const row = await page.$eval("#scores tr[data-scenario='report-short']", (tr) => ({
    mean: Number(tr.dataset.mean), success: Number(tr.dataset.success), text: tr.textContent,
  }));
  const s = results.scenarios["report-short"];
  assert.equal(row.mean, s.meanScore);
  assert.equal(row.success, s.successRate);
  assert.match(row.text, new RegExp(s.meanScore.toFixed(1).replace(".", "\\.")));

  // One grid row per achievement, each overall cell with the run's rate.
  const cells = await page.$$eval("#achievements tr[data-achievement]", (rows) => rows.map((r) => ({
    id: r.dataset.achievement, all: Number(r.querySelector("td[data-scenario='all']").dataset.rate),
  })));
  assert.equal(cells.length, Object.keys(results.achievements).length);
  for (const c of cells) assert.equal(c.all, results.achievements[c.id], c.id);

  // Per episode: four plots; each line ends at the episode's final numbers.
  for (const e of results.episodes) {
    const lines = await page.$$eval(`section[data-episode='${e.id}'] polyline`, (ps) => ps.map((p) => ({
      series: p.dataset.series, points: Number(p.dataset.points), last: Number(p.dataset.last),
      drawn: p.getAttribute("points").trim().split(/\s+/).length,
    })));
    assert.deepEqual(lines.map((l) => l.series), ["population", "foodDays", "waterDays", "wellbeing"]);
    const pop = lines[0];
    assert.equal(pop.last, e.metrics.population, `${e.id} population`);
    assert.equal(pop.drawn, pop.points);
    // Three days of hourly rows (72), drawn whole.
    assert.equal(pop.points, 72, `${e.id} rows`);
    assert.equal(lines[2].last, Math.max(0, e.metrics.water_days), `${e.id} water days`);
  }
  await screenshot(page, "eval-report");
  assert.deepEqual(b.errors, []);
});
