// The playground against the real agents (scripts/agents-bridge.mjs: the page
// <-> WebSocket <-> the agent's stdio, behind the mock model): start a turn
// that runs a tool, steer it from the composer, screenshot each agent.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { join } from "node:path";
import { repo, startBrowser, open, steer, shot } from "./harness.mjs";

let browser;
before(async () => {
  execFileSync("bash", [join(repo, "scripts", "agents-install.sh")], { stdio: "pipe" });
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
});

/** Starts the bridge for `agent`; resolves with its page URL and a stop(). */
async function startBridge(agent) {
  const child = spawn(process.execPath, [join(repo, "scripts", "agents-bridge.mjs"), "--port", "0"], {
    env: { ...process.env, AGENT: agent }, stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error("bridge did not start in 15 s")), 15_000);
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      const match = seen.match(/playground: (http:\/\/127\.0\.0\.1:\d+)\/\?(\S+)/);
      if (match) { clearTimeout(timer); resolve({ base: match[1], params: match[2].replace("&autoconnect=1", "") }); }
    });
    child.on("exit", (code) => reject(new Error(`bridge exited with ${code}`)));
  });
  const stop = () => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.on("exit", resolve);
    child.kill("SIGTERM");
  });
  return { ...url, stop };
}

/** The steer's bubble: shown once, delivered, in the words `delivery` matches. */
const deliveredOnce = (delivery) => async (page) => {
  const bubble = page.locator(".user-message", { hasText: "use pnpm instead" });
  assert.equal(await bubble.count(), 1, "shown once");
  assert.match(await bubble.getAttribute("class"), /delivered/);
  assert.match(await bubble.locator(".delivery").textContent(), delivery);
};

/** The page spoke ACP v2 to the agent: its initialize asked for 2, the agent answered 2. */
async function spokeV2(page) {
  const wire = await page.locator("#wire li").allTextContents();
  assert.ok(wire.some((line) => line.includes('"method":"initialize"') && line.includes('"protocolVersion":2')), "asked for v2");
  assert.ok(wire.some((line) => line.includes('"result":{"protocolVersion":2')), "the agent answered v2");
  assert.ok(wire.some((line) => line.includes('"_session/steering"')));
  assert.ok(wire.some((line) => line.includes('"sessionUpdate":"state_update"')));
  await page.waitForSelector(".turn.completed", { timeout: 30_000 });
}

const cases = [
  // agent, what the package does with it, what the page shows when it is done, what else it shows
  ["codex", "official", 'body[data-last-delivery="official"]'],
  ["codexhost", "newTurn (its Claude Code thread)", 'body[data-last-delivery="newTurn"]'],
  ["claude-acp", "handedOff (folded)", 'body[data-last-delivery="handedOff"]'],
  ["codex-acp", "queued, then prompted", 'body[data-last-delivery="prompted"]'],
  ["codex-acp-steering", "injected, delivered when the turn ends", 'body[data-last-delivery="injected"]', deliveredOnce(/turn ended/)],
  ["claude-acp-steering", "injected, delivered when the turn ends", 'body[data-last-delivery="injected"]', deliveredOnce(/turn ended/)],
  ["codex-acp-v2", "injected over ACP v2, delivered on the agent's echo", 'body[data-last-delivery="injected"]',
    async (page) => { await deliveredOnce(/echoed/)(page); await spokeV2(page); }],
];

for (const [agent, expected, done, check] of cases) {
  test(`real ${agent}: a steer from the composer during a tool call -> ${expected}`, async () => {
    const bridge = await startBridge(agent);
    try {
      const page = await open(browser, bridge.base, bridge.params);
      await page.click("#start");
      await page.waitForSelector(".turn.running .tool.running", { timeout: 30_000 });
      await steer(page, "use pnpm instead");
      if (agent === "codex-acp") {
        await page.waitForSelector(".chip", { timeout: 5_000 });
        await shot(page, `agent-${agent}-queued`);
      }
      await page.waitForSelector(done, { timeout: 45_000 });
      await page.waitForTimeout(500);
      await check?.(page);
      await shot(page, `agent-${agent}`);
      assert.match(await page.locator("#trace").textContent(), /✓/);
      assert.ok((await page.locator("#wire li").count()) > 0);
      assert.deepEqual(page.errors, []);
      await page.close();
    } finally {
      await bridge.stop();
    }
  });
}

// The journal against the real Codex app-server: the page reloads mid-steer
// (the bridge keeps the page's agent across the reload, as the desktop's
// app-server outlives a renderer), and `recover()` reads the real thread.
for (const [fault, outcome, check] of [
  ["reload", "delivered", async (page) => {
    const bubble = page.locator(".user-message.delivered", { hasText: "use pnpm instead" });
    const labels = await page.locator(".user-message").evaluateAll((nodes) => nodes.map((n) => n.textContent));
    assert.equal(await bubble.count(), 1, `shown delivered once: ${JSON.stringify(labels)}`);
  }],
  ["reload-unsent", "notDelivered", async (page) => {
    assert.equal(await page.inputValue("#draft"), "use pnpm instead", "the user's words are back");
  }],
]) {
  test(`real codex: the page reloads as the steer ${fault === "reload" ? "is out" : "leaves"} -> recover() says ${outcome}`, async () => {
    const bridge = await startBridge("codex");
    try {
      const page = await open(browser, bridge.base, `${bridge.params}&fault=${fault}`);
      await page.click("#start");
      await page.waitForSelector(".turn.running .tool.running", { timeout: 30_000 });
      const reloaded = page.waitForEvent("load", { timeout: 30_000 });
      await steer(page, "use pnpm instead");
      await reloaded;
      await page.waitForSelector(`body[data-recovered="${outcome}"]`, { timeout: 60_000 });
      await check(page);
      const wire = await page.locator("#wire li").allTextContents();
      assert.ok(!wire.some((line) => line.includes('"turn/steer"')), "after the reload: read, never sent again");
      assert.ok(wire.some((line) => line.includes('"thread/read"') && line.includes('"includeTurns":true')));
      const journal = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("renderer-steering:")));
      assert.deepEqual(journal, [], "settled: it left the journal");
      await shot(page, `agent-codex-${fault}`);
      await page.close();
    } finally {
      await bridge.stop();
    }
  });
}
