// codex-acp 0.16.0 (advertises no steering) driven through the package's
// AcpSteering, behind the mock Responses API: the package must queue, and
// never send `_session/steering` nor a concurrent `session/prompt` (which
// codex-acp would fold but never answer).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { startCodexAcp } from "./agents.mjs";
import { acpAgentSuite, asked, runningPrompt } from "./acp-client.mjs";
import { within, settle, record, marker, text, sleep } from "./harness.mjs";

const AGENT = "codex-acp";

describe(AGENT, () => {
  let model, agent, AcpSteering;
  acpAgentSuite(startCodexAcp, {}, (parts) => ({ AcpSteering, model, agent } = parts));

  const running = (app, sessionId, words) => runningPrompt(model, app, sessionId, words);

  test("nothing is advertised", () => {
    assert.equal(agent.init._meta?.steering, undefined);
    assert.equal(agent.init.agentCapabilities?._meta?.claudeCode, undefined);
    assert.equal(agent.init.agentCapabilities?.session?.inject, undefined);
  });

  test("the package queues even with the handoff allowed; no steering request, no concurrent prompt", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering, true);
    const sid = await agent.session();
    const wireMark = agent.rpc.wire.length;
    const { first } = await running(app, sid, "[tool] x1");
    const m = marker("x1");
    const start = Date.now();
    const sent = settle(within(60_000, steering.send(sid, text(m)), "queued prompt"));
    assert.equal(steering.inputMode(sid).mode, "queue");
    await sleep(1_000);
    const duringTurn = agent.rpc.sentSince(wireMark);
    const f = await within(30_000, first, "first prompt");
    const s = await sent;
    record({ agent: AGENT, scenario: "nothing advertised: queue (tool turn)", path: s.value?.trace?.path, roundTrips: log.length, ms: Date.now() - start,
      outcome: s.value ? `${s.value.kind} ${s.value.stopReason}` : s.error.kind, saw: model.saw(m) });
    assert.deepEqual(duringTurn, ["session/prompt"], "only the app's own prompt while the turn ran");
    assert.equal(f.answer.stopReason, "end_turn");
    assert.ok(s.ok, s.error?.message);
    assert.equal(s.value.kind, "prompted");
    assert.deepEqual(log.map((l) => l.method), ["session/prompt"]);
    assert.ok(!agent.rpc.wire.some((w) => w.method === "_session/steering"));
    assert.equal(model.saw(m), 1);
  });

  test("session/cancel with a queued message: handed back, no new turn", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering, true);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] x2");
    const m = marker("x2");
    const start = Date.now();
    const sent = settle(within(30_000, steering.send(sid, text(m)), "queued message"));
    agent.rpc.notify("session/cancel", { sessionId: sid });
    const f = await within(10_000, first, "cancelled prompt");
    const s = await sent;
    await sleep(1_500);
    record({ agent: AGENT, scenario: "cancel with a queued message", path: s.value?.trace?.path ?? "queue", roundTrips: log.length, ms: Date.now() - start,
      outcome: `turn ${f.answer.stopReason}; ${s.value?.kind ?? s.error?.kind}`, saw: model.saw(m) });
    assert.equal(f.answer.stopReason, "cancelled");
    assert.ok(s.ok, s.error?.message);
    assert.equal(s.value.kind, "handedBack");
    assert.equal(log.length, 0);
    assert.equal(model.saw(m), 0);
  });

  test("a repeated session/prompt runs again", async () => {
    const sid = await agent.session();
    const m = marker("x3");
    const start = Date.now();
    for (let i = 0; i < 2; i++) await within(30_000, agent.rpc.request("session/prompt", { sessionId: sid, prompt: text(m) }, { timeoutMs: 30_000 }), "prompt");
    record({ agent: AGENT, scenario: "raw session/prompt x2, same text", path: "raw", roundTrips: 2, ms: Date.now() - start, outcome: "both answered end_turn", saw: model.saw(m) });
    assert.equal(model.saw(m), 2);
  });
});
