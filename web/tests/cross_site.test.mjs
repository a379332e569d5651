// A web page on another loopback port cannot drive the service (docs/security.md): a "simple"
// text/plain POST, a JSON POST and a WebSocket from that page all fail and change nothing, while
// the dashboard, served by colonyd itself, keeps working.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Colonyd, browser, freePort, until } from "./support.mjs";

let server, b, evil, evilUrl;

before(async () => {
  server = await Colonyd.start();
  b = await browser();
  await server.post("/api/speed", { speed: 0 });
  const port = await freePort();
  evil = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<!doctype html><title>another site</title><p>nothing to see</p>");
  });
  await new Promise((r) => evil.listen(port, "127.0.0.1", r));
  evilUrl = `http://127.0.0.1:${port}/`;
});

after(async () => {
  await b?.close();
  await server?.stop();
  evil?.close();
});

test("a page of another origin cannot post, cannot open the WebSocket, and the dashboard still works", async () => {
  const { page } = b;
  const before = await server.get("/api/time?format=json");
  await page.goto(evilUrl);
  const outcome = await page.evaluate(async ({ http, ws }) => {
    const out = {};
    // 1. A simple request (no preflight): text/plain, sent blind with no-cors.
    try {
      await fetch(`${http}/api/speed`, { method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" }, body: '{"speed":3}' });
      out.simple = "sent";
    } catch (e) {
      out.simple = `failed: ${e.message}`;
    }
    // 2. The same with a blob body and no type at all (also a simple request).
    try {
      await fetch(`${http}/api/game/advance`, { method: "POST", mode: "no-cors", body: new Blob(['{"days":1}']) });
      out.blob = "sent";
    } catch (e) {
      out.blob = `failed: ${e.message}`;
    }
    // 3. A JSON request that would need CORS.
    try {
      const r = await fetch(`${http}/api/settings`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ corsOrigin: location.origin }) });
      out.json = `answered ${r.status}`;
    } catch (e) {
      out.json = `failed: ${e.message}`;
    }
    // 4. The WebSocket.
    out.ws = await new Promise((resolve) => {
      const s = new WebSocket(`${ws}/api/ws`);
      s.onmessage = (m) => resolve(`message: ${String(m.data).slice(0, 40)}`);
      s.onerror = () => resolve("error");
      s.onclose = (e) => resolve(`closed ${e.code}`);
      setTimeout(() => resolve("timeout"), 5000);
    });
    return out;
  }, { http: server.url.replace(/\/$/, ""), ws: `ws://127.0.0.1:${server.wsPort}` });

  // Nothing changed: speed, time and settings are as they were.
  const speed = await server.get("/api/speed?format=json");
  assert.equal(speed.speed, 0, JSON.stringify(outcome));
  const after = await server.get("/api/time?format=json");
  assert.equal(after.ticks, before.ticks, `no advance happened: ${JSON.stringify(outcome)}`);
  const settings = await server.get("/api/settings?format=json");
  assert.equal(settings.settings.corsOrigin, "", "corsOrigin unchanged");
  assert.match(outcome.json, /^failed/, "the JSON post is blocked (no CORS headers for that origin)");
  assert.ok(outcome.ws === "error" || /^closed/.test(outcome.ws), `the WebSocket is refused: ${outcome.ws}`);

  // The dashboard, same-origin, changes the speed and gets its WebSocket.
  await page.goto(server.url);
  await until(() => page.evaluate(() => document.body.dataset.booted === "true"), "the dashboard boots");
  await until(async () => (await page.getAttribute("#conn", "data-state")) === "open", "the dashboard's WebSocket is live");
  const r = await page.evaluate(async () => (await fetch("/api/speed", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"speed":2}' })).status);
  assert.equal(r, 200);
  assert.equal((await server.get("/api/speed?format=json")).speed, 2);
});
