// The one engine driver (js/driver/engine.js), as the package ships it:
// a freed engine refuses every step, an answer that comes after it is freed
// is dropped, each answer is handed back with the thread's stream role as
// it is then, what the engine reports as changed reaches `onChange`, a
// submission the engine does not take rejects at once, what a connection
// lacks is asked again after connectionReplaced(), and an engine the app
// let go of stays until the last promise it owes settles.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { shippedModules } from "./pack.mjs";

let api;
let engineOf;
let LIMITS;
before(async () => {
  [api, { engineOf }, { LIMITS }] = await shippedModules("node.js", "api/codexhost.js", "driver/limits.js");
  await api.init();
});

const input = () => [{ type: "text", text: "use pnpm" }];
const steerArgs = (threadId) => ({ threadId, expectedTurnId: "turn-1", input: input() });
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A promise with its resolve function. */
function deferred() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

/** A host that delivers into the active turn, each answer coming when `answers` says. */
function host(answers = {}) {
  const calls = [];
  const request = (method) => {
    calls.push(method);
    if (answers[method]) return answers[method]();
    if (method === "codexhost/thread/steering/inspect") return Promise.resolve({ delivery: "activeTurn" });
    if (method === "turn/steer") return Promise.resolve({ turnId: "turn-1" });
    return Promise.reject({ code: -32601, message: "Method not found" });
  };
  return { request, calls };
}

test("a freed engine refuses every step as disposed, without asking the module", () => {
  const steering = new api.CodexhostSteering({ request: host().request });
  const engine = engineOf(steering);
  engine.close();
  const out = engine.run({ do: "liveState" });
  assert.equal(out.value, undefined);
  assert.equal(out.error.kind, "disposed");
  assert.equal(out.error.message, "disposed");
});

test("each answer is handed back with the thread's stream role as the app says it then", async () => {
  const asked = [];
  const { request, calls } = host();
  const steering = new api.CodexhostSteering({ request, streamRole: (threadId) => (asked.push(threadId), "owner") });
  await steering.steer(steerArgs("t"));
  assert.deepEqual(calls, ["codexhost/thread/steering/inspect", "turn/steer"]);
  assert.deepEqual(asked, ["t", "t", "t"], "once at the steer, once per answer");
  steering.free();
});

test("a steer refused before it is taken asks no stream role: a thread id that is no string, a draft that is no array, a field past its budget", async () => {
  const asked = [];
  const steering = new api.CodexhostSteering({ request: host().request, streamRole: (threadId) => (asked.push(threadId), "owner") });
  const pastBudget = "x".repeat(30_000);
  for (const args of [{ ...steerArgs("t"), threadId: 7 }, { ...steerArgs("t"), input: "use pnpm" }, { ...steerArgs("t"), clientUserMessageId: pastBudget }]) {
    const error = await steering.steer(args).then(() => assert.fail("resolved"), (e) => e);
    assert.equal(error.kind, "invalidInput", error.message);
  }
  assert.deepEqual(asked, []);
  steering.free();
});

test("liveState() counts what a steer holds while it is out, and is 0 once it settles", async () => {
  const inspect = deferred();
  const steering = new api.CodexhostSteering({ request: host({ "codexhost/thread/steering/inspect": () => inspect.promise }).request });
  assert.equal(steering.liveState(), 0);
  const steered = steering.steer(steerArgs("t"));
  assert.ok(steering.liveState() > 0, "the steer, its lane and its request are held");
  inspect.resolve({ delivery: "activeTurn" });
  await steered;
  assert.equal(steering.liveState(), 0);
  steering.free();
});

test("a thread id at the id limit reaches the host even when every character needs escaping in JSON; one more is refused", async () => {
  const params = [];
  const steering = new api.CodexhostSteering({ request: (method, p) => (params.push(p.threadId), host().request(method, p)) });
  const longest = "\u0001".repeat(LIMITS.idUnits);
  await steering.steer(steerArgs(longest));
  assert.deepEqual(params, [longest, longest]);
  const error = await steering.steer(steerArgs(`${longest}\u0001`)).then(() => assert.fail("resolved"), (e) => e);
  assert.equal(error.kind, "invalidInput", error.message);
  assert.deepEqual(params, [longest, longest], "nothing sent");
  steering.free();
});

test("a host without inspect is not asked it again on the same connection; connectionReplaced() asks it again on the next steer", async () => {
  const calls = [];
  const request = (method, params) => {
    calls.push(method);
    if (method === "codexhost/thread/ownership/list") return Promise.resolve({ threads: [{ threadId: params.threadIds[0], owner: "codex" }] });
    if (method === "turn/steer") return Promise.resolve({ turnId: "turn-1" });
    return Promise.reject({ code: -32601, message: "Method not found" });
  };
  const steering = new api.CodexhostSteering({ request });
  const rounds = [];
  for (const replaceFirst of [false, false, true]) {
    if (replaceFirst) steering.connectionReplaced();
    calls.length = 0;
    await steering.steer(steerArgs(`t-${rounds.length}`));
    rounds.push(calls.join(" "));
  }
  const probes = "codexhost/thread/ownership/list turn/steer";
  assert.deepEqual(rounds, [`codexhost/thread/steering/inspect ${probes}`, probes, `codexhost/thread/steering/inspect ${probes}`]);
  steering.free();
});

test("an answer that comes after the engine is freed is dropped: no stream role is asked for it", async () => {
  const asked = [];
  const inspect = deferred();
  const steering = new api.CodexhostSteering({
    request: host({ "codexhost/thread/steering/inspect": () => inspect.promise }).request,
    streamRole: (threadId) => (asked.push(threadId), "owner"),
  });
  const engine = engineOf(steering);
  steering.steer(steerArgs("t")).catch(() => {});
  assert.deepEqual(asked, ["t"]);
  engine.close();
  inspect.resolve({ delivery: "activeTurn" });
  await settled();
  assert.deepEqual(asked, ["t"]);
});

test("what the engine reports as changed reaches onChange with its key and state", () => {
  const changes = [];
  const acp = new api.AcpSteering({ request: () => new Promise(() => {}), initialize: { agentCapabilities: {} } });
  acp.onChange((key, state) => changes.push([key, state.mode, state.queued.length]));
  acp.promptSent("s");
  acp.send("s", input()).catch(() => {});
  assert.deepEqual(changes, [["s", "queue", 0], ["s", "queue", 1]]);
  acp.dispose();
  acp.free();
});

test("without a journal recover() asks nothing and resolves with no entries", async () => {
  const { request, calls } = host();
  const steering = new api.CodexhostSteering({ request });
  assert.deepEqual(await steering.recover(), []);
  assert.deepEqual(calls, []);
  steering.free();
});

test("a step the engine does not take as a submission rejects as disposed, leaving nothing waiting", async () => {
  const steering = new api.CodexhostSteering({ request: host().request });
  const engine = engineOf(steering);
  const error = await engine.submit({ do: "liveState" }).then(() => assert.fail("resolved"), (e) => e);
  assert.equal(error.kind, "disposed");
  assert.equal(engine.waiters.size, 0);
  steering.free();
});

test("a refused steer leaves no waiter and no call record behind", async () => {
  const steering = new api.CodexhostSteering({ request: host().request });
  const engine = engineOf(steering);
  const error = await steering.steer({ threadId: 5, input: input() }).then(() => assert.fail("resolved"), (e) => e);
  assert.equal(error.kind, "invalidInput");
  assert.deepEqual([engine.waiters.size, engine.records.size], [0, 0]);
  steering.free();
});

test("a decision keeps no call record; a steer keeps its record until it settles", async () => {
  const inspect = deferred();
  const steering = new api.CodexhostSteering({ request: host({ "codexhost/thread/steering/inspect": () => inspect.promise }).request });
  const engine = engineOf(steering);
  const decision = steering.decide({ threadId: "t", text: "use pnpm" });
  assert.deepEqual([engine.waiters.size, engine.records.size], [1, 0]);
  const steer = steering.steer(steerArgs("t2"));
  assert.deepEqual([engine.waiters.size, engine.records.size], [2, 1]);
  inspect.resolve({ delivery: "activeTurn" });
  await Promise.all([decision, steer]);
  assert.deepEqual([engine.waiters.size, engine.records.size], [0, 0]);
  steering.free();
});

test("an engine let go of while it owes promises closes only once the last one settles", async () => {
  const first = deferred();
  const second = deferred();
  const steering = new api.CodexhostSteering({
    request: host({ "codexhost/thread/steering/inspect": () => (first.used ? second : ((first.used = true), first)).promise }).request,
  });
  const engine = engineOf(steering);
  const a = steering.steer(steerArgs("a"));
  const b = steering.steer(steerArgs("b"));
  engine.release();
  assert.equal(engine.closed, false);
  first.resolve({ delivery: "activeTurn" });
  assert.equal((await a).turnId, "turn-1");
  assert.equal(engine.closed, false, "one promise is still owed");
  second.resolve({ delivery: "activeTurn" });
  assert.equal((await b).turnId, "turn-1");
  assert.equal(engine.closed, true);
});

test("an input the engine does not take throws its words", () => {
  const steering = new api.CodexhostSteering({ request: host().request });
  assert.throws(() => engineOf(steering).run({ do: "steerNow" }), /does not take "steerNow"/);
  steering.free();
});

test("an engine keeps the app's journal only when the module keeps records for it", () => {
  const storage = { getItem: () => null, setItem() {}, removeItem() {}, key: () => null, length: 0 };
  const without = new api.CodexhostSteering({ request: host().request });
  const kept = new api.CodexhostSteering({ request: host().request, journal: storage });
  assert.equal(engineOf(without).journal, undefined);
  assert.notEqual(engineOf(kept).journal, undefined);
  without.free();
  kept.free();
});

test("a listener that is taken away or throws leaves steering as it was; a throw is reported once", async () => {
  const reported = [];
  const original = console.error;
  console.error = (...args) => reported.push(args);
  try {
    const acp = new api.AcpSteering({ request: () => new Promise(() => {}), initialize: { agentCapabilities: {} } });
    acp.onChange(() => assert.fail("a listener taken away is not called"));
    acp.onChange(null);
    acp.promptSent("s");
    assert.deepEqual(reported, []);
    acp.onChange(() => {
      throw new Error("listener broke");
    });
    acp.send("s", input()).catch(() => {});
    assert.equal(reported.length, 1);
    assert.match(String(reported[0][0]), /onChange threw/);
    assert.equal(acp.inputMode("s").mode, "queue");
    acp.dispose();
    acp.free();
  } finally {
    console.error = original;
  }
});

test("a freed engine's slot in the module goes to the next engine, and freeing it again frees nothing else", () => {
  const first = new api.CodexhostSteering({ request: host().request });
  const engine = engineOf(first);
  engine.close();
  const next = new api.CodexhostSteering({ request: host().request });
  assert.equal(engineOf(next).handle, engine.handle, "the slot is reused");
  engine.close();
  assert.deepEqual(next.liveState(), engineOf(next).run({ do: "liveState" }).value);
  assert.equal(engineOf(next).run({ do: "liveState" }).error, undefined, "the next engine is still live");
  next.free();
});

test("an engine let go of while it owes nothing closes at once", () => {
  const steering = new api.CodexhostSteering({ request: host().request });
  const engine = engineOf(steering);
  engine.release();
  assert.equal(engine.closed, true);
});
