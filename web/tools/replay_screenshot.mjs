// Makes docs/images/replay-mode.png: a real episode (the random baseline, agents/random_agent.py,
// on a 64 map for three half-day turns a day over three days) recorded by `colony eval`, rebuilt
// with `colony replay --check --keep DIR`, served by `colonyd --replay DIR`, and the dashboard
// shown on a turn whose requests include refused ones, the agent widget collapsed. Run after
// building both binaries:
//
//   cargo build -p colony-server --bin colonyd -p colony-client --bin colony && (cd web && node tools/replay_screenshot.mjs)

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { COLONY, COLONYD, Colonyd, ROOT, browser, shortScenario, until } from "../tests/support.mjs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "colony-replay-shot-"));
const scenario = shortScenario(dir, { id: "three-days", title: "Three days", days: 3 });
const out = path.join(dir, "out");
execFileSync(COLONY, [
  "eval", "--scenario", scenario, "--agent", `python3 ${path.join(ROOT, "agents/random_agent.py")}`,
  "--seeds", "7", "--out", out, "--colonyd", COLONYD, "--quiet",
], { stdio: ["ignore", "inherit", "inherit"] });
const folder = path.join(dir, "turns");
execFileSync(COLONY, ["replay", "--check", path.join(out, "episodes/three-days-s7"), "--keep", folder, "--colonyd", COLONYD],
  { stdio: ["ignore", "inherit", "inherit"] });
const index = JSON.parse(fs.readFileSync(path.join(folder, "replay.json"), "utf8"));
// The first turn with a refused request (else the middle one).
const pick = index.turns.find((t) => t.requests.some((r) => r.error || r.status >= 400)) ?? index.turns[index.turns.length >> 1];

const server = await Colonyd.start({ args: ["--replay", folder], ready: false });
const b = await browser({ width: 1280, height: 900 });
try {
  const { page } = b;
  await page.goto(server.url);
  await until(() => page.evaluate(() => document.body.dataset.booted === "true"), "the dashboard boots");
  await page.click("#agent-collapse");
  await page.$eval("#replay-slider", (el, at) => { el.value = String(at); el.dispatchEvent(new Event("input")); },
    index.turns.indexOf(pick));
  await until(() => page.evaluate((t) => document.querySelector("#replay-bar").dataset.turn === String(t), pick.turn), `turn ${pick.turn}`);
  await new Promise((r) => setTimeout(r, 1500));
  const file = path.join(ROOT, "docs/images/replay-mode.png");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
  console.log(`wrote ${file} (turn ${pick.turn} of ${index.turns.length - 1})`);
} finally {
  await b.close();
  await server.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
