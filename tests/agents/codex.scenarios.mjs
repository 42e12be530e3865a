// Codex app-server 0.171.0 (stock: no codexhost methods) driven through the
// package's CodexhostSteering over stdio, behind the mock Responses API.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startMockModel } from "./mock-model.mjs";
import { startCodex } from "./agents.mjs";
import { pkg, within, waitFor, settle, record, marker, text, packageRequest, sleep, assertRefused } from "./harness.mjs";

const AGENT = "codex app-server";
const INSPECT = "codexhost/thread/steering/inspect";
const OWNERS = "codexhost/thread/ownership/list";

describe(AGENT, () => {
  let model, rpc, steering, threadId;
  const log = [];
  const completed = new Set();

  before(async () => {
    const { CodexhostSteering } = await pkg();
    model = await startMockModel({ toolSeconds: 5 });
    rpc = startCodex(model.port, { onNotification: (m, p) => m === "turn/completed" && completed.add(p.turn?.id) });
    await within(20_000, rpc.request("initialize", { clientInfo: { name: "agents-layer", title: "agents layer", version: "0" }, capabilities: { experimentalApi: true } }), "initialize");
    rpc.notify("initialized", {});
    ({ thread: { id: threadId } } = await within(20_000, rpc.request("thread/start", { cwd: "/tmp", approvalPolicy: "never", sandbox: "danger-full-access" }), "thread/start"));
    steering = new CodexhostSteering({ request: packageRequest(rpc, log, 10_000), timeouts: { decideMs: 10_000, steerMs: 10_000 } });
  });
  after(async () => {
    steering?.dispose();
    await rpc?.stop();
    await model?.close();
  });

  /** Starts a turn whose model call runs a 5 s tool; resolves once the tool runs. */
  async function toolTurn(name) {
    const words = `[tool] ${name}`;
    const { turn } = await within(10_000, rpc.request("turn/start", { threadId, input: text(words) }), "turn/start");
    await within(20_000, model.until((r) => JSON.stringify(r.body.input ?? "").includes(words), words), "model asked");
    await sleep(700);
    return turn.id;
  }
  const turnEnds = (turnId) => within(30_000, waitFor(() => completed.has(turnId), "turn/completed", 30_000), "turn ends");

  /** A steer through the package; the row is recorded before anything is asserted. */
  async function steer(scenario, args, hooks = {}) {
    const mark = log.length;
    const start = Date.now();
    const r = await settle(within(20_000, steering.steer(args, hooks), scenario));
    const ms = Date.now() - start;
    const sent = log.slice(mark).map((l) => l.method);
    return { ...r, ms, sent, row: { agent: AGENT, scenario, roundTrips: sent.length, ms } };
  }

  test("stock fallback: inspect and ownership/list -32600, thread/read, official; the model gets the message", async () => {
    const turnId = await toolTurn("one");
    const m = marker("c1");
    const s = await steer("stock fallback (tool turn)", { threadId, expectedTurnId: turnId, input: text(m), clientUserMessageId: randomUUID() });
    await turnEnds(turnId);
    record({ ...s.row, path: s.value?.trace?.path ?? s.error?.kind, outcome: s.value?.delivery ?? `error ${s.error?.kind}`, saw: model.saw(m) });
    assert.ok(s.ok, s.error?.message);
    assert.deepEqual(s.sent, [INSPECT, OWNERS, "thread/read", "turn/steer"]);
    assert.equal(s.value.delivery, "official");
    const at = model.requests.findIndex((r) => JSON.stringify(r.body.input).includes(m));
    const input = model.requests[at].body.input;
    assert.equal(input.at(-1).role, "user", "the steered text ends the next model request's input");
    assert.ok(JSON.stringify(input.at(-1)).includes(m));
    assert.equal(model.saw(m), 1);
  });

  test("a second steer on that thread sends no probe", async () => {
    const turnId = await toolTurn("two");
    const m = marker("c2");
    const s = await steer("second steer, same thread", { threadId, expectedTurnId: turnId, input: text(m), clientUserMessageId: randomUUID() });
    await turnEnds(turnId);
    record({ ...s.row, path: s.value?.trace?.path ?? s.error?.kind, outcome: s.value?.delivery ?? `error ${s.error?.kind}`, saw: model.saw(m) });
    assert.ok(s.ok, s.error?.message);
    assert.deepEqual(s.sent, ["turn/steer"]);
    assert.equal(s.value.trace.probes.length, 0);
    assert.equal(model.saw(m), 1);
  });

  test("a stale expectedTurnId: the host's -32600 comes back with the draft", async () => {
    const old = [...completed][0];
    const turnId = await toolTurn("three");
    const m = marker("c3");
    const input = text(m);
    let retracted = 0;
    const s = await steer("stale expectedTurnId", { threadId, expectedTurnId: old, input, clientUserMessageId: randomUUID() }, { retract: () => retracted++ });
    await turnEnds(turnId);
    record({ ...s.row, path: s.error?.trace?.path, outcome: s.ok ? "resolved (wrong)" : `${s.error.kind} ${s.error.code ?? ""}`.trim(), saw: model.saw(m) });
    assertRefused(s, { code: -32600, message: /expected active turn id/, input, saw: model.saw(m) });
  });

  // outcomeUnknown, the unconfirmed hook, no retract, and retries that never duplicate on a host without dedupe.
  test("the answer to turn/steer is lost while Codex applied it: outcomeUnknown, nothing retracted, a retry is seen once", async () => {
    const turnId = await toolTurn("four");
    const m = marker("c4");
    const id = randomUUID();
    const input = text(m);
    const calls = { retract: 0, unconfirmed: 0 };
    const hooks = { retract: () => calls.retract++, unconfirmed: () => calls.unconfirmed++ };
    rpc.loseAnswerTo("turn/steer");
    const s = await steer("turn/steer answer lost", { threadId, expectedTurnId: turnId, input, clientUserMessageId: id, requestOptions: { timeoutMs: 1_500 } }, hooks);
    // Codex does not dedupe by clientUserMessageId (a test below), so a retry
    // reads the thread first: while the turn runs a steer taken during the tool
    // call is not recorded yet, so it stays unknown and nothing is sent; once
    // the turn ended the thread shows it and the retry resolves, sending nothing.
    const early = await settle(within(20_000, steering.steer({ threadId, expectedTurnId: turnId, input, clientUserMessageId: id }, {}), "retry while running"));
    await turnEnds(turnId);
    const late = await settle(within(20_000, steering.steer({ threadId, expectedTurnId: turnId, input, clientUserMessageId: id }, {}), "retry after the turn"));
    const outcome = s.ok ? "resolved" : s.error.kind;
    const said = (r) => (r.ok ? r.value.trace.path : r.error.kind);
    record({ ...s.row, path: s.error?.trace?.path ?? s.value?.trace?.path, outcome: `${outcome}; retries: ${said(early)}, ${said(late)}; retract ${calls.retract}`, saw: model.saw(m) });
    assert.equal(s.ok, false);
    assert.equal(s.error.kind, "outcomeUnknown");
    assert.deepEqual(s.error.draft, input);
    assert.equal(s.error.clientUserMessageId, id);
    assert.equal(calls.retract, 0, "a possibly delivered message is not retracted");
    assert.equal(calls.unconfirmed, 1);
    assert.ok(early.ok ? early.value.trace.path === "verifiedDelivered" : early.error.kind === "outcomeUnknown", `retry while running: ${said(early)}`);
    assert.ok(late.ok, `retry after the turn: ${late.error?.message}`);
    assert.equal(late.value.trace.path, "verifiedDelivered", "found in the thread: nothing sent again");
    assert.equal(model.saw(m), 1, "the retries never make the model see it twice");
  });

  test("Codex does not dedupe turn/steer by clientUserMessageId", async () => {
    const turnId = await toolTurn("five");
    const m = marker("c5");
    const params = { threadId, expectedTurnId: turnId, input: text(m), clientUserMessageId: randomUUID() };
    const start = Date.now();
    const first = await within(5_000, rpc.request("turn/steer", params), "turn/steer 1");
    const second = await within(5_000, rpc.request("turn/steer", params), "turn/steer 2");
    await turnEnds(turnId);
    const read = await within(5_000, rpc.request("thread/read", { threadId, includeTurns: true }), "thread/read");
    const items = read.thread.turns.find((t) => t.id === turnId).items.filter((i) => i.clientId === params.clientUserMessageId);
    record({ agent: AGENT, scenario: "raw turn/steer x2, same clientUserMessageId", path: "raw", roundTrips: 2, ms: Date.now() - start,
      outcome: `both accepted; ${items.length} userMessage items`, saw: model.saw(m) });
    assert.equal(first.turnId, second.turnId);
    assert.equal(items.length, 2, "two userMessage items carry the same clientId");
    assert.equal(model.saw(m), 2, "Codex 0.171.0 applies both: the model sees the message twice");
  });
});
