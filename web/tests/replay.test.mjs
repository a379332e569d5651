// Replay mode in Chromium: a short episode is recorded by the real `colony eval` (an agent that
// places a pump on its first turn and sends a refused write every turn), rebuilt with
// `colony replay --check --keep DIR` (a save per turn), and served by `colonyd --replay DIR`.
// The dashboard shows the timeline; stepping, the slider and play load turns, and the shown
// turn, day and request list (refused ones highlighted) match the trajectory; the panels read
// the loaded turn's game; a write from the page (the speed buttons) is refused.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { COLONY, COLONYD, Colonyd, browser, screenshot, shortScenario, until } from "./support.mjs";


/** One turn's agent: a pump on turn 1, a refused place on every turn. */
const AGENT = `
import json, os, sys, urllib.request
turn = int(os.environ["COLONY_TURN"])
base = f"http://{os.environ['COLONY_HOST']}:{os.environ['COLONY_PORT']}"
def call(method, path, body=None):
    req = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(), method=method)
    req.add_header("Content-Type", "application/json")
    return json.loads(urllib.request.urlopen(req).read())
call("GET", "/api/summary?format=json")
if turn == 1:
    dc = [b for b in call("GET", "/api/buildings?limit=0&format=json") if b["name"].startswith("DistrictCenter")][0]
    box = {"x1": dc["x"] - 15, "y1": dc["y"] - 15, "x2": dc["x"] + 15, "y2": dc["y"] + 15}
    s = call("POST", "/api/placement/find?format=json", {"prefab": "WaterPump.Folktails", **box})["placements"][0]
    call("POST", "/api/building/place", {"prefab": "WaterPump.Folktails", "x": s["x"], "y": s["y"], "z": s["z"], "orientation": s["orientation"]})
call("POST", "/api/building/place", {"prefab": "NoSuchThing", "x": 1, "y": 1, "z": 1, "orientation": "south"})
`;

let dir, server, b, traj, index;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "colony-replay-"));
  const scenario = shortScenario(dir, { id: "replay-short", title: "Two short days", days: 2 });
  fs.writeFileSync(path.join(dir, "agent.py"), AGENT);
  const out = path.join(dir, "out");
  execFileSync(COLONY, [
    "eval", "--scenario", scenario, "--agent", `python3 ${path.join(dir, "agent.py")}`,
    "--seeds", "7", "--out", out, "--colonyd", COLONYD, "--quiet",
  ], { stdio: ["ignore", "inherit", "inherit"], timeout: 300000 });
  const episode = path.join(out, "episodes/replay-short-s7");
  traj = fs.readFileSync(path.join(episode, "trajectory.jsonl"), "utf8")
    .split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  const folder = path.join(dir, "turns");
  execFileSync(COLONY, ["replay", "--check", episode, "--keep", folder, "--colonyd", COLONYD],
    { stdio: ["ignore", "inherit", "inherit"], timeout: 300000 });
  index = JSON.parse(fs.readFileSync(path.join(folder, "replay.json"), "utf8"));
  server = await Colonyd.start({ args: ["--replay", folder], ready: false });
  b = await browser({ width: 1280, height: 900 });
});

after(async () => {
  await b?.close();
  await server?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** What the page shows of the replay. */
const shown = (page) => page.evaluate(() => ({
  turn: Number(document.querySelector("#replay-bar").dataset.turn),
  label: document.querySelector("#replay-turn").textContent,
  day: document.querySelector("#replay-day").textContent,
  slider: Number(document.querySelector("#replay-slider").value),
  requests: [...document.querySelectorAll("#replay-requests li")].map((li) => ({
    method: li.querySelector(".method").textContent,
    path: li.querySelector(".path").textContent,
    status: Number(li.querySelector(".status").textContent),
    error: li.querySelector(".error")?.textContent ?? null,
    refused: li.classList.contains("refused"),
  })),
}));

const clock = (hour) => {
  const h = Math.floor(hour);
  return `${String(h).padStart(2, "0")}:${String(Math.floor((hour - h) * 60)).padStart(2, "0")}`;
};

test("the replay's timeline steps through the recorded turns and the page cannot write", async () => {
  const { page } = b;
  assert.equal(traj.length, 4, "two days of half-day turns");
  assert.equal(index.turns.length, 5, "turn 0 and the four turns");
  await page.goto(server.url);
  await until(() => page.evaluate(() => document.body.dataset.booted === "true"), "the dashboard boots");
  assert.equal(await page.isHidden("#replay-bar"), false, "the replay bar shows");
  assert.match(await page.textContent("#replay-title"), /replay-short-s7 \(scenario replay-short, seed 7\)/);
  let s = await shown(page);
  assert.equal(s.turn, 0);
  assert.equal(s.label, "Start (turn 0 of 4)");
  assert.deepEqual(s.requests, []);
  assert.equal(await page.getAttribute("#replay-slider", "max"), "4");

  // Step forward: turn 1, its day and the agent's requests as the trajectory recorded them.
  await page.click("#replay-forward");
  s = await until(async () => { const v = await shown(page); return v.turn === 1 ? v : null; }, "turn 1");
  const check = async (s, turn) => {
    const rec = traj[turn - 1];
    const kept = index.turns[turn];
    assert.equal(s.label, `Turn ${turn} of 4`);
    assert.equal(s.slider, turn);
    assert.equal(s.day, `Day ${kept.day}, ${clock(kept.hour)}`);
    assert.equal(kept.day, rec.row.day, "the saved turn's day is the recorded row's");
    assert.deepEqual(s.requests.map((r) => [r.method, r.path, r.status]),
      rec.requests.map((r) => [r.method, r.path, r.status]));
    const refused = s.requests.filter((r) => r.refused);
    assert.equal(refused.length, rec.requests.filter((r) => r.error || r.status >= 400).length);
    assert.ok(refused.length >= 1, "the refused place of every turn");
    assert.match(refused[0].error, /^invalid_prefab: .*NoSuchThing/);
    // The panels read the loaded turn's game.
    await until(async () => (await page.textContent("#day")).includes(`Day ${kept.day}`), `the time card on day ${kept.day}`);
    const hash = await server.get("/api/game/hash?format=json");
    assert.equal(hash.stateHash, rec.stateHash);
  };
  await check(s, 1);
  assert.ok(s.requests.some((r) => r.path === "/api/building/place" && !r.refused), "the pump was placed");

  // The slider: turn 3.
  await page.$eval("#replay-slider", (el) => { el.value = "3"; el.dispatchEvent(new Event("input")); });
  s = await until(async () => { const v = await shown(page); return v.turn === 3 ? v : null; }, "turn 3");
  await check(s, 3);

  // Step back: turn 2.
  await page.click("#replay-back");
  s = await until(async () => { const v = await shown(page); return v.turn === 2 ? v : null; }, "turn 2");
  await check(s, 2);
  await screenshot(page, "replay-mode");

  // Play runs to the last turn and stops there.
  await page.click("#replay-play");
  assert.equal(await page.textContent("#replay-play"), "Pause");
  s = await until(async () => { const v = await shown(page); return v.turn === 4 ? v : null; }, "the last turn", 20000);
  await until(async () => (await page.textContent("#replay-play")) === "Play", "play stops at the end", 5000);
  await check(s, 4);
  assert.equal(await page.isDisabled("#replay-forward"), true);

  // A write from the page is refused with the server's words; the game stays paused.
  await page.click('#speed-card button[data-speed="2"]');
  await until(async () => /serves a replay \(read-only\)/.test(await page.textContent("#speed-note")), "the refusal");
  assert.equal((await server.get("/api/speed?format=json")).speed, 0);
  assert.deepEqual(b.errors, []);
});
