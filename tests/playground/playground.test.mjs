// The playground driven in real headless Chromium against the real reference
// host: every dialect delivers, fallbacks show in the trace, and faults hand
// the draft back to the composer.
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

const turns = (page) => page.locator(".turn").count();
const trace = (page) => page.locator("#trace").textContent();
const delivered = (page, kind) => page.waitForSelector(`body[data-last-delivery="${kind}"]`, { timeout: 15_000 });

async function startAndWaitForTool(page) {
  await page.click("#start");
  await page.waitForSelector(".turn.running .tool.running", { timeout: 15_000 });
}

test("codexhost new host: a steer during a tool call lands in the same turn (activeTurn)", async () => {
  const page = await open(browser, host.base, "mode=codexhost-new");
  await startAndWaitForTool(page);
  await steer(page, "use pnpm instead");
  await delivered(page, "activeTurn");
  assert.equal(await turns(page), 1);
  const turn = page.locator(".turn", { has: page.locator(".user-message .words", { hasText: "use pnpm instead" }) });
  assert.equal(await turn.locator(".tool").count() > 0, true, "the steer sits inside the turn that runs the tool");
  assert.match(await trace(page), /"presented": "activeTurn"/);
  assert.match(await turn.locator(".user-message.delivered .delivery").last().textContent(), /inside the running turn/);
  await shot(page, "codexhost-active-turn");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("codexhost new host: a steer while text streams starts a new turn", async () => {
  const page = await open(browser, host.base, "mode=codexhost-new");
  await page.click("#start");
  await page.waitForSelector(".turn.running .assistant", { timeout: 15_000 });
  await steer(page, "actually, explain the plan first");
  await delivered(page, "newTurn");
  await page.waitForSelector(".turn.interrupted", { timeout: 15_000 });
  assert.equal(await turns(page), 2);
  assert.equal(await page.locator(".turn.placeholder").count(), 0, "the placeholder became the new turn");
  await shot(page, "codexhost-new-turn");
  await page.close();
});

test("codexhost old host falls back to ownership/list (visible in the trace)", async () => {
  const page = await open(browser, host.base, "mode=codexhost-old");
  await startAndWaitForTool(page);
  await steer(page, "skip the slow tests");
  await delivered(page, "newTurn");
  const t = await trace(page);
  assert.match(t, /"path": "ownershipList"/);
  assert.match(t, /"code": -32601/);
  await shot(page, "codexhost-old-host");
  await page.close();
});

test("stock app-server confirms a codex thread with thread/read (visible in the trace)", async () => {
  const page = await open(browser, host.base, "mode=stock&thread=thr-codex");
  await startAndWaitForTool(page);
  await steer(page, "also update the changelog");
  await delivered(page, "official");
  const t = await trace(page);
  assert.match(t, /"path": "threadRead"/);
  assert.match(t, /unknown variant/);
  await shot(page, "stock-app-server");
  await page.close();
});

for (const [mode, expect, name] of [
  ["acp-steering", "injected", "acp-steering"],
  ["acp-inject", "injected", "acp-inject"],
  ["acp-handoff", "handedOff", "acp-handoff-folded"],
  ["acp-handoff-deferred", "handedOff", "acp-handoff-deferred"],
]) {
  test(`ACP ${mode} delivers a message sent mid-turn`, async () => {
    const page = await open(browser, host.base, `mode=${mode}`);
    await startAndWaitForTool(page);
    assert.equal(await page.getAttribute("body", "data-input-mode"), "direct");
    assert.equal(await page.locator("#hint").textContent(), "Send now; delivered to the running turn");
    await steer(page, "use pnpm instead");
    await delivered(page, expect);
    if (mode === "acp-inject") {
      await page.waitForSelector(".user-message.delivered .delivery:text-is('delivered')", { timeout: 15_000 });
    }
    if (mode === "acp-handoff") {
      await page.waitForSelector("body[data-superseded]", { timeout: 15_000 });
    }
    assert.match(await trace(page), /"sent": "(_session\/steering|session\/inject|session\/prompt)"/);
    await shot(page, name);
    await page.close();
  });
}

test("ACP queue: a second message waits as a chip behind the one in flight", async () => {
  const page = await open(browser, host.base, "mode=acp-steering&fault=latency");
  await startAndWaitForTool(page);
  await page.fill("#draft", "first");
  await page.click("#send");
  await page.fill("#draft", "second");
  await page.click("#send");
  await page.waitForSelector(".chip:text-is('queued · second')", { timeout: 5_000 });
  assert.equal(await page.getAttribute("body", "data-input-mode"), "queue");
  await shot(page, "acp-queue-chip");
  await delivered(page, "injected");
  await page.waitForSelector(".chip", { state: "detached", timeout: 15_000 });
  await page.waitForFunction(() => document.querySelectorAll(".user-message.delivered").length >= 3, null, { timeout: 15_000 });
  await shot(page, "acp-queue");
  await page.close();
});

for (const [mode, words, name] of [
  ["codexhost-new", "please keep these words", "fault-dropped-connection"],
  ["acp-steering", "keep this one on screen", "fault-acp-dropped-connection"],
]) {
  test(`${mode}: a connection dropped after the steer left: outcome unknown, shown 'not confirmed', the draft not put back`, async () => {
    const page = await open(browser, host.base, `mode=${mode}&fault=drop`);
    await startAndWaitForTool(page);
    await steer(page, words);
    await page.waitForSelector("body[data-last-error]", { timeout: 15_000 });
    assert.equal(await page.getAttribute("body", "data-last-error"), "outcomeUnknown");
    const bubble = page.locator(".user-message", { has: page.locator(".words", { hasText: words }) });
    assert.equal(await bubble.count(), 1, "it may have arrived: not retracted");
    assert.match(await bubble.locator(".delivery").textContent(), /not confirmed/);
    assert.equal(await page.inputValue("#draft"), "", "not handed back: a second send could deliver it twice");
    await shot(page, name);
    await page.close();
  });
}

test("the host applies the steer but the answer is lost: 'not confirmed', and a retry does not duplicate it", async () => {
  const page = await open(browser, host.base, "mode=codexhost-new&fault=lose&steerMs=1500");
  await startAndWaitForTool(page);
  await steer(page, "use pnpm, not npm");
  await page.waitForSelector("body[data-last-error=outcomeUnknown]", { timeout: 15_000 });
  const bubbles = page.locator(".user-message", { has: page.locator(".words", { hasText: "use pnpm, not npm" }) });
  assert.equal(await bubbles.count(), 1);
  assert.match(await bubbles.locator(".delivery").textContent(), /not confirmed/);
  assert.equal(await page.inputValue("#draft"), "", "not handed back as a failure: it is on screen");
  await shot(page, "fault-lost-answer-unconfirmed");
  await page.click(".user-message .retry");
  await delivered(page, "activeTurn");
  await page.waitForTimeout(500); // a second application would add a second bubble now
  assert.equal(await bubbles.count(), 1, "the host applied it once");
  assert.match(await bubbles.locator(".delivery").textContent(), /inside the running turn/);
  assert.match(await trace(page), /"clientUserMessageId"|"sent": "turn\/steer"/);
  await shot(page, "fault-lost-answer-retried");
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("a request that never gets an answer times out and hands the draft back", async () => {
  const page = await open(browser, host.base, "mode=codexhost-new&fault=hang&decideMs=1200");
  await startAndWaitForTool(page);
  const started = Date.now();
  await steer(page, "are you still there?");
  await page.waitForSelector("body[data-last-error]", { timeout: 15_000 });
  const waited = Date.now() - started;
  assert.equal(await page.getAttribute("body", "data-last-error"), "timeout");
  assert.equal(await page.inputValue("#draft"), "are you still there?");
  assert.ok(waited >= 1_100 && waited < 8_000, `waited ${waited} ms`);
  await shot(page, "fault-hung-request");
  await page.close();
});
