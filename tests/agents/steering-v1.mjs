// The `_session/steering` scenarios every ACP v1 agent that ships the
// extension goes through (codex-acp 2.6.0, claude-agent-acp 0.101.0), driven
// by the package's AcpSteering behind the mock model. On v1 an accepted
// steer is delivered only on evidence: the turn ending with a stop reason
// other than `cancelled` (the app's prompt answers). A cancel before that, or
// a lost answer, is `outcomeUnknown`, and nothing is sent again.
import { test } from "node:test";
import assert from "node:assert/strict";
import { runningPrompt, asked } from "./acp-client.mjs";
import { within, waitFor, settle, record, marker, text, sleep, sendWatched, outcomeOf, assertDropped } from "./harness.mjs";
import { descendants, stillRunning } from "./stdio-rpc.mjs";

const methods = (log) => log.map((l) => l.method);

/** `env()`: the suite's `{ model, agent, AcpSteering }`, once its `before` ran. */
export function steeringV1Scenarios(AGENT, env) {
  const running = (app, sid, words) => runningPrompt(env().model, app, sid, words);

  test("initialize advertises _session/steering at the top level, on ACP v1", () => {
    const { agent } = env();
    assert.equal(agent.init.protocolVersion, 1);
    assert.equal(agent.init._meta?.steering?.supported, true);
  });

  test("a steer during a tool call: one _session/steering, accepted at once, delivered when the turn ends, seen once inside it", async () => {
    const { model, agent, AcpSteering } = env();
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] s1");
    const mode = steering.inputMode(sid).mode;
    const m = marker("s1");
    const { told, result } = sendWatched(steering, sid, text(m));
    const f = await within(60_000, first, "the turn's prompt");
    const s = await result;
    record({ agent: AGENT, scenario: "steer, tool turn", path: s.value?.trace?.path ?? told.accepted[0], roundTrips: log.length, ms: s.ms, outcome: outcomeOf(s), saw: model.saw(m) });
    assert.equal(mode, "direct");
    assert.ok(s.ok, s.error?.message);
    assert.deepEqual(methods(log), ["_session/steering"]);
    assert.deepEqual(log[0].params.prompt, text(m));
    assert.deepEqual(log[0].params._meta, { steering: { idleBehavior: "promptRequired" } });
    assert.equal(s.value.kind, "injected");
    assert.equal(s.value.delivered, "turnEnded");
    assert.deepEqual(told.accepted, ["steeringExtension"]);
    assert.ok(told.acceptedAt < f.at, "accepted while the turn ran");
    assert.ok(s.at >= f.at, "delivered only once the turn ended");
    assert.deepEqual(told.unconfirmed, []);
    assert.equal(f.answer.stopReason, "end_turn");
    assert.equal(model.saw(m), 1);
    assert.ok(model.carrying(m)[0].at <= f.at, "the model read it inside the turn");
  });

  test("two steers in one turn: both delivered, in the order sent, each seen once", async () => {
    const { model, agent, AcpSteering } = env();
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] s2");
    const [m1, m2] = [marker("s2a"), marker("s2b")];
    const a = sendWatched(steering, sid, text(m1));
    const b = sendWatched(steering, sid, text(m2));
    const f = await within(60_000, first, "the turn's prompt");
    const [sa, sb] = await Promise.all([a.result, b.result]);
    const both = model.carrying(m1).find(asked(m2));
    const conversation = JSON.stringify(both?.body ?? "");
    record({ agent: AGENT, scenario: "two steers, one turn", path: sa.value?.trace?.path ?? a.told.accepted[0], roundTrips: log.length, ms: Math.max(sa.ms, sb.ms),
      outcome: `${outcomeOf(sa)} / ${outcomeOf(sb)}`, saw: `${model.saw(m1)}, ${model.saw(m2)}` });
    assert.ok(sa.ok, sa.error?.message);
    assert.ok(sb.ok, sb.error?.message);
    assert.deepEqual([sa.value.kind, sb.value.kind], ["injected", "injected"]);
    assert.deepEqual([sa.value.delivered, sb.value.delivered], ["turnEnded", "turnEnded"]);
    assert.deepEqual(methods(log), ["_session/steering", "_session/steering"]);
    assert.deepEqual(log.map((l) => l.params.prompt), [text(m1), text(m2)]);
    assert.ok(both, "one model request carries both");
    assert.ok(conversation.indexOf(m1) < conversation.indexOf(m2), "in the order sent");
    assert.ok(both.at <= f.at, "inside the turn");
    assert.equal(model.saw(m1), 1);
    assert.equal(model.saw(m2), 1);
  });

  test("the idle race: the turn ended before the steer arrived: promptRequired, then the unchanged content as one session/prompt after the turn's answer", async () => {
    const { model, agent, AcpSteering } = env();
    const { steering, log } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    const token = steering.promptSent(sid);
    const answer = await within(60_000, agent.rpc.request("session/prompt", { sessionId: sid, prompt: text("r1 quick") }, { timeoutMs: 60_000 }), "quick prompt");
    // The app holds the answer and has not told the package: to the package the turn still runs.
    const mark = agent.rpc.wire.length;
    const m = marker("r1");
    const { told, result } = sendWatched(steering, sid, text(m));
    await waitFor(() => agent.answered("_session/steering", mark), "_session/steering answered", 10_000);
    await sleep(500);
    const beforeAnswer = methods(log);
    steering.promptAnswered(sid, answer, token);
    const s = await result;
    record({ agent: AGENT, scenario: "idle race: promptRequired", path: s.value?.trace?.path, roundTrips: log.length, ms: s.ms, outcome: outcomeOf(s), saw: model.saw(m) });
    assert.equal(answer.stopReason, "end_turn");
    assert.deepEqual(beforeAnswer, ["_session/steering"], "the prompt waits for the previous prompt's answer");
    assert.ok(s.ok, s.error?.message);
    assert.equal(s.value.kind, "prompted");
    assert.equal(s.value.stopReason, "end_turn");
    assert.deepEqual(methods(log), ["_session/steering", "session/prompt"]);
    assert.deepEqual(log[1].params.prompt, text(m), "the content unchanged");
    assert.deepEqual(told.unconfirmed, []);
    assert.equal(model.saw(m), 1);
  });

  test("a lost answer to _session/steering: outcomeUnknown once requestMs passed, shown unconfirmed, never resent", async () => {
    const { model, agent, AcpSteering } = env();
    const { steering, log, app } = await agent.steering(AcpSteering, false, { requestMs: 1_500 });
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] l1");
    const m = marker("l1");
    agent.rpc.loseAnswerTo("_session/steering");
    const { told, result } = sendWatched(steering, sid, text(m));
    const s = await result;
    const f = await within(60_000, first, "the turn's prompt");
    await sleep(1_000);
    record({ agent: AGENT, scenario: "lost answer (requestMs 1500)", path: told.unconfirmed[0], roundTrips: log.length, ms: s.ms, outcome: outcomeOf(s), saw: model.saw(m) });
    assert.equal(s.ok, false);
    assert.equal(s.error.kind, "outcomeUnknown", s.error.message);
    assert.ok(s.ms < 5_000, `bounded by requestMs (${s.ms} ms)`);
    assert.deepEqual(told.unconfirmed, ["steeringExtension"]);
    assert.deepEqual(methods(log), ["_session/steering"], "never resent, also after the turn ended");
    assert.equal(f.answer.stopReason, "end_turn");
    assert.equal(model.saw(m), 1, "the agent had it: it reached the model once");
  });

  test("a cancel right after an accepted steer: the app is told, with the draft; nothing is resent; the model sees it at most once", async () => {
    const { model, agent, AcpSteering } = env();
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] c1");
    const mark = agent.rpc.wire.length;
    const m = marker("c1");
    const { told, result } = sendWatched(steering, sid, text(m));
    await waitFor(() => agent.answered("_session/steering", mark), "_session/steering answered", 10_000);
    agent.rpc.notify("session/cancel", { sessionId: sid });
    steering.cancelSent(sid);
    const f = await within(15_000, first, "the cancelled prompt");
    const s = await result;
    const next = await within(60_000, app.prompt(sid, "after c1"), "the next prompt");
    await sleep(500);
    record({ agent: AGENT, scenario: "cancel after an accepted steer", path: told.accepted[0], roundTrips: log.length, ms: s.ms,
      outcome: `turn ${f.answer.stopReason}; ${outcomeOf(s)}`, saw: model.saw(m) });
    assert.equal(f.answer.stopReason, "cancelled");
    assertDropped(s, told, log, m, model);
    assert.equal(next.answer.stopReason, "end_turn");
  });
}

/** The suite's last scenario: it stops the agent. */
export function stopScenario(AGENT, env) {
  test("stopping the agent ends every process it started, also those in sessions of their own", async () => {
    const { model, agent } = env();
    const sid = await agent.session();
    const turn = settle(agent.rpc.request("session/prompt", { sessionId: sid, prompt: text("[tool] z1") }, { timeoutMs: 60_000 }));
    await within(30_000, model.until(asked("[tool] z1"), "z1", 30_000), "model asked");
    await sleep(1_000);
    const tree = descendants(agent.rpc.pid);
    const start = Date.now();
    await agent.stop();
    await turn;
    let left = stillRunning(tree);
    await waitFor(() => (left = stillRunning(tree)).length === 0, "every process ended", 5_000).catch(() => {});
    record({ agent: AGENT, scenario: "stop during a tool call", path: "process group", roundTrips: 0, ms: Date.now() - start,
      outcome: `${tree.size} processes, ${left.length} left`, saw: "-" });
    assert.ok(tree.size > 0, "the agent had started processes");
    assert.deepEqual(left, [], "none still runs");
  });
}
