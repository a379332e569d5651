// With authToken set the page asks for the token once, keeps it in sessionStorage, sends it as a
// bearer token, and the WebSocket connects with ?token=.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Colonyd, browser, screenshot, until } from "./support.mjs";

const TOKEN = "s3cret-token";
let server, b;

before(async () => {
  server = await Colonyd.start({ settings: { authToken: TOKEN } });
  b = await browser();
});

after(async () => {
  await b?.close();
  await server?.stop();
});

test("the page asks for the token, refuses a wrong one, and works with the right one", async () => {
  const { page } = b;
  // The API wants the token; the page itself does not.
  const base = `http://127.0.0.1:${server.httpPort}`;
  assert.equal((await fetch(`${base}/api/time`)).status, 401);
  assert.equal((await fetch(`${base}/`)).status, 200);
  assert.equal((await (await fetch(`${base}/dashboard/config.json`)).json()).authRequired, true);

  await page.goto(server.url);
  await until(() => page.isVisible("#token-dialog"), "the token dialog");
  await screenshot(page, "token");
  await page.fill("#token-input", "wrong");
  await page.click("#token-ok");
  await until(() => page.isVisible("#token-error"), "the refusal");
  await page.fill("#token-input", TOKEN);
  await page.click("#token-ok");
  await page.waitForSelector("body[data-booted=true]");
  await until(async () => /^Day \d+$/.test(await page.textContent("#day")), "the day with the token");
  assert.equal(await page.evaluate(() => sessionStorage.getItem("colony.token")), TOKEN);
  await until(async () => (await page.getAttribute("#conn", "data-state")) === "open", "the WebSocket with ?token=");
  // Live frames arrive: a change made elsewhere reaches the widget.
  await server.post("/api/agent/config", { goal: "token works" });
  await until(async () => (await page.inputValue("#agent-goal")) === "token works", "a state frame");
});

test("the token is asked once: a reload in the same tab does not ask again", async () => {
  const { page } = b;
  await page.reload();
  await page.waitForSelector("body[data-booted=true]");
  assert.equal(await page.isVisible("#token-dialog"), false);
  await until(async () => /^Day \d+$/.test(await page.textContent("#day")), "the day after reload");
  assert.deepEqual(b.errors, []);
});
