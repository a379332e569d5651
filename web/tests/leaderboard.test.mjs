// `colony eval leaderboard --out board.html` in Chromium: hand-made results folders (three agents,
// two scenarios, six seeds each) are ranked by the real `colony` binary, then the page is opened
// from disk: its rows, their order and numbers are checked against the inputs (the IQM worked out
// here independently, as rliable's trim_mean), and the page logs no error and fetches nothing.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { COLONY, browser, screenshot } from "./support.mjs";

const SCENARIOS = ["planks-lab", "survive-60"];
const RUNS = {
  idle: { agent: "python3 agents/idle.py", base: 10 },
  scripted: { agent: "python3 agents/scripted.py", base: 70 },
  random: { agent: "python3 agents/random_agent.py <&- | tee log", base: 40 },
};
let dir, b;
const scores = {};

/** Scores without a pattern around `base`, the same every run. */
const score = (base, s, seed) => base + ((s.length * 11 + seed * 37 + base * 3) * 7919) % 23 - 11;

/** rliable's IQM: scipy.stats.trim_mean(x, 0.25). */
function iqm(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const cut = Math.floor(s.length / 4);
  const mid = s.slice(cut, s.length - cut);
  return mid.reduce((a, b) => a + b, 0) / mid.length;
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "colony-leaderboard-"));
  for (const [name, { agent, base }] of Object.entries(RUNS)) {
    const episodes = [];
    for (const s of SCENARIOS) {
      for (let seed = 1; seed <= 6; seed++) {
        const x = score(base, s, seed);
        episodes.push({ id: `${s}-s${seed}`, scenario: s, seed, score: x, success: x >= 50, achievements: [], daysSurvived: 10 });
      }
    }
    scores[agent] = episodes.map((e) => e.score);
    fs.mkdirSync(path.join(dir, name));
    fs.writeFileSync(path.join(dir, name, "results.json"), JSON.stringify({
      agent, score: base / 10, split: "dev", episodes, scenarios: {}, achievements: {},
      version: { colony: "0.1.0", commit: "3f01d06b7e2aa", rulesDigest: "9c1e2a4b5d6f7081", scenarios: { "planks-lab": "aa", "survive-60": "bb" } },
    }));
  }
  execFileSync(COLONY, ["eval", "leaderboard", ...Object.keys(RUNS).map((n) => path.join(dir, n)), "--out", path.join(dir, "board.html")],
    { stdio: ["ignore", "inherit", "inherit"], timeout: 60000 });
  b = await browser({ width: 1400, height: 700 });
});

after(async () => {
  await b?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

test("the leaderboard page ranks the runs by overall IQM and shows every scenario's numbers", async () => {
  const { page } = b;
  const consoleErrors = [];
  const fetched = [];
  page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
  page.on("request", (r) => { if (!r.url().startsWith("file:")) fetched.push(r.url()); });
  await page.goto(pathToFileURL(path.join(dir, "board.html")).href);

  const rows = await page.$$eval("#leaderboard tbody tr", (trs) => trs.map((tr) => ({
    rank: Number(tr.dataset.rank), agent: tr.dataset.agent, iqm: Number(tr.dataset.iqm),
    name: tr.querySelector("td.agent").textContent, version: tr.querySelector("td.version").textContent,
    cells: [...tr.querySelectorAll("td[data-scenario]")].map((td) => ({
      scenario: td.dataset.scenario, stat: td.dataset.stat, value: Number(td.dataset.value),
      lo: Number(td.dataset.lo), hi: Number(td.dataset.hi), text: td.textContent,
    })),
  })));
  assert.deepEqual(rows.map((r) => [r.rank, r.agent]), [
    [1, "python3 agents/scripted.py"], [2, "python3 agents/random_agent.py <&- | tee log"], [3, "python3 agents/idle.py"],
  ]);
  for (const r of rows) {
    assert.equal(r.name, r.agent, "the command as written (escaped, not interpreted)");
    assert.equal(r.version, "colony 0.1.0 3f01d06 rules 9c1e2a4b (dev)");
    assert.ok(Math.abs(r.iqm - iqm(scores[r.agent])) < 0.001, `${r.agent}: ${r.iqm} vs ${iqm(scores[r.agent])}`);
    // Overall IQM, then mean, IQM, success for each scenario.
    assert.deepEqual(r.cells.map((c) => `${c.scenario}:${c.stat}`), [
      "all:iqm", "planks-lab:mean", "planks-lab:iqm", "planks-lab:success",
      "survive-60:mean", "survive-60:iqm", "survive-60:success",
    ]);
    for (const c of r.cells.filter((c) => c.stat !== "success")) {
      assert.ok(c.lo <= c.value && c.value <= c.hi, `${r.agent} ${c.scenario} ${c.stat}: ${c.text}`);
      assert.match(c.text, /^\d+\.\d \[\d+\.\d, \d+\.\d\]$/);
    }
  }
  assert.ok(rows[0].iqm > rows[1].iqm && rows[1].iqm > rows[2].iqm);
  const header = await page.$$eval("#leaderboard thead th", (ths) => ths.map((t) => t.textContent));
  assert.deepEqual(header.slice(0, 8), ["#", "Agent", "Version", "Episodes", "Overall IQM", "Crafter", "planks-lab", "survive-60"]);
  assert.match(await page.textContent(".legend"), /Agarwal et al\. 2021/);
  await screenshot(page, "eval-leaderboard");
  assert.deepEqual(consoleErrors, []);
  assert.deepEqual(b.errors, []);
  assert.deepEqual(fetched, [], "nothing fetched: the page is self-contained");
});
