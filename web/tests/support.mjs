// Test support: starts the real colonyd (target/debug/colonyd) on free loopback ports with its
// own data folder and settings.json, and Debian's Chromium (/usr/bin/chromium) through
// playwright-core with a fresh profile. Like crates/server/tests/e2e/support.rs.

import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, "../..");
export const ARTIFACTS = path.join(here, "artifacts");
export const COLONYD = process.env.COLONYD || path.join(ROOT, "target/debug/colonyd");
/** The `colony` client beside colonyd (`colony eval`, `colony replay`). */
export const COLONY = process.env.COLONY || path.join(path.dirname(COLONYD), "colony");
export const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A running colonyd. */
export class Colonyd {
  /**
   * Starts colonyd. `dir`, `httpPort` and `wsPort` restart a stopped one in its folder on its
   * ports (stop it with `stop({ keepDir: true })`).
   */
  static async start({ settings = {}, ready = true, args = ["--seed", "7", "--map", "64"], dir, httpPort, wsPort } = {}) {
    if (!fs.existsSync(COLONYD)) {
      throw new Error(`colonyd not found at ${COLONYD}: build it first (cargo build -p colony-server --bin colonyd) or set COLONYD`);
    }
    dir ??= fs.mkdtempSync(path.join(os.tmpdir(), "colony-dash-"));
    httpPort ??= await freePort();
    wsPort ??= await freePort();
    while (wsPort === httpPort) wsPort = await freePort();
    const all = { httpPort, wsPort, ...settings };
    fs.writeFileSync(path.join(dir, "settings.json"), JSON.stringify(all));
    const argv = ["--data-dir", dir, ...args];
    if (ready) argv.push("--ready");
    const child = spawn(COLONYD, argv, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => { stderr = (stderr + d).slice(-4000); });
    const server = new Colonyd(child, dir, httpPort, wsPort, all.authToken || null);
    server.stderr = () => stderr;
    await server.waitReady();
    return server;
  }

  constructor(child, dir, httpPort, wsPort, token) {
    Object.assign(this, { child, dir, httpPort, wsPort, token });
    this.url = `http://127.0.0.1:${httpPort}/`;
    this.exited = null;
    child.on("exit", (code, signal) => { this.exited = { code, signal }; });
  }

  async waitReady() {
    const deadline = Date.now() + 30000;
    while (Date.now() < deadline) {
      if (this.exited) throw new Error(`colonyd exited (${JSON.stringify(this.exited)}): ${this.stderr()}`);
      try {
        const r = await fetch(`http://127.0.0.1:${this.httpPort}/api/ping`);
        if (r.ok) return;
      } catch { /* not yet */ }
      await sleep(50);
    }
    throw new Error(`colonyd did not answer /api/ping within 30 s: ${this.stderr()}`);
  }

  /** Calls the API (with the token, if any) and returns the JSON body. */
  async api(method, p, body) {
    const headers = {};
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const r = await fetch(`http://127.0.0.1:${this.httpPort}${p}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    try { return JSON.parse(text); } catch { return { status: r.status, text }; }
  }

  get(p) { return this.api("GET", p); }
  post(p, body) { return this.api("POST", p, body ?? {}); }

  settingsFile() {
    return JSON.parse(fs.readFileSync(path.join(this.dir, "settings.json"), "utf8"));
  }

  async stop({ keepDir = false } = {}) {
    if (!this.exited) {
      const done = new Promise((r) => this.child.once("exit", r));
      this.child.kill("SIGKILL");
      await done;
    }
    if (!keepDir) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The flags the machine's probe found to work (no background traffic to a closed network). */
export const CHROMIUM_FLAGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/** Debian's Chromium with a fresh profile; returns {context, page, close}. */
export async function browser({ width = 1280, height = 820 } = {}) {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM)`);
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "colony-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width, height },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  return {
    context, page, errors,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot as a test artifact under web/tests/artifacts/. */
export async function screenshot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Polls `fn` until it returns a truthy value, failing after `ms`. */
export async function until(fn, what, ms = 10000) {
  const deadline = Date.now() + ms;
  let last;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last;
    await sleep(100);
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}; last value ${JSON.stringify(last)}`);
}

export { sleep };

/** Writes a short Folktails scenario of `days` days (12-hour turns, 64 map, seed 7, scored on
 * the days survived) into `dir` as `short.toml`; returns its path. */
export function shortScenario(dir, { id, title, days }) {
  const file = path.join(dir, "short.toml");
  fs.writeFileSync(file, `
id = "${id}"
title = "${title}"
goal = "Live ${days} days."
horizon_days = ${days}
turn_hours = 12
[game]
faction = "Folktails"
mode = "Normal"
map = 64
seeds = [7]
[[score]]
metric = "days_survived"
target = ${days}
`);
  return file;
}
