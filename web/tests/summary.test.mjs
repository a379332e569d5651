// The colony's numbers on the colony view (population, stock with days left, wellbeing) and the
// alerts list, compared with what a real colonyd answers; a click on an alert locates the
// building on the map.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, screenshot, until } from "./support.mjs";

let server, b, flag;

before(async () => {
  server = await Colonyd.start();
  b = await browser();
  await server.post("/api/speed", { speed: 0 });
  // A workplace far from any path: an `unreachable` alert that stays.
  // The map's corners, in turn, until one has bushes in reach and no path.
  let found, spot;
  for (const [x1, y1] of [[4, 4], [47, 47], [4, 47], [47, 4]]) {
    found = await server.post("/api/placement/find?format=json",
      { prefab: "GathererFlag.Folktails", x1, y1, x2: x1 + 12, y2: y1 + 12 });
    spot = found.placements.find((p) => p.reachable === 0);
    if (spot) break;
  }
  assert.ok(spot, `an unreachable spot: ${JSON.stringify(found)}`);
  flag = await server.post("/api/building/place",
    { prefab: "GathererFlag.Folktails", x: spot.x, y: spot.y, z: spot.z, orientation: spot.orientation });
  assert.equal(typeof flag.id, "number", JSON.stringify(flag));
});

after(async () => {
  await b?.close();
  await server?.stop();
});

/** The server's numbers as the cards show them. */
async function expected() {
  const s = await server.get("/api/summary?format=json");
  const sum = (f) => s.districts.reduce((n, d) => n + f(d), 0);
  const stock = {};
  for (const d of s.districts) for (const [g, n] of Object.entries(d.resources)) stock[g] = (stock[g] ?? 0) + n;
  return {
    s, stock,
    adults: sum((d) => d.population.adults), children: sum((d) => d.population.children),
    bots: sum((d) => d.population.bots), homeless: sum((d) => d.housing.homeless),
  };
}

const days = (d) => (d < 0 ? "no one uses it" : `${d.toFixed(1)} day${d === 1 ? "" : "s"}`);

async function shown(page) {
  return page.evaluate(() => {
    const t = (sel) => document.querySelector(sel).textContent;
    const rows = Object.fromEntries([...document.querySelectorAll("#stock-body tr")].map((r) => [r.dataset.good, {
      amount: Number(r.querySelector(".amount").textContent), days: r.querySelector(".days").textContent,
      detail: r.querySelector(".good .sub")?.textContent.trim() ?? "",
    }]));
    return {
      adults: Number(t("#pop-adults")), children: Number(t("#pop-children")), bots: Number(t("#pop-bots")),
      homeless: Number(t("#pop-homeless")), rows,
      average: t("#wb-average"), miserable: Number(t("#wb-miserable")), critical: Number(t("#wb-critical")),
    };
  });
}

/** Whether the page shows exactly the server's numbers; answers the differences. */
async function compare(page) {
  const e = await expected();
  const got = await shown(page);
  const diffs = [];
  const eq = (what, a, want) => { if (a !== want) diffs.push(`${what}: shown ${JSON.stringify(a)}, server ${JSON.stringify(want)}`); };
  for (const k of ["adults", "children", "bots", "homeless"]) eq(k, got[k], e[k]);
  const p = e.s.projections;
  for (const [good, key] of [["Water", "waterDays"], ["Log", "logDays"], ["Plank", "plankDays"], ["Gear", "gearDays"]]) {
    eq(`${good} amount`, got.rows[good]?.amount, e.stock[good] ?? 0);
    eq(`${good} days`, got.rows[good]?.days, days(p[key]));
  }
  // Food: the goods it lists, summed, are its amount; the days are the server's foodDays.
  const food = got.rows.Food;
  eq("Food days", food?.days, days(p.foodDays));
  const listed = (food?.detail ?? "").split(", ").filter(Boolean).map((x) => x.split(" "));
  for (const [g, n] of listed) eq(`Food ${g}`, Number(n), e.stock[g]);
  eq("Food amount", food?.amount, listed.reduce((n, [, v]) => n + Number(v), 0));
  eq("wellbeing average", got.average, e.s.wellbeing.average.toFixed(1));
  eq("miserable", got.miserable, e.s.wellbeing.miserable);
  eq("critical", got.critical, e.s.wellbeing.critical);
  return { diffs, e, got };
}

test("population, stock with days left and wellbeing show the server's numbers, and follow it", async () => {
  const { page } = b;
  await page.goto(server.url);
  await page.waitForSelector("#population-card[data-loaded=true]");
  let c = await compare(page);
  assert.deepEqual(c.diffs, []);
  // A new game: 8 adults and 4 children, all homeless; berries to eat.
  assert.deepEqual([c.got.adults, c.got.children, c.got.bots, c.got.homeless], [8, 4, 0, 12]);
  assert.match(c.got.rows.Food.detail, /Berries \d+/);
  assert.match(await page.textContent("#pop-main"), /^12 beavers$/);

  // A day later the stock has changed; the cards follow (day.start and the 5 s refresh).
  const food0 = c.got.rows.Food.amount;
  await server.post("/api/game/advance", { days: 1 });
  c = await until(async () => {
    const now = await compare(page);
    return now.diffs.length === 0 && now.got.rows.Food.amount !== food0 && now;
  }, "the cards to show the next day's numbers", 15000);
  assert.ok(c.got.rows.Food.amount < food0, `berries eaten: ${food0} -> ${c.got.rows.Food.amount}`);
  // The alerts follow the summary's counts (the district center is staffed by now).
  const alerts = await server.get("/api/alerts?limit=0&format=json");
  await until(async () => JSON.stringify(await page.$$eval("#alert-list li", (lis) => lis.map((l) => Number(l.dataset.id))))
    === JSON.stringify(alerts.map((a) => a.id)), "the alerts list to follow", 3000);
  await until(async () => (await page.textContent("#day")) === `Day ${c.e.s.time.dayNumber}`, "the time card's day");
  await screenshot(page, "colony-numbers");
  assert.deepEqual(b.errors, []);
});

test("the alerts list shows the server's alerts; a click locates the building on the map", async () => {
  const { page } = b;
  await page.goto(server.url);
  await page.waitForSelector("#alerts-card[data-loaded=true]");
  const alerts = await server.get("/api/alerts?limit=0&format=json");
  assert.ok(alerts.some((a) => a.type === "unreachable" && a.id === flag.id), `the flag is unreachable: ${JSON.stringify(alerts)}`);
  await until(async () => {
    const rows = await page.$$eval("#alert-list li", (lis) => lis.map((l) => [l.dataset.type, Number(l.dataset.id)]));
    return JSON.stringify(rows) === JSON.stringify(alerts.map((a) => [a.type, a.id]));
  }, "the list to match GET /api/alerts");
  assert.equal(await page.textContent("#alert-count"), String(alerts.length));
  const row = page.locator(`#alert-list li[data-id="${flag.id}"]`);
  assert.match(await row.textContent(), new RegExp(`unreachable.*GathererFlag.*not connected by paths.*${flag.x}, ${flag.y}`));
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, "colony-summary");

  // Locate: the map view opens centred on it, outlined, with its panel.
  await row.click();
  await page.waitForSelector("body[data-view=map]");
  await until(async () => (await page.evaluate(() => window.colonyDashboard.map.highlight)) === flag.id, "the highlight");
  await page.waitForSelector(`#building-panel[data-id="${flag.id}"][data-loaded=true]`);
  assert.equal(await page.textContent("#bp-name"), "GathererFlag");
  assert.match(await page.textContent('#bp-facts [data-fact="reachable"]'), /no: not connected by paths/);
  // Centred in the part of the map the panel leaves free (a 1×1 flag: its tile's centre).
  const centre = await page.evaluate(([x, y]) => {
    const p = window.colonyDashboard.map.pixelOf(x, y);
    const r = document.querySelector("#map-canvas").getBoundingClientRect();
    const panel = document.querySelector("#building-panel").getBoundingClientRect();
    return { dx: p.x - (panel.left - r.left) / 2, dy: p.y - r.height / 2 };
  }, [flag.x, flag.y]);
  assert.ok(Math.abs(centre.dx) < 2 && Math.abs(centre.dy) < 2, `centred beside the panel: ${JSON.stringify(centre)}`);
  await screenshot(page, "alerts-locate");
  assert.deepEqual(b.errors, []);
});

test("the alerts list follows the colony without a reload", async () => {
  const { page } = b;
  await page.goto(server.url);
  await page.waitForSelector(`#alert-list li[data-id="${flag.id}"]`);
  // The flag goes (building.demolished over the WebSocket): so does its alert.
  const gone = await server.post("/api/building/demolish", { id: flag.id });
  assert.equal(gone.demolished, true, JSON.stringify(gone));
  await until(async () => (await page.$(`#alert-list li[data-id="${flag.id}"]`)) === null, "its alert to go");
  const alerts = await server.get("/api/alerts?limit=0&format=json");
  assert.equal((await page.$$("#alert-list li")).length, alerts.length);
  assert.equal(await page.isVisible("#alert-empty"), alerts.length === 0);
  assert.equal(await page.textContent("#alert-count"), String(alerts.length));
  assert.deepEqual(b.errors, []);
});
