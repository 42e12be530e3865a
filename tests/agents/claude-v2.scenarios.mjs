// claude-agent-acp 0.101.0 on ACP v2, driven through the package's
// AcpSteering behind the mock Messages API. Its v2 answer advertises no
// `_session/steering` (only prompt queueing, which the package uses only
// when the app allows the handoff): with the handoff off a message typed
// mid-turn waits in the queue and goes out as a `session/prompt` once the
// turn's idle `state_update` came, answered `{ messageId }` at insertion.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { startClaudeAcpSteering } from "./agents.mjs";
import { acpAgentSuite, runningPrompt, echoOf } from "./acp-client.mjs";
import { within, record, marker, text, sleep, sendWatched, outcomeOf } from "./harness.mjs";
import { stopScenario } from "./steering-v1.mjs";

const AGENT = "claude-acp 0.101.0 v2";

describe(AGENT, () => {
  let model, agent, AcpSteering;
  acpAgentSuite((port, handlers) => startClaudeAcpSteering(port, handlers, "v2"), { version: 2 }, (parts) => ({ AcpSteering, model, agent } = parts));

  const running = (app, sid, words) => runningPrompt(model, app, sid, words);

  test("initialize negotiates v2 without _session/steering; prompt queueing under capabilities._meta", () => {
    assert.equal(agent.init.protocolVersion, 2);
    assert.equal(agent.init._meta?.steering, undefined);
    assert.equal(agent.init.capabilities._meta.claudeCode.promptQueueing, true);
  });

  test("a message typed during a tool call waits in the queue, then goes out as one session/prompt after the idle: prompted with its messageId", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] w1");
    const own = (await within(10_000, first, "the prompt's insertion")).answer.messageId;
    const m = marker("w1");
    const { told, result } = sendWatched(steering, sid, text(m));
    const mode = steering.inputMode(sid).mode;
    const chips = steering.queued(sid).length;
    await sleep(1_000);
    const whileRunning = log.length;
    const end = await app.turnEnd(sid, own);
    const s = await result;
    const landed = echoOf(agent.updates, sid, m);
    if (s.ok && s.value.messageId) await app.turnEnd(sid, s.value.messageId);
    record({ agent: AGENT, scenario: "queued during a tool turn", path: s.value?.trace?.path, roundTrips: log.length, ms: s.ms, outcome: outcomeOf(s), saw: model.saw(m) });
    assert.equal(mode, "queue");
    assert.equal(chips, 1);
    assert.equal(whileRunning, 0, "nothing sent while the turn ran");
    assert.equal(end.update.stopReason, "end_turn");
    assert.ok(s.ok, s.error?.message);
    assert.equal(s.value.kind, "prompted");
    assert.deepEqual(log.map((l) => l.method), ["session/prompt"]);
    assert.ok(log[0].at >= end.at, "sent only after the turn's idle");
    assert.equal(s.value.messageId, landed?.messageId, "the prompt's answer names its echo");
    assert.deepEqual(told.unconfirmed, []);
    assert.equal(model.saw(m), 1);
  });

  test("session/cancel with a queued message on v2: handed back with the draft, nothing sent", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] w2");
    const own = (await within(10_000, first, "the prompt's insertion")).answer.messageId;
    const m = marker("w2");
    const { result } = sendWatched(steering, sid, text(m));
    agent.rpc.notify("session/cancel", { sessionId: sid });
    steering.cancelSent(sid);
    const end = await app.turnEnd(sid, own, 15_000);
    const s = await result;
    await sleep(1_500);
    record({ agent: AGENT, scenario: "cancel with a queued message", path: s.value?.trace?.path ?? "queue", roundTrips: log.length, ms: s.ms,
      outcome: `idle ${end.update.stopReason}; ${outcomeOf(s)}`, saw: model.saw(m) });
    assert.equal(end.update.stopReason, "cancelled");
    assert.ok(s.ok, s.error?.message);
    assert.equal(s.value.kind, "handedBack");
    assert.deepEqual(s.value.draft, text(m));
    assert.equal(log.length, 0, "no session/prompt behind the user's back");
    assert.equal(model.saw(m), 0);
  });

  stopScenario(AGENT, () => ({ model, agent, AcpSteering }));
});
