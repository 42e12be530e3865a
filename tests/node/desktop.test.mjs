// The desktop hook (js/desktop/) of the packed package against a fake
// request manager with the shape the spec describes (fake-manager.mjs).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { packAndInstall } from "./pack.mjs";
import { callSteer, methods, ownNames, RequestManager } from "./fake-manager.mjs";

let api;
before(async () => {
  const pkg = packAndInstall();
  api = await import(pkg.entry);
  await api.init();
});

const PAUSED = "Interrupted before the steer was accepted.";
const answers = (delivery) => ({
  "codexhost/thread/steering/inspect": { delivery },
  "turn/steer": { turnId: "turn-2" },
  "thread/list": { data: [] },
});
const install = (manager) => api.installDesktopSteering(manager);
const settle = (promise) => promise.then((value) => ({ value }), (error) => ({ error }));

test("install returns null without the methods", () => {
  assert.equal(api.installDesktopSteering({ sendRequest() {} }), null);
});

test("install returns null, the manager untouched, when any one of the four methods it calls is missing", () => {
  for (const name of ["steerTurn", "sendRequest", "startTurn", "getTurnCoordinator"]) {
    class Lacking extends RequestManager {}
    Object.defineProperty(Lacking.prototype, name, { value: undefined });
    const manager = new Lacking(answers("official"));
    assert.equal(api.installDesktopSteering(manager), null, `without ${name}`);
    assert.equal(Object.getPrototypeOf(manager), Lacking.prototype, `without ${name}`);
  }
});

test("dispose after the app took the layer out of the chain itself leaves the chain as the app set it", () => {
  const manager = new RequestManager(answers("official"));
  const hook = install(manager);
  Object.setPrototypeOf(manager, RequestManager.prototype);
  assert.doesNotThrow(() => hook.dispose());
  assert.equal(Object.getPrototypeOf(manager), RequestManager.prototype);
});

test("a private layer holds the wrappers and dispose restores the chain", () => {
  const manager = new RequestManager(answers("official"));
  const other = new RequestManager(answers("official"));
  const namesBefore = ownNames(RequestManager.prototype);
  const ownBefore = ownNames(manager);
  const hook = install(manager);
  const layer = Object.getPrototypeOf(manager);
  assert.notEqual(layer, RequestManager.prototype);
  assert.equal(Object.getPrototypeOf(layer), RequestManager.prototype);
  assert.equal(ownNames(layer), "sendRequest,steerTurn");
  assert.equal(ownNames(manager), ownBefore, "no own properties on the instance");
  assert.equal(ownNames(RequestManager.prototype), namesBefore, "class prototype untouched");
  assert.equal(Object.getPrototypeOf(other), RequestManager.prototype, "other instances untouched");
  hook.dispose();
  assert.equal(Object.getPrototypeOf(manager), RequestManager.prototype, "exact restore");
});

test("activeTurn tags the desktop's own turn/steer", async () => {
  const manager = new RequestManager(answers("activeTurn"));
  install(manager);
  await callSteer(manager, "t", "use pnpm");
  assert.equal(manager.sent[0].method, "codexhost/thread/steering/inspect");
  assert.deepEqual(manager.sent[0].params, { threadId: "t", text: "use pnpm" });
  assert.equal(manager.sent[1].method, "turn/steer");
  assert.equal(manager.sent[1].params.codexhostSteerDelivery, "activeTurn");
  assert.deepEqual(manager.sent[1].options, { caller: "steerTurn" }, "the desktop's own options pass through");
});

test("official goes out untouched", async () => {
  const manager = new RequestManager(answers("official"));
  install(manager);
  await callSteer(manager, "t", "x");
  assert.equal(manager.sent[1].method, "turn/steer");
  assert.equal("codexhostSteerDelivery" in manager.sent[1].params, false);
});

test("newTurn presents through startTurn and rewrites it into a tagged steer", async () => {
  const queue = [{ id: "old", pauseReason: PAUSED }];
  const manager = new RequestManager(answers("newTurn"), { queue, pauseOnSteer: "new" });
  install(manager);
  const result = await callSteer(manager, "t", "start over", { messageId: "m-9" });
  assert.deepEqual(result, { turn: { id: "turn-2", status: "inProgress", items: [], error: null } });
  const { request, context } = manager.started[0].submission;
  assert.equal(request.clientUserMessageId, "m-9");
  assert.deepEqual([request.cwd, request.collaborationMode, request.serviceTier], ["/repo", "pair", "fast"]);
  assert.deepEqual([request.model, request.effort], [null, null]);
  assert.equal(context.useAppServerPermissionDefault, true);
  assert.deepEqual(context.attachments, []);
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect", "turn/steer"], "no turn/start leaks out");
  const steer = manager.sent[1].params;
  assert.deepEqual([steer.codexhostSteerDelivery, steer.expectedTurnId, steer.clientUserMessageId], ["newTurn", "turn-1", "m-9"]);
  assert.deepEqual(manager.sent[1].options, { caller: "startTurn" }, "caller options pass through");
  assert.equal(manager.queue[0].pauseReason, PAUSED, "paused before: stays paused");
  assert.equal(manager.queue[1].pauseReason, null, "paused by the stop: resumed");
});

test("newTurn without the binding fails clearly (draft by identity), but activeTurn still works", async () => {
  const manager = new RequestManager(answers("newTurn"), { binding: false });
  install(manager);
  const input = [{ type: "text", text: "x" }];
  const { error } = await settle(manager.steerTurn("t", input, { id: "r", context: {} }, "fast"));
  assert.ok(error instanceof api.SteeringError);
  assert.equal(error.kind, "missingBinding");
  assert.equal(error.draft, input);
  const active = new RequestManager(answers("activeTurn"), { binding: false });
  install(active);
  await callSteer(active, "t", "x");
});

test("a tool output cannot be replaced by a new turn", async () => {
  const manager = new RequestManager(answers("newTurn"));
  install(manager);
  const { error } = await settle(callSteer(manager, "t", "x", { toolOutput: { out: 1 } }));
  assert.equal(error.kind, "invalidInput");
});

test("followers use the desktop's own path without probing", async () => {
  const manager = new RequestManager(answers("newTurn"), { role: "follower" });
  install(manager);
  await callSteer(manager, "t", "x");
  assert.deepEqual(methods(manager), ["turn/steer"]);
  assert.equal("codexhostSteerDelivery" in manager.sent[0].params, false);
});

test("a steer the hook does not handle goes to the desktop's own method, its return value untouched", () => {
  const manager = new RequestManager(answers("activeTurn"));
  install(manager);
  const image = [{ type: "image", url: "data:," }];
  const returned = manager.steerTurn("t", image, {}, "fast");
  assert.ok(returned instanceof Promise);
  assert.deepEqual(methods(manager), ["turn/steer"], "no inspect for a non-text draft");
  assert.equal(manager.sent[0].params.input, image, "the draft by identity");
});

test("other requests pass through unchanged (params by identity)", () => {
  const manager = new RequestManager(answers("official"));
  install(manager);
  const params = { x: 1 };
  const result = manager.sendRequest("thread/list", params, undefined);
  assert.ok(result instanceof Promise);
  assert.equal(manager.sent[0].params, params);
});

test("a host refusal of the rewritten steer is the host's error; a lost answer is outcomeUnknown", async () => {
  const refusing = new RequestManager({ ...answers("newTurn"), "turn/steer": () => Promise.reject({ code: -32074, message: "turn not active" }) });
  install(refusing);
  const refused = (await settle(callSteer(refusing, "t", "x"))).error;
  assert.deepEqual([refused.kind, refused.code, refused.message], ["host", -32074, "turn not active"]);
  const lost = new RequestManager({ ...answers("newTurn"), "turn/steer": () => Promise.reject(new Error("socket closed")) });
  install(lost);
  const unknown = (await settle(callSteer(lost, "t", "x"))).error;
  assert.equal(unknown.kind, "outcomeUnknown");
  assert.deepEqual(methods(lost).filter((m) => m === "turn/steer").length, 1, "never resent");
});

test("dispose fails pending replacements closed, then restores sendRequest", async () => {
  const manager = new RequestManager(answers("newTurn"), { deferStart: 30 });
  const hook = install(manager);
  const pending = settle(callSteer(manager, "t", "x"));
  while (manager.started.length === 0) await new Promise((r) => setTimeout(r, 1));
  hook.dispose();
  assert.equal(ownNames(Object.getPrototypeOf(manager)), "sendRequest", "steerTurn restored at once, sendRequest kept while a replacement is pending");
  assert.equal((await pending).error.kind, "disposed");
  assert.equal(ownNames(Object.getPrototypeOf(manager)), "sendRequest", "sendRequest kept until startTurn itself settles");
  await new Promise((r) => setTimeout(r, 50)); // the desktop's startTurn sends its turn/start now
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect"], "no turn/start leaks out after dispose");
  assert.equal(Object.getPrototypeOf(manager), RequestManager.prototype, "chain restored once it settled");
});

test("the hook stays installed when the app drops its handle (after a full GC)", async () => {
  const manager = new RequestManager(answers("activeTurn"));
  install(manager);
  setFlagsFromString("--expose-gc");
  runInNewContext("gc")();
  await new Promise((r) => setTimeout(r, 10));
  await callSteer(manager, "t", "still steering");
  assert.equal(manager.sent[1].params.codexhostSteerDelivery, "activeTurn");
});

test("an unreadable draft (a Proxy whose traps throw) goes to the desktop's own path", () => {
  const manager = new RequestManager(answers("activeTurn"));
  install(manager);
  const hostile = new Proxy([], { get() { throw new Error("trap"); } });
  manager.steerTurn("t", hostile, {}, "fast");
  assert.deepEqual(methods(manager), ["turn/steer"]);
  assert.equal(manager.sent[0].params.input, hostile);
});

test("dispose while the decision is out fails the steer closed as disposed, draft by identity; nothing more is sent", async () => {
  let answerInspect;
  const manager = new RequestManager({ ...answers("activeTurn"), "codexhost/thread/steering/inspect": () => new Promise((r) => { answerInspect = r; }) });
  const hook = install(manager);
  const input = [{ type: "text", text: "x" }];
  const pending = settle(manager.steerTurn("t", input, { id: "r", context: {} }, "fast"));
  while (!answerInspect) await new Promise((r) => setTimeout(r, 1));
  hook.dispose();
  answerInspect({ delivery: "activeTurn" });
  const { error } = await pending;
  assert.equal(error.kind, "disposed");
  assert.equal(error.draft, input);
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect"]);
  assert.equal(Object.getPrototypeOf(manager), RequestManager.prototype);
});

test("a turn/start that comes after the steer failed (dispose or timeout while startTurn was out) is refused, never sent", async () => {
  for (const end of ["dispose", "timeout"]) {
    const manager = new RequestManager(answers("newTurn"), { deferStart: 60 });
    const hook = api.installDesktopSteering(manager, end === "timeout" ? { timeouts: { steerMs: 20 } } : undefined);
    const pending = settle(callSteer(manager, "t", "x"));
    if (end === "dispose") {
      while (manager.started.length === 0) await new Promise((r) => setTimeout(r, 1));
      hook.dispose();
    }
    const { error } = await pending;
    assert.equal(error.kind, end === "dispose" ? "disposed" : "timeout", end);
    await new Promise((r) => setTimeout(r, 90)); // the desktop's startTurn sends its turn/start now
    assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect"], `${end}: nothing reaches the host after the plain failure`);
    if (end === "dispose") assert.equal(Object.getPrototypeOf(manager), RequestManager.prototype, "chain restored once startTurn settled");
  }
});

test("a second hook on one manager is refused clearly; after dispose, a saved steerTurn reference uses the desktop's own path and a new hook can be installed", async () => {
  const manager = new RequestManager(answers("activeTurn"));
  const first = install(manager);
  const saved = manager.steerTurn;
  assert.throws(() => install(manager), /a desktop steering hook is already installed on this request manager; dispose it before installing another/);
  assert.equal(Object.getPrototypeOf(Object.getPrototypeOf(manager)), RequestManager.prototype, "one layer");
  first.dispose();
  await saved.call(manager, "t", [{ type: "text", text: "y" }], {}, "fast");
  assert.deepEqual(methods(manager), ["turn/steer"], "the desktop's own path: no inspect");
  const second = install(manager);
  await callSteer(manager, "t", "x");
  assert.equal(manager.sent.at(-1).params.codexhostSteerDelivery, "activeTurn");
  second.dispose();
  assert.equal(Object.getPrototypeOf(manager), RequestManager.prototype, "exact restore");
});

test("a failure of startTurn after the rewritten steer left is outcomeUnknown, not a plain failure", async () => {
  const manager = new RequestManager(answers("newTurn"));
  manager.startTurn = function (threadId, submission) {
    this.started.push({ threadId, submission });
    return this.sendRequest("turn/start", submission.request, {}).then(() => { throw new Error("the desktop failed rendering"); });
  };
  install(manager);
  const { error } = await settle(callSteer(manager, "t", "x"));
  assert.equal(error.kind, "outcomeUnknown");
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect", "turn/steer"]);
});

test("newTurn: reading the follow-ups and startTurn share one steer bound (hanging loadMessages and readMessages cannot stretch it)", async () => {
  const manager = new RequestManager(answers("newTurn"));
  const never = () => new Promise(() => {});
  manager.coordinator.loadMessages = never;
  manager.coordinator.readMessages = never;
  api.installDesktopSteering(manager, { timeouts: { steerMs: 150 } });
  const input = [{ type: "text", text: "x" }];
  const started = performance.now();
  const { error } = await settle(manager.steerTurn("t", input, { id: "r", context: {} }, "fast"));
  const elapsed = performance.now() - started;
  assert.equal(error.kind, "timeout");
  assert.equal(error.draft, input, "the draft by identity");
  // One bound: about 150 ms. Each read on its own bound took 300 ms or more before.
  assert.ok(elapsed >= 140 && elapsed < 280, `settled after ${elapsed.toFixed(0)} ms`);
  assert.equal(manager.started.length, 0, "startTurn is not called once the bound is used up");
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect"], "nothing but the inspect was sent");
});

test("newTurn: resuming the follow-ups does not delay the result (a mutate that never settles)", async () => {
  const manager = new RequestManager(answers("newTurn"), { queue: [], pauseOnSteer: "new" });
  let mutated = 0;
  manager.coordinator.mutate = () => {
    mutated += 1;
    return new Promise(() => {});
  };
  api.installDesktopSteering(manager, { timeouts: { steerMs: 400 } });
  const started = performance.now();
  const result = await callSteer(manager, "t", "start over");
  const elapsed = performance.now() - started;
  assert.equal(result.turn.id, "turn-2");
  assert.equal(mutated, 1, "mutate was called before the result came back");
  assert.ok(elapsed < 200, `resolved after ${elapsed.toFixed(0)} ms (the mutate's own bound is 400 ms)`);
});

test("a manager whose steerTurn or sendRequest is an own property (bound in its constructor) is refused with a clear error, not silently left unhooked", () => {
  const manager = new RequestManager(answers("activeTurn"));
  manager.steerTurn = manager.steerTurn.bind(manager);
  assert.throws(() => api.installDesktopSteering(manager), /steerTurn is an own property of the request manager/);
  assert.equal(Object.getPrototypeOf(manager), RequestManager.prototype, "nothing was changed");
  const literal = { steerTurn() {}, sendRequest() {}, startTurn() {}, getTurnCoordinator() {} };
  assert.throws(() => api.installDesktopSteering(literal), /steerTurn and sendRequest are own properties/);
});
