// The settings panel: every key with its value and explanation, restart notes, and a change that
// lands in the settings file after the server's 1 s debounce.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, screenshot, until, sleep } from "./support.mjs";

let server, b;

before(async () => {
  server = await Colonyd.start();
  b = await browser({ height: 1000 });
});

after(async () => {
  await b?.close();
  await server?.stop();
});

test("the settings panel lists every key with its value, explanation and restart note", async () => {
  const { page } = b;
  await page.goto(server.url + "#settings");
  await page.waitForSelector('#settings-body tr[data-key="httpPort"]');
  const view = await server.get("/api/settings");
  const keys = await page.$$eval("#settings-body tr", (rows) => rows.map((r) => r.dataset.key));
  assert.deepEqual(keys.sort(), Object.keys(view.settings).sort());
  for (const k of view.restartKeys) {
    assert.equal(await page.isVisible(`#settings-body tr[data-key="${k}"] .tag.restart`), true, `${k} marked restart`);
  }
  assert.equal(await page.isVisible('#settings-body tr[data-key="corsOrigin"] .tag.restart'), false);
  assert.equal(await page.inputValue('#settings-body tr[data-key="httpPort"] input'), String(server.httpPort));
  assert.match(await page.textContent('#settings-body tr[data-key="corsOrigin"]'), /same-origin/);
  assert.match(await page.textContent("#settings-path"), /settings\.json/);
});

test("a settings change lands in the settings file", async () => {
  const { page } = b;
  const input = '#settings-body tr[data-key="autosaveDays"] input';
  await page.fill(input, "3");
  await page.press(input, "Enter");
  await page.locator(input).blur();
  await until(async () => (await server.get("/api/settings")).settings.autosaveDays === 3, "autosaveDays 3 in GET /api/settings");
  await until(async () => (await page.textContent('#settings-body tr[data-key="autosaveDays"] td.msg')) === "saved", "the saved note");
  await page.check('#settings-body tr[data-key="strictHttpStatus"] input');
  await until(async () => (await server.get("/api/settings")).settings.strictHttpStatus === true, "strictHttpStatus on");
  // A restart key says so.
  const ws = '#settings-body tr[data-key="writeQueueCapacity"] input';
  await page.fill(ws, "300");
  await page.locator(ws).blur();
  await until(async () => (await page.textContent('#settings-body tr[data-key="writeQueueCapacity"] td.msg')) === "saved; restart to apply", "the restart note");
  // Past the 1 s debounce the file holds the changes.
  await sleep(1600);
  const file = server.settingsFile();
  assert.equal(file.autosaveDays, 3);
  assert.equal(file.strictHttpStatus, true);
  assert.equal(file.writeQueueCapacity, 300);
  await screenshot(page, "settings");
});

test("a refused value is shown, not applied", async () => {
  const { page } = b;
  const input = '#settings-body tr[data-key="listenAddress"] input';
  const before = (await server.get("/api/settings")).settings.maxBodyBytes;
  const mb = '#settings-body tr[data-key="maxBodyBytes"] input';
  await page.fill(mb, "1.5");
  await page.locator(mb).blur();
  await until(async () => (await page.textContent('#settings-body tr[data-key="maxBodyBytes"] td.msg')) === "refused", "refused");
  assert.equal((await server.get("/api/settings")).settings.maxBodyBytes, before);
  assert.ok(await page.isVisible(input));
  assert.deepEqual(b.errors, []);
});
