// A page that reloads mid-steer, in real headless Chromium against the real
// reference host (its world outlives the page, as a real host does): the
// journal in localStorage keeps the message, and after the reload
// `recover()` says what became of it. A message the host applied is shown
// delivered and never sent again; one it never got hands the user's words
// back; a journal that throws changes nothing else.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startHost, startBrowser, open, steer, shot } from "./harness.mjs";

let host;
let browser;
before(async () => {
  host = await startHost();
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  host?.stop();
});

/** How often the page's host world applied message `id` (the host's own count). */
async function deliveries(page, id) {
  return page.evaluate(async (id) => {
    const url = `ws://${location.host}/rpc?mode=codexhost-new&world=${sessionStorage.getItem("playground-world")}`;
    const socket = new WebSocket(url);
    await new Promise((resolve) => socket.addEventListener("open", resolve));
    const answer = new Promise((resolve) => socket.addEventListener("message", (e) => resolve(JSON.parse(e.data).result.count)));
    socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "debug/deliveries", params: { clientUserMessageId: id } }));
    const count = await answer;
    socket.close();
    return count;
  }, id);
}

/** The message ids the journal holds. */
const journaled = (page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("renderer-steering:")).map((k) => JSON.parse(k.slice("renderer-steering:".length))[2]));

async function steerThenReload(page, text) {
  await page.click("#start");
  await page.waitForSelector(".turn.running .tool.running", { timeout: 15_000 });
  const reloaded = page.waitForEvent("load", { timeout: 15_000 });
  await steer(page, text);
  await reloaded;
  await page.waitForSelector('body[data-connected="yes"]', { timeout: 15_000 });
}

test("reloaded with the steer out: the host applied it, the page shows it delivered and never sends it again", async () => {
  const page = await open(browser, host.base, "mode=codexhost-new&thread=thr-external&fault=reload");
  const [id] = await page.evaluate(() => []); // nothing journaled before
  assert.equal(id, undefined);
  await steerThenReload(page, "use pnpm instead");
  await page.waitForSelector('body[data-recovered="delivered"]', { timeout: 15_000 });
  const bubble = page.locator(".user-message.delivered", { hasText: "use pnpm instead" });
  assert.equal(await bubble.count(), 1);
  assert.match(await bubble.locator(".delivery").textContent(), /checked after the reload/);
  assert.deepEqual(await journaled(page), [], "settled: it left the journal");
  const wire = await page.locator("#wire li").allTextContents();
  assert.ok(!wire.some((line) => line.includes('"turn/steer"')), "after the reload: read, never sent again");
  assert.ok(wire.some((line) => line.includes('"thread/read"') && line.includes('"includeTurns":true')));
  const sent = await page.evaluate(() => [...document.querySelectorAll(".user-message .words")].map((n) => n.textContent));
  assert.deepEqual(sent, ["use pnpm instead"]);
  await shot(page, "reload-delivered");
  page.close();
});

test("reloaded as the steer leaves: the host never got it; once its turn ends the words are back in the composer", async () => {
  const page = await open(browser, host.base, "mode=codexhost-new&thread=thr-external&fault=reload-unsent");
  await steerThenReload(page, "keep my words");
  const [id] = await journaled(page);
  assert.ok(id, "journaled before the reload");
  // Unknown while its turn runs, asked again until the turn ends.
  await page.waitForSelector('body[data-recovered="notDelivered"]', { timeout: 30_000 });
  assert.equal(await page.inputValue("#draft"), "keep my words");
  assert.equal(await deliveries(page, id), 0, "the host never applied it");
  assert.deepEqual(await journaled(page), []);
  await shot(page, "reload-not-delivered");
  page.close();
});

test("a journal that throws (storage full) changes nothing else: the steer is delivered", async () => {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    Storage.prototype.setItem = function () {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };
  });
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  await page.goto(`${host.base}/?speed=2&autoconnect=1&mode=codexhost-new&thread=thr-external`);
  await page.waitForSelector('body[data-connected="yes"]', { timeout: 15_000 });
  await page.click("#start");
  await page.waitForSelector(".turn.running .tool.running", { timeout: 15_000 });
  await steer(page, "still delivered");
  await page.waitForSelector('body[data-last-delivery="activeTurn"]', { timeout: 15_000 });
  assert.match(await page.locator("#toast").textContent(), /journal: The quota has been exceeded/);
  assert.deepEqual(page.errors, []);
  await context.close();
});
