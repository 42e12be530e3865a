// A method reached with a `this` that is not the instance the constructor
// made: a Proxy of it (Vue's reactive(), MobX), another class's instance, a
// forged object. The classes (js/api/instances.js) find the engine behind
// `this`, or refuse: never another engine's state, and free() never throws. The packed package in Node; cases that
// could stop the module run in a child process each.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { packAndInstall } from "./pack.mjs";

let api;
let entry;
before(async () => {
  entry = packAndInstall().entry;
  api = await import(entry);
  await api.init();
});

const input = () => [{ type: "text", text: "use pnpm" }];
const host = (m) =>
  m === "codexhost/thread/steering/inspect" ? Promise.resolve({ delivery: "activeTurn" }) : Promise.resolve({ turnId: "turn-1" });

/** Runs `misuse` in a fresh process, then a normal steer on a new engine. */
function inChild(misuse) {
  const src = `
    const api = await import(${JSON.stringify(entry)}); await api.init();
    const input = () => [{ type: "text", text: "use pnpm" }];
    const host = ${host.toString()};
    const acp = new api.AcpSteering({ request: () => new Promise(() => {}) });
    const codex = new api.CodexhostSteering({ request: host });
    let misuse;
    try {
      const r = (${misuse})();
      misuse = r instanceof Promise ? await r.then(() => "resolved", (e) => "rejected " + e.kind) : "returned";
    } catch (e) { misuse = "threw " + (e.kind ?? e.message); }
    const fresh = new api.CodexhostSteering({ request: host });
    const r = await fresh.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() });
    console.log(JSON.stringify({ misuse, turnId: r.turnId }));
  `;
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", src], { encoding: "utf8", timeout: 30_000 });
  assert.equal(out.status, 0, out.stderr.slice(0, 1500));
  return JSON.parse(out.stdout.trim().split("\n").pop());
}

for (const [name, misuse, expected] of [
  ["CodexhostSteering.prototype.steer on an AcpSteering", `() => api.CodexhostSteering.prototype.steer.call(acp, { threadId: "t", input: input() })`, "rejected invalidInput"],
  ["CodexhostSteering.prototype.free on an AcpSteering", `() => api.CodexhostSteering.prototype.free.call(acp)`, "returned"],
  ["AcpSteering.prototype.send on a CodexhostSteering", `() => api.AcpSteering.prototype.send.call(codex, "s", input())`, "rejected invalidInput"],
  ["AcpSteering.prototype.inputMode on a CodexhostSteering", `() => api.AcpSteering.prototype.inputMode.call(codex, "s")`, "threw invalidInput"],
  ["a forged object with a pointer", `() => api.CodexhostSteering.prototype.steer.call({ __wbg_ptr: 8 }, { threadId: "t", input: input() })`, "rejected invalidInput"],
]) {
  test(`${name}: refused, and the module keeps working`, () => {
    const result = inChild(misuse);
    assert.equal(result.misuse, expected);
    assert.equal(result.turnId, "turn-1");
  });
}

test("steered through a Proxy of the instance (a reactive wrapper): it works", async () => {
  const reactive = new Proxy(new api.CodexhostSteering({ request: host }), {});
  const outcome = await reactive.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() });
  assert.equal(outcome.turnId, "turn-1");
  reactive.free();
});

for (const [freedThrough, usedThrough] of [["proxy", "raw"], ["raw", "proxy"]]) {
  test(`freed through the ${freedThrough}, steered through the ${usedThrough}: rejects disposed with the draft`, async () => {
    const raw = new api.CodexhostSteering({ request: host });
    const both = { raw, proxy: new Proxy(raw, {}) };
    both[freedThrough].free();
    const draft = input();
    let promise;
    assert.doesNotThrow(() => (promise = both[usedThrough].steer({ threadId: "t", expectedTurnId: "turn-1", input: draft })));
    const error = await promise.then(() => assert.fail("resolved"), (e) => e);
    assert.ok(api.isSteeringError(error, "disposed"), String(error));
    assert.equal(error.draft, draft);
    assert.doesNotThrow(() => both[usedThrough].free(), "a second free is a no-op");
  });
}

test("free() of the raw instance from the transport, during a steer made through a Proxy, does not throw", async () => {
  let raw;
  let freeThrew;
  raw = new api.CodexhostSteering({
    request: (m, p) => {
      if (m === "codexhost/thread/steering/inspect") {
        try {
          raw.free();
        } catch (e) {
          freeThrew = e;
        }
      }
      return host(m, p);
    },
  });
  const draft = input();
  const error = await new Proxy(raw, {}).steer({ threadId: "t", expectedTurnId: "turn-1", input: draft }).then(() => null, (e) => e);
  assert.equal(freeThrew, undefined, `free() threw: ${freeThrew?.message}`);
  assert.ok(api.isSteeringError(error), String(error));
  assert.equal(error.draft, draft);
});

test("every method called on something that is not an instance is refused naming its class and itself; the async ones reject", async () => {
  const methods = {
    AcpSteering: { async: ["send", "revoke", "replace", "recover"], sync: ["initialized", "promptSent", "cancelSent", "promptAnswered", "update", "sessionIdle", "sessionReplaced", "sessionClosed", "connectionClosed", "inputMode", "queued", "forget", "onChange", "liveState"] },
    CodexhostSteering: { async: ["decide", "steer", "recover"], sync: ["forget", "connectionReplaced", "liveState"] },
  };
  const named = (Class, name) => (e) => api.isSteeringError(e, "invalidInput") && e.message === `${Class}.${name} was called on something that is not a live ${Class}`;
  for (const [Class, { async, sync }] of Object.entries(methods)) {
    for (const name of async) {
      let promise;
      assert.doesNotThrow(() => (promise = api[Class].prototype[name].call({}, "s", "m", input())), `${Class}.${name} throws`);
      await assert.rejects(promise, named(Class, name));
    }
    for (const name of sync) assert.throws(() => api[Class].prototype[name].call({}, "s"), named(Class, name));
    assert.doesNotThrow(() => api[Class].prototype.dispose.call({}), `${Class}.dispose on no instance is a no-op`);
  }
});

test("free and Symbol.dispose are ordinary methods: writable, configurable, not enumerable", () => {
  for (const Class of [api.AcpSteering, api.CodexhostSteering]) {
    const keys = typeof Symbol.dispose === "symbol" ? ["free", Symbol.dispose] : ["free"];
    for (const key of keys) {
      const d = Object.getOwnPropertyDescriptor(Class.prototype, key);
      assert.deepEqual([typeof d.value, d.writable, d.configurable, d.enumerable], ["function", true, true, false], `${Class.name} ${String(key)}`);
    }
  }
});
