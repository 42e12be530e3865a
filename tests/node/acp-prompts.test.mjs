// The app's own prompts, counted by token through the packed package: a late
// answer of a prompt sent before the session was replaced ends no later
// prompt, so a queued message never goes out beside a running turn; what an
// app's prompt answer tells of a handoff steer (its usage); and a turn the
// agent started itself, which only sessionIdle() ends here.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

test("promptSent returns a token; a late answer with an earlier life's token sends nothing queued", async () => {
  const sent = [];
  const acp = new api.AcpSteering({ request: (method, params) => (sent.push(method), new Promise(() => {})), initialize: { agentCapabilities: {} } });
  const old = acp.promptSent("s");
  acp.sessionReplaced("s");
  const current = acp.promptSent("s");
  assert.equal(typeof old, "number");
  assert.notEqual(old, current);
  const queued = acp.send("s", [{ type: "text", text: "use pnpm" }]);
  queued.catch(() => {});
  assert.equal(acp.inputMode("s").mode, "queue");
  assert.deepEqual(acp.promptAnswered("s", { stopReason: "end_turn" }, old), { superseded: false });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(sent, [], "the queued message waits: the current prompt still runs");
  acp.promptAnswered("s", { stopReason: "end_turn" }, current);
  assert.deepEqual(sent, ["session/prompt"], "its own answer lets the queue go");
  acp.dispose();
  acp.free();
});

test("a token that is not one is refused by name", () => {
  const acp = new api.AcpSteering({ request: () => new Promise(() => {}), initialize: {} });
  acp.promptSent("s");
  assert.throws(() => acp.promptAnswered("s", { stopReason: "end_turn" }, "x"), (e) => e.kind === "invalidInput" && /token/.test(e.message));
  acp.free();
});

test("queued() lists what waits behind the app's prompt; sessionClosed() hands it back with its draft", async () => {
  const sent = [];
  const acp = new api.AcpSteering({ request: (method) => (sent.push(method), new Promise(() => {})) });
  acp.initialized({ agentCapabilities: {} });
  acp.promptSent("s");
  const draft = [{ type: "text", text: "use pnpm" }];
  const pending = acp.send("s", draft);
  pending.catch(() => {});
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(acp.queued("s"), [draft]);
  acp.sessionClosed("s");
  const error = await pending.then(() => assert.fail("resolved"), (e) => e);
  assert.equal(error.kind, "sessionReplaced");
  assert.equal(error.draft, draft);
  assert.deepEqual(acp.queued("s"), []);
  assert.deepEqual(sent, [], "nothing was sent");
  acp.free();
});

test("the app's prompt answered with a usage of only zeros (top level or in _meta) was folded into the handoff steer; any other usage defers it", async () => {
  const handoffAgent = { agentCapabilities: { _meta: { claudeCode: { promptQueueing: true } } } };
  for (const [answer, superseded, handoff] of [
    [{ stopReason: "end_turn", usage: { outputTokens: 0 } }, true, "folded"],
    [{ stopReason: "end_turn", _meta: { usage: { inputTokens: 0, outputTokens: 0 } } }, true, "folded"],
    [{ stopReason: "end_turn", usage: { outputTokens: 12 } }, false, "deferred"],
  ]) {
    let answerSteer;
    const sent = [];
    const request = (method) => (sent.push(method), new Promise((resolve) => (answerSteer = resolve)));
    const acp = new api.AcpSteering({ request, initialize: handoffAgent, allowPromptHandoff: true });
    acp.promptSent("s");
    const steered = acp.send("s", [{ type: "text", text: "use pnpm" }]);
    await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(sent, ["session/prompt"], "the steer goes as a second prompt");
    assert.deepEqual(acp.promptAnswered("s", answer), { superseded }, JSON.stringify(answer));
    answerSteer({ stopReason: "end_turn" });
    const outcome = await steered;
    assert.deepEqual([outcome.kind, outcome.handoff], ["handedOff", handoff], JSON.stringify(answer));
    acp.free();
  }
});

test("a turn the agent started itself keeps the composer direct until sessionIdle() says it ended", async () => {
  const sent = [];
  const request = (method) => (sent.push(method), method === "_session/steering" ? Promise.resolve({ outcome: "startedNewTurn" }) : new Promise(() => {}));
  const acp = new api.AcpSteering({ request, initialize: { agentCapabilities: { _meta: { steering: { supported: true } } } } });
  acp.promptSent("s");
  const started = await acp.send("s", [{ type: "text", text: "use pnpm" }]);
  assert.equal(started.kind, "startedNewTurn");
  acp.promptAnswered("s", { stopReason: "end_turn" });
  assert.equal(acp.inputMode("s").mode, "direct", "the prompt sent before that turn began does not end it");
  acp.sessionIdle("s");
  assert.equal(acp.inputMode("s").mode, "idle");
  assert.deepEqual(sent, ["_session/steering"]);
  acp.free();
});
