// claude-agent-acp 0.23.1 (promptQueueing: the concurrent-prompt handoff)
// driven through the package's AcpSteering, behind the mock Messages API.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { startClaudeAcp } from "./agents.mjs";
import { acpAgentSuite, asked, runningPrompt } from "./acp-client.mjs";
import { within, waitFor, settle, record, marker, text, sleep } from "./harness.mjs";

const AGENT = "claude-agent-acp";

describe(AGENT, () => {
  let model, agent, AcpSteering;
  acpAgentSuite(startClaudeAcp, {}, (parts) => ({ AcpSteering, model, agent } = parts));

  /** The app's own prompt runs and the model is busy with it. */
  const running = (app, sessionId, words) => runningPrompt(model, app, sessionId, words);

  async function sendTimed(steering, sessionId, content) {
    const start = Date.now();
    const r = await settle(within(60_000, steering.send(sessionId, content), "send"));
    return { ...r, ms: Date.now() - start };
  }

  test("promptQueueing is advertised", () => {
    assert.equal(agent.init.agentCapabilities._meta.claudeCode.promptQueueing, true);
  });

  test("handoff during a tool turn: folded; the early answer has zero usage and is superseded", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering, true);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] a1");
    assert.equal(steering.inputMode(sid).mode, "direct");
    const m = marker("a1");
    const s = await sendTimed(steering, sid, text(m));
    const f = await within(30_000, first, "first prompt");
    record({ agent: AGENT, scenario: "handoff, tool turn", path: s.value?.trace?.path, roundTrips: log.length, ms: s.ms,
      outcome: `${s.value?.kind ?? s.error?.kind} ${s.value?.handoff ?? ""}; superseded ${f.verdict.superseded}`, saw: model.saw(m) });
    assert.ok(s.ok, s.error?.message);
    assert.deepEqual(log.map((l) => l.method), ["session/prompt"]);
    assert.equal(s.value.kind, "handedOff");
    assert.equal(s.value.handoff, "folded");
    assert.equal(f.answer.usage.totalTokens, 0, "claude's evidence: the early answer reports zero usage");
    assert.equal(f.verdict.superseded, true, "promptAnswered agrees with handedOff: folded");
    assert.equal(model.saw(m), 1);
  });

  test("handoff during a text turn: deferred; both answers are real", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering, true);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[slow] a2");
    const m = marker("a2");
    const s = await sendTimed(steering, sid, text(m));
    const f = await within(30_000, first, "first prompt");
    record({ agent: AGENT, scenario: "handoff, text turn", path: s.value?.trace?.path, roundTrips: log.length, ms: s.ms,
      outcome: `${s.value?.kind ?? s.error?.kind} ${s.value?.handoff ?? ""}; superseded ${f.verdict.superseded}`, saw: model.saw(m) });
    assert.ok(s.ok, s.error?.message);
    assert.equal(s.value.handoff, "deferred");
    assert.ok(f.answer.usage.totalTokens > 0);
    assert.equal(f.verdict.superseded, false);
    assert.equal(model.saw(m), 1);
  });

  test("kill-switch off: the message queues and goes out after the turn", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering, false);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] a3");
    const m = marker("a3");
    const sent = steering.send(sid, text(m));
    assert.equal(steering.inputMode(sid).mode, "queue");
    assert.equal(steering.queued(sid).length, 1);
    const start = Date.now();
    await sleep(1_000);
    const whileRunning = log.length;
    const f = await within(30_000, first, "first prompt");
    const s = await settle(within(60_000, sent, "queued prompt"));
    record({ agent: AGENT, scenario: "kill-switch off: queue", path: s.value?.trace?.path, roundTrips: log.length, ms: Date.now() - start,
      outcome: s.value ? `${s.value.kind} ${s.value.stopReason}` : s.error.kind, saw: model.saw(m) });
    assert.ok(s.ok, s.error?.message);
    assert.equal(whileRunning, 0, "nothing sent while the turn ran");
    assert.equal(s.value.kind, "prompted");
    assert.equal(f.answer.stopReason, "end_turn");
    assert.ok(log[0].at >= app.answers.at(-1).at, "sent only after the turn's answer");
    assert.equal(model.saw(m), 1);
  });

  test("session/cancel with a queued message: the message is handed back, no new turn", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering, false);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] a4");
    const m = marker("a4");
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
    assert.deepEqual(s.value.draft, text(m));
    assert.equal(log.length, 0, "no session/prompt behind the user's back");
    assert.equal(model.saw(m), 0);
  });

  test("session/cancel with a handed-off message: it ends, nothing more is sent", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering, true);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] a5");
    const m = marker("a5");
    const start = Date.now();
    const sent = settle(within(30_000, steering.send(sid, text(m)), "handoff"));
    await waitFor(() => log.length === 1, "handoff prompt written", 5_000);
    agent.rpc.notify("session/cancel", { sessionId: sid });
    const f = await within(10_000, first, "cancelled prompt");
    const s = await sent;
    await sleep(1_500);
    record({ agent: AGENT, scenario: "cancel with a handed-off message", path: s.value?.trace?.path, roundTrips: log.length, ms: Date.now() - start,
      outcome: `turn ${f.answer.stopReason}; ${s.value?.kind ?? s.error?.kind} ${s.value?.stopReason ?? ""}`, saw: model.saw(m) });
    assert.ok(s.ok, s.error?.message);
    assert.equal(log.length, 1, "never resent");
    assert.ok(model.saw(m) <= 1);
  });

  test("a repeated session/prompt runs again (ACP prompts carry no message id)", async () => {
    const sid = await agent.session();
    const m = marker("a6");
    const start = Date.now();
    for (let i = 0; i < 2; i++) await within(30_000, agent.rpc.request("session/prompt", { sessionId: sid, prompt: text(m) }, { timeoutMs: 30_000 }), "prompt");
    record({ agent: AGENT, scenario: "raw session/prompt x2, same text", path: "raw", roundTrips: 2, ms: Date.now() - start, outcome: "both answered end_turn", saw: model.saw(m) });
    assert.equal(model.saw(m), 2);
  });
});
