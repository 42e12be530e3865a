// The desktop hook's pass-through paths and failures: a window that becomes
// a follower, a manager that cannot take the hook or overrides its wrappers,
// the desktop's own calls that throw or fail, the follow-up queue when it
// cannot be read, and the words a desktop failure is reported with. The
// packed package in Node, against the fake request manager.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { answers, callSteer, methods, RequestManager, settle, text } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});


test("a window that becomes a follower while the inspect is out sends the desktop's own steer untagged, its result untouched, and frees the thread once it settles", async () => {
  const manager = new RequestManager(answers("activeTurn"));
  api.installDesktopSteering(manager);
  let role = "owner";
  manager.getStreamRole = () => {
    const now = role;
    role = "follower"; // read again once the inspect answered
    return { role: now };
  };
  const { value } = await settle(callSteer(manager, "t", "x"));
  assert.deepEqual(value, { turnId: "turn-2" }, "the desktop's own result");
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect", "turn/steer"]);
  assert.equal("codexhostSteerDelivery" in manager.sent[1].params, false, "a follower's steer is not tagged");
  manager.getStreamRole = () => ({ role: "owner" });
  const next = await settle(callSteer(manager, "t", "another message"));
  assert.equal(next.error, undefined, "not busy: the follower's steer settled");
  assert.equal(manager.sent.at(-1).params.codexhostSteerDelivery, "activeTurn");
});

test("a window that becomes a follower while the inspect is out: a desktop steerTurn that throws rejects the steer with that very error, and the thread is free", async () => {
  const broke = new RangeError("desktop broke");
  let throwing = true;
  class Manager extends RequestManager {
    steerTurn(...args) {
      if (throwing) throw broke;
      return super.steerTurn(...args);
    }
  }
  const manager = new Manager(answers("activeTurn"));
  api.installDesktopSteering(manager);
  let role = "owner";
  manager.getStreamRole = () => {
    const now = role;
    role = "follower";
    return { role: now };
  };
  const { error } = await settle(callSteer(manager, "t", "x"));
  assert.equal(error, broke);
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect"]);
  throwing = false;
  manager.getStreamRole = () => ({ role: "owner" });
  const next = await settle(callSteer(manager, "t", "another message"));
  assert.deepEqual(next.value, { turnId: "turn-2" }, "not busy");
});

test("a manager that cannot take the hook is refused with why, and left as it was", () => {
  const frozen = Object.preventExtensions(new RequestManager(answers("official")));
  assert.throws(() => api.installDesktopSteering(frozen), { message: "the request manager cannot take the hook (it is frozen or not extensible)" });
  assert.equal(Object.getPrototypeOf(frozen), RequestManager.prototype);
  const refusing = new Proxy(new RequestManager(answers("official")), {
    setPrototypeOf() {
      throw new TypeError("no prototype changes here");
    },
  });
  assert.throws(() => api.installDesktopSteering(refusing), { message: "the request manager refused the hook: no prototype changes here" });
  // Refused, the hook left nothing behind: a plain manager still takes one.
  assert.notEqual(api.installDesktopSteering(new RequestManager(answers("official"))), null);
});

test("the hook's wrappers can be overridden on the instance afterwards (an app's own spy or patch)", async () => {
  const manager = new RequestManager(answers("official"));
  const hook = api.installDesktopSteering(manager);
  const calls = [];
  manager.sendRequest = function (...args) {
    calls.push(args[0]);
    return Object.getPrototypeOf(manager).sendRequest.apply(this, args);
  };
  const params = { x: 1 };
  await settle(manager.sendRequest("thread/list", params));
  assert.deepEqual(calls, ["thread/list"]);
  assert.equal(manager.sent[0].params, params);
  delete manager.sendRequest;
  hook.dispose();
  assert.equal(Object.getPrototypeOf(manager), RequestManager.prototype);
});

test("activeTurn: a desktop steerTurn that throws at once rejects the steer with that very error, and dispose() then restores the chain at once", async () => {
  for (const delivery of ["activeTurn", "official"]) {
    const broke = new RangeError("desktop broke");
    class Manager extends RequestManager {
      steerTurn() {
        throw broke;
      }
    }
    const manager = new Manager(answers(delivery));
    const hook = api.installDesktopSteering(manager);
    const { error } = await settle(callSteer(manager, "t", "x"));
    assert.equal(error, broke, delivery);
    hook.dispose();
    assert.equal(Object.getPrototypeOf(manager), Manager.prototype, `${delivery}: nothing of this steer can leave any more`);
  }
});

test("a follow-up queue that throws when read as a list is left unread: the newTurn still goes, nothing is resumed", async () => {
  const manager = new RequestManager(answers("newTurn"), { pauseOnSteer: "new" });
  manager.coordinator.readMessages = () => new Proxy([], { get(target, key) { if (key === "length") throw new Error("unreadable"); return Reflect.get(target, key); } });
  let mutated = 0;
  manager.coordinator.mutate = async () => { mutated += 1; };
  api.installDesktopSteering(manager);
  const { value } = await settle(callSteer(manager, "t", "x"));
  assert.deepEqual(value, { turn: { id: "turn-2", status: "inProgress", items: [], error: null } });
  assert.equal(mutated, 0, "none is resumed");
});

test("resuming follow-ups whose queue cannot be read as a list hands the desktop back its own queue, unchanged", async () => {
  const manager = new RequestManager(answers("newTurn"), { pauseOnSteer: "new" });
  const hostile = new Proxy([], { get(target, key) { if (key === "length") throw new Error("unreadable"); return Reflect.get(target, key); } });
  const handedBack = [];
  manager.coordinator.mutate = async (_threadId, fn) => { handedBack.push(fn(hostile)); };
  api.installDesktopSteering(manager);
  await callSteer(manager, "t", "x");
  for (let i = 0; i < 100 && handedBack.length === 0; i++) await new Promise((r) => setTimeout(r, 1));
  assert.equal(handedBack.length, 1);
  assert.equal(handedBack[0], hostile);
});

test("a desktop failure's words reach the steer's message: an Error's or object's string message, a string (cut at 1000 characters), else generic words", async () => {
  const cases = [
    [new Error("disk full"), "disk full"],
    ["quota exceeded", "quota exceeded"],
    [{ message: "plain object" }, "plain object"],
    ["w".repeat(3000), "w".repeat(1000)],
    [new Error("m".repeat(3000)), "m".repeat(1000)],
    [{ message: ["not", "a", "string"] }, "a value that cannot be described"],
    [new Proxy({}, { get() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); } }), "a value that cannot be described"],
  ];
  for (const [thrown, words] of cases) {
    class Manager extends RequestManager {
      startTurn() {
        throw thrown;
      }
    }
    const manager = new Manager(answers("newTurn"));
    api.installDesktopSteering(manager);
    const { error } = await settle(callSteer(manager, "t", "x"));
    assert.equal(error.kind, "transport");
    assert.ok(error.message.endsWith(`: ${words}`), error.message.slice(0, 200));
  }
});

for (const method of ["turn/start", "turn/steer"]) {
  test(`newTurn: a desktop sendRequest that throws at once for the ${method} fails the steer as not sent (transport, with the draft, the id and the words)`, async () => {
    const broke = new Error("socket closed");
    class Manager extends RequestManager {
      sendRequest(name, ...rest) {
        if (name === method) throw broke;
        return super.sendRequest(name, ...rest);
      }
    }
    const manager = new Manager(answers("newTurn"));
    if (method === "turn/start") manager.coordinator.options.submissionHost = { getActiveTurnId: () => null, hasPendingTurnStart: () => false };
    api.installDesktopSteering(manager);
    const input = text("x");
    const { error } = await settle(manager.steerTurn("t", input, { id: "r", context: {} }, "fast", [], "m-1"));
    assert.equal(error?.kind, "transport");
    assert.ok(error.message.endsWith(": socket closed"), error.message);
    assert.equal(error.draft, input);
    assert.equal(error.clientUserMessageId, "m-1");
    // Nothing left: the same message can be sent again.
    const again = await settle(manager.steerTurn("t", input, { id: "r", context: {} }, "fast", [], "m-1"));
    assert.equal(again.error?.kind, "transport");
  });
}

test("the handle's Symbol.dispose disposes the hook: the chain is restored", () => {
  const manager = new RequestManager(answers("official"));
  const hook = api.installDesktopSteering(manager);
  assert.notEqual(Object.getPrototypeOf(manager), RequestManager.prototype);
  hook[Symbol.dispose]();
  assert.equal(Object.getPrototypeOf(manager), RequestManager.prototype);
});

test("the follow-up queue is loaded and read for the steer's own thread; without loadMessages it is read directly and still resumed", async () => {
  const PAUSED = "Interrupted before the steer was accepted.";
  const manager = new RequestManager(answers("newTurn"), { pauseOnSteer: "new" });
  const asked = [];
  const { loadMessages, readMessages } = manager.coordinator;
  manager.coordinator.loadMessages = (...a) => (asked.push(["loadMessages", ...a]), loadMessages(...a));
  manager.coordinator.readMessages = (...a) => (asked.push(["readMessages", ...a]), readMessages(...a));
  api.installDesktopSteering(manager);
  await callSteer(manager, "t-3", "x");
  assert.deepEqual(asked, [["loadMessages", "t-3"], ["readMessages", "t-3"]]);
  const direct = new RequestManager(answers("newTurn"), { queue: [{ id: "before", pauseReason: PAUSED }], pauseOnSteer: "new" });
  delete direct.coordinator.loadMessages;
  api.installDesktopSteering(direct);
  await callSteer(direct, "t", "x");
  for (let i = 0; i < 100 && direct.mutations === 0; i++) await new Promise((r) => setTimeout(r, 1));
  assert.deepEqual(direct.queue.map((m) => [m.id, m.pauseReason]), [["before", PAUSED], ["new", null]]);
});

test("a startTurn that fails before anything left (throws or rejects) fails the steer at once as transport, and the message can be started again", async () => {
  for (const how of ["throws", "rejects"]) {
    class Manager extends RequestManager {
      startTurn(...a) {
        this.started.push(a);
        if (how === "throws") throw new Error("no connection");
        return Promise.reject(new Error("no connection"));
      }
    }
    const manager = new Manager(answers("newTurn"));
    api.installDesktopSteering(manager, { timeouts: { steerMs: 5000 } });
    const t0 = performance.now();
    const { error } = await settle(callSteer(manager, "t", "x", { messageId: "m-1" }));
    assert.equal(error?.kind, "transport", how);
    assert.equal(error.message, "startTurn failed in transport: no connection", how);
    assert.ok(performance.now() - t0 < 2500, `${how}: not held to the bound`);
    const again = await settle(callSteer(manager, "t", "x", { messageId: "m-1" }));
    assert.equal(again.error?.kind, "transport", `${how}: tried again, not refused`);
    assert.equal(manager.started.length, 2, how);
    assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect", "codexhost/thread/steering/inspect"], how);
  }
});

test("a follow-up queue that is not a list is unread: the newTurn goes, and the queue is never mutated", async () => {
  for (const queue of [{}, "queue", null]) {
    const manager = new RequestManager(answers("newTurn"), { pauseOnSteer: "new" });
    manager.coordinator.readMessages = () => queue;
    api.installDesktopSteering(manager);
    const { value } = await settle(callSteer(manager, "t", "x"));
    assert.equal(value?.turn?.id, "turn-2", String(queue));
    await new Promise((r) => setTimeout(r, 5));
    assert.equal(manager.mutations, 0, String(queue));
  }
});

test("a rewritten turn/steer answered without a usable turnId (missing, empty, not a string) is outcomeUnknown, never a turn", async () => {
  for (const answer of [{}, { turnId: "" }, { turnId: 42 }]) {
    const manager = new RequestManager({ ...answers("newTurn"), "turn/steer": answer });
    api.installDesktopSteering(manager);
    const { value, error } = await settle(callSteer(manager, "t", "x", { messageId: "m-1" }));
    assert.equal(value, undefined, JSON.stringify(answer));
    assert.equal(error?.kind, "outcomeUnknown", JSON.stringify(answer));
    assert.equal(error.clientUserMessageId, "m-1");
  }
});

test("activeTurn: steer params that cannot be copied to carry the delivery tag fail the desktop's sendRequest, read as outcomeUnknown with its words; nothing leaves untagged", async () => {
  const trap = new TypeError("params cannot be listed");
  class Manager extends RequestManager {
    steerTurn(threadId, input, restoreMessage, tier, attachments, clientUserMessageId) {
      const params = new Proxy({ threadId, expectedTurnId: "turn-1", input, clientUserMessageId }, {
        ownKeys() {
          throw trap;
        },
      });
      return this.sendRequest("turn/steer", params, { caller: "steerTurn" });
    }
  }
  const manager = new Manager(answers("activeTurn"));
  const hook = api.installDesktopSteering(manager);
  const { error } = await settle(callSteer(manager, "t", "use pnpm", { messageId: "m-1" }));
  assert.equal(error.kind, "outcomeUnknown", "a sendRequest that throws may have written first: never a plain failure");
  assert.match(error.message, /params cannot be listed/);
  assert.equal(error.clientUserMessageId, "m-1");
  assert.deepEqual(manager.sent.map((s) => s.method), ["codexhost/thread/steering/inspect"], "no turn/steer left without its tag");
  hook.dispose();
});
