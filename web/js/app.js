// Boots the dashboard: reads /dashboard/config.json, asks for the token when the API needs one,
// opens the WebSocket and starts the panels. Uses only the public API and the WebSocket.

import { $, $$ } from "./util.js";
import { get, bus, token, askToken, dashboardConfig } from "./api.js";
import { Channel } from "./ws.js";
import { ColonyPanel } from "./colony.js";
import { AgentWidget } from "./agent.js";
import { SettingsPanel } from "./settings.js";
import { MapView, probeTiles } from "./map.js";

const views = ["colony", "map", "settings"];
let map = null;
let mapTimer = null;

function show(view) {
  if (!views.includes(view)) view = "colony";
  if (view === "map" && $("#tab-map").hidden) view = "colony";
  for (const t of $$(".tab")) t.setAttribute("aria-selected", String(t.dataset.view === view));
  for (const v of $$(".view")) v.hidden = v.dataset.view !== view;
  document.body.dataset.view = view;
  if (view === "settings") settings.load();
  clearInterval(mapTimer);
  if (view === "map" && map) {
    map.load();
    mapTimer = setInterval(() => map.load(), 15000);
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
    if (!map) map = new MapView();
    window.colonyDashboard.map = map;
    document.body.dataset.map = "present";
  } else if (p.kind === "absent") {
    $("#tab-map").hidden = true;
    document.body.dataset.map = "absent";
  }
  // gated: decided when the gate opens
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
  const agent = new AgentWidget(channel, config);
  settings = new SettingsPanel();

  bus.on("gate", (open) => {
    if (open) {
      colony.refreshAll();
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
    bus.on("token", () => channel.restart());
    channel.connect();
  } else {
    connStatus("WebSocket off (polling)", "off");
  }

  for (const t of $$(".tab")) t.addEventListener("click", () => show(t.dataset.view));
  window.addEventListener("hashchange", () => show(location.hash.slice(1)));
  await checkMap();
  show(location.hash.slice(1) || "colony");
  colony.start();
  agent.start(!channel);
  document.body.dataset.booted = "true";
}

boot().catch((e) => {
  const b = $("#banner");
  b.hidden = false;
  b.textContent = `The dashboard could not start: ${e.message}`;
  console.error(e);
});
