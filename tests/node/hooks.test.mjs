// The UI hooks of a steer run from the call record (`js/driver/front-door.js`
// `callHook`): each with its arguments, `reconcile(from, to)` when the host
// delivered elsewhere than shown (else `retract()` then `present(to)`),
// `requestOptions` and the steer's optional context only with the request
// that carries the message, and a throwing hook changes nothing. The packed
// package in Node.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const input = () => [{ type: "text", text: "use pnpm" }];

/** A host that says "activeTurn" and then delivers as a new turn. */
function movingHost(calls) {
  return (method, params, options) => {
    calls.push({ method, options, arity: arguments.length });
    if (method === "codexhost/thread/steering/inspect") return Promise.resolve({ delivery: "activeTurn" });
    return Promise.resolve({ turnId: "turn-2", delivery: "newTurn" });
  };
}

test("reconcile(from, to) runs with both presentations when the host delivered elsewhere", async () => {
  const seen = [];
  const steering = new api.CodexhostSteering({ request: movingHost([]) });
  const result = await steering.steer(
    { threadId: "t", expectedTurnId: "turn-1", input: input() },
    { present: (d) => seen.push(["present", d]), retract: (...a) => seen.push(["retract", ...a]), reconcile: (from, to) => seen.push(["reconcile", from, to]) },
  );
  assert.equal(result.delivery, "newTurn");
  assert.deepEqual(seen, [["present", "activeTurn"], ["reconcile", "activeTurn", "newTurn"]]);
  steering.free();
});

test("without reconcile, the optimistic message is retracted and shown where it went", async () => {
  const seen = [];
  const steering = new api.CodexhostSteering({ request: movingHost([]) });
  await steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() }, { present: (d) => seen.push(["present", d]), retract: (...a) => seen.push(["retract", ...a]) });
  assert.deepEqual(seen, [["present", "activeTurn"], ["retract"], ["present", "newTurn"]]);
  steering.free();
});

test("throwing hooks are reported and change nothing; hooks that are not functions are no hooks", async () => {
  const errors = [];
  const original = console.error;
  console.error = (...args) => errors.push(args);
  try {
    const steering = new api.CodexhostSteering({ request: movingHost([]) });
    const boom = () => {
      throw new Error("ui broke");
    };
    const result = await steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() }, { present: boom, retract: "no", reconcile: boom });
    assert.equal(result.turnId, "turn-2");
    assert.equal(errors.length, 2, "present and reconcile threw, each reported once");
    assert.match(String(errors[0][0]), /presentation hook threw/);
    steering.free();
  } finally {
    console.error = original;
  }
});

test("requestOptions go with turn/steer only, by identity; without them request gets two arguments", async () => {
  const requestOptions = { signal: new AbortController().signal, timeoutMs: 5000 };
  const calls = [];
  const steering = new api.CodexhostSteering({ request: function (method, params, options) { calls.push({ method, options, arity: arguments.length }); return movingHost([])(method, params); } });
  await steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: input(), requestOptions });
  assert.deepEqual(calls.map((c) => [c.method, c.arity]), [["codexhost/thread/steering/inspect", 2], ["turn/steer", 3]]);
  assert.equal(calls[1].options, requestOptions);
  calls.length = 0;
  await steering.steer({ threadId: "t2", expectedTurnId: "turn-1", input: input() });
  assert.deepEqual(calls.map((c) => c.arity), [2, 2]);
  steering.free();
});

test("additionalContext and responsesapiClientMetadata go with turn/steer as given, and only when given", async () => {
  const params = [];
  const steering = new api.CodexhostSteering({ request: (method, p) => (params.push([method, p]), movingHost([])(method, p)) });
  const additionalContext = { files: ["a.ts"], depth: [1, { two: 2 }] };
  const responsesapiClientMetadata = { origin: "composer" };
  await steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: input(), additionalContext, responsesapiClientMetadata });
  const [, steer] = params.find(([m]) => m === "turn/steer");
  assert.deepEqual([steer.additionalContext, steer.responsesapiClientMetadata], [additionalContext, responsesapiClientMetadata]);
  params.length = 0;
  await steering.steer({ threadId: "t2", expectedTurnId: "turn-1", input: input() });
  const [, plain] = params.find(([m]) => m === "turn/steer");
  assert.deepEqual(["additionalContext", "responsesapiClientMetadata"].filter((k) => k in plain), []);
  steering.free();
});

// AcpSteering.send reads `hooks.unconfirmed` before the engine takes the
// message: a getter there that calls back into the engine runs while
// nothing is submitted, so the send still settles with its draft.
for (const what of ["dispose", "connectionClosed", "sessionReplaced", "free"]) {
  test(`an ACP hooks.unconfirmed getter calling ${what}() still settles the send with its draft`, async () => {
    const request = (m) => (m === "_session/steering" ? Promise.resolve({ outcome: "injected" }) : Promise.reject({ code: -32601, message: "no" }));
    const acp = new api.AcpSteering({ request, initialize: { _meta: { steering: { supported: true } } }, timeouts: { requestMs: 300 } });
    acp.promptSent("s");
    const draft = input();
    const hooks = {
      get unconfirmed() {
        if (what === "free") acp.free();
        else acp[what]("s");
        return () => {};
      },
    };
    const pending = new Promise((r) => setTimeout(() => r("still pending"), 2000));
    const settled = await Promise.race([acp.send("s", draft, hooks).then((v) => ({ v }), (e) => ({ e })), pending]);
    assert.notEqual(settled, "still pending", "the send never settled: the draft is lost");
    assert.ok(api.isSteeringError(settled.e), String(settled.e));
    assert.equal(settled.e.draft, draft);
    acp.free();
  });
}
