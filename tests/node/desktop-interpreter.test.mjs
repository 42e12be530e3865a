// The desktop hook's JavaScript carries out what its engine asks, and the
// details it owns are pinned here through the packed package: what it logs
// and with which error, the copies of a rejection handed to steers that
// joined one, and the callbacks it leaves alone when none was given.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { callSteer, RequestManager, settle, text } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const PAUSED = "Interrupted before the steer was accepted.";
const newTurn = { "codexhost/thread/steering/inspect": { delivery: "newTurn" }, "turn/steer": { turnId: "turn-2" }, "turn/start": { turn: { id: "turn-3" } } };

/** Runs `body` with console.error captured: what it was called with, argument lists. */
async function logged(body) {
  const calls = [];
  const original = console.error;
  console.error = (...args) => calls.push(args);
  try {
    await body();
  } finally {
    console.error = original;
  }
  return calls;
}

/** A desktop whose inspect is held: its promise is made with `executor`, the rest answered as usual. */
function heldInspect(executor) {
  class Held extends RequestManager {
    sendRequest(method, params, options) {
      if (method !== "codexhost/thread/steering/inspect") return super.sendRequest(method, params, options);
      this.sent.push({ method, params, options });
      return new Promise(executor);
    }
  }
  return new Held({});
}

test("a mutate that rejects is logged with the very error it rejected with, and the steer still resolves", async () => {
  const manager = new RequestManager(newTurn, { pauseOnSteer: "new" });
  const failure = new Error("the queue is locked");
  manager.coordinator.mutate = async () => {
    throw failure;
  };
  const hook = api.installDesktopSteering(manager);
  let result;
  const calls = await logged(async () => {
    result = await callSteer(manager, "t", "start over");
    await new Promise((r) => setTimeout(r, 5));
  });
  assert.ok(result.turn?.id, "the new turn is started");
  const resumed = calls.filter((args) => args.some((a) => typeof a === "string" && a.includes("could not resume follow-ups")));
  assert.equal(resumed.length, 1, `logged: ${JSON.stringify(calls.map((a) => String(a[0])))}`);
  assert.ok(resumed[0].includes(failure), "the rejection itself is logged, not a stand-in");
  assert.equal(manager.queue.at(-1).pauseReason, PAUSED, "nothing was resumed");
  hook.dispose();
});

test("a delivery the host reconciled, with no onReconcile given, logs nothing", async () => {
  const manager = new RequestManager({ "codexhost/thread/steering/inspect": { delivery: "activeTurn" }, "turn/steer": { turnId: "turn-2", delivery: "newTurn" } });
  const hook = api.installDesktopSteering(manager);
  let result;
  const calls = await logged(async () => {
    result = await callSteer(manager, "t", "use pnpm", { messageId: "m-1" });
    await new Promise((r) => setTimeout(r, 5));
  });
  assert.deepEqual(result, { turnId: "turn-2", delivery: "newTurn" });
  assert.deepEqual(calls, [], "no callback, nothing to report");
  hook.dispose();
});

test("steers that joined one whose decision failed each get their own error, with their own draft", async () => {
  let rejectInspect;
  // The inspect never answers until the test says: both steers are in flight by then.
  const manager = heldInspect((_, reject) => (rejectInspect = reject));
  const hook = api.installDesktopSteering(manager);
  const first = text("use pnpm");
  const second = text("use pnpm"); // the same steer sent twice (a double click): a draft of its own
  const restore = { id: "r", context: {}, cwd: "/repo" };
  const a = settle(manager.steerTurn("t", first, restore, "fast", undefined, "m-1", {}, null));
  const b = settle(manager.steerTurn("t", second, restore, "fast", undefined, "m-1", {}, null));
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(manager.sent.filter((s) => s.method === "codexhost/thread/steering/inspect").length, 1, "one decision for both");
  rejectInspect({ code: -32000, message: "inspect failed" });
  const [{ error: ea }, { error: eb }] = await Promise.all([a, b]);
  assert.ok(ea instanceof api.SteeringError && eb instanceof api.SteeringError);
  assert.equal(ea.kind, eb.kind);
  assert.equal(ea.message, eb.message);
  assert.notEqual(ea, eb, "each steer its own error object");
  assert.equal(ea.draft, first, "the first steer's draft, by identity");
  assert.equal(eb.draft, second, "the joined steer's draft, by identity");
  for (const error of [ea, eb]) {
    const { writable, enumerable, configurable } = Object.getOwnPropertyDescriptor(error, "draft");
    assert.deepEqual({ writable, enumerable, configurable }, { writable: true, enumerable: true, configurable: true }, "a plain own field");
  }
  hook.dispose();
});

test("an id as long as the module's bound is an id, and one unit longer is none: same-id steers join only within it", async () => {
  for (const [units, joins] of [[4096, true], [4097, false]]) {
    const manager = heldInspect(() => {});
    const hook = api.installDesktopSteering(manager);
    const messageId = "m".repeat(units);
    const a = settle(manager.steerTurn("t", text("use pnpm"), { id: "r", context: {} }, "fast", undefined, messageId, {}, null));
    let second;
    const b = settle(manager.steerTurn("t", text("use pnpm"), { id: "r2", context: {} }, "fast", undefined, messageId, {}, null));
    b.then((settled) => (second = settled));
    await new Promise((r) => setTimeout(r, 5));
    if (joins) assert.equal(second, undefined, `${units} units: the same message joins the one in flight`);
    else assert.equal(second?.error?.kind, "busy", `${units} units: no id, so not the same submission`);
    hook.dispose();
    await Promise.all([a, b]);
  }
});

test("the hook marks its layer under the name every copy of the package shares, and its dispose method is a plain one", () => {
  const manager = new RequestManager({});
  const hook = api.installDesktopSteering(manager);
  let layer = manager;
  while (layer && !Object.getOwnPropertySymbols(layer).includes(Symbol.for("renderer-steering.desktop-hook"))) layer = Object.getPrototypeOf(layer);
  assert.ok(layer, "the mark is found by its registered name");
  const disposer = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(hook), Symbol.dispose);
  assert.deepEqual({ writable: disposer.writable, configurable: disposer.configurable }, { writable: true, configurable: true });
  hook.dispose();
});

test("an onReconcile that returns is not reported as one that threw", async () => {
  const told = [];
  const manager = new RequestManager({ "codexhost/thread/steering/inspect": { delivery: "activeTurn" }, "turn/steer": { turnId: "turn-2", delivery: "newTurn" } });
  const hook = api.installDesktopSteering(manager, { onReconcile: (r) => told.push(r.delivery) });
  const calls = await logged(async () => {
    await callSteer(manager, "t", "use pnpm", { messageId: "m-1" });
    await new Promise((r) => setTimeout(r, 5));
  });
  assert.deepEqual(told, ["newTurn"]);
  assert.deepEqual(calls, []);
  hook.dispose();
});

test("the host's own rejection of the desktop's steer reaches the caller as that very value, untouched", async () => {
  const refusal = { code: -32000, message: "no active turn" };
  const manager = new RequestManager({ "codexhost/thread/steering/inspect": { delivery: "activeTurn" }, "turn/steer": () => Promise.reject(refusal) });
  const hook = api.installDesktopSteering(manager);
  const { error } = await settle(callSteer(manager, "t", "use pnpm", { messageId: "m-1" }));
  assert.equal(error, refusal, "the desktop's rejection, by identity");
  assert.deepEqual(Object.keys(error), ["code", "message"], "nothing added to it");
  hook.dispose();
});

test("mutate handing the resume function no array gets it back as it was, and nothing is logged", async () => {
  const manager = new RequestManager(newTurn, { pauseOnSteer: "new" });
  const handed = { not: "an array" };
  let returned;
  manager.coordinator.mutate = async (_threadId, fn) => {
    returned = fn(handed);
  };
  const hook = api.installDesktopSteering(manager);
  const calls = await logged(async () => {
    await callSteer(manager, "t", "start over");
    await new Promise((r) => setTimeout(r, 5));
  });
  assert.equal(returned, handed);
  assert.deepEqual(calls, []);
  hook.dispose();
});

test("a follow-up queue that throws when read is logged, and the steer still starts its turn", async () => {
  const manager = new RequestManager(newTurn);
  const failure = new Error("the queue is gone");
  manager.coordinator.readMessages = () => new Proxy([], { get: (t, k) => (k === "length" ? (() => { throw failure; })() : Reflect.get(t, k)) });
  const hook = api.installDesktopSteering(manager);
  let result;
  const calls = await logged(async () => {
    result = await callSteer(manager, "t", "start over");
  });
  assert.ok(result.turn?.id, "the new turn is started");
  const read = calls.filter((args) => args.some((a) => typeof a === "string" && a.includes("could not read the follow-up messages")));
  assert.equal(read.length, 1, `logged: ${JSON.stringify(calls.map((a) => String(a[0])))}`);
  assert.ok(read[0].includes(failure));
  hook.dispose();
});
