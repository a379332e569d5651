// The WebSocket: the port comes from /dashboard/config.json, the page reconnects with backoff
// after colonyd goes away, and the first state frame after the reconnect is the truth.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, until } from "./support.mjs";

let server, b;

before(async () => {
  server = await Colonyd.start();
  b = await browser();
});

after(async () => {
  await b?.close();
  await server?.stop();
});

test("the page reconnects after a restart and takes the first state frame as the truth", async () => {
  const { page } = b;
  await page.goto(server.url);
  await page.waitForSelector("body[data-booted=true]");
  await until(async () => (await page.getAttribute("#conn", "data-state")) === "open", "the first connection");
  await server.post("/api/agent/config", { goal: "before the restart" });
  await until(async () => (await page.inputValue("#agent-goal")) === "before the restart", "the goal");

  const { dir, httpPort, wsPort } = server;
  await server.stop({ keepDir: true });
  await until(async () => /reconnecting in \d/.test(await page.textContent("#conn")), "the backoff notice");
  // The goal is persisted; change it in the file's place by restarting with a new one set at once.
  server = await Colonyd.start({ dir, httpPort, wsPort });
  await server.post("/api/agent/config", { goal: "after the restart" });
  await until(async () => (await page.getAttribute("#conn", "data-state")) === "open", "the reconnection", 20000);
  await until(async () => (await page.inputValue("#agent-goal")) === "after the restart", "the state after the reconnect");
  // The new server's gate was opened by --ready; its state frame says so.
  assert.equal(await page.textContent("#agent-ready"), "gate open");
});

test("the backoff doubles from 1 s up to 30 s with ±20% jitter", async () => {
  const { page } = b;
  const waits = await page.evaluate(async () => {
    const { Channel } = await import("/dashboard/js/ws.js");
    const c = new Channel(1);
    c.stopped = false;
    const out = [];
    c.on("retry", (ms) => out.push(ms));
    c.connect = () => {};
    for (let i = 0; i < 8; i++) c.schedule();
    return out;
  });
  const base = [1, 2, 4, 8, 16, 30, 30, 30].map((s) => s * 1000);
  waits.forEach((w, i) => assert.ok(w >= base[i] * 0.8 - 1 && w <= base[i] * 1.2 + 1, `wait ${i}: ${w} vs ${base[i]}`));
});

test("with wsEnabled false the page says so and polls the agent state", async () => {
  const quiet = await Colonyd.start({ settings: { wsEnabled: false } });
  const other = await browser();
  try {
    const { page } = other;
    await page.goto(quiet.url);
    await page.waitForSelector("body[data-booted=true]");
    assert.equal(await page.getAttribute("#conn", "data-state"), "off");
    await quiet.post("/api/agent/config", { goal: "polled" });
    await until(async () => (await page.inputValue("#agent-goal")) === "polled", "the polled state", 8000);
    await until(async () => /^Day \d+$/.test(await page.textContent("#day")), "the day");
    assert.deepEqual(other.errors, []);
  } finally {
    await other.close();
    await quiet.stop();
  }
});
