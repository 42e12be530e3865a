// The desktop hook's outcomes on its edges: a same-id retry's lost answer
// after an earlier outcomeUnknown; a startTurn that hands the submission to
// the desktop's own steerTurn (lost answer, accepted answer); a refused
// plain turn/start of an ended turn; a route after its late turn/start was
// refused; a late activeTurn turn/steer after dispose; the official path
// bounded and classified like activeTurn; a same-id retry's turn/steer is
// not taken by another attempt's route; the layer goes at most a steer bound
// after dispose; a startTurn that hands over asynchronously is followed too;
// a refusal hands back the caller's own draft even when the desktop rebuilt
// its turn/start input; a late turn/start after dispose() is refused (the
// spec: fail closed, "disposed"), not sent plain; a same-id retry on a host
// that does not deduplicate is not sent again; a turn/start the desktop's
// own steerTurn sends instead counts as the message having left.
// The packed package.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { answers, RequestManager, settle, text } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const count = (m, method) => m.sent.filter((s) => s.method === method).length;
const wire = (m) => m.sent.map((s) => `${s.method} ${s.params?.clientUserMessageId ?? ""}`.trim());

// ---- active-retry
test("activeTurn same-id retry after outcomeUnknown: a lost answer of the retry's turn/steer must be outcomeUnknown, not the desktop's plain error", async () => {
  let n = 0;
  const m = new RequestManager({
    ...answers("activeTurn"),
    // 1st turn/steer: the answer never comes (the desktop's steerTurn hangs); 2nd: the connection drops.
    "turn/steer": () => (++n === 1 ? new Promise(() => {}) : Promise.reject(new Error("socket closed"))),
  });
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 80 } });
  const input = text("use pnpm");
  const first = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.deepEqual([first.error?.kind, first.error?.clientUserMessageId], ["outcomeUnknown", "m-1"]);
  // The app retries with the same id, as outcomeUnknown tells it to.
  const retry = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.equal(count(m, "turn/steer"), 2, "the retry's turn/steer left");
  assert.ok(retry.error instanceof api.SteeringError, `the retry's turn/steer left and its answer was lost, but the steer failed with a plain ${retry.error}`);
  assert.equal(retry.error.kind, "outcomeUnknown");
  hook.dispose();
});

// ---- stock-retry
// A stock app-server: no codexhost method (each refused as an unknown
// variant), native threads by thread/read, and no deduplication by
// clientUserMessageId, so the desktop's own retry would apply the message twice.
const unknownVariant = (method) => () => Promise.reject({ code: -32600, message: `Invalid request: unknown variant \`${method}\`, expected one of \`thread/read\`, \`turn/steer\`` });
const stockHost = (steer) => ({
  "codexhost/thread/steering/inspect": unknownVariant("codexhost/thread/steering/inspect"),
  "codexhost/thread/ownership/list": unknownVariant("codexhost/thread/ownership/list"),
  "thread/read": (p) => ({ thread: { id: p.threadId, modelProvider: "openai", cliVersion: "0.50.0" } }),
  "turn/steer": steer,
});

test("stock app-server (no deduplication): a same-id retry after outcomeUnknown is refused, outcomeUnknown again, and nothing is sent twice", async () => {
  const m = new RequestManager(stockHost(() => new Promise(() => {})));
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 60 } });
  const input = text("use pnpm");
  const first = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.deepEqual([first.error?.kind, first.error?.clientUserMessageId], ["outcomeUnknown", "m-1"]);
  const retry = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.equal(count(m, "turn/steer"), 1, "the retry's turn/steer left: the host could apply the message twice");
  assert.deepEqual([retry.error?.kind, retry.error?.clientUserMessageId], ["outcomeUnknown", "m-1"]);
  assert.match(retry.error.message, /does not deduplicate/);
  // Another message on the thread still goes.
  const other = await settle(m.steerTurn("t", text("and run the tests"), { id: "r2", context: {} }, "fast", undefined, "m-2"));
  assert.equal(count(m, "turn/steer"), 2);
  assert.equal(other.error?.kind, "outcomeUnknown");
  hook.dispose();
});

// ---- own-start-lost
// A desktop whose own steerTurn finds the turn ended and sends the message
// as a turn/start instead of a turn/steer.
class DesktopStartsInstead extends RequestManager {
  steerTurn(threadId, input, restoreMessage, serviceTier, attachments, clientUserMessageId) {
    return this.sendRequest("turn/start", { threadId, input, clientUserMessageId }, { caller: "steerTurn" });
  }
}

test("activeTurn: the desktop's own steerTurn sends a turn/start instead, and its answer is lost -> outcomeUnknown with the id, not the plain error", async () => {
  const m = new DesktopStartsInstead({ ...answers("activeTurn"), "turn/start": () => Promise.reject(new Error("socket closed")) });
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 200 } });
  const { error } = await settle(m.steerTurn("t", text("use pnpm"), { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.deepEqual(wire(m), ["codexhost/thread/steering/inspect", "turn/start m-1"]);
  assert.ok(error instanceof api.SteeringError, `the message left in a turn/start and its answer was lost, but the steer failed with a plain ${error}`);
  assert.deepEqual([error.kind, error.clientUserMessageId], ["outcomeUnknown", "m-1"]);
  assert.equal(m.sent[1].params.codexhostSteerDelivery, undefined, "a turn/start is not tagged");
  hook.dispose();
});

// ---- reentrant-lost
// The desktop shape the existing suite models ("a desktop startTurn that hands
// the submission to its own steerTurn"): startTurn calls this.steerTurn synchronously.
class Desktop1 extends RequestManager {
  startTurn(threadId, submission, onAdded) {
    this.started.push(1);
    const r = submission.request;
    return this.steerTurn(threadId, r.input, { id: r.clientUserMessageId, context: {} }, r.serviceTier, [], r.clientUserMessageId, r.additionalContext, null, onAdded);
  }
}

test("re-entrant startTurn: the desktop's own turn/steer left and its answer was lost -> must be outcomeUnknown with the id, not a plain transport failure", async () => {
  const m = new Desktop1({ ...answers("newTurn"), "turn/steer": () => Promise.reject(new Error("socket closed")) });
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 300 } });
  const input = text("start over");
  const { error } = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.deepEqual(wire(m), ["codexhost/thread/steering/inspect", "turn/steer m-1"], "the steer left once");
  assert.ok(error instanceof api.SteeringError);
  assert.equal(error.kind, "outcomeUnknown", `a turn/steer carrying the message reached the wire, yet the hook says "${error.kind}": ${error.message}`);
  assert.equal(error.clientUserMessageId, "m-1");
  hook.dispose();
});

test("re-entrant startTurn: the desktop's own steer accepted resolves the steer, not outcomeUnknown after the bound", async () => {
  const m = new Desktop1(answers("newTurn"));
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 300 } });
  const input = text("start over");
  const started = performance.now();
  const r = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  const elapsed = performance.now() - started;
  assert.deepEqual(wire(m), ["codexhost/thread/steering/inspect", "turn/steer m-1"]);
  assert.equal(r.error, undefined, `accepted by the host ({ turnId: "turn-2" }), reported ${r.error?.kind} after ${elapsed.toFixed(0)} ms: ${r.error?.message}`);
  hook.dispose();
});

// ---- plain-start
// The desktop shape the existing suite models: startTurn resolves at once
// (optimistic) and its turn/start leaves a moment later.
class Desktop2 extends RequestManager {
  startTurn(threadId, submission) {
    this.started.push(1);
    setTimeout(() => this.sendRequest("turn/start", submission.request, {}).catch((e) => (this.lateError = e)), 5);
    return Promise.resolve({ turn: { id: "optimistic", status: "inProgress", items: [] } });
  }
}

for (const running of [true, false]) {
  test(`newTurn, ${running ? "running turn (rewritten turn/steer)" : "ended turn (plain turn/start)"}: the host refuses the message -> the steer fails with the draft, never reported delivered`, async () => {
    const refusal = () => Promise.reject({ code: -32072, message: "thread busy: another turn started" });
    const m = new Desktop2({ ...answers("newTurn"), "turn/steer": refusal, "turn/start": refusal });
    if (!running) m.coordinator.options.submissionHost = { getActiveTurnId: () => null, hasPendingTurnStart: () => false };
    const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 300 } });
    const input = text("start over");
    const r = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
    await sleep(20);
    assert.equal(wire(m).length, 2, `${wire(m)}`);
    assert.ok(r.error, `the host answered -32072 (refused), but the steer resolved ${JSON.stringify(r.value)}: the message is lost, no draft handed back`);
    assert.equal(r.error.kind, "host");
    assert.equal(r.error.draft, input);
    hook.dispose();
  });
}

// A desktop whose startTurn rebuilds the request's input (here: a copy with
// an attachment item appended) before its turn/start leaves.
class Desktop2Copy extends RequestManager {
  startTurn(threadId, submission) {
    this.started.push(1);
    const request = { ...submission.request, input: [...submission.request.input, { type: "text", text: "[attachment]" }] };
    setTimeout(() => this.sendRequest("turn/start", request, {}).catch((e) => (this.lateError = e)), 5);
    return Promise.resolve({ turn: { id: "optimistic", status: "inProgress", items: [] } });
  }
}

for (const running of [true, false]) {
  test(`newTurn, ${running ? "running turn" : "ended turn"}: a refused message hands back the caller's own draft, not the desktop's rebuilt input`, async () => {
    const refusal = () => Promise.reject({ code: -32072, message: "thread busy: another turn started" });
    const m = new Desktop2Copy({ ...answers("newTurn"), "turn/steer": refusal, "turn/start": refusal });
    if (!running) m.coordinator.options.submissionHost = { getActiveTurnId: () => null, hasPendingTurnStart: () => false };
    const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 300 } });
    const input = text("start over");
    const r = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
    assert.equal(r.error?.kind, "host");
    assert.equal(r.error.draft, input, `the draft handed back is ${JSON.stringify(r.error.draft)}, not the array the caller passed`);
    hook.dispose();
  });
}

// A desktop whose startTurn resolves at once and sends its turn/start only
// when told (a slow preparation the app cannot see).
class Desktop2Late extends RequestManager {
  startTurn(threadId, submission) {
    this.started.push(1);
    this.sendLate = () => this.sendRequest("turn/start", submission.request, {});
    return Promise.resolve({ turn: { id: "optimistic", status: "inProgress", items: [] } });
  }
}

test("newTurn: a turn/start that comes after dispose() (its startTurn resolved before it) is refused as disposed, never sent plain; the layer goes one steer bound later", async () => {
  const m = new Desktop2Late(answers("newTurn"));
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 60 } });
  const r = await settle(m.steerTurn("t", text("start over"), { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.equal(r.error?.kind, "outcomeUnknown", "startTurn resolved, its turn/start may still come");
  hook.dispose();
  const late = await settle(m.sendLate());
  assert.deepEqual(wire(m), ["codexhost/thread/steering/inspect"], "the late turn/start leaked out after dispose");
  assert.equal(late.error?.kind, "disposed");
  await sleep(120);
  assert.equal(Object.getPrototypeOf(m), Desktop2Late.prototype, "the layer is gone a steer bound after dispose");
});

// ---- refused-start-stuck
// A desktop startTurn that prepares for a while, then sends its turn/start and
// handles a failure itself (shows it, resolves) instead of rejecting.
class Desktop3 extends RequestManager {
  async startTurn(threadId, submission) {
    this.started.push(1);
    await sleep(this.prep);
    try {
      return await this.sendRequest("turn/start", submission.request, {});
    } catch (e) {
      this.shown = e;
      return undefined;
    }
  }
}

test("newTurn: after a plain timeout whose late turn/start was refused, the same message can be sent again (not pendingTurnStart until dispose)", async () => {
  const m = new Desktop3(answers("newTurn"));
  m.prep = 150;
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 100 } });
  const input = text("start over");
  const restore = { id: "r-1", context: {} };
  const first = await settle(m.steerTurn("t", input, restore, "fast"));
  assert.equal(first.error.kind, "timeout", "nothing was sent: a plain failure, the draft back");
  await sleep(100); // the late turn/start came and was refused; startTurn resolved
  assert.equal(m.shown?.kind, "timeout", "the late turn/start was refused");
  assert.deepEqual(wire(m), ["codexhost/thread/steering/inspect"], "nothing of that message reached the host");
  m.prep = 5;
  const retries = [];
  for (let i = 0; i < 2; i++) {
    const r = await settle(m.steerTurn("t", input, restore, "fast"));
    retries.push(r.error?.kind ?? "delivered");
    await sleep(50);
  }
  hook.dispose();
  assert.equal(retries[0], "delivered", `the message was never sent, yet every retry is refused (until dispose): ${retries}`);
});

// ---- active-dispose-tag
test("activeTurn: a desktop turn/steer that leaves after dispose still carries the activeTurn tag it was decided with", async () => {
  class Desktop4 extends RequestManager {
    async steerTurn(threadId, input, restore, tier, att, cuid) {
      await sleep(60); // the desktop's own steer path takes a moment before writing
      return this.sendRequest("turn/steer", { threadId, expectedTurnId: "turn-1", input, clientUserMessageId: cuid }, {});
    }
  }
  const m = new Desktop4(answers("activeTurn"));
  const hook = api.installDesktopSteering(m);
  const pending = settle(m.steerTurn("t", text("use pnpm"), { id: "r", context: {} }, "fast", undefined, "m-1"));
  await sleep(20); // decided activeTurn; the desktop's steerTurn is out
  hook.dispose();
  const { error } = await pending;
  assert.equal(error.kind, "outcomeUnknown", "the app was told it may still arrive");
  await sleep(100);
  const steer = m.sent.find((s) => s.method === "turn/steer");
  assert.ok(steer, "the desktop's steer left");
  assert.equal(steer.params.codexhostSteerDelivery, "activeTurn", "left untagged: the host decides live (may stop the turn) although the UI shows it inside the current turn");
});

// ---- official-path
test("official: the desktop's turn/steer left and its answer was lost -> outcomeUnknown with the id, not the plain error (as activeTurn does for the very same desktop call)", async () => {
  const m = new RequestManager({ ...answers("official"), "turn/steer": () => Promise.reject(new Error("socket closed")) });
  const hook = api.installDesktopSteering(m);
  const input = text("use pnpm");
  const { error } = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.equal(count(m, "turn/steer"), 1, "the steer left");
  assert.ok(error instanceof api.SteeringError, `plain ${error} after the turn/steer left: invites a resend`);
  assert.equal(error.kind, "outcomeUnknown");
  assert.equal(error.clientUserMessageId, "m-1");
  hook.dispose();
});

test("official: a desktop steerTurn that never settles ends at steerMs, as activeTurn does", async () => {
  class Desktop5 extends RequestManager {
    steerTurn() {
      return new Promise(() => {});
    }
  }
  const m = new Desktop5(answers("official"));
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 100 } });
  const r = await Promise.race([settle(m.steerTurn("t", text("x"), { id: "r", context: {} }, "fast", undefined, "m-1")), sleep(1000).then(() => "pending")]);
  hook.dispose();
  assert.notEqual(r, "pending", "still pending 10x past steerMs");
});

// ---- route-swallows-retry-steer
// A newTurn route held open (its startTurn resolved, its turn/start not yet
// sent) takes only its own path's request. A different path's turn/steer
// carrying the same message id (the same-id retry the app makes after
// outcomeUnknown, decided activeTurn) leaves tagged, and the route stays, so
// the first attempt's late turn/start is refused rather than sent as a plain
// turn/start (which would bring the message to the host twice).


// An optimistic desktop: startTurn resolves at once, its turn/start leaves when `release()` is called.
class DesktopR0 extends RequestManager {
  startTurn(threadId, submission) {
    this.started.push(1);
    this.lateStart = () => this.sendRequest("turn/start", submission.request, {}).then((v) => (this.lateResult = { value: v }), (e) => (this.lateResult = { error: e }));
    return Promise.resolve({ turn: { id: "optimistic", status: "inProgress", items: [] } });
  }
  async steerTurn(threadId, input, restore, tier, att, cuid) {
    return this.sendRequest("turn/steer", { threadId, expectedTurnId: "turn-1", input, clientUserMessageId: cuid }, {});
  }
}

test("same-id activeTurn retry while the first newTurn's route waits for its turn/start: the retry's turn/steer leaves tagged, and the late turn/start is still refused", async () => {
  let delivery = "newTurn";
  const m = new DesktopR0({ ...answers("newTurn"), "codexhost/thread/steering/inspect": () => ({ delivery }) });
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 100 } });
  const input = text("use pnpm");
  const first = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.equal(first.error?.kind, "outcomeUnknown", "startTurn resolved, its turn/start not seen: outcome unknown, retry with the same id");
  // The app retries with the same id, as outcomeUnknown tells it to; the host now folds it in.
  delivery = "activeTurn";
  const retry = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  // The first attempt's turn/start finally leaves.
  m.lateStart();
  await sleep(20);
  const carrying = wire(m).filter((w) => !w.startsWith("codexhost/"));
  hook.dispose();
  assert.deepEqual(carrying.filter((w) => w.startsWith("turn/start")), [], `the first attempt's late turn/start leaked out plain: ${carrying}`);
  assert.equal(retry.error, undefined, `the retry's own turn/steer was swallowed by the other attempt's route: ${retry.error?.kind} "${retry.error?.message}" (wire: ${carrying})`);
});

// ---- layer-stays-after-dispose
// After dispose(), the layer is now kept while any official/activeTurn steer's
// desktop steerTurn is out. A desktop steerTurn that never settles (the very
// case the steer bound exists for) keeps the layer, and the hook's
// sendRequest, under the manager forever: dispose() never restores the
// chain. On the official path there is not even a tag to keep applying.


for (const delivery of ["official", "activeTurn"]) {
  test(`${delivery}: a desktop steerTurn that never settles; after the bound and dispose() the manager's chain is restored`, async () => {
    class DesktopR1 extends RequestManager {
      steerTurn() {
        return new Promise(() => {}); // the desktop's own steer hangs (never writes, never settles)
      }
    }
    const m = new DesktopR1(answers(delivery));
    const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 80 } });
    const r = await settle(m.steerTurn("t", text("use pnpm"), { id: "r", context: {} }, "fast", undefined, "m-1"));
    assert.ok(r.error, "ended at the bound");
    hook.dispose();
    await sleep(200);
    assert.equal(Object.getPrototypeOf(m), DesktopR1.prototype, "dispose() left the hook's layer under the manager (for good: the desktop's steerTurn never settles)");
  });
}

// ---- async-reentrant-start
// The re-entrant startTurn -> steerTurn fix covers only a startTurn that calls
// steerTurn synchronously (`hook.starting` is cleared as soon as startTurn
// returns). A desktop startTurn that awaits anything first and then hands the
// submission to its own steerTurn reaches the hook's wrapper, which treats it
// as "the same submission" and hands back the outer steer's own pending
// result: startTurn waits on itself until the bound, nothing is ever sent,
// and the steer fails as a timeout after the full steer bound.


class DesktopR2 extends RequestManager {
  async startTurn(threadId, submission, onAdded) {
    this.started.push(1);
    await sleep(1); // e.g. the desktop makes sure its connection is ready first
    const r = submission.request;
    return this.steerTurn(threadId, r.input, { id: r.clientUserMessageId, context: {} }, r.serviceTier, [], r.clientUserMessageId, r.additionalContext, null, onAdded);
  }
}

test("async re-entrant startTurn: the desktop's own turn/steer leaves and its accepted answer resolves the steer", async () => {
  const m = new DesktopR2(answers("newTurn"));
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 300 } });
  const input = text("start over");
  const started = performance.now();
  const r = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  const elapsed = performance.now() - started;
  hook.dispose();
  assert.deepEqual(wire(m), ["codexhost/thread/steering/inspect", "turn/steer m-1"], `the message never left (startTurn waited on the outer steer's own result); the steer ended ${r.error?.kind} after ${elapsed.toFixed(0)} ms`);
  assert.equal(r.error, undefined);
});
