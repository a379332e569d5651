// The colony on the map: buildings by role (sites hatched), beavers, and the building panel with
// its controls (pause, priority, workers, demolish with a confirmation, errors as the server
// wrote them), against a real colonyd. The game is paused (speed 0) so nobody walks while pixels
// are read; POST /api/game/advance moves time when a test needs it.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, screenshot, until } from "./support.mjs";

/** GET /api/buildings?id=N&limit=0: the one building (an array of one), or the error body. */
async function one(id) {
  const r = await server.get(`/api/buildings?id=${id}&limit=0&format=json`);
  return Array.isArray(r) ? r[0] : r;
}

let server, b, dc, dcSize;

const DISTRICT = [0xc4, 0x45, 0x2f];
const FOOD = [0xe6, 0xc8, 0x4a];
const BEAVER = [0x4a, 0x2c, 0x14];
const CHILD = [0x9a, 0x6a, 0x3a];
const near = (c, want, tol = 14) => want.every((v, i) => Math.abs(c[i] - v) <= tol);

before(async () => {
  server = await Colonyd.start();
  b = await browser();
  await server.post("/api/speed", { speed: 0 });
  const list = await server.get("/api/buildings?limit=0&format=json&name=DistrictCenter");
  assert.equal(list.length, 1, `one district center: ${JSON.stringify(list)}`);
  dc = await one(list[0].id);
  const prefab = (await server.get("/api/prefabs?format=json")).find((p) => p.name === dc.name);
  dcSize = ["west", "east"].includes(dc.orientation) ? [prefab.sizeY, prefab.sizeX] : [prefab.sizeX, prefab.sizeY];
});

after(async () => {
  await b?.close();
  await server?.stop();
});

/**
 * Mean colours of small squares in a tile (its centre and four quadrants) that no beaver's dot
 * touches, read back from the canvas.
 */
function tileSamples(page, x, y) {
  return page.evaluate(([x, y]) => {
    const m = window.colonyDashboard.map;
    const c = document.querySelector("#map-canvas");
    const dpr = c.width / c.getBoundingClientRect().width;
    const p = m.pixelOf(x, y);
    const z = m.zoom;
    const half = Math.max(1, z * 0.1);
    const out = [];
    for (const [ox, oy] of [[0, 0], [-0.25, -0.25], [0.25, -0.25], [-0.25, 0.25], [0.25, 0.25]]) {
      const cx = p.x + ox * z, cy = p.y + oy * z;
      const hit = m.beaverMarks.some((b) => Math.hypot(b.x - cx, b.y - cy) <= b.r + 1.5 + half * 1.5);
      if (hit) continue;
      const d = c.getContext("2d").getImageData(Math.round((cx - half) * dpr), Math.round((cy - half) * dpr),
        Math.max(1, Math.round(2 * half * dpr)), Math.max(1, Math.round(2 * half * dpr))).data;
      const sum = [0, 0, 0];
      for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; k++) sum[k] += d[i + k];
      out.push(sum.map((v) => Math.round(v / (d.length / 4))));
    }
    return out;
  }, [x, y]);
}

/** The mean colour of a tile's inner square (no beaver stands on a new site). */
function tileMean(page, x, y) {
  return page.evaluate(([x, y]) => {
    const m = window.colonyDashboard.map;
    const c = document.querySelector("#map-canvas");
    const dpr = c.width / c.getBoundingClientRect().width;
    const p = m.pixelOf(x, y);
    const half = Math.max(1, Math.floor(m.zoom * dpr * 0.35));
    const d = c.getContext("2d").getImageData(Math.round(p.x * dpr) - half, Math.round(p.y * dpr) - half, 2 * half, 2 * half).data;
    const sum = [0, 0, 0];
    for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; k++) sum[k] += d[i + k];
    return sum.map((v) => Math.round(v / (d.length / 4)));
  }, [x, y]);
}

/** The colour of one canvas point (CSS pixels). */
function pointColour(page, x, y) {
  return page.evaluate(([x, y]) => {
    const c = document.querySelector("#map-canvas");
    const dpr = c.width / c.getBoundingClientRect().width;
    return [...c.getContext("2d").getImageData(Math.floor(x * dpr), Math.floor(y * dpr), 1, 1).data].slice(0, 3);
  }, [x, y]);
}

async function clickTile(page, x, y) {
  const p = await page.evaluate(([x, y]) => window.colonyDashboard.map.pixelOf(x, y), [x, y]);
  const box = await page.locator("#map-canvas").boundingBox();
  await page.mouse.click(box.x + p.x, box.y + p.y);
}

async function openMap(page) {
  await page.goto(server.url + "#map");
  await page.waitForSelector("#map-canvas[data-loaded=true][data-colony=true]", { timeout: 20000 });
}

/** The map's idea of a building (after its reloads), or null. */
const mapBuilding = (page, id) => page.evaluate((id) => {
  const x = window.colonyDashboard.map.building(id);
  return x ? { id: x.id, finished: x.finished, paused: x.paused, role: x.role } : null;
}, id);

test("the map draws the district center by its role and every beaver and bot", async () => {
  const { page } = b;
  await openMap(page);
  const beavers = await server.get("/api/beavers?limit=0&format=json");
  assert.ok(beavers.length >= 12, `a new game has 12 beavers: ${beavers.length}`);
  const marks = await until(async () => {
    const m = await page.evaluate(() => window.colonyDashboard.map.beaverMarks);
    return m.length === beavers.length && m;
  }, "a mark for every beaver");
  assert.deepEqual(marks.map((m) => m.id).sort(), beavers.map((x) => x.id).sort());
  for (const m of marks) {
    const row = beavers.find((x) => x.id === m.id);
    assert.deepEqual([m.tileX, m.tileY], [row.x, row.y], `beaver ${row.name} drawn on its tile`);
  }

  // Every tile of the district center's footprint is district red (where no beaver stands).
  let checked = 0;
  for (let dy = 0; dy < dcSize[1]; dy++) for (let dx = 0; dx < dcSize[0]; dx++) {
    const [x, y] = [dc.x + dx, dc.y + dy];
    for (const c of await tileSamples(page, x, y)) {
      assert.ok(near(c, DISTRICT), `tile ${x},${y} of the district center is district red: ${c}`);
      checked++;
    }
  }
  assert.ok(checked >= 9, `checked ${checked} spots of the district center`);
  // Off the footprint (two tiles west of it) the land is not red.
  for (const c of await tileSamples(page, dc.x - 2, dc.y + 1)) {
    assert.ok(!near(c, DISTRICT, 40), `the land beside it is not district red: ${c}`);
  }

  // Each beaver's dot: the last one drawn on each tile shows, in beaver or kit brown.
  const last = new Map();
  for (const m of marks) last.set(`${m.tileX},${m.tileY}`, m);
  for (const m of last.values()) {
    const row = beavers.find((x) => x.id === m.id);
    const c = await pointColour(page, m.x, m.y);
    assert.ok(near(c, row.isChild ? CHILD : BEAVER, 20), `beaver ${row.name} at ${m.x},${m.y} is brown: ${c}`);
  }
  assert.match(await page.textContent("#map-status"), new RegExp(`, 1 building, ${beavers.length} beavers$`));
  await screenshot(page, "map-colony");
  assert.deepEqual(b.errors, []);
});

test("a click on the district center shows its details; a refused demolish shows the server's error", async () => {
  const { page } = b;
  await openMap(page);
  await clickTile(page, dc.x + 1, dc.y + 1);
  await page.waitForSelector(`#building-panel[data-id="${dc.id}"][data-loaded=true]`);
  assert.equal(await page.textContent("#bp-name"), dc.name.split(".")[0]);
  assert.equal(await page.textContent("#bp-role"), dc.role);
  assert.match(await page.textContent("#bp-sub"), new RegExp(`#${dc.id} · ${dc.x}, ${dc.y}, z ${dc.z} · facing ${dc.orientation}`));
  assert.equal(await page.getAttribute("#bp-state", "data-finished"), "true");
  assert.equal(await page.textContent('#bp-facts [data-fact="workers"] .v'),
    `${dc.assignedWorkers} assigned of ${dc.desiredWorkers} wanted (max ${dc.maxWorkers})`);
  // Stock against capacity reads sensibly even when the start's goods exceed the room.
  const stockText = await page.textContent('#bp-facts [data-fact="stock"] .v');
  assert.equal(stockText, dc.stock > dc.capacity
    ? `${dc.stock} (room for ${dc.capacity}: ${dc.stock - dc.capacity} over)`
    : `${dc.stock} of ${dc.capacity}`);
  // The inventory as the server has it.
  const inv = await page.$$eval("#bp-inventory tr", (rows) => Object.fromEntries(rows.map((r) => [r.dataset.good, Number(r.lastChild.textContent)])));
  assert.deepEqual(inv, Object.fromEntries(Object.entries(dc.inventory).filter(([, n]) => n > 0)));
  assert.deepEqual(await page.$$eval("#bp-statuses .chip", (c) => c.map((x) => x.textContent)), dc.statuses);
  assert.equal(await page.inputValue("#bp-priority"), dc.workplacePriority);
  assert.equal(await page.inputValue("#bp-workers-input"), String(dc.desiredWorkers));
  // A district center cannot be paused: no pause control.
  assert.equal(dc.pausable, false);
  assert.equal(await page.isVisible("#bp-pause"), false);
  assert.equal(await page.evaluate(() => window.colonyDashboard.map.selected), dc.id);
  await screenshot(page, "building-details");

  // Demolish asks first; the server refuses a district center and the panel shows its words.
  await page.click("#bp-demolish");
  assert.equal(await page.isVisible("#bp-confirm"), true);
  assert.equal(await page.textContent("#bp-confirm-name"), dc.name);
  await page.click("#bp-demolish-yes");
  await page.waitForSelector("#bp-error:not([hidden])");
  const refused = await server.post("/api/building/demolish", { id: dc.id });
  assert.match(refused.error, /^invalid_type: /);
  assert.equal(await page.textContent("#bp-error-text"), refused.error);
  assert.equal((await one(dc.id)).id, dc.id, "still there");
  await page.click("#bp-error-dismiss");
  assert.equal(await page.isVisible("#bp-error"), false);
  await page.click("#bp-close");
  assert.equal(await page.isVisible("#building-panel"), false);
  assert.equal(await page.evaluate(() => window.colonyDashboard.map.selected), null);
  assert.deepEqual(b.errors, []);
});

test("a placed workplace: a site until built, then pause, priority, workers and demolish from its panel", async () => {
  const { page } = b;
  await openMap(page);
  const found = await server.post("/api/placement/find?format=json",
    { prefab: "GathererFlag.Folktails", x1: dc.x - 12, y1: dc.y - 12, x2: dc.x + 12, y2: dc.y + 12 });
  // No spot stands beside the district center's door: the best one is joined by a new path.
  // The joinable spots best first; one whose path cannot be laid is given up for the next.
  let spot, id;
  for (const p of found.placements.filter((p) => p.reachable === 1 || p.groundSteps >= 0)) {
    const placed = await server.post("/api/building/place",
      { prefab: "GathererFlag.Folktails", x: p.x, y: p.y, z: p.z, orientation: p.orientation });
    assert.equal(typeof placed.id, "number", JSON.stringify(placed));
    const street = await server.post("/api/path/place",
      { x1: dc.entranceX, y1: dc.entranceY, x2: p.entranceX, y2: p.entranceY });
    if ((street.errors ?? []).length === 0) {
      [spot, id] = [p, placed.id];
      break;
    }
    await server.post("/api/building/demolish", { id: placed.id });
  }
  assert.ok(spot, `a joinable spot a path reaches: ${JSON.stringify(found)}`);

  // building.placed reaches the map over the WebSocket: a site, drawn pale and hatched.
  await until(async () => (await mapBuilding(page, id))?.finished === false, "the site on the map");
  assert.equal((await mapBuilding(page, id)).role, "food");
  // Its centre may be on a hatch line: the mean of the whole tile tells.
  const site = await tileMean(page, spot.x, spot.y);
  assert.ok(!near(site, FOOD, 20), `a site is not drawn solid: ${site}`);

  // Built: solid in the food colour.
  await server.post("/api/game/advance", { hours: 24 });
  assert.equal((await one(id)).finished, true, "built within a day");
  await until(async () => (await mapBuilding(page, id))?.finished === true, "the finished building on the map", 15000);
  // One full reload, so the beavers drawn and the beaver marks the samples avoid are the same.
  await page.evaluate(() => window.colonyDashboard.map.loadColony());
  const samples = await tileSamples(page, spot.x, spot.y);
  assert.ok(samples.length >= 1, "some of the tile is free of beavers");
  for (const c of samples) assert.ok(near(c, FOOD), `a finished food building is solid yellow: ${c}`);

  // Its panel.
  await clickTile(page, spot.x, spot.y);
  await page.waitForSelector(`#building-panel[data-id="${id}"][data-loaded=true]`);
  const before = await one(id);
  // What lies in its reach, as the one-building view counts it (placement/find ranked it so).
  assert.equal(typeof before.inReach?.bushes, "number", JSON.stringify(before));
  assert.equal(await page.textContent('#bp-facts [data-fact="in reach"] .v'),
    `${before.inReach.bushes} bushes, ${before.inReach.bushesRipe} ripe`);
  assert.equal(before.pausable, true);
  assert.equal(before.paused, false);
  assert.equal(await page.textContent("#bp-pause"), "Pause");

  // Pause and resume: GET /api/buildings?id=N follows.
  await page.click("#bp-pause");
  await until(async () => (await one(id)).paused === true, "paused on the server");
  await until(async () => (await page.textContent("#bp-pause")) === "Resume", "the control to say Resume");
  await until(async () => (await mapBuilding(page, id))?.paused === true, "the map to show it paused");
  await screenshot(page, "building-paused");
  await page.click("#bp-pause");
  await until(async () => (await one(id)).paused === false, "resumed on the server");
  await until(async () => (await page.textContent("#bp-pause")) === "Pause", "the control to say Pause");

  // Priority (a finished building: its workplace priority).
  assert.equal(await page.getAttribute("#bp-priority", "data-type"), "workplace");
  await page.selectOption("#bp-priority", "VeryHigh");
  await until(async () => (await one(id)).workplacePriority === "VeryHigh", "workplace priority VeryHigh");

  // Workers: one fewer, then back.
  const want = before.desiredWorkers;
  assert.ok(want >= 1, `desired workers ${want}`);
  await page.click("#bp-workers-less");
  await until(async () => (await one(id)).desiredWorkers === want - 1, "one worker fewer");
  await until(async () => (await page.inputValue("#bp-workers-input")) === String(want - 1), "the input to follow");
  await page.fill("#bp-workers-input", String(before.maxWorkers));
  await page.press("#bp-workers-input", "Enter");
  await until(async () => (await one(id)).desiredWorkers === before.maxWorkers, "max workers");

  // Demolish: Cancel keeps it; confirming removes it from the server and the map.
  await page.click("#bp-demolish");
  await screenshot(page, "building-demolish-confirm");
  await page.click("#bp-demolish-no");
  assert.equal(await page.isVisible("#bp-confirm"), false);
  assert.equal((await one(id)).id, id, "Cancel keeps it");
  await page.click("#bp-demolish");
  await page.click("#bp-demolish-yes");
  await until(async () => /^not_found/.test((await one(id)).error ?? ""), "demolished on the server");
  await until(async () => !(await page.isVisible("#building-panel")), "the panel to close");
  await until(async () => (await mapBuilding(page, id)) === null, "gone from the map");
  assert.deepEqual(b.errors, []);
});

test("the panel shows a refused action's error body as the server wrote it", async () => {
  const { page } = b;
  await openMap(page);
  await clickTile(page, dc.x + 1, dc.y + 1);
  await page.waitForSelector(`#building-panel[data-id="${dc.id}"][data-loaded=true]`);
  // The page asks for what the server refuses (a district center cannot be paused): answered from
  // the panel's own action path, as a stale panel would after another client changed the building.
  await page.evaluate((id) => window.colonyDashboard.buildingPanel.act("/api/building/pause", { id, paused: true }), dc.id);
  const refused = await server.post("/api/building/pause", { id: dc.id, paused: true });
  assert.match(refused.error, /^invalid_type: /);
  assert.equal(await page.textContent("#bp-error-text"), refused.error);
  assert.equal(await page.isVisible("#bp-error"), true);
  await page.click("#bp-close");
  assert.deepEqual(b.errors, []);
});

test("a small colony: every building the server lists is on the map, by role, and the panel follows a site", async () => {
  const { page } = b;
  const near = { x1: dc.x - 14, y1: dc.y - 14, x2: dc.x + 14, y2: dc.y + 14 };
  const place = async (prefab, pick = (p) => p.reachable === 1) => {
    const found = await server.post("/api/placement/find?format=json", { prefab, ...near });
    const spot = found.placements.find(pick) ?? found.placements[0];
    const r = await server.post("/api/building/place", { prefab, x: spot.x, y: spot.y, z: spot.z, orientation: spot.orientation });
    assert.equal(typeof r.id, "number", `${prefab}: ${JSON.stringify(r)}`);
    return { ...r, spot };
  };
  const lodge = await place("Lodge.Folktails");
  const lumber = await place("LumberjackFlag.Folktails");
  // A path out to a spot ten tiles east (paths and, where the ground steps, stairs).
  const route = await server.post("/api/path/place", { x1: dc.entranceX, y1: dc.entranceY, x2: dc.entranceX + 10, y2: dc.entranceY - 2 });
  assert.ok(!route.error, JSON.stringify(route));
  await server.post("/api/game/advance", { hours: 3 });
  const lodge2 = await place("Lodge.Folktails");

  await openMap(page);
  const listed = await server.get("/api/buildings?limit=0&format=json");
  await until(async () => {
    const ids = await page.evaluate(() => (window.colonyDashboard.map.buildings ?? []).map((x) => x.id));
    return JSON.stringify(ids.sort()) === JSON.stringify(listed.map((x) => x.id).sort());
  }, "every listed building on the map");
  const roles = await page.evaluate(() => Object.fromEntries(window.colonyDashboard.map.buildings.map((x) => [x.id, x.role])));
  assert.equal(roles[lodge.id], "housing");
  assert.equal(roles[lumber.id], "wood");
  assert.ok(listed.filter((x) => x.name === "Path").every((x) => roles[x.id] === "paths"), "paths are blocks");

  // The new lodge is a site; its panel shows construction progress and priority.
  await page.evaluate((id) => window.colonyDashboard.map.locate(id), lodge2.id);
  await clickTile(page, lodge2.x, lodge2.y);
  await page.waitForSelector(`#building-panel[data-id="${lodge2.id}"][data-loaded=true]`);
  assert.equal(await page.getAttribute("#bp-state", "data-finished"), "false");
  assert.equal(await page.isVisible('#bp-state [data-bar="built"]'), true);
  assert.equal(await page.getAttribute("#bp-priority", "data-type"), "construction");
  await page.selectOption("#bp-priority", "High");
  await until(async () => (await one(lodge2.id)).constructionPriority === "High", "construction priority High");
  await page.mouse.move(0, 0);
  await screenshot(page, "map-colony-zoomed");
  assert.deepEqual(b.errors, []);
});
