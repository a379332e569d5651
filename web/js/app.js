// Boots the dashboard: reads /dashboard/config.json, asks for the token when the API needs one,
// opens the WebSocket and starts the panels. Uses only the public API and the WebSocket.

import { $, $$ } from "./util.js";
import { get, bus, token, askToken, dashboardConfig } from "./api.js";
import { Channel } from "./ws.js";
import { ColonyPanel } from "./colony.js";
import { AgentWidget } from "./agent.js";
import { SettingsPanel } from "./settings.js";
import { MapView, probeTiles } from "./map.js";
import { BuildingPanel } from "./building.js";
import { SummaryPanel } from "./summary.js";
import { NotesPanel } from "./notes.js";
import { HistoryCharts } from "./charts.js";
import { HealthWatch } from "./health.js";
import { ReplayBar, probeReplay } from "./replay.js";

const views = ["colony", "map", "settings"];
let map = null;
let mapTimer = null;
let colonyTimer = null;
let buildingPanel = null;
let summary = null;
/** The building to locate once the map view shows (an alert was clicked). */
let pendingLocate = null;

/** Events after which the map reloads its buildings, or only its beavers. */
const BUILDING_EVENTS = /^(building\.|block\.|construction\.|demolish\.|game\.new)/;
const BEAVER_EVENTS = /^(beaver\.|bot\.|character\.|population\.changed|migration)/;

function show(view) {
  if (!views.includes(view)) view = "colony";
  if (view === "map" && $("#tab-map").hidden) view = "colony";
  for (const t of $$(".tab")) t.setAttribute("aria-selected", String(t.dataset.view === view));
  for (const v of $$(".view")) v.hidden = v.dataset.view !== view;
  document.body.dataset.view = view;
  if (view === "settings") settings.load();
  clearInterval(mapTimer);
  clearInterval(colonyTimer);
  if (view === "map" && map) {
    const loaded = map.load();
    if (pendingLocate !== null) {
      const id = pendingLocate;
      pendingLocate = null;
      loaded.then(() => locate(id));
    }
    mapTimer = setInterval(() => map.load(), 15000);
    // Beavers move: every 2 s; buildings (progress, pauses) every 6 s.
    let tick = 0;
    colonyTimer = setInterval(() => map.loadColony({ beaversOnly: ++tick % 3 !== 0 }), 2000);
  }
  if (location.hash !== `#${view}`) history.replaceState(null, "", `#${view}`);
}

let settings;

/** The dashboard's parts, for the browser tests and the curious. */
window.colonyDashboard = {};

/** Shows the map tab only when /api/tiles exists (it answers unknown_endpoint otherwise). */
async function checkMap() {
  const p = await probeTiles();
  if (p.kind === "present") {
    $("#tab-map").hidden = false;
    if (!map) {
      map = new MapView();
      buildingPanel = new BuildingPanel();
      map.on("select", (b) => (b ? buildingPanel.open(b.id) : buildingPanel.close()));
      buildingPanel.on("close", () => map.select(null));
      buildingPanel.on("changed", () => map.loadColony());
      buildingPanel.on("demolished", () => map.loadColony());
      window.colonyDashboard.buildingPanel = buildingPanel;
    }
    window.colonyDashboard.map = map;
    document.body.dataset.map = "present";
    summary?.setLocatable(true);
  } else if (p.kind === "absent") {
    $("#tab-map").hidden = true;
    document.body.dataset.map = "absent";
    summary?.setLocatable(false);
  }
  // gated: decided when the gate opens
}

/** Shows a building on the map: pans to it, outlines it and opens its panel. */
async function locate(id) {
  if (!map) return;
  if ($("#view-map").hidden) {
    pendingLocate = id;
    show("map");
    return;
  }
  // The panel first, so the map centres the building beside it.
  const opened = buildingPanel.open(id);
  if (!(await map.locate(id))) buildingPanel.close();
  await opened;
}

function onEvent(p) {
  if (!p?.event) return;
  if (map && !$("#view-map").hidden) {
    if (BUILDING_EVENTS.test(p.event)) map.loadColony();
    else if (BEAVER_EVENTS.test(p.event)) map.loadColony({ beaversOnly: true });
  }
  buildingPanel?.onEvent(p);
}

function connStatus(text, state) {
  const c = $("#conn");
  c.textContent = text;
  c.dataset.state = state;
}

async function boot() {
  const config = await dashboardConfig();
  if (config.authRequired && !token()) await askToken();
  // Proves the token (a 401 asks again) before anything else starts.
  await get("/api/agent/state");

  const channel = config.wsEnabled ? new Channel(config.wsPort) : null;
  const colony = new ColonyPanel(channel);
  summary = new SummaryPanel(channel);
  summary.on("locate", (a) => locate(a.id));
  window.colonyDashboard.summary = summary;
  const notes = new NotesPanel(channel);
  // The summary's `gameOver` (when the service sends it) keeps the banner true after reloads.
  summary.on("summary", (s) => {
    if (typeof s?.gameOver === "boolean") notes.setGameOver(s.gameOver, s.time?.dayNumber);
  });
  window.colonyDashboard.notes = notes;
  const charts = new HistoryCharts(channel);
  window.colonyDashboard.charts = charts;
  const agent = new AgentWidget(channel, config);
  const health = new HealthWatch();
  window.colonyDashboard.health = health;
  settings = new SettingsPanel();

  bus.on("gate", (open) => {
    if (open) {
      colony.refreshAll();
      summary.refreshAll();
      notes.refresh();
      charts.refresh();
      checkMap();
      if (!$("#view-settings").hidden) settings.load();
    }
  });
  bus.on("actionLogging", (on) => agent.setLogEnabled(on));
  bus.on("settings", (view) => {
    if (view?.settings && typeof view.settings.actionLoggingEnabled === "boolean") {
      agent.setLogEnabled(view.settings.actionLoggingEnabled);
    }
  });

  if (channel) {
    channel.authRequired = config.authRequired;
    channel.on("status", (s) => connStatus(s === "open" ? "live" : s, s));
    channel.on("retry", (ms) => connStatus(`reconnecting in ${(ms / 1000).toFixed(1)} s`, "closed"));
    channel.on("event", onEvent);
    bus.on("token", () => channel.restart());
    channel.connect();
  } else {
    connStatus("WebSocket off (polling)", "off");
  }

  for (const t of $$(".tab")) t.addEventListener("click", () => show(t.dataset.view));
  window.addEventListener("hashchange", () => show(location.hash.slice(1)));
  await checkMap();
  // Replay mode: the timeline; each turn chosen loads a save, after which every panel reads again.
  const replay = await probeReplay();
  if (replay) {
    const bar = new ReplayBar(replay);
    window.colonyDashboard.replay = bar;
    bar.on("turn", () => {
      colony.refreshAll();
      summary.refreshAll();
      notes.refresh();
      charts.refresh();
      buildingPanel?.close();
      if (map && !$("#view-map").hidden) map.load();
    });
  }
  show(location.hash.slice(1) || "colony");
  colony.start();
  summary.start();
  notes.start();
  charts.start();
  agent.start(!channel);
  health.start();
  document.body.dataset.booted = "true";
}

boot().catch((e) => {
  const b = $("#banner");
  b.hidden = false;
  b.textContent = `The dashboard could not start: ${e.message}`;
  console.error(e);
});
