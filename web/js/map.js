// The map view: draws GET /api/tiles (terrain heights shaded, water depth and badwater,
// moisture and soil flags) with trees and crops from GET /api/trees and /api/crops, bushes from
// GET /api/gatherables, and the colony on top: buildings by role from GET /api/buildings (finished
// solid, sites hatched with their progress; paths, stairs and platforms as blocks) and beavers and
// bots from GET /api/beavers. Pan by dragging, zoom with the wheel or the buttons, hover for a
// tile's fields, click a building to select it (the building panel shows it).
// Degrades gracefully: when /api/tiles answers unknown_endpoint the map tab stays hidden; without
// the colony routes the map still draws the land (buildings then only tint their tiles).

import { $, Emitter } from "./util.js";
import { get } from "./api.js";

const STRIP = 32; // rows per tiles request
const LOW = [110, 154, 77];
const HIGH = [201, 185, 138];
const MOIST = [61, 107, 42];
const WATER = [63, 127, 196];
const DEEP = [28, 64, 120];
const BAD = [138, 79, 158];
const CONTAMINATED = [120, 80, 130];
const DEAD = [140, 130, 110];
const BUILDING = [140, 106, 74];
const PATH = [216, 201, 163];
const RUIN = [128, 124, 116];

/** Fill colours of buildings by role (the `role` of GET /api/buildings?detail=full). */
export const ROLE_COLOURS = {
  district: "#c4452f",
  housing: "#e8893a",
  wood: "#8a5a32",
  food: "#e6c84a",
  water: "#3fb6d8",
  storage: "#8f8577",
  power: "#e0559a",
  industry: "#5f6f86",
  science: "#2fae9a",
  bots: "#6a7f99",
  population: "#d66f8a",
  "water-control": "#2f6fa6",
  landscaping: "#9c8b6a",
  paths: "#ddd0ae",
};
/** Roles drawn in the "wellbeing" colour: everything that makes beavers happy or looks nice. */
const WELLBEING = new Set(["wellbeing", "decoration", "monument", "wonder", "health"]);
const OTHER_COLOUR = "#b98fd6";
export function roleColour(role) {
  if (WELLBEING.has(role)) return OTHER_COLOUR;
  return ROLE_COLOURS[role] ?? "#a89c84";
}
const BEAVER = "#4a2c14";
const CHILD = "#9a6a3a";
const BOT = "#3f5f7f";

/** Whether a tile occupant is a building or a block (faction-qualified names, and Path). */
const isBuildingName = (name) => name.includes(".") || name === "Path";
/** The kind of a path-role block, from its name: stairs, platform or path. */
export function blockKind(name) {
  const base = name.split(".")[0];
  if (/Stairs$/.test(base)) return "stairs";
  if (/Platform|Overhang|Bridge|Zipline/.test(base)) return "platform";
  return "path";
}
/** The footprint size of a building turned to `orientation` (west and east swap the sides). */
export function turnedSize(size, orientation) {
  const [w, d] = [size?.x ?? 1, size?.y ?? 1];
  return orientation === "west" || orientation === "east" ? [d, w] : [w, d];
}
const truthy = (v) => v === true || v === 1;

const mix = (a, b, t) => [0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * t);
const clamp01 = (v) => Math.max(0, Math.min(1, v));

/** Answers whether the tiles route exists: "present", "absent", "gated" or "error". */
export async function probeTiles() {
  const r = await get("/api/tiles?x1=0&y1=0&x2=0&y2=0&format=json");
  if (r.code === "unknown_endpoint") return { kind: "absent" };
  if (r.code === "game_not_ready") return { kind: "gated" };
  if (r.status === 200 && !r.code && r.body && r.body.mapSize) return { kind: "present", mapSize: r.body.mapSize };
  return { kind: "error", error: r.body?.error ?? `HTTP ${r.status}` };
}

/** The tile rows of a list route answer (a flat array, or a page with items). */
function rows(body) {
  if (Array.isArray(body)) return body;
  if (body && Array.isArray(body.items)) return body.items;
  return [];
}

export class MapView extends Emitter {
  constructor() {
    super();
    this.canvas = $("#map-canvas");
    this.ctx = this.canvas.getContext("2d");
    this.tip = $("#map-tip");
    this.status = $("#map-status");
    this.size = null;
    this.zoom = 4;
    this.panX = 0;
    this.panY = 0;
    this.plants = new Map(); // tile index -> [{kind, ...row}]
    this.buildings = null; // [{...row, w, d}] or null while GET /api/buildings is unavailable
    this.beavers = [];
    this.byTile = new Map(); // tile index -> buildings covering it (blocks last)
    this.sizes = null; // prefab name -> {x, y}
    this.selected = null; // building id
    this.highlight = null; // building id, outlined after a locate
    this.beaverMarks = []; // where each beaver was last drawn: {id, x, y, r} in CSS pixels
    this.fitted = false;
    this.bindInput();
    new ResizeObserver(() => this.draw()).observe(this.canvas);
  }

  idx(x, y) { return y * this.size.x + x; }

  async load() {
    const probe = await probeTiles();
    if (probe.kind !== "present") {
      this.status.textContent = probe.kind === "gated" ? "The ready gate is closed." : `Map unavailable: ${probe.error ?? probe.kind}`;
      return probe.kind;
    }
    this.status.textContent = "Loading…";
    const size = probe.mapSize;
    const n = size.x * size.y;
    const grid = {
      terrain: new Int16Array(n), water: new Float32Array(n), badwater: new Float32Array(n),
      flags: new Uint8Array(n), occupants: new Map(),
    };
    for (let y1 = 0; y1 < size.y; y1 += STRIP) {
      const y2 = Math.min(size.y - 1, y1 + STRIP - 1);
      const r = await get(`/api/tiles?x1=0&y1=${y1}&x2=${size.x - 1}&y2=${y2}&format=json`);
      if (r.code || r.status !== 200) {
        this.status.textContent = `Map unavailable: ${r.body?.error ?? r.status}`;
        return "error";
      }
      for (const t of r.body.tiles ?? []) {
        if (t.x < 0 || t.y < 0 || t.x >= size.x || t.y >= size.y) continue;
        const i = t.y * size.x + t.x;
        grid.terrain[i] = t.terrain ?? 0;
        grid.water[i] = t.water ?? 0;
        grid.badwater[i] = t.badwater ?? 0;
        grid.flags[i] = (t.moist ? 1 : 0) | (t.contaminated ? 2 : 0) | (t.dead ? 4 : 0)
          | (t.seedling ? 8 : 0) | (t.entrance ? 16 : 0);
        const occ = Array.isArray(t.occupants) ? t.occupants
          : typeof t.occupants === "string" && t.occupants
            ? t.occupants.split("/").map((s) => { const [name, z] = s.split(":"); return { name, z: Number(z) }; })
            : [];
        if (occ.length) grid.occupants.set(i, occ);
      }
    }
    this.size = size;
    this.grid = grid;
    await this.loadPlants();
    await this.loadColony();
    this.paint();
    if (!this.fitted) this.fit();
    this.fitted = true;
    this.draw();
    this.showStatus();
    this.canvas.dataset.loaded = "true";
    return "present";
  }

  showStatus() {
    if (!this.size) return;
    const all = [...this.plants.values()].flat();
    const trees = all.filter((p) => p.kind === "tree").length;
    const crops = all.filter((p) => p.kind === "crop").length;
    let text = `${this.size.x}×${this.size.y}, ${trees} trees, ${crops} crops`;
    if (this.buildings) {
      const n = this.buildings.filter((b) => b.role !== "paths").length;
      const beavers = this.beavers.filter((b) => !truthy(b.isBot)).length;
      const bots = this.beavers.length - beavers;
      text += `, ${n} building${n === 1 ? "" : "s"}, ${beavers} beaver${beavers === 1 ? "" : "s"}`;
      if (bots) text += `, ${bots} bot${bots === 1 ? "" : "s"}`;
    }
    this.status.textContent = text;
  }

  /**
   * Reloads buildings and beavers (or only the beavers) and redraws; not the land. Calls made
   * while a reload runs are folded into one more round; the promise settles after it.
   */
  loadColony({ beaversOnly = false } = {}) {
    const buildings = !beaversOnly || !this.buildings;
    this.wanted = { buildings: (this.wanted?.buildings ?? false) || buildings };
    if (!this.colonyRun) this.colonyRun = this.runColony().finally(() => { this.colonyRun = null; });
    return this.colonyRun;
  }

  async runColony() {
    while (this.wanted) {
      const want = this.wanted;
      this.wanted = null;
      if (want.buildings) await this.loadBuildings();
      await this.loadBeavers();
    }
    if (this.image) {
      this.draw();
      this.showStatus();
    }
    this.canvas.dataset.colony = this.buildings ? "true" : "absent";
    this.emit("colony", this.buildings);
  }

  async loadSizes() {
    const r = await get("/api/prefabs?format=json");
    if (r.code || r.status !== 200 || !Array.isArray(r.body)) return;
    this.sizes = new Map(r.body.map((p) => [p.name, { x: p.sizeX ?? 1, y: p.sizeY ?? 1 }]));
  }

  async loadBuildings() {
    // detail=full: the role, pausable, progress and doorstep of each building.
    const r = await get("/api/buildings?limit=0&format=json&detail=full");
    if (r.code || r.status !== 200) {
      if (r.code !== "game_not_ready") this.buildings = null;
      return;
    }
    const list = rows(r.body);
    if (!this.sizes || list.some((b) => !this.sizes.has(b.name) && b.name !== "Path")) await this.loadSizes();
    const byTile = new Map();
    const buildings = list.map((b) => {
      const [w, d] = turnedSize(this.sizes?.get(b.name), b.orientation);
      return { ...b, w, d };
    });
    // Blocks first, so a building standing on a platform is found before it.
    buildings.sort((a, b) => (a.role === "paths") - (b.role === "paths") || a.z - b.z);
    for (const b of buildings) {
      for (let dy = 0; dy < b.d; dy++) for (let dx = 0; dx < b.w; dx++) {
        const x = b.x + dx, y = b.y + dy;
        if (!this.size || x < 0 || y < 0 || x >= this.size.x || y >= this.size.y) continue;
        const i = this.idx(x, y);
        if (!byTile.has(i)) byTile.set(i, []);
        byTile.get(i).push(b);
      }
    }
    // Within a tile: buildings before blocks, higher before lower.
    for (const list of byTile.values()) list.sort((a, b) => (a.role === "paths") - (b.role === "paths") || b.z - a.z);
    this.buildings = buildings;
    this.byTile = byTile;
    if (this.selected !== null && !buildings.some((b) => b.id === this.selected)) this.selected = null;
  }

  async loadBeavers() {
    const r = await get("/api/beavers?limit=0&format=json");
    if (r.code || r.status !== 200) return;
    this.beavers = rows(r.body).filter((b) => Number.isFinite(b.x) && Number.isFinite(b.y));
  }

  building(id) {
    return this.buildings?.find((b) => b.id === id) ?? null;
  }

  /** The building drawn at a tile (the topmost; a building over the block it stands on). */
  buildingAt(x, y) {
    if (!this.size) return null;
    return this.byTile.get(this.idx(x, y))?.[0] ?? null;
  }

  /** How much of the canvas's right side an overlay (the building panel) covers, in CSS pixels. */
  coveredRight() {
    const panel = $("#building-panel");
    if (!panel || panel.hidden) return 0;
    return this.canvas.getBoundingClientRect().right - panel.getBoundingClientRect().left;
  }

  /** Selects a building (outlined; `null` clears) without moving the map. */
  select(id) {
    this.selected = id;
    this.draw();
  }

  /**
   * Pans to a building (zooming in if the map is small on screen), outlines it and selects it.
   * Answers the building, or null when it is not on the map.
   */
  async locate(id) {
    let b = this.building(id);
    if (!b) {
      await this.loadColony();
      b = this.building(id);
    }
    if (!b || !this.size) return null;
    const r = this.canvas.getBoundingClientRect();
    this.zoom = Math.max(this.zoom, 20);
    const cx = (b.x + b.w / 2) * this.zoom;
    const cy = (this.size.y - b.y - b.d / 2) * this.zoom;
    // Centred in the part of the canvas that the building panel leaves free.
    const inset = Math.max(0, Math.min(r.width / 2, this.coveredRight()));
    this.panX = (r.width - inset) / 2 - cx;
    this.panY = r.height / 2 - cy;
    this.highlight = id;
    this.selected = id;
    this.draw();
    return b;
  }

  async loadPlants() {
    const plants = new Map();
    for (const [kind, path] of [
      ["tree", "/api/trees?limit=0&format=json"], ["crop", "/api/crops?limit=0&format=json"],
      ["bush", "/api/gatherables?limit=0&format=json"],
    ]) {
      const r = await get(path);
      if (r.code || r.status !== 200) continue; // not there yet: the map still draws
      for (const p of rows(r.body)) {
        if (p.x < 0 || p.y < 0 || p.x >= this.size.x || p.y >= this.size.y) continue;
        const i = this.idx(p.x, p.y);
        if (!plants.has(i)) plants.set(i, []);
        plants.get(i).push({ kind, ...p });
      }
    }
    this.plants = plants;
  }

  /** Renders the tiles into an offscreen image, one pixel per tile, north up. */
  paint() {
    const { x: w, y: h, z: maxZ } = this.size;
    const g = this.grid;
    const img = new ImageData(w, h);
    let top = 1;
    for (let i = 0; i < g.terrain.length; i++) top = Math.max(top, g.terrain[i]);
    const zmax = Math.max(top, 1, Math.min(maxZ || top, top));
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const t = g.terrain[i];
        let c = mix(LOW, HIGH, clamp01(t / zmax));
        // Hill shading from the south-west neighbour.
        const nb = x > 0 && y > 0 ? g.terrain[i - w - 1] : t;
        const shade = 1 + Math.max(-0.25, Math.min(0.25, (t - nb) * 0.08));
        c = c.map((v) => v * shade);
        const f = g.flags[i];
        if (f & 1) c = mix(c, MOIST, 0.55);
        if (f & 2) c = mix(c, CONTAMINATED, 0.5);
        if (f & 4) c = mix(c, DEAD, 0.5);
        // Ruins; buildings and paths only while the buildings layer is unavailable (it draws
        // them on top); trees, crops and bushes are drawn on top as dots.
        const occ = g.occupants.get(i);
        if (occ && !this.plants.has(i)) {
          const built = occ.filter((o) => isBuildingName(o.name));
          if (built.length && !this.buildings) {
            c = built.some((o) => o.name !== "Path") ? mix(c, BUILDING, 0.85) : mix(c, PATH, 0.8);
            if (f & 16) c = mix(c, [60, 40, 25], 0.5);
          } else if (occ.some((o) => /^Ruin/.test(o.name))) {
            c = mix(c, RUIN, 0.8);
          }
        }
        const d = g.water[i];
        if (d > 0.01) {
          let wc = mix(WATER, DEEP, clamp01(d / 3));
          if (g.badwater[i] > 0) wc = mix(wc, BAD, clamp01(g.badwater[i]));
          c = mix(c, wc, clamp01(0.55 + d * 0.2));
        }
        const o = ((h - 1 - y) * w + x) * 4;
        img.data[o] = c[0]; img.data[o + 1] = c[1]; img.data[o + 2] = c[2]; img.data[o + 3] = 255;
      }
    }
    this.image = new OffscreenCanvas(w, h);
    this.image.getContext("2d").putImageData(img, 0, 0);
  }

  fit() {
    if (!this.size) return;
    const r = this.canvas.getBoundingClientRect();
    this.zoom = Math.max(1, Math.min(r.width / this.size.x, r.height / this.size.y) * 0.95);
    this.panX = (r.width - this.size.x * this.zoom) / 2;
    this.panY = (r.height - this.size.y * this.zoom) / 2;
  }

  draw() {
    const c = this.canvas;
    const r = c.getBoundingClientRect();
    if (!r.width || !r.height) return;
    const dpr = window.devicePixelRatio || 1;
    if (c.width !== Math.round(r.width * dpr) || c.height !== Math.round(r.height * dpr)) {
      c.width = Math.round(r.width * dpr);
      c.height = Math.round(r.height * dpr);
    }
    const ctx = this.ctx;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#1e2a22";
    ctx.fillRect(0, 0, r.width, r.height);
    if (!this.image) return;
    ctx.imageSmoothingEnabled = false;
    const z = this.zoom;
    ctx.drawImage(this.image, this.panX, this.panY, this.size.x * z, this.size.y * z);
    // Trees and crops: grown ones full size, growing ones smaller and lighter, dead ones grey.
    const h = this.size.y;
    for (const [i, list] of this.plants) {
      const x = i % this.size.x;
      const y = Math.floor(i / this.size.x);
      const p = list[0];
      const cx = this.panX + (x + 0.5) * z;
      const cy = this.panY + (h - 1 - y + 0.5) * z;
      if (cx < -z || cy < -z || cx > r.width + z || cy > r.height + z) continue;
      const grown = p.grown === true || p.grown === 1 || p.kind === "bush";
      const alive = p.alive !== false && p.alive !== 0;
      const rad = Math.max(0.8, z * (p.kind === "bush" ? 0.3 : grown ? 0.42 : 0.18 + 0.2 * clamp01(p.growth ?? 0)));
      ctx.fillStyle = !alive ? "#7d7566"
        : p.kind === "tree" ? (grown ? "#1f4d1a" : "#5e9a45")
          : p.kind === "bush" ? "#7b3f8c"
            : (grown ? "#e0a526" : "#d8c77a");
      ctx.beginPath();
      ctx.arc(cx, cy, rad, 0, Math.PI * 2);
      ctx.fill();
      if ((p.marked === true || p.marked === 1) && z >= 4) {
        ctx.strokeStyle = "#d94c3a";
        ctx.lineWidth = 1;
        ctx.stroke();
      }
    }
    this.drawColony(ctx, r);
    if (this.hover && z >= 3) {
      ctx.strokeStyle = "#fff";
      ctx.lineWidth = 1.5;
      ctx.strokeRect(this.panX + this.hover.x * z, this.panY + (h - 1 - this.hover.y) * z, z, z);
    }
  }

  /** The rectangle (CSS pixels) of a building's footprint. */
  rectOf(b) {
    const z = this.zoom;
    return { x: this.panX + b.x * z, y: this.panY + (this.size.y - b.y - b.d) * z, w: b.w * z, h: b.d * z };
  }

  /** Buildings by role (blocks under buildings), then beavers and bots, then the selection. */
  drawColony(ctx, view) {
    const z = this.zoom;
    const visible = (q) => q.x + q.w >= 0 && q.y + q.h >= 0 && q.x <= view.width && q.y <= view.height;
    if (this.buildings) {
      const blocks = this.buildings.filter((b) => b.role === "paths");
      const others = this.buildings.filter((b) => b.role !== "paths");
      for (const b of blocks) {
        const q = this.rectOf(b);
        if (visible(q)) this.drawBlock(ctx, b, q, z);
      }
      for (const b of others) {
        const q = this.rectOf(b);
        if (visible(q)) this.drawBuilding(ctx, b, q, z);
      }
    }
    this.drawBeavers(ctx, view, z);
    for (const [id, colour, width] of [[this.highlight, "#ffe14d", 3], [this.selected, "#ffffff", 2]]) {
      const b = id === null ? null : this.building(id);
      if (!b) continue;
      const q = this.rectOf(b);
      ctx.save();
      ctx.strokeStyle = "rgba(0, 0, 0, .55)";
      ctx.lineWidth = width + 2;
      ctx.strokeRect(q.x - width, q.y - width, q.w + 2 * width, q.h + 2 * width);
      ctx.strokeStyle = colour;
      ctx.lineWidth = width;
      ctx.strokeRect(q.x - width, q.y - width, q.w + 2 * width, q.h + 2 * width);
      ctx.restore();
    }
  }

  /** A path, stairs or platform: a pale tile; stairs striped, platforms framed. Sites faint. */
  drawBlock(ctx, b, q, z) {
    const finished = truthy(b.finished);
    const kind = blockKind(b.name);
    ctx.save();
    ctx.globalAlpha = finished ? 1 : 0.45;
    ctx.fillStyle = kind === "platform" ? "#c4ad7e" : ROLE_COLOURS.paths;
    ctx.fillRect(q.x, q.y, q.w, q.h);
    if (z >= 4) {
      ctx.strokeStyle = "#8c7a55";
      ctx.lineWidth = 1;
      if (kind === "stairs") {
        for (let k = 1; k < 4; k++) {
          const yy = q.y + (q.h * k) / 4;
          ctx.beginPath(); ctx.moveTo(q.x + 1, yy); ctx.lineTo(q.x + q.w - 1, yy); ctx.stroke();
        }
      } else if (kind === "platform") {
        ctx.strokeRect(q.x + 1.5, q.y + 1.5, q.w - 3, q.h - 3);
      }
    }
    ctx.restore();
  }

  /**
   * A building: finished ones solid in their role's colour with a dark frame; sites (unfinished)
   * pale and hatched with a dashed frame and a bar of their build progress; paused ones carry two
   * bars. A tick on the side of the doorstep marks the entrance.
   */
  drawBuilding(ctx, b, q, z) {
    const colour = roleColour(b.role);
    const finished = truthy(b.finished);
    ctx.save();
    if (finished) {
      ctx.fillStyle = colour;
      ctx.fillRect(q.x, q.y, q.w, q.h);
      ctx.strokeStyle = "rgba(30, 20, 10, .85)";
      ctx.lineWidth = Math.max(1, Math.min(2, z / 8));
      ctx.strokeRect(q.x + 0.5, q.y + 0.5, q.w - 1, q.h - 1);
    } else {
      ctx.globalAlpha = 0.45;
      ctx.fillStyle = colour;
      ctx.fillRect(q.x, q.y, q.w, q.h);
      ctx.globalAlpha = 1;
      ctx.beginPath();
      ctx.rect(q.x, q.y, q.w, q.h);
      ctx.clip();
      ctx.strokeStyle = colour;
      ctx.lineWidth = Math.max(1, z / 8);
      const step = Math.max(3, z / 2.5);
      ctx.beginPath();
      for (let s = -q.h; s < q.w; s += step) {
        ctx.moveTo(q.x + s, q.y + q.h);
        ctx.lineTo(q.x + s + q.h, q.y);
      }
      ctx.stroke();
      ctx.setLineDash([Math.max(2, z / 4), Math.max(2, z / 4)]);
      ctx.strokeStyle = "rgba(30, 20, 10, .9)";
      ctx.lineWidth = 1;
      ctx.strokeRect(q.x + 0.5, q.y + 0.5, q.w - 1, q.h - 1);
      ctx.setLineDash([]);
      const progress = clamp01(Number(b.buildProgress ?? 0));
      if (z >= 5) {
        const bh = Math.max(2, z / 6);
        ctx.fillStyle = "rgba(0, 0, 0, .5)";
        ctx.fillRect(q.x + 1, q.y + q.h - bh - 1, q.w - 2, bh);
        ctx.fillStyle = "#7ed957";
        ctx.fillRect(q.x + 1, q.y + q.h - bh - 1, (q.w - 2) * progress, bh);
      }
    }
    if (truthy(b.paused) && z >= 6) {
      const s = Math.min(q.w, q.h) * 0.35;
      const cx = q.x + q.w / 2, cy = q.y + q.h / 2;
      ctx.fillStyle = "rgba(20, 20, 20, .8)";
      ctx.fillRect(cx - s * 0.55, cy - s / 2, s * 0.35, s);
      ctx.fillRect(cx + s * 0.2, cy - s / 2, s * 0.35, s);
    }
    // The entrance: a dark tick on the footprint's edge facing the doorstep.
    if (z >= 6 && Number.isFinite(b.entranceX) && Number.isFinite(b.entranceY)) {
      const e = { x: this.panX + (b.entranceX + 0.5) * z, y: this.panY + (this.size.y - 1 - b.entranceY + 0.5) * z };
      const px = Math.max(q.x, Math.min(q.x + q.w, e.x));
      const py = Math.max(q.y, Math.min(q.y + q.h, e.y));
      const horizontal = py === q.y || py === q.y + q.h;
      ctx.strokeStyle = "#1c140c";
      ctx.lineWidth = Math.max(2, z / 5);
      ctx.beginPath();
      if (horizontal) { ctx.moveTo(px - z * 0.3, py); ctx.lineTo(px + z * 0.3, py); } else { ctx.moveTo(px, py - z * 0.3); ctx.lineTo(px, py + z * 0.3); }
      ctx.stroke();
    }
    ctx.restore();
  }

  /**
   * Beavers (dark brown; children lighter and smaller) and bots (steel blue): a dot each with a
   * pale rim; several on one tile are spread around its centre.
   */
  drawBeavers(ctx, view, z) {
    const marks = [];
    const perTile = new Map();
    for (const b of this.beavers) {
      const key = `${b.x},${b.y}`;
      if (!perTile.has(key)) perTile.set(key, []);
      perTile.get(key).push(b);
    }
    for (const group of perTile.values()) {
      const n = group.length;
      group.forEach((b, k) => {
        const c = this.pixelOf(b.x, b.y);
        if (c.x < -z || c.y < -z || c.x > view.width + z || c.y > view.height + z) return;
        // Spread: the first at the centre, the rest on a ring (a spiral past eight).
        let x = c.x, y = c.y;
        if (k > 0) {
          const ring = Math.ceil(k / 8);
          const a = (k % 8) * (Math.PI / 4) + ring * 0.4;
          const d = Math.min(0.4, 0.26 * ring) * z;
          x += Math.cos(a) * d;
          y += Math.sin(a) * d;
        }
        const bot = truthy(b.isBot);
        const child = truthy(b.isChild);
        const r = Math.max(child ? 1.8 : 2.2, z * (child ? 0.2 : 0.28)) * (n > 4 ? 0.8 : 1);
        ctx.beginPath();
        ctx.arc(x, y, r + 1, 0, Math.PI * 2);
        ctx.fillStyle = "rgba(255, 250, 235, .9)";
        ctx.fill();
        ctx.beginPath();
        ctx.arc(x, y, r, 0, Math.PI * 2);
        ctx.fillStyle = bot ? BOT : child ? CHILD : BEAVER;
        ctx.fill();
        marks.push({ id: b.id, x, y, r, tileX: b.x, tileY: b.y });
      });
    }
    this.beaverMarks = marks;
  }

  /** The canvas point (CSS pixels) at the centre of a tile. */
  pixelOf(x, y) {
    return { x: this.panX + (x + 0.5) * this.zoom, y: this.panY + (this.size.y - 1 - y + 0.5) * this.zoom };
  }

  /** The tile under a point of the canvas (CSS pixels), or null. */
  tileAt(px, py) {
    if (!this.size) return null;
    const x = Math.floor((px - this.panX) / this.zoom);
    const row = Math.floor((py - this.panY) / this.zoom);
    const y = this.size.y - 1 - row;
    if (x < 0 || y < 0 || x >= this.size.x || y >= this.size.y) return null;
    return { x, y };
  }

  /** The fields of a tile as shown on hover. */
  describe(x, y) {
    const i = this.idx(x, y);
    const g = this.grid;
    const lines = [`terrain ${g.terrain[i]}`];
    if (g.water[i] > 0) lines.push(`water ${g.water[i].toFixed(2)}`);
    if (g.badwater[i] > 0) lines.push(`badwater ${(g.badwater[i] * 100).toFixed(0)}%`);
    const f = g.flags[i];
    const flags = [["moist", 1], ["contaminated", 2], ["dead", 4], ["seedling", 8], ["entrance", 16]]
      .filter(([, b]) => f & b).map(([n]) => n);
    if (flags.length) lines.push(flags.join(", "));
    const here = this.byTile.get(i) ?? [];
    for (const o of g.occupants.get(i) ?? []) {
      if (here.some((b) => b.name === o.name && b.z === o.z)) continue;
      lines.push(`${o.name} (z ${o.z})`);
    }
    for (const b of here) {
      const state = truthy(b.finished) ? "" : `, site ${Math.round(clamp01(Number(b.buildProgress ?? 0)) * 100)}%`;
      const paused = truthy(b.paused) ? ", paused" : "";
      lines.push(`${b.name} (${b.role ?? "building"}${state}${paused}; z ${b.z})`);
    }
    const who = this.beavers.filter((b) => b.x === x && b.y === y);
    if (who.length) {
      const names = who.slice(0, 4).map((b) => `${b.name}${truthy(b.isBot) ? " (bot)" : truthy(b.isChild) ? " (child)" : ""}`);
      lines.push(`${who.length === 1 ? "beaver" : `${who.length} beavers`}: ${names.join(", ")}${who.length > 4 ? ", …" : ""}`);
    }
    for (const p of this.plants.get(i) ?? []) {
      const grown = p.grown === true || p.grown === 1;
      const bits = [grown ? "grown" : `growing ${Math.round((p.growth ?? 0) * 100)}%`];
      if (p.alive === false || p.alive === 0) bits.push("dead");
      if (p.marked === true || p.marked === 1) bits.push("marked");
      lines.push(`${p.kind} ${p.name}: ${bits.join(", ")}`);
    }
    return { title: `Tile ${x}, ${y}`, lines };
  }

  showTip(px, py) {
    const t = this.tileAt(px, py);
    const changed = (t?.x !== this.hover?.x) || (t?.y !== this.hover?.y);
    this.hover = t;
    if (!t || !this.grid) {
      this.tip.hidden = true;
      if (changed) this.draw();
      return;
    }
    const d = this.describe(t.x, t.y);
    const box = this.tip;
    box.replaceChildren();
    const b = document.createElement("b");
    b.textContent = d.title;
    box.append(b);
    for (const l of d.lines) {
      const div = document.createElement("div");
      div.textContent = l;
      box.append(div);
    }
    box.hidden = false;
    box.dataset.x = t.x;
    box.dataset.y = t.y;
    const r = this.canvas.getBoundingClientRect();
    box.style.left = `${Math.min(px + 16, r.width - box.offsetWidth - 8)}px`;
    box.style.top = `${Math.min(py + 16, r.height - box.offsetHeight - 8)}px`;
    if (changed) this.draw();
  }

  zoomAt(factor, px, py) {
    const nz = Math.max(0.5, Math.min(48, this.zoom * factor));
    const f = nz / this.zoom;
    this.panX = px - (px - this.panX) * f;
    this.panY = py - (py - this.panY) * f;
    this.zoom = nz;
    this.draw();
  }

  bindInput() {
    const c = this.canvas;
    let drag = null;
    c.addEventListener("pointerdown", (e) => {
      drag = { x: e.clientX, y: e.clientY, panX: this.panX, panY: this.panY, moved: false };
      c.setPointerCapture(e.pointerId);
      c.classList.add("dragging");
    });
    c.addEventListener("pointermove", (e) => {
      const r = c.getBoundingClientRect();
      if (drag && (drag.moved || Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) > 4)) {
        drag.moved = true;
        this.panX = drag.panX + e.clientX - drag.x;
        this.panY = drag.panY + e.clientY - drag.y;
        this.draw();
      }
      this.showTip(e.clientX - r.left, e.clientY - r.top);
    });
    const end = () => { drag = null; c.classList.remove("dragging"); };
    // A click (a press that did not drag) selects the building under it, or clears the selection.
    c.addEventListener("pointerup", (e) => {
      const click = drag && !drag.moved;
      end();
      if (!click) return;
      const r = c.getBoundingClientRect();
      const t = this.tileAt(e.clientX - r.left, e.clientY - r.top);
      const b = t ? this.buildingAt(t.x, t.y) : null;
      this.highlight = null;
      this.select(b ? b.id : null);
      this.emit("select", b);
    });
    c.addEventListener("pointercancel", end);
    c.addEventListener("pointerleave", () => { this.tip.hidden = true; this.hover = null; this.draw(); });
    c.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = c.getBoundingClientRect();
      this.zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    const centre = () => { const r = c.getBoundingClientRect(); return [r.width / 2, r.height / 2]; };
    $("#map-zoom-in").addEventListener("click", () => this.zoomAt(1.5, ...centre()));
    $("#map-zoom-out").addEventListener("click", () => this.zoomAt(1 / 1.5, ...centre()));
    $("#map-fit").addEventListener("click", () => { this.fit(); this.draw(); });
    $("#map-refresh").addEventListener("click", () => this.load());
  }
}
