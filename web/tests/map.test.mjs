// The map view. /api/tiles, /api/trees and /api/crops are being built; until colonyd has them:
// - the live test is skipped (and says so), and the map tab must stay hidden (graceful degrade);
// - the fixture test always runs: it answers those routes (and gatherables, buildings, beavers) in
//   the browser with data of the documented shape ({mapSize, region, tiles}, Tile, Tree, Building
//   and Beaver rows) and checks the map module.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, screenshot, until } from "./support.mjs";

let server, b, tilesPresent;

before(async () => {
  server = await Colonyd.start();
  b = await browser();
  const probe = await server.get("/api/tiles?x1=0&y1=0&x2=0&y2=0&format=json");
  tilesPresent = !(typeof probe.error === "string" && probe.error.startsWith("unknown_endpoint"));
  if (!tilesPresent) {
    console.log("map: GET /api/tiles is absent in this colonyd (unknown_endpoint); the live map test is SKIPPED, the fixture test runs");
  }
});

after(async () => {
  await b?.close();
  await server?.stop();
});

test("the map tab is shown exactly when /api/tiles exists", async () => {
  const { page } = b;
  await page.goto(server.url);
  await page.waitForSelector("body[data-booted=true]");
  assert.equal(await page.isVisible("#tab-map"), tilesPresent);
  assert.equal(await page.getAttribute("body", "data-map"), tilesPresent ? "present" : "absent");
  // Asking for the map view without the route falls back to the colony view.
  if (!tilesPresent) {
    await page.goto(server.url + "#map");
    await page.waitForSelector("body[data-booted=true]");
    assert.equal(await page.getAttribute("body", "data-view"), "colony");
  }
  assert.deepEqual(b.errors, []);
});

test("live map: tiles, trees and crops from colonyd", async (t) => {
  if (!tilesPresent) {
    t.skip("GET /api/tiles is absent in this colonyd (unknown_endpoint): live map test pending the tiles route");
    return;
  }
  const { page } = b;
  await page.goto(server.url + "#map");
  await page.waitForSelector("#map-canvas[data-loaded=true]", { timeout: 20000 });
  const size = (await server.get("/api/tiles?x1=0&y1=0&x2=0&y2=0&format=json")).mapSize;
  assert.match(await page.textContent("#map-status"),
    new RegExp(`^${size.x}×${size.y}, \\d+ trees, \\d+ crops, \\d+ buildings?, \\d+ beavers?(, \\d+ bots?)?$`));
  // The legend never covers the status line, whatever the window's width.
  for (const width of [1280, 900, 700, 520, 420]) {
    await page.setViewportSize({ width, height: 820 });
    const [legend, status] = await Promise.all([page.locator(".map-legend").boundingBox(), page.locator("#map-status").boundingBox()]);
    const apart = legend.x + legend.width <= status.x || status.x + status.width <= legend.x
      || legend.y + legend.height <= status.y || status.y + status.height <= legend.y;
    assert.ok(apart, `legend ${JSON.stringify(legend)} overlaps status ${JSON.stringify(status)} at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 820 });
  const tile = (await server.get("/api/tiles?x1=10&y1=12&x2=10&y2=12&format=json")).tiles[0];
  const p = await page.evaluate(() => window.colonyDashboard.map.pixelOf(10, 12));
  const box = await page.locator("#map-canvas").boundingBox();
  await page.mouse.move(box.x + p.x, box.y + p.y);
  await until(async () => (await page.getAttribute("#map-tip", "data-x")) === "10", "the hover tip");
  assert.match(await page.textContent("#map-tip"), new RegExp(`Tile 10, 12.*terrain ${tile.terrain}`));
  await screenshot(page, "map");
});

// ---- a synthetic world of the documented shape ----

const W = 64, H = 48, Z = 16;
const river = (y) => 22 + 5 * Math.sin(y / 8);
function tileAt(x, y) {
  const dist = Math.abs(x - river(y));
  const t = { x, y, terrain: Math.round(5 + 2.5 * (Math.sin(x / 9) + Math.cos(y / 7)) + (x > 44 && y > 30 ? 3 : 0)) };
  if (dist < 2.5) {
    t.terrain = 3;
    t.water = Number((1.6 - dist * 0.4).toFixed(2));
    if (y > 34) t.badwater = 0.8;
  } else if (dist < 6) {
    t.moist = true;
  }
  if (y > 34 && dist >= 2.5 && dist < 4) t.contaminated = true;
  if (x === 12 && y === 40) t.dead = true;
  if (x >= 40 && x <= 41 && y >= 10 && y <= 11) t.occupants = [{ name: "Lodge.Folktails", z: t.terrain }];
  if (x === 41 && (y === 8 || y === 9)) t.occupants = [{ name: "Path", z: t.terrain }];
  if (x === 41 && y === 9) t.entrance = true;
  return t;
}
function plants(kind) {
  const out = [];
  let id = kind === "tree" ? 1000 : 5000;
  if (kind === "tree") {
    for (let y = 24; y < 40; y += 2) for (let x = 50; x < 60; x += 2) {
      out.push({ id: id++, name: (x + y) % 4 ? "Pine" : "Birch", x, y, z: 9, alive: x !== 50, marked: y === 24, grown: (x * y) % 3 !== 0, growth: ((x * y) % 3) / 3 });
    }
  } else {
    for (let y = 4; y <= 8; y++) for (let x = 30; x <= 36; x++) {
      out.push({ id: id++, name: "Carrot", x, y, z: 5, alive: true, marked: false, grown: x > 33, growth: x > 33 ? 1 : (x - 29) / 5 });
    }
  }
  return out;
}

// Buildings (full detail rows) and beavers of the documented shape: a finished lodge (2×2, facing
// south, its doorstep on a path), a lumberjack site at 40% and two paths; two beavers and a bot.
const z = (x, y) => tileAt(x, y).terrain;
const BUILDINGS = [
  { id: 11, name: "Lodge.Folktails", x: 40, y: 10, z: z(40, 10), orientation: "south", finished: true, paused: false, pausable: false, role: "housing", buildProgress: 1, entranceX: 41, entranceY: 9 },
  { id: 12, name: "LumberjackFlag.Folktails", x: 8, y: 8, z: z(8, 8), orientation: "south", finished: false, paused: false, pausable: true, role: "wood", buildProgress: 0.4 },
  { id: 13, name: "Path", x: 41, y: 9, z: z(41, 9), orientation: "south", finished: true, paused: false, role: "paths", buildProgress: 1 },
  { id: 14, name: "Path", x: 41, y: 8, z: z(41, 8), orientation: "south", finished: true, paused: false, role: "paths", buildProgress: 1 },
];
const BEAVERS = [
  { id: 21, name: "Kit", x: 38, y: 14, z: 5, isBot: false, isChild: true },
  { id: 22, name: "Ada", x: 44, y: 14, z: 5, isBot: false, isChild: false },
  { id: 23, name: "Bolt", x: 46, y: 14, z: 5, isBot: true, isChild: false },
];

async function serveFixture(page) {
  await page.route(/\/api\/(tiles|trees|crops|gatherables|buildings|beavers)\b/, (route) => {
    const url = new URL(route.request().url());
    const json = (body) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(body) });
    if (url.pathname === "/api/tiles") {
      const q = (k) => Number(url.searchParams.get(k));
      const x1 = Math.max(0, q("x1")), y1 = Math.max(0, q("y1"));
      const x2 = Math.min(W - 1, q("x2")), y2 = Math.min(H - 1, q("y2"));
      const tiles = [];
      for (let y = y1; y <= y2; y++) for (let x = x1; x <= x2; x++) tiles.push(tileAt(x, y));
      return json({ mapSize: { x: W, y: H, z: Z }, region: { x1, y1, x2, y2 }, tiles });
    }
    // limit=0: a flat array.
    if (url.pathname === "/api/gatherables") return json([]);
    if (url.pathname === "/api/buildings") return json(BUILDINGS);
    if (url.pathname === "/api/beavers") return json(BEAVERS);
    return json(plants(url.pathname === "/api/trees" ? "tree" : "crop"));
  });
}

test("fixture map: terrain, water, badwater, moisture, trees and crops; hover, zoom and pan", async () => {
  const { page } = b;
  await serveFixture(page);
  await page.goto("about:blank");
  await page.goto(server.url + "#map");
  await page.waitForSelector("#map-canvas[data-loaded=true]");
  assert.equal(await page.isVisible("#tab-map"), true);
  assert.equal(await page.textContent("#map-status"), `${W}×${H}, 40 trees, 35 crops, 2 buildings, 2 beavers, 1 bot`);
  const box = await page.locator("#map-canvas").boundingBox();
  const hover = async (x, y) => {
    const p = await page.evaluate(([x, y]) => window.colonyDashboard.map.pixelOf(x, y), [x, y]);
    await page.mouse.move(box.x + p.x, box.y + p.y);
    await until(async () => (await page.getAttribute("#map-tip", "data-x")) === String(x)
      && (await page.getAttribute("#map-tip", "data-y")) === String(y), `the tip of ${x},${y}`);
    return page.textContent("#map-tip");
  };
  // A badwater river tile.
  const rx = Math.round(river(40));
  const tip = await hover(rx, 40);
  assert.match(tip, new RegExp(`Tile ${rx}, 40`));
  assert.match(tip, /terrain 3/);
  assert.match(tip, /water 1\.\d\d/);
  assert.match(tip, /badwater 80%/);
  // A building tile and a crop and a tree.
  assert.match(await hover(41, 11), /Lodge\.Folktails \(housing; z \d+\)/);
  assert.match(await hover(41, 9), /entrance/);
  assert.match(await hover(41, 9), /Path \(paths; z \d+\)/);
  assert.match(await hover(8, 8), /LumberjackFlag\.Folktails \(wood, site 40%; z \d+\)/);
  assert.match(await hover(38, 14), /beaver: Kit \(child\)/);
  assert.match(await hover(46, 14), /beaver: Bolt \(bot\)/);
  assert.match(await hover(34, 6), /crop Carrot: grown/);
  assert.match(await hover(30, 6), /crop Carrot: growing 20%/);
  assert.match(await hover(52, 24), /tree (Pine|Birch): .*marked/);
  assert.match(await hover(12, 40), /dead/);
  // The pixels: water is blue, badwater purple-ish, land green-brown.
  const colour = async (x, y) => page.evaluate(([x, y]) => {
    const m = window.colonyDashboard.map;
    const p = m.pixelOf(x, y);
    const c = document.querySelector("#map-canvas");
    const dpr = c.width / c.getBoundingClientRect().width;
    return [...c.getContext("2d").getImageData(Math.floor(p.x * dpr), Math.floor(p.y * dpr), 1, 1).data];
  }, [x, y]);
  const water = await colour(Math.round(river(10)), 10);
  assert.ok(water[2] > water[0] && water[2] > water[1], `water is blue: ${water}`);
  const bad = await colour(Math.round(river(44)), 44);
  assert.ok(bad[0] > water[0], `badwater is redder than clean water: ${bad} vs ${water}`);
  const land = await colour(5, 5);
  assert.ok(land[1] > land[2], `land is green-brown: ${land}`);
  // The lodge in the housing colour; a path pale; the bot steel blue.
  const near = (c, want, tol = 14) => want.every((v, i) => Math.abs(c[i] - v) <= tol);
  const lodge = await colour(40, 11);
  assert.ok(near(lodge, [0xe8, 0x89, 0x3a]), `the lodge is housing orange: ${lodge}`);
  const path = await colour(41, 8);
  assert.ok(near(path, [0xdd, 0xd0, 0xae]), `a path is pale: ${path}`);
  const bot = await colour(46, 14);
  assert.ok(near(bot, [0x3f, 0x5f, 0x7f], 20), `the bot is steel blue: ${bot}`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await screenshot(page, "map-fixture");
  // Zoom in with the wheel and pan by dragging.
  const z0 = await page.evaluate(() => window.colonyDashboard.map.zoom);
  await page.mouse.wheel(0, -300);
  await until(async () => (await page.evaluate(() => window.colonyDashboard.map.zoom)) > z0, "zoom in");
  const pan0 = await page.evaluate(() => window.colonyDashboard.map.panX);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const pan1 = await page.evaluate(() => window.colonyDashboard.map.panX);
  assert.ok(Math.abs(pan1 - pan0 - 120) < 2, `panned by 120: ${pan0} -> ${pan1}`);
  await screenshot(page, "map-fixture-zoomed");
  await page.unroute(/\/api\/(tiles|trees|crops|gatherables|buildings|beavers)\b/);
  assert.deepEqual(b.errors, []);
});
