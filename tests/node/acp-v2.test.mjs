// ACP v2 and the landing of accepted steers, through the packed package:
// the fields the front door reads (capabilities, state_update's state and
// stopReason, a prompt's messageId) reach the engine, and the send hooks
// and outcomes are what the ACP guide says.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const tick = () => new Promise((r) => setTimeout(r, 1));
const words = (t) => [{ type: "text", text: t }];
const V2 = { protocolVersion: 2, capabilities: { session: { prompt: { image: {} } } }, _meta: { steering: { supported: true } } };
const state = (s, stopReason) => ({ sessionUpdate: "state_update", state: s, ...(stopReason ? { stopReason } : {}) });

function agent(answer) {
  const sent = [];
  const request = (method, params) => {
    sent.push({ method, params });
    return answer(method, params);
  };
  return { sent, request };
}

test("v2: the turn runs from state_update, and a steer resolves on the echo of an id no prompt owns", async () => {
  const a = agent(() => Promise.resolve({ outcome: "injected" }));
  const acp = new api.AcpSteering({ request: a.request, initialize: V2 });
  acp.promptSent("s");
  assert.equal(acp.inputMode("s").mode, "idle", "a v2 prompt is not a turn");
  acp.update("s", state("running"));
  assert.equal(acp.inputMode("s").mode, "direct");
  acp.promptAnswered("s", { messageId: "app-1" });
  const accepted = [];
  const sending = acp.send("s", words("use pnpm"), { accepted: (path) => accepted.push(path) });
  let settled = false;
  sending.finally(() => (settled = true));
  await tick();
  assert.deepEqual(accepted, ["steeringExtension"]);
  acp.update("s", { sessionUpdate: "user_message_chunk", messageId: "app-1", content: words("run")[0] });
  await tick();
  assert.equal(settled, false, "the app's own message is not the steer's echo");
  acp.update("s", { sessionUpdate: "user_message_chunk", messageId: "fresh", content: words("use pnpm")[0] });
  const outcome = await sending;
  assert.equal(outcome.kind, "injected");
  assert.equal(outcome.delivered, "echo");
  assert.deepEqual(a.sent.map((s) => s.method), ["_session/steering"]);
  acp.update("s", state("idle", "end_turn"));
  assert.equal(acp.inputMode("s").mode, "idle");
  acp.free();
});

test("v2: an image goes to an agent whose capabilities.session.prompt has image: {}", async () => {
  const a = agent(() => Promise.resolve({ messageId: "ours-1" }));
  const acp = new api.AcpSteering({ request: a.request, initialize: V2 });
  const outcome = await acp.send("s", [{ type: "image", mimeType: "image/png", data: "AAAA" }]);
  assert.equal(outcome.kind, "prompted");
  assert.equal(outcome.messageId, "ours-1", "resolved at insertion with its messageId");
  assert.equal(outcome.stopReason, undefined);
  acp.free();
});

test("v2: a prompt refused with an error answer hands the draft back; -32800, which transports also use for their own cancels, is outcomeUnknown with it", async () => {
  for (const [code, kind] of [[-32603, "host"], [-32800, "outcomeUnknown"]]) {
    const acp = new api.AcpSteering({ request: () => Promise.reject({ code, message: "no" }), initialize: V2 });
    const draft = words("hello");
    const result = await acp.send("s", draft).then((v) => v, (e) => e);
    assert.equal(result.kind, kind);
    assert.deepEqual(result.draft, draft);
    acp.free();
  }
});

test("v2: a held prompt the user's cancel ended (-32800) is handedBack with its draft; the agent's state says work runs", async () => {
  let reject;
  const acp = new api.AcpSteering({ request: () => new Promise((_, r) => (reject = r)), initialize: V2 });
  const draft = words("hello");
  const sending = acp.send("s", draft);
  await tick();
  acp.update("s", state("running"));
  acp.cancelSent("s");
  reject({ code: -32800, message: "request cancelled" });
  const outcome = await sending;
  assert.equal(outcome.kind, "handedBack");
  assert.deepEqual(outcome.draft, draft);
  acp.free();
});

test("a steer accepted, then the user cancels: unconfirmed, rejected outcomeUnknown with the draft, nothing resent", async () => {
  for (const v2 of [false, true]) {
    const a = agent(() => Promise.resolve({ outcome: "injected" }));
    const acp = new api.AcpSteering({ request: a.request, initialize: v2 ? V2 : { _meta: { steering: { supported: true } } } });
    if (v2) acp.update("s", state("running"));
    else acp.promptSent("s");
    const calls = [];
    const draft = words("use pnpm");
    const sending = acp.send("s", draft, { accepted: (p) => calls.push(`accepted ${p}`), unconfirmed: (p) => calls.push(`unconfirmed ${p}`) });
    await tick();
    acp.cancelSent("s");
    const error = await sending.then(() => assert.fail("resolved"), (e) => e);
    assert.ok(api.isSteeringError(error, "outcomeUnknown"), String(error));
    assert.equal(error.draft, draft, "the caller's own draft");
    assert.deepEqual(calls, ["accepted steeringExtension", "unconfirmed steeringExtension"]);
    if (v2) acp.update("s", state("idle", "cancelled"));
    else acp.promptAnswered("s", { stopReason: "cancelled" });
    await tick();
    assert.equal(a.sent.length, 1, "never resent");
    assert.equal(acp.liveState(), 0);
    acp.free();
  }
});

test("v1: a steer accepted resolves once the turn ends other than cancelled", async () => {
  const a = agent(() => Promise.resolve({ outcome: "injected" }));
  const acp = new api.AcpSteering({ request: a.request, initialize: { _meta: { steering: { supported: true } } } });
  acp.promptSent("s");
  const sending = acp.send("s", words("use pnpm"));
  await tick();
  acp.promptAnswered("s", { stopReason: "end_turn" });
  const outcome = await sending;
  assert.deepEqual([outcome.kind, outcome.delivered], ["injected", "turnEnded"]);
  acp.free();
});

test("v2: the stopReason of the idle state_update decides an accepted steer: cancelled is outcomeUnknown with its draft, end_turn delivers it at the turn's end", async () => {
  for (const [stopReason, settles] of [["cancelled", "rejected"], ["end_turn", "turnEnded"]]) {
    const a = agent(() => Promise.resolve({ outcome: "injected" }));
    const acp = new api.AcpSteering({ request: a.request, initialize: V2 });
    acp.update("s", state("running"));
    const draft = words("use pnpm");
    const sending = acp.send("s", draft).then((o) => o.delivered, (e) => (assert.equal(e.kind, "outcomeUnknown", e.message), assert.equal(e.draft, draft), "rejected"));
    await tick();
    acp.update("s", state("idle", stopReason));
    assert.equal(await sending, settles, stopReason);
    acp.free();
  }
});
