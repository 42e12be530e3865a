// The desktop hook under concurrency, late requests and lost answers (never
// a duplicate): one steer in flight per thread, the newTurn route (one
// turn/start leaves, every other is refused), the activeTurn tag on its own
// steer only, outcomeUnknown with the id that was sent, follow-ups left alone
// when unread, one hook per manager, a re-entrant desktop startTurn.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { answers, callSteer, RequestManager, settle, text } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const PAUSED = "Interrupted before the steer was accepted.";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (condition) => {
  for (let i = 0; i < 2000 && !condition(); i++) await sleep(1);
};
const wire = (m) => m.sent.map((s) => `${s.method} ${s.params?.clientUserMessageId ?? ""}`.trim());
const count = (m, method) => m.sent.filter((s) => s.method === method).length;

test("a late turn/start of an abandoned newTurn is refused while the same message is sent again: one turn/steer, never a plain turn/start", async () => {
  // The retry's startTurn is quick: it waits for the first one's route, then goes.
  const m = new RequestManager(answers("newTurn"), { deferStart: 500 });
  api.installDesktopSteering(m, { timeouts: { steerMs: 400 } });
  const input = text("start over");
  const restore = { id: "r-1", context: {} };
  const first = await settle(m.steerTurn("t", input, restore, "fast"));
  assert.equal(first.error.kind, "timeout", "nothing was sent: a plain failure");
  assert.equal(first.error.draft, input);
  m.deferStart = 20;
  const retry = await settle(m.steerTurn("t", input, restore, "fast"));
  assert.equal(retry.value?.turn?.id, "turn-2", `the retry is delivered (${retry.error?.kind})`);
  await sleep(150);
  assert.deepEqual(wire(m).filter((w) => !w.includes("inspect")), ["turn/steer r-1"]);

  // The retry's startTurn is slow too: it runs out of its bound waiting; nothing leaves at all.
  const slow = new RequestManager(answers("newTurn"), { deferStart: 300 });
  api.installDesktopSteering(slow, { timeouts: { steerMs: 200 } });
  assert.equal((await settle(slow.steerTurn("t", input, restore, "fast"))).error.kind, "timeout");
  slow.deferStart = 180;
  await settle(slow.steerTurn("t", input, restore, "fast"));
  await sleep(400);
  assert.equal(count(slow, "turn/start"), 0, "no plain turn/start");
  assert.ok(count(slow, "turn/steer") <= 1, `never twice: ${wire(slow)}`);
});

test("after dispose and a new hook, the disposed hook's late turn/start is still refused; both layers come out exactly", async () => {
  const m = new RequestManager(answers("newTurn"), { deferStart: 150 });
  const first = api.installDesktopSteering(m);
  const input = text("start over");
  const restore = { id: "r-1", context: {} };
  const pending = settle(m.steerTurn("t", input, restore, "fast"));
  await until(() => m.started.length > 0);
  first.dispose();
  assert.equal((await pending).error.kind, "disposed");
  const second = api.installDesktopSteering(m);
  m.deferStart = 250; // still out when the first one's late turn/start comes
  const retry = await settle(m.steerTurn("t", input, restore, "fast"));
  assert.equal(retry.value?.turn?.id, "turn-2", `the retry is delivered (${retry.error?.kind})`);
  assert.deepEqual(wire(m).filter((w) => !w.includes("inspect")), ["turn/steer r-1"]);
  second.dispose();
  assert.equal(Object.getPrototypeOf(m), RequestManager.prototype, "no empty layer left behind");
});

test("one steer in flight per thread: the same id and words share the first's result and send nothing new; another message is refused busy, as the engine refuses it", async () => {
  const engine = new api.CodexhostSteering({ request: () => new Promise(() => {}) });
  const held = engine.steer({ threadId: "t", expectedTurnId: "a", input: text("x") }).catch(() => {});
  const engineBusy = await engine.steer({ threadId: "t", expectedTurnId: "a", input: text("y") }).catch((e) => e);
  engine.dispose();
  await held;
  engine.free();
  for (const delivery of ["activeTurn", "newTurn"]) {
    const answer = [];
    const m = new RequestManager({ ...answers(delivery), "turn/steer": () => new Promise((r) => answer.push(r)) });
    api.installDesktopSteering(m);
    const input = text("use pnpm");
    const p1 = settle(m.steerTurn("t", input, { id: "r-1", context: {} }, "fast", undefined, "m-1"));
    const p2 = settle(m.steerTurn("t", text("use pnpm"), { id: "r-1", context: {} }, "fast", undefined, "m-1"));
    const other = text("no, use bun");
    const p3 = settle(m.steerTurn("t", other, { id: "r-2", context: {} }, "fast", undefined, "m-2"));
    await until(() => answer.length > 0);
    await sleep(20);
    answer.forEach((r) => r({ turnId: "turn-2" }));
    const [a, b, c] = await Promise.all([p1, p2, p3]);
    assert.deepEqual(b.value, a.value, `${delivery}: the same result`);
    assert.ok(a.value !== undefined, `${delivery}: delivered`);
    assert.equal(count(m, "turn/steer"), 1, `${delivery}: one turn/steer (${wire(m)})`);
    assert.equal(count(m, "codexhost/thread/steering/inspect"), 1, `${delivery}: one inspect`);
    assert.ok(c.error instanceof api.SteeringError, delivery);
    const shape = (e) => ({ kind: e.kind, message: e.message, code: e.code, data: e.data, trace: e.trace });
    assert.deepEqual(shape(c.error), shape(engineBusy), `${delivery}: the engine's busy`);
    assert.equal(c.error.draft, other, "the draft by identity");
    // Once it settled, the thread takes a new message.
    m.answers["turn/steer"] = { turnId: "turn-4" };
    await callSteer(m, "t", "and then", { messageId: "m-3" });
  }
});

test("a same-id double submit on newTurn whose steer lost its answer: both outcomeUnknown with the id, one turn/steer", async () => {
  class Desktop extends RequestManager {
    async startTurn(threadId, submission) {
      this.started.push({ threadId, submission });
      await sleep(20);
      try {
        return await this.sendRequest("turn/start", submission.request, {});
      } catch (e) {
        throw new Error(`could not start the turn: ${e?.message}`);
      }
    }
  }
  const m = new Desktop({ ...answers("newTurn"), "turn/steer": () => Promise.reject(new Error("socket closed")) });
  api.installDesktopSteering(m);
  const input = text("start over");
  const [a, b] = await Promise.all([0, 1].map(() => settle(m.steerTurn("t", input, { id: "r-1", context: {} }, "fast", undefined, "m-1"))));
  assert.deepEqual([a.error.kind, b.error.kind], ["outcomeUnknown", "outcomeUnknown"]);
  assert.deepEqual([a.error.clientUserMessageId, b.error.clientUserMessageId], ["m-1", "m-1"]);
  assert.equal(count(m, "turn/steer"), 1);
  assert.equal(m.started.length, 1);
});

test("a second turn/start of a route that already left is refused, never resent", async () => {
  class Desktop extends RequestManager {
    async startTurn(threadId, submission) {
      this.started.push({ threadId, submission });
      for (let i = 0; ; i++) {
        try {
          return await this.sendRequest("turn/start", submission.request, {});
        } catch (e) {
          if (i >= 1) throw e; // its own retry after a lost answer, same request
        }
      }
    }
  }
  let n = 0;
  const m = new Desktop({ ...answers("newTurn"), "turn/steer": () => (++n === 1 ? Promise.reject(new Error("socket closed")) : Promise.resolve({ turnId: "turn-2" })) });
  api.installDesktopSteering(m);
  const { error } = await settle(m.steerTurn("t", text("start over"), { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.deepEqual(wire(m), ["codexhost/thread/steering/inspect", "turn/steer m-1"]);
  assert.deepEqual([error?.kind, error?.clientUserMessageId], ["outcomeUnknown", "m-1"]);
});

test("a startTurn that resolves before its turn/start left: the route stays open until the bound, then outcomeUnknown; a later turn/start is refused", async () => {
  class Desktop extends RequestManager {
    startTurn(threadId, submission) {
      this.started.push(1);
      setTimeout(() => this.sendRequest("turn/start", submission.request, {}).catch(() => {}), this.later);
      return Promise.resolve({ turn: { id: "optimistic", status: "inProgress", items: [] } });
    }
  }
  const soon = new Desktop(answers("newTurn"));
  soon.later = 5;
  api.installDesktopSteering(soon);
  const ok = await settle(soon.steerTurn("t", text("x"), { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.ok(ok.value !== undefined, `${ok.error?.kind}`);
  assert.deepEqual(wire(soon), ["codexhost/thread/steering/inspect", "turn/steer m-1"], "tagged, not plain");
  assert.equal(soon.sent[1].params.codexhostSteerDelivery, "newTurn");

  const late = new Desktop(answers("newTurn"));
  late.later = 200;
  const hook = api.installDesktopSteering(late, { timeouts: { steerMs: 100 } });
  const input = text("x");
  const { error } = await settle(late.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-2"));
  assert.equal(error.kind, "outcomeUnknown", "may still leave: not a plain failure");
  assert.equal(error.clientUserMessageId, "m-2");
  assert.equal(error.draft, input);
  await sleep(200);
  assert.deepEqual(wire(late), ["codexhost/thread/steering/inspect"], "the late turn/start is refused");
  hook.dispose();
  assert.equal(Object.getPrototypeOf(late), Desktop.prototype, "dispose drops the open route");
});

test("activeTurn: a lost answer after the tagged turn/steer left is outcomeUnknown with the draft and the id; the host's error answer and a failure before sending stay the desktop's own", async () => {
  const lost = new RequestManager({ ...answers("activeTurn"), "turn/steer": () => Promise.reject(new Error("socket closed")) });
  api.installDesktopSteering(lost);
  const input = text("use pnpm");
  const { error } = await settle(lost.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.ok(error instanceof api.SteeringError, `${error}`);
  assert.deepEqual([error.kind, error.clientUserMessageId], ["outcomeUnknown", "m-1"]);
  assert.equal(error.draft, input);
  assert.equal(count(lost, "turn/steer"), 1);

  const refusal = { code: -32074, message: "turn not active" };
  const refused = new RequestManager({ ...answers("activeTurn"), "turn/steer": () => Promise.reject(refusal) });
  api.installDesktopSteering(refused);
  assert.equal((await settle(callSteer(refused, "t", "x"))).error, refusal, "the host's answer, unchanged");

  const own = new Error("the desktop refused before sending");
  class Refusing extends RequestManager {
    steerTurn() {
      return Promise.reject(own);
    }
  }
  const before = new Refusing(answers("activeTurn"));
  api.installDesktopSteering(before);
  assert.equal((await settle(callSteer(before, "t", "x"))).error, own, "nothing left: the desktop's own failure");
});

test("activeTurn: the tag goes only on the steer it was decided for, also when it leaves after the bound and another steer came and went", async () => {
  let answerSteer = [];
  const m = new RequestManager({ ...answers("activeTurn"), "turn/steer": () => new Promise((r) => answerSteer.push(r)) });
  api.installDesktopSteering(m);
  const a = settle(callSteer(m, "t", "use pnpm", { messageId: "m-a" }));
  await until(() => count(m, "turn/steer") === 1);
  m.steerTurn("t", [{ type: "image", url: "data:," }], {}, "fast", undefined, "img-1");
  const image = m.sent.find((s) => s.params?.clientUserMessageId === "img-1");
  assert.equal("codexhostSteerDelivery" in image.params, false, "an untouched steer of the same thread");
  answerSteer.forEach((r) => r({ turnId: "turn-1" }));
  await a;

  // A's desktop steer leaves after A's bound; B comes and settles meanwhile.
  class Desktop extends RequestManager {
    async steerTurn(threadId, input, restore, tier, att, cuid) {
      await sleep(cuid === "m-a" ? 150 : 5);
      return this.sendRequest("turn/steer", { threadId, expectedTurnId: "turn-1", input, clientUserMessageId: cuid }, {});
    }
  }
  const d = new Desktop(answers("activeTurn"));
  api.installDesktopSteering(d, { timeouts: { steerMs: 60 } });
  const steer = (words, id) => settle(d.steerTurn("t", text(words), { id, context: {} }, "fast", undefined, id));
  const first = await steer("use pnpm", "m-a");
  assert.deepEqual([first.error.kind, first.error.clientUserMessageId], ["outcomeUnknown", "m-a"]);
  assert.ok((await steer("and bun", "m-b")).value);
  await until(() => count(d, "turn/steer") === 2);
  const tags = Object.fromEntries(d.sent.filter((s) => s.method === "turn/steer").map((s) => [s.params.clientUserMessageId, s.params.codexhostSteerDelivery]));
  assert.deepEqual(tags, { "m-b": "activeTurn", "m-a": "activeTurn" });
});

test("outcomeUnknown carries the id that was sent (also a generated one), and the retry with it reuses it", async () => {
  let first = true;
  const m = new RequestManager({ ...answers("newTurn"), "turn/steer": () => (first ? ((first = false), new Promise(() => {})) : Promise.resolve({ turnId: "turn-2" })) });
  api.installDesktopSteering(m, { timeouts: { steerMs: 100 } });
  const input = text("start over");
  const { error } = await settle(m.steerTurn("t", input, { context: {} }, "fast")); // no id anywhere
  assert.equal(error.kind, "outcomeUnknown");
  const sentId = m.sent.find((s) => s.method === "turn/steer").params.clientUserMessageId;
  assert.equal(error.clientUserMessageId, sentId);
  const retry = await settle(m.steerTurn("t", input, { context: {} }, "fast", undefined, error.clientUserMessageId));
  assert.ok(retry.value, `${retry.error?.kind}`);
  assert.deepEqual(m.sent.filter((s) => s.method === "turn/steer").map((s) => s.params.clientUserMessageId), [sentId, sentId]);

  const a = new RequestManager({ ...answers("activeTurn"), "turn/steer": () => new Promise(() => {}) });
  api.installDesktopSteering(a, { timeouts: { steerMs: 50 } });
  const e = (await settle(a.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-7"))).error;
  assert.deepEqual([e.kind, e.clientUserMessageId], ["outcomeUnknown", "m-7"]);
});

test("follow-ups: when the queue could not be read before the steer, none is resumed; number ids are compared like strings", async () => {
  const cases = {
    "readMessages throws": (m) => { m.coordinator.readMessages = () => { throw new Error("store not ready"); }; },
    "readMessages rejects": (m) => { m.coordinator.readMessages = () => Promise.reject(new Error("io")); },
    "loadMessages rejects": (m) => { m.coordinator.loadMessages = () => Promise.reject(new Error("io")); },
  };
  for (const [name, tweak] of Object.entries(cases)) {
    const m = new RequestManager(answers("newTurn"), { queue: [{ id: "before", pauseReason: PAUSED }], pauseOnSteer: "new" });
    tweak(m);
    api.installDesktopSteering(m);
    await callSteer(m, "t", "x");
    await sleep(10);
    assert.deepEqual(m.queue.map((q) => q.pauseReason), [PAUSED, PAUSED], name);
  }
  const m = new RequestManager(answers("newTurn"), { queue: [{ id: 7, pauseReason: PAUSED }], pauseOnSteer: 8 });
  api.installDesktopSteering(m);
  await callSteer(m, "t", "x");
  await sleep(10);
  assert.deepEqual(m.queue.map((q) => [q.id, q.pauseReason]), [[7, PAUSED], [8, null]]);
});

test("a desktop startTurn that hands the submission to its own steerTurn goes to the desktop's own path, never a loop", async () => {
  class Desktop extends RequestManager {
    startTurn(threadId, submission, onAdded) {
      this.started.push(1);
      const r = submission.request;
      return this.steerTurn(threadId, r.input, { id: r.clientUserMessageId, context: {} }, r.serviceTier, [], r.clientUserMessageId, r.additionalContext, null, onAdded);
    }
  }
  const m = new Desktop({ ...answers("newTurn"), "codexhost/thread/steering/inspect": () => sleep(1).then(() => ({ delivery: "newTurn" })) });
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 200 } });
  await settle(m.steerTurn("t", text("x"), { id: "r", context: {} }, "fast"));
  await sleep(100);
  hook.dispose();
  assert.equal(count(m, "codexhost/thread/steering/inspect"), 1);
  assert.equal(m.started.length, 1);
  assert.deepEqual(wire(m), ["codexhost/thread/steering/inspect", "turn/steer r"], "the desktop's own steer, once");
  assert.equal("codexhostSteerDelivery" in m.sent[1].params, false);
});

test("newTurn with the binding but no running turn: a pending start is pendingTurnStart, else a plain turn/start (the engine's choice for an ended turn)", async () => {
  for (const pending of [true, false]) {
    const m = new RequestManager(answers("newTurn"));
    m.coordinator.options.submissionHost = { getActiveTurnId: () => null, hasPendingTurnStart: () => pending };
    api.installDesktopSteering(m);
    const r = await settle(callSteer(m, "t", "x", { messageId: "m-1" }));
    if (pending) {
      assert.equal(r.error.kind, "pendingTurnStart");
      assert.deepEqual(wire(m), ["codexhost/thread/steering/inspect"]);
    } else {
      assert.deepEqual(r.value, { turn: { id: "turn-3" } }, "the desktop's own answer");
      assert.deepEqual(wire(m), ["codexhost/thread/steering/inspect", "turn/start m-1"]);
      assert.equal("codexhostSteerDelivery" in m.sent[1].params, false);
    }
  }
});
