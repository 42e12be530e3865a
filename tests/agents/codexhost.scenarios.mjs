// The published codexhost host (@codexhost/cli-linux-x64 0.10.0 on Node 22):
// Codex 0.171.0 as its child runs Codex-owned threads, its claude-code
// harness runs external threads over the Claude Code CLI; one mock model
// serves both APIs. Driven through the package's CodexhostSteering over
// stdio. The host has ownership/list but no inspect, and replaces an
// external thread's running turn (stop, then start) to steer it.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { startMockModel } from "./mock-model.mjs";
import { startCodexhost } from "./agents.mjs";
import { pkg, within, waitFor, settle, record, marker, text, packageRequest, sleep, assertRefused } from "./harness.mjs";

const AGENT = "codexhost host";
const INSPECT = "codexhost/thread/steering/inspect";
const OWNERS = "codexhost/thread/ownership/list";
const EXTERNAL_MODEL = "codexhost/claude-code-native";

describe(AGENT, () => {
  let model, rpc, CodexhostSteering;
  const completed = new Set();
  const toolRunning = new Set();
  /** turn/started and turn/completed as the host sent them, in order. */
  const events = [];

  before(async () => {
    ({ CodexhostSteering } = await pkg());
    model = await startMockModel({ toolSeconds: 5 });
    rpc = startCodexhost(model.port, {
      onNotification: (m, p) => {
        if (m === "turn/started" || m === "turn/completed") events.push({ m, threadId: p.threadId, turnId: p.turn?.id, status: p.turn?.status });
        if (m === "turn/completed") completed.add(p.turn?.id);
        if (m === "item/started" && p.item?.type === "commandExecution") toolRunning.add(p.turnId);
      },
    });
    const init = { clientInfo: { name: "agents-layer", title: "agents layer", version: "0" }, capabilities: { experimentalApi: true } };
    await within(30_000, rpc.request("initialize", init), "initialize");
    rpc.notify("initialized", {});
  });
  after(async () => {
    await rpc?.stop();
    await model?.close();
  });

  /** A thread of the given model; a fresh CodexhostSteering for it (one window's connection), its requests logged. */
  async function thread(modelName) {
    const params = { cwd: "/tmp", approvalPolicy: "never", sandbox: "danger-full-access", model: modelName };
    const { thread: { id } } = await within(30_000, rpc.request("thread/start", params, { timeoutMs: 30_000 }), "thread/start");
    const log = [];
    const steering = new CodexhostSteering({ request: packageRequest(rpc, log, 10_000), timeouts: { decideMs: 10_000, steerMs: 10_000 } });
    return { id, log, steering };
  }

  /** Starts a turn whose model call runs a 5 s tool; resolves with its id once the tool runs. */
  async function toolTurn(t, name) {
    const { turn } = await within(30_000, rpc.request("turn/start", { threadId: t.id, input: text(`[tool] ${name}`) }, { timeoutMs: 30_000 }), "turn/start");
    await waitFor(() => toolRunning.has(turn.id), `tool of turn ${name} runs`, 30_000);
    await sleep(300);
    return turn.id;
  }
  const turnEnds = (turnId) => waitFor(() => completed.has(turnId), `turn ${turnId} ends`, 30_000);

  /** A steer through `t`'s package instance; the row is recorded by the caller before asserting. */
  async function steer(t, scenario, args, hooks = {}) {
    const mark = t.log.length;
    const start = Date.now();
    const r = await settle(within(30_000, t.steering.steer({ threadId: t.id, ...args }, hooks), scenario));
    const ms = Date.now() - start;
    const sent = t.log.slice(mark);
    return { ...r, ms, sent: sent.map((l) => l.method), params: sent.map((l) => l.params), row: { agent: AGENT, scenario, roundTrips: sent.length, ms } };
  }
  const pathOf = (r) => (r.ok ? r.value.trace.path : r.error.trace?.path);
  /** What a retry row says: its result, what it sent, how many items the thread shows. */
  const retryOutcome = (r, said, items) => `${said} (${r.sent.join(", ") || "nothing sent"}); ${items} item${items === 1 ? "" : "s"}`;
  const outcomeOf = (r) => (r.ok ? r.value.delivery : `${r.error.kind} ${r.error.code ?? ""}`.trim());

  /** userMessage items of the thread (all turns) whose text carries `m`. */
  async function userMessages(t, m) {
    const { thread: read } = await within(10_000, rpc.request("thread/read", { threadId: t.id, includeTurns: true }), "thread/read");
    return read.turns.flatMap((turn) => turn.items).filter((i) => i.type === "userMessage" && JSON.stringify(i.content).includes(m));
  }

  describe("Codex-owned thread", () => {
    let t;
    before(async () => { t = await thread("mock-model"); });
    after(() => t?.steering.dispose());

    test("inspect -32600, ownership/list says codex: an official turn/steer, seen once by the model", async () => {
      const turnId = await toolTurn(t, "k1");
      const m = marker("k1");
      const s = await steer(t, "codex thread: fallback chain", { expectedTurnId: turnId, input: text(m), clientUserMessageId: randomUUID() });
      await turnEnds(turnId);
      record({ ...s.row, path: pathOf(s), outcome: outcomeOf(s), saw: model.saw(m) });
      assert.ok(s.ok, s.error?.message);
      assert.deepEqual(s.sent, [INSPECT, OWNERS, "turn/steer"]);
      assert.equal(s.value.trace.path, "ownershipList");
      assert.equal(s.value.trace.probes[0].answer.value?.code, -32600, "the host passes inspect to Codex, which does not know it");
      assert.equal(s.value.delivery, "official");
      assert.equal(s.value.turnId, turnId, "Codex folds it into the running turn");
      assert.equal(model.saw(m), 1);
    });

    test("a later steer is decided from the cached owner: no probe", async () => {
      const turnId = await toolTurn(t, "k2");
      const m = marker("k2");
      const s = await steer(t, "codex thread: later steer", { expectedTurnId: turnId, input: text(m), clientUserMessageId: randomUUID() });
      await turnEnds(turnId);
      record({ ...s.row, path: pathOf(s), outcome: outcomeOf(s), saw: model.saw(m) });
      assert.ok(s.ok, s.error?.message);
      assert.deepEqual(s.sent, ["turn/steer"]);
      assert.equal(s.value.trace.path, "cachedOwner");
      assert.equal(s.value.trace.probes.length, 0);
      assert.equal(s.value.trace.roundTripsBeforeSteer, 0);
      assert.equal(model.saw(m), 1);
    });

    test("a stale expectedTurnId: Codex's -32600 comes back with the draft", async () => {
      const old = events.find((e) => e.m === "turn/completed" && e.threadId === t.id).turnId;
      const turnId = await toolTurn(t, "k3");
      const m = marker("k3");
      const input = text(m);
      const s = await steer(t, "codex thread: stale expectedTurnId", { expectedTurnId: old, input, clientUserMessageId: randomUUID() });
      await turnEnds(turnId);
      record({ ...s.row, path: pathOf(s), outcome: outcomeOf(s), saw: model.saw(m) });
      assertRefused(s, { code: -32600, message: /expected active turn id/, input, saw: model.saw(m) });
    });

    // Codex applies a repeated clientUserMessageId again, so a retry must read the thread instead of resending.
    test("a lost turn/steer answer: outcomeUnknown; same-id retries read the thread and never resend", async () => {
      const turnId = await toolTurn(t, "k4");
      const m = marker("k4");
      const id = randomUUID();
      const args = { expectedTurnId: turnId, input: text(m), clientUserMessageId: id };
      rpc.loseAnswerTo("turn/steer");
      const s = await steer(t, "codex thread: answer lost", { ...args, requestOptions: { timeoutMs: 1_500 } });
      const early = await steer(t, "codex thread: same-id retry, turn running", args);
      await turnEnds(turnId);
      const late = await steer(t, "codex thread: same-id retry, turn ended", args);
      const items = await userMessages(t, m);
      const withId = items.filter((i) => i.clientId === id).length;
      const said = (r) => (r.ok ? r.value.trace.path : r.error.kind);
      for (const r of [s, early, late]) record({ ...r.row, path: pathOf(r), outcome: retryOutcome(r, said(r), withId), saw: model.saw(m) });
      assert.equal(s.ok, false);
      assert.equal(s.error.kind, "outcomeUnknown");
      assert.equal(s.error.clientUserMessageId, id);
      assert.ok(!early.sent.includes("turn/steer"), `retry while running sent ${early.sent}`);
      assert.ok(early.ok ? early.value.trace.path === "verifiedDelivered" : early.error.kind === "outcomeUnknown", `retry while running: ${said(early)}`);
      const read = early.params[early.sent.indexOf("thread/read")];
      assert.equal(read?.includeTurns, true, "the retry reads the thread with its turns first");
      assert.ok(late.ok, `retry after the turn: ${late.error?.kind} ${late.error?.message}`);
      assert.equal(late.value.trace.path, "verifiedDelivered");
      assert.ok(!late.sent.includes("turn/steer"), `retry after the turn sent ${late.sent}`);
      assert.equal(withId, 1, "one userMessage item carries the id");
      assert.equal(items.length, 1);
      assert.equal(model.saw(m), 1, "the model sees the message once");
    });
  });

  describe("external thread (claude-code harness)", () => {
    let t;
    before(async () => { t = await thread(EXTERNAL_MODEL); });
    after(() => t?.steering.dispose());

    /** The host's turn events on this thread since index `mark`. */
    const since = (mark) => events.slice(mark).filter((e) => e.threadId === t.id);

    test("inspect -32600, ownership/list says external: newTurn; the host stops the turn, then starts one with the message", async () => {
      const turnId = await toolTurn(t, "x1");
      const m = marker("x1");
      const mark = events.length;
      const s = await steer(t, "external thread: fallback chain", { expectedTurnId: turnId, input: text(m), clientUserMessageId: randomUUID() });
      if (s.ok) await turnEnds(s.value.turnId);
      record({ ...s.row, path: pathOf(s), outcome: outcomeOf(s), saw: model.saw(m) });
      assert.ok(s.ok, s.error?.message);
      assert.deepEqual(s.sent, [INSPECT, OWNERS, "turn/steer"]);
      assert.equal(s.value.trace.path, "ownershipList");
      assert.equal(s.value.delivery, "newTurn");
      assert.equal(s.value.presented, "newTurn");
      const seen = since(mark);
      assert.deepEqual(seen.slice(0, 2).map((e) => [e.m, e.turnId, e.status]), [
        ["turn/completed", turnId, "interrupted"],
        ["turn/started", s.value.turnId, "inProgress"],
      ], "stopped first, then the new turn");
      assert.notEqual(s.value.turnId, turnId);
      assert.equal(model.saw(m), 1);
    });

    test("a later steer is decided from the cached owner: no probe", async () => {
      const turnId = await toolTurn(t, "x2");
      const m = marker("x2");
      const s = await steer(t, "external thread: later steer", { expectedTurnId: turnId, input: text(m), clientUserMessageId: randomUUID() });
      if (s.ok) await turnEnds(s.value.turnId);
      record({ ...s.row, path: pathOf(s), outcome: outcomeOf(s), saw: model.saw(m) });
      assert.ok(s.ok, s.error?.message);
      assert.deepEqual(s.sent, ["turn/steer"]);
      assert.equal(s.value.trace.path, "cachedOwner");
      assert.equal(s.value.trace.probes.length, 0);
      assert.equal(s.value.delivery, "newTurn");
      assert.equal(model.saw(m), 1);
    });

    test("a stale expectedTurnId: the host's -32074 comes back with the draft, the turn runs on", async () => {
      const old = since(0).find((e) => e.m === "turn/completed").turnId;
      const turnId = await toolTurn(t, "x3");
      const m = marker("x3");
      const input = text(m);
      const s = await steer(t, "external thread: stale expectedTurnId", { expectedTurnId: old, input, clientUserMessageId: randomUUID() });
      const stopped = completed.has(turnId);
      await turnEnds(turnId);
      record({ ...s.row, path: pathOf(s), outcome: outcomeOf(s), saw: model.saw(m) });
      assertRefused(s, { code: -32074, input, saw: model.saw(m) });
      assert.equal(stopped, false, "the running turn is not stopped for a refused steer");
    });

    // The host keeps a receipt per thread and clientUserMessageId on this connection: a resend applies nothing.
    test("a lost turn/steer answer: outcomeUnknown; same-id retries get the host's first answer, one new turn", async () => {
      const turnId = await toolTurn(t, "x4");
      const m = marker("x4");
      const id = randomUUID();
      const args = { expectedTurnId: turnId, input: text(m), clientUserMessageId: id };
      const mark = events.length;
      rpc.loseAnswerTo("turn/steer");
      const s = await steer(t, "external thread: answer lost", { ...args, requestOptions: { timeoutMs: 1_500 } });
      const first = await steer(t, "external thread: same-id retry", args);
      const second = await steer(t, "external thread: same-id retry again", args);
      const started = since(mark).filter((e) => e.m === "turn/started");
      if (started[0]) await turnEnds(started[0].turnId);
      await sleep(500);
      const items = await userMessages(t, m);
      const said = (r) => (r.ok ? `${r.value.delivery} ${r.value.turnId.slice(0, 8)}` : r.error.kind);
      for (const r of [s, first, second]) record({ ...r.row, path: pathOf(r), outcome: retryOutcome(r, said(r), items.length), saw: model.saw(m) });
      assert.equal(s.ok, false);
      assert.equal(s.error.kind, "outcomeUnknown");
      assert.equal(s.error.clientUserMessageId, id);
      for (const r of [first, second]) assert.ok(r.ok, `retry: ${r.error?.kind} ${r.error?.message}`);
      assert.deepEqual(first.sent, ["turn/steer"], "resent: the host deduplicates an external thread's steer");
      assert.equal(first.value.delivery, "newTurn");
      // Once one attempt is confirmed the package may answer from memory instead of asking the host again.
      assert.ok(second.sent.length === 0 ? second.value.trace.path === "alreadyDelivered" : second.sent.join() === "turn/steer", `second retry sent ${second.sent}`);
      assert.equal(started.length, 1, "one replacement turn");
      assert.equal(first.value.turnId, started[0].turnId);
      assert.equal(second.value.turnId, started[0].turnId);
      assert.equal(items.length, 1, "one userMessage item with the message");
      assert.equal(model.saw(m), 1, "the model sees the message once");
    });
  });
});
