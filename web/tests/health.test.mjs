// The dashboard tells when the service cannot play: a banner while /api/ping answers 503
// `host_stopped` (the game host ended: the clock stands still, writes are refused), another while
// colonyd does not answer at all, and neither once it answers `ok` again. The host never stops in
// a healthy colonyd, so its 503 is played by the browser's request interception; the dead service
// is a real killed colonyd, restarted on the same ports.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, screenshot, until } from "./support.mjs";

let server, b;

before(async () => {
  server = await Colonyd.start();
  b = await browser();
});

after(async () => {
  await b?.close();
  await server?.stop();
});

const health = (page) => page.evaluate(() => window.colonyDashboard.health.check());

test("a stopped game host and an unreachable colonyd show a banner that clears when ping is ok", async () => {
  const { page } = b;
  await page.goto(server.url);
  await until(() => page.evaluate(() => document.body.dataset.booted === "true"), "the dashboard boots");
  assert.equal(await health(page), "ok");
  assert.equal(await page.isHidden("#host-down"), true, "a healthy service shows no banner");

  await page.route("**/api/ping", (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ status: "host_stopped", ready: false, openapiVersion: "x" }),
    }),
  );
  assert.equal(await health(page), "host_stopped");
  assert.equal(await page.isHidden("#host-down"), false);
  assert.match(await page.textContent("#host-down"), /game host has stopped.*Restart colonyd/);
  assert.equal(await page.evaluate(() => document.body.dataset.health), "host_stopped");
  await screenshot(page, "health-host-stopped");
  await page.unroute("**/api/ping");
  assert.equal(await health(page), "ok");
  assert.equal(await page.isHidden("#host-down"), true, "cleared when ping is ok");

  // A killed colonyd: the page's own poll notices (no call from the test).
  const { dir, httpPort, wsPort } = server;
  await server.stop({ keepDir: true });
  await until(async () => (await page.evaluate(() => document.body.dataset.health)) === "unreachable", "the poll to notice", 15000);
  assert.match(await page.textContent("#host-down"), /colonyd does not answer at 127\.0\.0\.1:\d+/);
  server = await Colonyd.start({ dir, httpPort, wsPort });
  await until(async () => (await page.evaluate(() => document.body.dataset.health)) === "ok", "the poll to see it back", 15000);
  assert.equal(await page.isHidden("#host-down"), true);
  assert.deepEqual(b.errors, []);
});
