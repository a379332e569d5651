// The agent widget: the ready gate, the prompt slot, goal and mode, lastError, the action log and
// the draggable position saved in widgetLeft/widgetTop.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, screenshot, until, sleep } from "./support.mjs";

let server, b;

before(async () => {
  // The contract's default: the gate starts closed.
  server = await Colonyd.start({ ready: false });
  b = await browser();
  await b.page.goto(server.url);
  await b.page.waitForSelector("body[data-booted=true]");
});

after(async () => {
  await b?.close();
  await server?.stop();
});

const state = () => server.get("/api/agent/state");

test("Launch opens the ready gate and Stop closes it", async () => {
  const { page } = b;
  await until(() => page.isVisible("#gate-note"), "the gate note while the gate is closed");
  assert.equal(await page.textContent("#agent-ready"), "gate closed");
  assert.equal(await page.isDisabled("#agent-stop"), true);
  await page.click("#agent-launch");
  await until(async () => (await state()).ready === true, "ready in GET /api/agent/state");
  await until(async () => (await page.textContent("#agent-ready")) === "gate open", "the pill to say open");
  // The colony panel fills in once the game routes answer.
  await until(async () => /^Day \d+$/.test(await page.textContent("#day")), "the day after Launch");
  await until(async () => !(await page.isVisible("#gate-note")), "the gate note to go");
  await page.click("#agent-stop");
  await until(async () => (await state()).ready === false, "ready false after Stop");
  await until(async () => (await page.textContent("#agent-ready")) === "gate closed", "the pill to say closed");
  // Someone else opens it: the widget follows the state frame.
  await server.post("/api/ready", { ready: true });
  await until(async () => (await page.textContent("#agent-ready")) === "gate open", "the state frame");
});

test("a prompt typed into the widget becomes pendingRequest; a busy slot offers replace", async () => {
  const { page } = b;
  await page.fill("#agent-prompt", "build a water pump");
  await page.click("#agent-send");
  const first = await until(async () => (await state()).pendingRequest, "pendingRequest");
  assert.equal(first.prompt, "build a water pump");
  await until(() => page.isVisible("#agent-pending"), "the pending line");
  assert.equal(await page.textContent("#agent-pending-prompt"), "build a water pump");
  assert.equal(await page.inputValue("#agent-prompt"), "");

  await page.fill("#agent-prompt", "plant carrots instead");
  await page.click("#agent-send");
  await until(() => page.isVisible("#agent-busy"), "the busy notice (request_pending)");
  assert.equal(await page.textContent("#agent-busy-prompt"), "build a water pump");
  assert.equal((await state()).pendingRequest.prompt, "build a water pump", "refused, not replaced");
  await page.click("#agent-replace");
  await until(async () => (await state()).pendingRequest?.prompt === "plant carrots instead", "the replacement");
  assert.ok((await state()).pendingRequest.id > first.id);
  await until(async () => !(await page.isVisible("#agent-busy")), "the busy notice to go");
});

test("goal and mode are edited in the widget", async () => {
  const { page } = b;
  await page.fill("#agent-goal", "reach 20 beavers");
  await page.click("#agent-goal-save");
  await until(async () => (await state()).goal === "reach 20 beavers", "the goal");
  await page.selectOption("#agent-mode", "autonomous");
  await until(async () => (await state()).mode === "autonomous", "the mode");
  // A change from elsewhere shows up.
  await server.post("/api/agent/config", { goal: "grow wheat" });
  await until(async () => (await page.inputValue("#agent-goal")) === "grow wheat", "the goal from a state frame");
});

test("agentStatus and lastError show; lastError is dismissed; the connector line follows the connection", async () => {
  const { page } = b;
  assert.equal(await page.getAttribute("#agent-connector", "data-attached"), "false");
  assert.match(await page.textContent("#agent-connector"), /No connector attached.*colony connect/);
  // Act as the connector: a heartbeat with a status and an error, over the page's own WebSocket port.
  await page.evaluate(async (port) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`);
    await new Promise((r) => { ws.onopen = r; });
    ws.send(JSON.stringify({ type: "heartbeat", payload: { agent_status: "running", acked_request_id: 0, last_error: "connector crashed: out of tokens" } }));
    window.fakeConnector = ws;
  }, server.wsPort);
  await until(async () => (await page.textContent("#agent-status")) === "running", "agentStatus");
  await until(async () => (await page.getAttribute("#agent-connector", "data-attached")) === "true", "connector attached");
  assert.match(await page.textContent("#agent-connector"), /Connector attached \(heartbeat \d+ s ago\)/);
  await until(() => page.isVisible("#agent-error"), "the lastError box");
  assert.match(await page.textContent("#agent-error-text"), /out of tokens/);
  await screenshot(page, "agent");
  await page.click("#agent-error-dismiss");
  await until(async () => (await state()).lastError === null, "lastError null after dismiss");
  await until(async () => !(await page.isVisible("#agent-error")), "the box to go");
  // The connector leaves: no stale status, and the widget says prompts wait.
  await page.evaluate(() => window.fakeConnector.close());
  await until(async () => (await page.getAttribute("#agent-connector", "data-attached")) === "false", "connector detached");
  assert.equal(await page.textContent("#agent-status"), "–");
  assert.equal((await state()).agentStatus, "");
});

test("the action log shows lines from POST /api/agent/message", async () => {
  const { page } = b;
  await server.post("/api/agent/message", { message: "placed a lumberjack flag at 10,12" });
  await until(async () => (await page.textContent("#agent-log")).includes("placed a lumberjack flag at 10,12"),
    "the line in the action log", 8000);
});

test("dragging the widget saves widgetLeft/widgetTop and a reload restores it", async () => {
  const { page } = b;
  const box = await page.locator("#agent-handle").boundingBox();
  const from = { x: box.x + 40, y: box.y + box.height / 2 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x - 300, from.y + 150, { steps: 8 });
  await page.mouse.up();
  const after = await page.locator("#agent").boundingBox();
  const want = { left: `${Math.round(after.x)}px`, top: `${Math.round(after.y)}px` };
  const s = await until(async () => {
    const v = (await server.get("/api/settings")).settings;
    return v.widgetLeft === want.left && v.widgetTop === want.top && v;
  }, `widgetLeft/widgetTop ${JSON.stringify(want)}`);
  assert.ok(parseInt(s.widgetLeft) < 1280 - 330 - 24 - 200, `moved left: ${s.widgetLeft}`);
  // The file follows after the 1 s debounce.
  await sleep(1600);
  const file = server.settingsFile();
  assert.equal(file.widgetLeft, want.left);
  assert.equal(file.widgetTop, want.top);
  await page.reload();
  await page.waitForSelector("body[data-booted=true]");
  const restored = await page.locator("#agent").boundingBox();
  assert.equal(Math.round(restored.x), Math.round(after.x));
  assert.equal(Math.round(restored.y), Math.round(after.y));
  assert.deepEqual(b.errors, []);
});
