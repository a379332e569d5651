// The public HTTP API, same origin as the page. Handles the token: when the API answers 401 the
// page asks for it once (a dialog), keeps it in sessionStorage and sends it as a bearer token.

import { $, Emitter, errorCode } from "./util.js";

const TOKEN_KEY = "colony.token";

export const bus = new Emitter();

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) || "";
}

let asking = null;

/** Shows the token dialog (once at a time) and resolves when a token was entered. */
export function askToken(refused = false) {
  if (asking) return asking;
  const dialog = $("#token-dialog");
  const input = $("#token-input");
  $("#token-error").hidden = !refused;
  input.value = "";
  asking = new Promise((resolve) => {
    const done = (ev) => {
      ev.preventDefault();
      const t = input.value.trim();
      if (!t) return;
      sessionStorage.setItem(TOKEN_KEY, t);
      dialog.close();
      $("#token-form").removeEventListener("submit", done);
      asking = null;
      bus.emit("token", t);
      resolve(t);
    };
    $("#token-form").addEventListener("submit", done);
    dialog.addEventListener("cancel", (ev) => ev.preventDefault(), { once: true });
  });
  dialog.showModal();
  input.focus();
  return asking;
}

/**
 * Calls the API. Resolves to {status, body, code} (code: the error code or ""); never throws for
 * HTTP statuses. A 401 asks for the token and retries.
 */
export async function api(method, path, body) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const headers = { Accept: "application/json" };
    const t = token();
    if (t) headers.Authorization = `Bearer ${t}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let resp;
    try {
      resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      bus.emit("offline", e);
      return { status: 0, body: { error: `network_error: ${e.message}` }, code: "network_error" };
    }
    if (resp.status === 401) {
      await askToken(Boolean(t));
      continue;
    }
    let data = null;
    try { data = await resp.json(); } catch { data = null; }
    const code = errorCode(data);
    if (resp.status === 409 && code === "game_not_ready") bus.emit("gate", false);
    return { status: resp.status, body: data, code };
  }
  return { status: 401, body: { error: "unauthorized: no valid token" }, code: "unauthorized" };
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body ?? {});

/** The dashboard's own configuration (not under /api: never gated, no token). */
export async function dashboardConfig() {
  const r = await fetch("/dashboard/config.json", { cache: "no-store" });
  return r.json();
}
