// codex-acp 2.6.0 on ACP v2 driven through the package's AcpSteering, behind
// the mock Responses API. On v2 the app's `session/prompt` answers
// `{ messageId }` at insertion, the turn's state comes as `state_update`s,
// and a landed steer is echoed as a `user_message_chunk` with a fresh
// messageId: that echo is the evidence of delivery.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { startCodexAcpSteering } from "./agents.mjs";
import { acpAgentSuite, runningPrompt, echoOf, isIdle } from "./acp-client.mjs";
import { within, waitFor, record, marker, text, sleep, sendWatched, outcomeOf, assertDropped } from "./harness.mjs";
import { stopScenario } from "./steering-v1.mjs";

const AGENT = "codex-acp 2.6.0 v2";
const methods = (log) => log.map((l) => l.method);

describe(AGENT, () => {
  let model, agent, AcpSteering;
  acpAgentSuite(startCodexAcpSteering, { version: 2 }, (parts) => ({ AcpSteering, model, agent } = parts));

  const running = (app, sid, words) => runningPrompt(model, app, sid, words);
  const echo = (sid, words) => echoOf(agent.updates, sid, words);

  test("initialize negotiates v2: info, object capabilities, _session/steering at the top level", () => {
    assert.equal(agent.init.protocolVersion, 2);
    assert.equal(agent.init.info.name, "@agentclientprotocol/codex-acp");
    assert.deepEqual(agent.init.capabilities.session.prompt.image, {});
    assert.equal(agent.init._meta.steering.supported, true);
    assert.equal(agent.init.agentCapabilities, undefined, "no v1 field");
  });

  test("a steer during a tool call is delivered on its user_message_chunk echo, with a fresh messageId, seen once", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] v1");
    const own = (await within(10_000, first, "the prompt's insertion")).answer.messageId;
    const mode = steering.inputMode(sid).mode;
    const m = marker("v1");
    const { told, result } = sendWatched(steering, sid, text(m));
    const s = await result;
    const end = await app.turnEnd(sid, own);
    const landed = echo(sid, m);
    record({ agent: AGENT, scenario: "steer, tool turn", path: s.value?.trace?.path ?? told.accepted[0], roundTrips: log.length, ms: s.ms, outcome: outcomeOf(s), saw: model.saw(m) });
    assert.equal(mode, "direct");
    assert.ok(s.ok, s.error?.message);
    assert.deepEqual(methods(log), ["_session/steering"]);
    assert.equal(s.value.kind, "injected");
    assert.equal(s.value.delivered, "echo");
    assert.deepEqual(told.accepted, ["steeringExtension"]);
    assert.ok(landed, "the agent echoed the steer");
    assert.notEqual(landed.messageId, own, "the steer's echo has its own messageId");
    assert.ok(s.at >= landed.at, "delivered on the echo, not before");
    assert.equal(end.update.stopReason, "end_turn");
    assert.equal(model.saw(m), 1);
  });

  test("the idle race on v2: promptRequired, then one session/prompt answered with its messageId at insertion", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    // The idle update is late: to the package the turn still runs when the steer goes out.
    const late = agent.holdUpdates(isIdle);
    const { answer } = await within(30_000, app.prompt(sid, "r2 quick"), "quick prompt");
    await waitFor(() => late.count() > 0, "the turn's idle", 30_000);
    const mark = agent.rpc.wire.length;
    const m = marker("r2");
    const { told, result } = sendWatched(steering, sid, text(m));
    await waitFor(() => agent.answered("_session/steering", mark), "_session/steering answered", 10_000);
    late.release();
    const s = await result;
    const landed = echo(sid, m);
    if (s.ok && s.value.messageId) await app.turnEnd(sid, s.value.messageId);
    record({ agent: AGENT, scenario: "idle race: promptRequired", path: s.value?.trace?.path, roundTrips: log.length, ms: s.ms, outcome: outcomeOf(s), saw: model.saw(m) });
    assert.ok(s.ok, s.error?.message);
    assert.deepEqual(methods(log), ["_session/steering", "session/prompt"]);
    assert.deepEqual(log[1].params.prompt, text(m), "the content unchanged");
    assert.equal(s.value.kind, "prompted");
    assert.equal(typeof s.value.messageId, "string");
    assert.notEqual(s.value.messageId, answer.messageId);
    assert.equal(landed?.messageId, s.value.messageId, "the prompt's answer names its echo");
    assert.deepEqual(told.unconfirmed, []);
    assert.equal(model.saw(m), 1);
  });

  test("a message sent while idle on v2 goes out as one session/prompt: prompted with its messageId", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    const mode = steering.inputMode(sid).mode;
    const m = marker("i2");
    const { result } = sendWatched(steering, sid, text(m));
    const s = await result;
    if (s.ok && s.value.messageId) await app.turnEnd(sid, s.value.messageId);
    record({ agent: AGENT, scenario: "send while idle", path: s.value?.trace?.path, roundTrips: log.length, ms: s.ms, outcome: outcomeOf(s), saw: model.saw(m) });
    assert.equal(mode, "idle");
    assert.ok(s.ok, s.error?.message);
    assert.equal(s.value.kind, "prompted");
    assert.equal(methods(log).at(-1), "session/prompt");
    assert.equal(methods(log).filter((x) => x === "session/prompt").length, 1);
    assert.equal(echo(sid, m)?.messageId, s.value.messageId);
    assert.equal(model.saw(m), 1);
  });

  test("an app prompt held behind the running turn stays the app's own: the steer is delivered on its own echo, the prompt runs next, each seen once", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] q1");
    const own = (await within(10_000, first, "the prompt's insertion")).answer.messageId;
    const words = marker("q1-next");
    // codex-acp holds a prompt sent during a turn: it answers when the prompt is inserted, as the next turn.
    const held = app.prompt(sid, words);
    await sleep(300);
    const m = marker("q1");
    const { told, result } = sendWatched(steering, sid, text(m));
    const s = await result;
    const firstEnd = await app.turnEnd(sid, own);
    const next = await within(60_000, held, "the held prompt's insertion");
    const nextEnd = await app.turnEnd(sid, next.answer.messageId);
    const landed = echo(sid, m);
    record({ agent: AGENT, scenario: "held app prompt + steer", path: s.value?.trace?.path ?? told.accepted[0], roundTrips: log.length, ms: s.ms,
      outcome: `${outcomeOf(s)}; prompt held to the next turn`, saw: `${model.saw(m)}, ${model.saw(words)}` });
    assert.ok(s.ok, s.error?.message);
    assert.deepEqual(methods(log), ["_session/steering"]);
    assert.equal(s.value.kind, "injected");
    assert.equal(s.value.delivered, "echo");
    assert.ok(landed && landed.messageId !== next.answer.messageId, "the steer's echo is not the app prompt's");
    assert.ok(next.at >= firstEnd.at, "the held prompt is inserted after the turn it waited for");
    assert.equal(nextEnd.update.stopReason, "end_turn");
    assert.equal(model.saw(m), 1);
    assert.equal(model.saw(words), 1);
  });

  test("a cancel right after an accepted steer on v2: the app is told, with the draft; nothing is resent; no echo, the model sees it at most once", async () => {
    const { steering, log, app } = await agent.steering(AcpSteering);
    const sid = await agent.session();
    const { first } = await running(app, sid, "[tool] c2");
    const own = (await within(10_000, first, "the prompt's insertion")).answer.messageId;
    const mark = agent.rpc.wire.length;
    const m = marker("c2");
    const { told, result } = sendWatched(steering, sid, text(m));
    await waitFor(() => agent.answered("_session/steering", mark), "_session/steering answered", 10_000);
    agent.rpc.notify("session/cancel", { sessionId: sid });
    steering.cancelSent(sid);
    const end = await app.turnEnd(sid, own, 15_000);
    const s = await result;
    const after = await within(30_000, app.prompt(sid, "after c2"), "the next prompt");
    await app.turnEnd(sid, after.answer.messageId);
    await sleep(500);
    record({ agent: AGENT, scenario: "cancel after an accepted steer", path: told.accepted[0], roundTrips: log.length, ms: s.ms,
      outcome: `idle ${end.update.stopReason}; ${outcomeOf(s)}`, saw: model.saw(m) });
    assert.equal(end.update.stopReason, "cancelled");
    assertDropped(s, told, log, m, model);
    assert.equal(echo(sid, m), undefined, "codex-acp dropped it: no echo");
  });

  stopScenario(AGENT, () => ({ model, agent, AcpSteering }));
});
