// claude-agent-acp 0.101.0 on ACP v1 (`_session/steering` and prompt
// queueing) driven through the package's AcpSteering, behind the mock
// Messages API: the scenarios of steering-v1.mjs, a steer while a permission
// request waits on the client, and the extension preferred to the handoff.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { startClaudeAcpSteering } from "./agents.mjs";
import { acpAgentSuite, runningPrompt } from "./acp-client.mjs";
import { within, waitFor, record, marker, text, sleep, sendWatched, outcomeOf } from "./harness.mjs";
import { steeringV1Scenarios, stopScenario } from "./steering-v1.mjs";

const AGENT = "claude-acp 0.101.0 v1";
const PERMISSION_MS = 4_000;

describe(AGENT, () => {
  let model, agent, AcpSteering;
  acpAgentSuite((port, handlers) => startClaudeAcpSteering(port, handlers, "v1"), { version: 1 }, (parts) => ({ AcpSteering, model, agent } = parts));

  const env = () => ({ model, agent, AcpSteering });
  steeringV1Scenarios(AGENT, env);

  test("initialize advertises prompt queueing beside _session/steering", () => {
    assert.equal(agent.init.agentCapabilities._meta.claudeCode.promptQueueing, true);
    assert.equal(agent.init._meta.steering.supported, true);
  });

  test("with the handoff allowed, the steer still goes by _session/steering, never by a concurrent session/prompt", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering, true);
    const sid = await agent.session();
    const { first } = await runningPrompt(model, app, sid, "[tool] h1");
    const m = marker("h1");
    const { told, result } = sendWatched(steering, sid, text(m));
    const f = await within(60_000, first, "the turn's prompt");
    const s = await result;
    record({ agent: AGENT, scenario: "handoff allowed: extension first", path: s.value?.trace?.path ?? told.accepted[0], roundTrips: log.length, ms: s.ms, outcome: outcomeOf(s), saw: model.saw(m) });
    assert.ok(s.ok, s.error?.message);
    assert.deepEqual(log.map((l) => l.method), ["_session/steering"]);
    assert.equal(s.value.kind, "injected");
    assert.deepEqual(told.accepted, ["steeringExtension"]);
    assert.equal(f.verdict.superseded, false, "the app's prompt answered for its own turn");
    assert.equal(model.saw(m), 1);
  });

  test("a steer while a session/request_permission waits on the client: accepted, read by the model after the answer, inside the turn", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    // The default mode asks before a command that writes; the mock's "[ask]" call writes a file.
    await within(10_000, agent.rpc.request("session/set_mode", { sessionId: sid, modeId: "default" }), "session/set_mode");
    const asked = agent.permissions.asked.length;
    agent.permissions.delayMs = PERMISSION_MS;
    try {
      const first = app.prompt(sid, "[ask] p1");
      await waitFor(() => agent.permissions.asked.length > asked, "permission asked", 30_000);
      const askedAt = agent.permissions.asked.at(-1).at;
      await sleep(300);
      const m = marker("p1");
      const { told, result } = sendWatched(steering, sid, text(m));
      const f = await within(60_000, first, "the turn's prompt");
      const s = await result;
      const seen = model.carrying(m)[0];
      record({ agent: AGENT, scenario: "steer while permission waits", path: s.value?.trace?.path ?? told.accepted[0], roundTrips: log.length, ms: s.ms, outcome: outcomeOf(s), saw: model.saw(m) });
      assert.ok(s.ok, s.error?.message);
      assert.deepEqual(log.map((l) => l.method), ["_session/steering"]);
      assert.equal(s.value.kind, "injected");
      assert.equal(s.value.delivered, "turnEnded");
      assert.deepEqual(told.accepted, ["steeringExtension"]);
      assert.ok(told.acceptedAt < askedAt + PERMISSION_MS, "accepted while the permission waited");
      assert.equal(f.answer.stopReason, "end_turn");
      assert.equal(model.saw(m), 1);
      assert.ok(seen.at >= askedAt + PERMISSION_MS, "read after the permission was answered");
      assert.ok(seen.at <= f.at, "inside the turn");
    } finally {
      agent.permissions.delayMs = 0;
    }
  });

  stopScenario(AGENT, env);
});
