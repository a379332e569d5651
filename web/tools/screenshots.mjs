// Makes the README's dashboard screenshots (docs/dashboard.png, docs/dashboard-map.png) from a
// real game: colonyd on seed 7 (the quick start's map), the quick start's pump, tank and path, a
// gatherer flag, lodges and a lumberjack, three game days, then the colony view and the map
// zoomed on the district center. Run after building colonyd:
//
//   cargo build -p colony-server --bin colonyd && (cd web && node tools/screenshots.mjs)

import path from "node:path";
import { Colonyd, ROOT, browser, until } from "../tests/support.mjs";

const server = await Colonyd.start({ args: ["--seed", "7"] });
const b = await browser({ width: 1280, height: 900 });
try {
  const post = async (p, body) => {
    const r = await server.post(p, body);
    if (r?.error) throw new Error(`${p} ${JSON.stringify(body)}: ${r.error}`);
    return r;
  };
  await post("/api/speed", { speed: 0 });
  // The quick start.
  await post("/api/building/place", { prefab: "WaterPump.Folktails", x: 52, y: 62, z: 4, orientation: "north" });
  await post("/api/building/place", { prefab: "SmallTank.Folktails", x: 53, y: 66, z: 4, orientation: "west" });
  await post("/api/path/place", { x1: 52, y1: 66, x2: 53, y2: 65 });
  // Food, homes and wood near the district center, each joined to it by a path.
  const [dc] = await server.get("/api/buildings?limit=0&format=json&name=DistrictCenter");
  const near = { x1: dc.x - 12, y1: dc.y - 12, x2: dc.x + 12, y2: dc.y + 12 };
  const door = (await server.get(`/api/buildings?id=${dc.id}&limit=0&format=json&detail=full`))[0];
  for (const prefab of ["GathererFlag.Folktails", "Lodge.Folktails", "Lodge.Folktails", "LumberjackFlag.Folktails"]) {
    const found = await post("/api/placement/find?format=json", { prefab, ...near });
    const spot = found.placements.find((p) => p.reachable === 1) ?? found.placements[0];
    await post("/api/building/place", { prefab, x: spot.x, y: spot.y, z: spot.z, orientation: spot.orientation });
    await post("/api/path/place", { x1: door.entranceX, y1: door.entranceY, x2: spot.entranceX, y2: spot.entranceY });
  }
  await post("/api/game/advance", { days: 3 });

  const { page } = b;
  await page.goto(server.url);
  await until(() => page.evaluate(() => document.body.dataset.booted === "true"), "the dashboard boots");
  await page.evaluate(() => Promise.all([window.colonyDashboard.summary.refreshSummary(), window.colonyDashboard.charts.refresh(), window.colonyDashboard.notes.refresh()]));
  await new Promise((r) => setTimeout(r, 1500));
  await page.screenshot({ path: path.join(ROOT, "docs/dashboard.png") });

  await page.click('.tab[data-view="map"]');
  await until(() => page.evaluate(() => (window.colonyDashboard.map?.buildings ?? []).length > 5), "the map's buildings");
  await page.evaluate((id) => window.colonyDashboard.map.locate(id), dc.id);
  await new Promise((r) => setTimeout(r, 1500));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(ROOT, "docs/dashboard-map.png") });
  console.log("wrote docs/dashboard.png and docs/dashboard-map.png");
} finally {
  await b.close();
  await server.stop();
}
