// The desktop hook's newTurn path against the fake request manager: the
// spec's requirements on the submission, the follow-up queue and the route
// (docs/specs/codexhost-steering.md, "Desktop details that matter").
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { callSteer, methods, RequestManager } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const PAUSED = "Interrupted before the steer was accepted.";
const answers = { "codexhost/thread/steering/inspect": { delivery: "newTurn" }, "turn/steer": { turnId: "turn-2" }, "turn/start": { turn: { id: "turn-3" } } };
const settle = (promise) => promise.then((value) => ({ value }), (error) => ({ error }));

test("restoreMessage.context must be an object: invalidInput, the draft by identity, nothing started", async () => {
  const manager = new RequestManager(answers);
  api.installDesktopSteering(manager);
  const input = [{ type: "text", text: "x" }];
  const { error } = await settle(manager.steerTurn("t", input, { id: "r", context: "not an object" }, "fast"));
  assert.equal(error.kind, "invalidInput");
  assert.equal(error.draft, input);
  assert.equal(manager.started.length, 0);
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect"]);
});

test("the message id: clientUserMessageId, else restoreMessage.id, else a fresh random id", async () => {
  const ids = [];
  for (const [messageId, restoreId] of [["m-1", "r-1"], [undefined, "r-2"], [undefined, undefined]]) {
    const manager = new RequestManager(answers);
    api.installDesktopSteering(manager);
    await callSteer(manager, "t", "x", { messageId, restore: { id: restoreId } });
    ids.push(manager.started[0].submission.request.clientUserMessageId);
    assert.equal(manager.sent[1].params.clientUserMessageId, ids.at(-1), "the steer carries the same id");
  }
  assert.deepEqual(ids.slice(0, 2), ["m-1", "r-2"]);
  assert.match(ids[2], /^[0-9a-f-]{32,36}$/, "a random id");
});

test("a pending turn start (hasPendingTurnStart() === true) is refused: pendingTurnStart, nothing started", async () => {
  const manager = new RequestManager(answers);
  manager.coordinator.options.submissionHost.hasPendingTurnStart = () => true;
  api.installDesktopSteering(manager);
  const { error } = await settle(callSteer(manager, "t", "x"));
  assert.equal(error.kind, "pendingTurnStart");
  assert.equal(manager.started.length, 0);
});

test("only follow-ups paused with exactly the steer's reason, and not paused before, are resumed", async () => {
  const queue = [{ id: "before", pauseReason: PAUSED }, { id: "other", pauseReason: "Paused by the user." }];
  const manager = new RequestManager(answers, { queue, pauseOnSteer: "new" });
  api.installDesktopSteering(manager);
  await callSteer(manager, "t", "x");
  const reasons = Object.fromEntries(manager.queue.map((m) => [m.id, m.pauseReason]));
  assert.deepEqual(reasons, { before: PAUSED, other: "Paused by the user.", new: null });
});

test("follow-up ids compare by type: a number paused before leaves the string of the same digits to resume; an id that is not comparable stays paused", async () => {
  const queue = [{ id: 7, pauseReason: PAUSED }, { id: { no: "id" }, pauseReason: PAUSED }];
  const manager = new RequestManager(answers, { queue, pauseOnSteer: "7" });
  api.installDesktopSteering(manager);
  await callSteer(manager, "t", "x");
  assert.deepEqual(manager.queue.map((m) => m.pauseReason), [PAUSED, PAUSED, null]);
  assert.equal(manager.queue[2].id, "7");
});

test("a queued message that throws on every read is left as it is, and the others are still resumed", async () => {
  const hostile = new Proxy({}, { get: () => { throw new Error("trap"); }, getOwnPropertyDescriptor: () => { throw new Error("trap"); } });
  const manager = new RequestManager(answers, { pauseOnSteer: "new" });
  manager.queue = [hostile];
  manager.coordinator.readMessages = () => manager.queue.slice();
  api.installDesktopSteering(manager);
  await callSteer(manager, "t", "x");
  assert.equal(manager.queue[0], hostile, "untouched");
  assert.deepEqual({ ...manager.queue[1] }, { id: "new", pauseReason: null });
});

test("a queue longer than the module's bound is not read, so nothing is resumed", async () => {
  const queue = Array.from({ length: 4097 }, (_, at) => ({ id: `q-${at}` }));
  const manager = new RequestManager(answers, { queue, pauseOnSteer: "new" });
  api.installDesktopSteering(manager);
  await callSteer(manager, "t", "x");
  assert.equal(manager.queue.at(-1).pauseReason, PAUSED, "left paused: the queue was not read");
  const short = new RequestManager(answers, { queue: queue.slice(0, 4095), pauseOnSteer: "new" });
  api.installDesktopSteering(short);
  await callSteer(short, "t", "x");
  assert.equal(short.queue.at(-1).pauseReason, null, "4,096 with the new one, within the bound: resumed");
});

test("the route is keyed by thread and message id, and removed once the newTurn settles: the desktop's own turn/start goes out plain", async () => {
  const manager = new RequestManager(answers, { deferStart: 30 });
  api.installDesktopSteering(manager);
  const pending = callSteer(manager, "t", "steer me", { messageId: "m-steer" });
  while (manager.started.length === 0) await new Promise((r) => setTimeout(r, 1));
  // While the replacement is pending, the desktop starts a turn of its own on the same thread.
  const own = await manager.sendRequest("turn/start", { threadId: "t", input: [{ type: "text", text: "own" }], clientUserMessageId: "m-own" }, {});
  assert.deepEqual(own, { turn: { id: "turn-3" } });
  await pending;
  const after = await manager.sendRequest("turn/start", { threadId: "t", input: [{ type: "text", text: "later" }], clientUserMessageId: "m-steer" }, {});
  assert.deepEqual(after, { turn: { id: "turn-3" } }, "the route is gone: even the same id goes out plain");
  const sent = manager.sent.map((s) => `${s.method} ${s.params.clientUserMessageId ?? ""}`.trim());
  assert.deepEqual(sent, ["codexhost/thread/steering/inspect", "turn/start m-own", "turn/steer m-steer", "turn/start m-steer"]);
});
