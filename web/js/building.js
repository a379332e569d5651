// The building panel (on the map): the details of one building from GET /api/buildings?id=N
// (name, role, place, finished or its progress, workers, priority, inventory, statuses) with its
// controls: pause/resume (POST /api/building/pause), priority (POST /api/building/priority),
// workers (POST /api/building/workers) and demolish after a confirmation
// (POST /api/building/demolish). A refused action shows the answer's `error` text as it came.

import { $, el, Emitter } from "./util.js";
import { get, post } from "./api.js";
import { roleColour } from "./map.js";

const PRIORITIES = ["VeryLow", "Low", "Normal", "High", "VeryHigh"];
// The counts of a building's `inReach` (GET /api/buildings?id=N), as the panel words them.
const REACH_LABELS = {
  trees: "grown trees", treesMarked: "marked for cutting", saplings: "saplings",
  bushes: "bushes", bushesRipe: "ripe", cropsGrowing: "crops growing", cropsReady: "crops ready",
  plantable: "plantable tiles", markedForPlanting: "marked for planting", ruins: "ruins",
};
const truthy = (v) => v === true || v === 1;
const pct = (v) => `${Math.round(Math.max(0, Math.min(1, Number(v) || 0)) * 100)}%`;

export class BuildingPanel extends Emitter {
  constructor() {
    super();
    this.box = $("#building-panel");
    this.id = null;
    this.data = null;
    this.busy = false;
    $("#bp-close").addEventListener("click", () => this.close());
    $("#bp-pause").addEventListener("click", () => this.act("/api/building/pause",
      { id: this.id, paused: !truthy(this.data?.paused) }));
    $("#bp-priority").addEventListener("change", (e) => this.act("/api/building/priority",
      { id: this.id, priority: e.target.value, type: this.priorityType() }));
    $("#bp-workers-less").addEventListener("click", () => this.setWorkers((this.data?.desiredWorkers ?? 0) - 1));
    $("#bp-workers-more").addEventListener("click", () => this.setWorkers((this.data?.desiredWorkers ?? 0) + 1));
    $("#bp-workers-input").addEventListener("change", (e) => this.setWorkers(Number(e.target.value)));
    $("#bp-demolish").addEventListener("click", () => this.confirmDemolish(true));
    $("#bp-demolish-no").addEventListener("click", () => this.confirmDemolish(false));
    $("#bp-demolish-yes").addEventListener("click", () => this.demolish());
    $("#bp-error-dismiss").addEventListener("click", () => this.showError(null));
    this.box.addEventListener("keydown", (e) => { if (e.key === "Escape") this.close(); });
    // Progress, workers and stock change as the game runs: poll while the panel is on screen.
    setInterval(() => { if (this.id !== null && this.box.offsetParent !== null) this.refresh(); }, 3000);
  }

  /** Shows a building (by id) and loads its details. */
  async open(id) {
    if (this.id !== id) {
      this.id = id;
      this.data = null;
      this.confirmDemolish(false);
      this.showError(null);
      $("#bp-name").textContent = "…";
      this.box.dataset.id = String(id);
      delete this.box.dataset.loaded;
    }
    this.box.hidden = false;
    await this.refresh();
  }

  close() {
    this.id = null;
    this.data = null;
    this.box.hidden = true;
    delete this.box.dataset.id;
    delete this.box.dataset.loaded;
    this.emit("close");
  }

  /** A WebSocket event: a change to this building reloads it. */
  onEvent(p) {
    if (this.id === null || !p?.event) return;
    if (/^(building\.|construction\.|demolish\.)/.test(p.event) && (!p.data || p.data.id === undefined || p.data.id === this.id)) {
      this.refresh();
    }
  }

  async refresh() {
    const id = this.id;
    if (id === null) return;
    // An array of one with limit=0 (the contract's "array or page").
    const r = await get(`/api/buildings?id=${id}&limit=0&format=json`);
    if (Array.isArray(r.body)) r.body = r.body[0];
    if (this.id !== id) return; // another building was opened meanwhile
    if (r.code === "not_found") {
      this.data = null;
      this.render();
      $("#bp-sub").textContent = "This building is gone (demolished or never finished).";
      this.box.dataset.loaded = "gone";
      return;
    }
    if (r.code || r.status !== 200 || !r.body) {
      if (r.code !== "game_not_ready") this.showError(r.body?.error ?? `HTTP ${r.status}`);
      return;
    }
    this.data = r.body;
    this.render();
    this.box.dataset.loaded = "true";
  }

  priorityType() {
    return truthy(this.data?.finished) ? "workplace" : "construction";
  }

  render() {
    const b = this.data;
    const controls = $("#bp-controls");
    controls.hidden = !b;
    for (const s of ["#bp-state", "#bp-facts", "#bp-inventory-wrap", "#bp-statuses-wrap"]) $(s).hidden = !b;
    if (!b) {
      $("#bp-name").textContent = `Building ${this.id}`;
      $("#bp-role").hidden = true;
      return;
    }
    const [base, faction] = b.name.split(".");
    $("#bp-name").textContent = base;
    $("#bp-name").title = b.name;
    const role = $("#bp-role");
    role.hidden = !b.role;
    role.textContent = b.role ?? "";
    role.style.background = roleColour(b.role);
    $("#bp-sub").textContent = `#${b.id} · ${b.x}, ${b.y}, z ${b.z} · facing ${b.orientation}` + (faction ? ` · ${faction}` : "");

    // Construction state.
    const finished = truthy(b.finished);
    const state = $("#bp-state");
    state.dataset.finished = String(finished);
    const paused = truthy(b.paused) ? el("span", { class: "tag paused" }, "paused") : "";
    if (finished) {
      state.replaceChildren(el("div", {}, el("b", {}, "Finished"), paused));
    } else {
      state.replaceChildren(
        el("div", {}, el("b", {}, "Under construction"), paused),
        bar("Built", b.buildProgress), bar("Materials", b.materialProgress),
        b.hasMaterials === false ? el("div", { class: "sub" }, "Waiting for materials") : "");
    }

    // Facts: workers, dwellers, storage, power, reachability, district.
    const facts = [];
    if (b.maxWorkers !== undefined) facts.push(["Workers", `${b.assignedWorkers ?? 0} assigned of ${b.desiredWorkers ?? 0} wanted (max ${b.maxWorkers})`]);
    if (b.maxDwellers !== undefined) facts.push(["Dwellers", `${b.dwellers ?? 0} of ${b.maxDwellers}`]);
    if (b.capacity !== undefined) {
      const stock = b.stock ?? 0;
      // The start's goods can exceed a district center's room: say so instead of "55 of 20".
      facts.push(["Stock", stock > b.capacity
        ? `${stock} (room for ${b.capacity}: ${stock - b.capacity} over)`
        : `${stock} of ${b.capacity}`]);
    }
    if (b.storageMode) facts.push(["Storage", `${b.storageMode}${b.allowedGood ? `, ${b.allowedGood}` : ""}`]);
    if (b.currentRecipe) facts.push(["Recipe", b.currentRecipe]);
    if (b.isConsumer || b.isGenerator) {
      facts.push(["Power", b.isGenerator ? `makes ${b.nominalPowerOutput ?? 0} hp` : `${truthy(b.powered) ? "powered" : "unpowered"}, needs ${b.nominalPowerInput ?? 0} hp`]);
    }
    if (b.reachable !== undefined) facts.push(["Reachable", truthy(b.reachable) ? "yes" : "no: not connected by paths"]);
    if (b.district) facts.push(["District", b.district]);
    // What lies in a flag's, farm's or forester's range (a water wheel: the flow under it).
    if (b.inReach) {
      const text = Object.entries(b.inReach).map(([k, v]) => k === "flow"
        ? `${Number(v).toFixed(2)} m3/s flowing`
        : `${v} ${REACH_LABELS[k] ?? k}`);
      facts.push(["In reach", text.join(", ")]);
    }
    $("#bp-facts").replaceChildren(...facts.map(([k, v]) => el("div", { dataset: { fact: k.toLowerCase() } }, el("span", { class: "k" }, k), el("span", { class: "v" }, v))));

    // Controls.
    const pause = $("#bp-pause");
    const pausable = truthy(b.pausable);
    pause.hidden = !pausable;
    pause.textContent = truthy(b.paused) ? "Resume" : "Pause";
    pause.dataset.paused = String(truthy(b.paused));

    const type = this.priorityType();
    const current = type === "workplace" ? b.workplacePriority : b.constructionPriority;
    const prioRow = $("#bp-priority-row");
    prioRow.hidden = current === undefined;
    if (current !== undefined) {
      const sel = $("#bp-priority");
      if (sel.options.length === 0) for (const p of PRIORITIES) sel.append(el("option", { value: p }, p));
      sel.value = current;
      sel.dataset.type = type;
      $("#bp-priority-type").textContent = type === "workplace" ? "work" : "construction";
    }

    const workersRow = $("#bp-workers-row");
    const workplace = b.maxWorkers !== undefined && b.maxWorkers > 0;
    workersRow.hidden = !workplace;
    if (workplace) {
      const input = $("#bp-workers-input");
      input.max = String(b.maxWorkers);
      if (document.activeElement !== input) input.value = String(b.desiredWorkers ?? 0);
      $("#bp-workers-less").disabled = (b.desiredWorkers ?? 0) <= 0;
      $("#bp-workers-more").disabled = (b.desiredWorkers ?? 0) >= b.maxWorkers;
      $("#bp-workers-note").textContent = `${b.assignedWorkers ?? 0} at work, max ${b.maxWorkers}`;
    }

    // Inventory and statuses.
    const inv = Object.entries(b.inventory ?? {}).filter(([, n]) => n > 0).sort((x, y) => y[1] - x[1]);
    $("#bp-inventory").replaceChildren(...inv.map(([good, n]) => el("tr", { dataset: { good } }, el("td", {}, good), el("td", { class: "num" }, String(n)))));
    $("#bp-inventory-empty").hidden = inv.length > 0;
    const statuses = Array.isArray(b.statuses) ? b.statuses : [];
    $("#bp-statuses").replaceChildren(...statuses.map((s) => el("span", { class: "chip warn" }, String(s))));
    $("#bp-statuses-empty").hidden = statuses.length > 0;
  }

  async setWorkers(count) {
    if (!Number.isFinite(count)) return;
    await this.act("/api/building/workers", { id: this.id, count: Math.round(count) });
  }

  /** Posts an action; on success reloads the building (and tells the map), else shows the error. */
  async act(path, body) {
    if (this.id === null || this.busy) return;
    this.busy = true;
    this.box.classList.add("busy");
    try {
      const r = await post(path, body);
      if (r.body?.error || r.status !== 200) {
        this.showError(r.body?.error ?? `HTTP ${r.status}`);
        this.render(); // put the controls back to the building's real state
        return;
      }
      this.showError(null);
      await this.refresh();
      this.emit("changed", this.id);
    } finally {
      this.busy = false;
      this.box.classList.remove("busy");
    }
  }

  confirmDemolish(show) {
    $("#bp-confirm").hidden = !show;
    $("#bp-demolish").hidden = show;
    if (show) {
      $("#bp-confirm-name").textContent = this.data?.name ?? `building ${this.id}`;
      $("#bp-demolish-no").focus();
    }
  }

  async demolish() {
    const id = this.id;
    if (id === null) return;
    const r = await post("/api/building/demolish", { id });
    this.confirmDemolish(false);
    if (r.body?.error || r.status !== 200) {
      this.showError(r.body?.error ?? `HTTP ${r.status}`);
      return;
    }
    this.emit("demolished", id);
    this.close();
  }

  showError(text) {
    $("#bp-error").hidden = !text;
    $("#bp-error-text").textContent = text ?? "";
  }
}

function bar(label, value) {
  return el("div", { class: "bp-bar", dataset: { bar: label.toLowerCase() } },
    el("span", { class: "k" }, label),
    el("span", { class: "meter" }, el("div", { style: `width:${pct(value)}` })),
    el("span", { class: "v" }, pct(value)));
}
