// The map view: draws GET /api/tiles (terrain heights shaded, water depth and badwater,
// moisture and soil flags) with trees and crops from GET /api/trees and /api/crops on a canvas;
// pan by dragging, zoom with the wheel or the buttons, hover for a tile's fields.
// Degrades gracefully: when /api/tiles answers unknown_endpoint the map tab stays hidden.

import { $ } from "./util.js";
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

export class MapView {
  constructor() {
    this.canvas = $("#map-canvas");
    this.ctx = this.canvas.getContext("2d");
    this.tip = $("#map-tip");
    this.status = $("#map-status");
    this.size = null;
    this.zoom = 4;
    this.panX = 0;
    this.panY = 0;
    this.plants = new Map(); // tile index -> [{kind, ...row}]
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
    this.paint();
    if (!this.fitted) this.fit();
    this.fitted = true;
    this.draw();
    const trees = [...this.plants.values()].flat().filter((p) => p.kind === "tree").length;
    const crops = [...this.plants.values()].flat().filter((p) => p.kind === "crop").length;
    this.status.textContent = `${size.x}×${size.y}, ${trees} trees, ${crops} crops`;
    this.canvas.dataset.loaded = "true";
    return "present";
  }

  async loadPlants() {
    const plants = new Map();
    for (const [kind, path] of [["tree", "/api/trees?limit=0&format=json"], ["crop", "/api/crops?limit=0&format=json"]]) {
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
        // Buildings and paths (trees and crops are drawn on top as dots).
        const occ = g.occupants.get(i);
        if (occ && !this.plants.has(i)) {
          c = occ.some((o) => !/path/i.test(o.name)) ? mix(c, BUILDING, 0.85) : mix(c, PATH, 0.8);
          if (f & 16) c = mix(c, [60, 40, 25], 0.5);
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
      const grown = p.grown === true || p.grown === 1;
      const alive = p.alive !== false && p.alive !== 0;
      const rad = Math.max(0.8, z * (grown ? 0.42 : 0.18 + 0.2 * clamp01(p.growth ?? 0)));
      ctx.fillStyle = !alive ? "#7d7566" : p.kind === "tree" ? (grown ? "#1f4d1a" : "#5e9a45") : (grown ? "#e0a526" : "#d8c77a");
      ctx.beginPath();
      ctx.arc(cx, cy, rad, 0, Math.PI * 2);
      ctx.fill();
      if ((p.marked === true || p.marked === 1) && z >= 4) {
        ctx.strokeStyle = "#d94c3a";
        ctx.lineWidth = 1;
        ctx.stroke();
      }
    }
    if (this.hover && z >= 3) {
      ctx.strokeStyle = "#fff";
      ctx.lineWidth = 1.5;
      ctx.strokeRect(this.panX + this.hover.x * z, this.panY + (h - 1 - this.hover.y) * z, z, z);
    }
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
    for (const o of g.occupants.get(i) ?? []) lines.push(`${o.name} (z ${o.z})`);
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
      drag = { x: e.clientX, y: e.clientY, panX: this.panX, panY: this.panY };
      c.setPointerCapture(e.pointerId);
      c.classList.add("dragging");
    });
    c.addEventListener("pointermove", (e) => {
      const r = c.getBoundingClientRect();
      if (drag) {
        this.panX = drag.panX + e.clientX - drag.x;
        this.panY = drag.panY + e.clientY - drag.y;
        this.draw();
      }
      this.showTip(e.clientX - r.left, e.clientY - r.top);
    });
    const end = () => { drag = null; c.classList.remove("dragging"); };
    c.addEventListener("pointerup", end);
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
