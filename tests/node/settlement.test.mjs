// Every submission settles, with its draft: free() and `using` with a steer
// in flight, a freed instance, and transports that reject with the
// platform's own errors (a DOMException carries a number `code` too, but no
// answer came). The packed package in Node.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { RequestManager, callSteer } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const tick = () => new Promise((r) => setTimeout(r, 1));
const input = () => [{ type: "text", text: "use pnpm" }];

/** A codexhost host that answers inspect and then `steer(params)` for turn/steer. */
function host(steer) {
  const sent = [];
  const request = (method, params) => {
    sent.push(method);
    if (method === "codexhost/thread/steering/inspect") return Promise.resolve({ delivery: "activeTurn" });
    return steer(params);
  };
  return { sent, request };
}

for (const how of ["free", "Symbol.dispose", "dispose"]) {
  test(`${how}() with a steer in flight settles it at once: outcome unknown, shown unconfirmed, the draft by identity`, async (t) => {
    if (how === "Symbol.dispose" && typeof Symbol.dispose !== "symbol") return t.skip("no Symbol.dispose in this Node");
    const h = host(() => new Promise(() => {}));
    const steering = new api.CodexhostSteering({ request: h.request });
    const draft = input();
    const seen = [];
    const pending = steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: draft }, { present: (d) => seen.push(`present ${d}`), unconfirmed: (d) => seen.push(`unconfirmed ${d}`) });
    while (!h.sent.includes("turn/steer")) await tick();
    if (how === "free") steering.free();
    else if (how === "dispose") steering.dispose();
    else steering[Symbol.dispose]();
    const late = new Promise((resolve) => setTimeout(resolve, 1000, "still pending a second later (the steer bound is 30 s)"));
    const error = await Promise.race([pending.then(() => assert.fail("resolved"), (e) => e), late]);
    assert.equal(error.kind, "outcomeUnknown");
    assert.equal(error.draft, draft);
    assert.deepEqual(seen, ["present activeTurn", "unconfirmed activeTurn"]);
  });
}

test("a freed instance answers `disposed` with the draft; free() and dispose() again are no-ops", async () => {
  const h = host(() => Promise.resolve({ turnId: "turn-2" }));
  const steering = new api.CodexhostSteering({ request: h.request });
  steering.free();
  const draft = input();
  const error = await steering.steer({ threadId: "t", input: draft }).then(() => assert.fail("resolved"), (e) => e);
  assert.ok(api.isSteeringError(error, "disposed"), String(error));
  assert.equal(error.message, "disposed", "the kind's own words, nothing else");
  assert.equal(error.draft, draft);
  assert.throws(() => steering.liveState(), (e) => api.isSteeringError(e, "disposed") && e.message === "disposed");
  assert.doesNotThrow(() => steering.free());
  assert.doesNotThrow(() => steering.dispose());
  assert.deepEqual(h.sent, [], "nothing was sent");
  const acp = new api.AcpSteering({ request: () => new Promise(() => {}) });
  acp.free();
  const content = [{ type: "text", text: "x" }];
  const refused = await acp.send("s", content).then(() => assert.fail("resolved"), (e) => e);
  assert.equal(refused.kind, "disposed");
  assert.equal(refused.draft, content);
});

for (const [name, make] of [
  ["a DOMException TimeoutError (AbortSignal.timeout)", () => new DOMException("The operation timed out.", "TimeoutError")],
  ["a DOMException AbortError", () => new DOMException("This operation was aborted", "AbortError")],
  ["an Error named TimeoutError with a number code", () => Object.assign(new Error("timed out"), { name: "TimeoutError", code: 23 })],
  // What real clients reject with when the connection goes: vscode-jsonrpc's
  // "Pending response rejected since connection got disposed" (-32097) and
  // its other made-up codes, a request cancelled (-32800), a WebSocket close
  // code, a connection-error enum.
  ["vscode-jsonrpc's pending response rejected (-32097)", () => Object.assign(new Error("Pending response rejected since connection got disposed"), { code: -32097 })],
  ["vscode-jsonrpc's message write error (-32099)", () => Object.assign(new Error("write failed"), { code: -32099 })],
  ["vscode-jsonrpc's connection inactive (-32096)", () => ({ code: -32096, message: "connection inactive" })],
  ["a request cancelled (-32800)", () => ({ code: -32800, message: "Request cancelled" })],
  ["a WebSocket close code (1006)", () => Object.assign(new Error("socket closed"), { code: 1006 })],
  ["a connection-error enum (code 1)", () => Object.assign(new Error("Connection is closed."), { code: 1 })],
]) {
  test(`a steer whose transport rejects with ${name} after sending is outcomeUnknown, not the host's refusal`, async () => {
    const h = host(() => Promise.reject(make()));
    const steering = new api.CodexhostSteering({ request: h.request });
    const seen = [];
    const error = await steering
      .steer({ threadId: "t", expectedTurnId: "turn-1", input: input() }, { present: () => seen.push("present"), retract: () => seen.push("retract"), unconfirmed: () => seen.push("unconfirmed") })
      .then(() => assert.fail("resolved"), (e) => e);
    assert.equal(error.kind, "outcomeUnknown", error.message);
    assert.deepEqual(seen, ["present", "unconfirmed"], "kept on screen");
  });
}

test("a JSON-RPC error answer is still the host's refusal (kind host, its code), retracted", async () => {
  const h = host(() => Promise.reject({ code: -32074, message: "expected turn is not the active one" }));
  const steering = new api.CodexhostSteering({ request: h.request });
  const error = await steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() }).then(() => assert.fail("resolved"), (e) => e);
  assert.deepEqual([error.kind, error.code], ["host", -32074]);
});

for (const [name, make] of [
  ["a DOMException", () => new DOMException("The operation timed out.", "TimeoutError")],
  ["a client's disposed-connection error (-32097)", () => Object.assign(new Error("Pending response rejected since connection got disposed"), { code: -32097 })],
]) test(`an ACP steer whose transport rejects with ${name} after sending is outcomeUnknown`, async () => {
  const acp = new api.AcpSteering({
    request: () => Promise.reject(make()),
    initialize: { _meta: { steering: { supported: true } } },
  });
  while (acp.inputMode("s").mode === "unavailable") await tick();
  acp.promptSent("s");
  const error = await acp.send("s", [{ type: "text", text: "x" }]).then(() => assert.fail("resolved"), (e) => e);
  assert.equal(error.kind, "outcomeUnknown", error.message);
});

test("a newTurn whose rewritten turn/steer rejects with a DOMException is outcomeUnknown through the desktop hook", async () => {
  const manager = new RequestManager({
    "codexhost/thread/steering/inspect": { delivery: "newTurn" },
    "turn/steer": () => Promise.reject(new DOMException("The operation timed out.", "TimeoutError")),
  });
  api.installDesktopSteering(manager);
  const error = await callSteer(manager, "t", "x").then(() => assert.fail("resolved"), (e) => e);
  assert.equal(error.kind, "outcomeUnknown", error.message);
  assert.deepEqual(manager.sent.map((s) => s.method), ["codexhost/thread/steering/inspect", "turn/steer"]);
});

test("a misspelled timeout key is refused by the constructor, naming it (not silently ignored)", () => {
  const request = () => new Promise(() => {});
  assert.throws(() => new api.CodexhostSteering({ request, timeouts: { decideMS: 50 } }), /options\.timeouts\.decideMS is not an option/);
  assert.throws(() => new api.AcpSteering({ request, timeouts: { requestMS: 50 } }), /options\.timeouts\.requestMS is not an option/);
  assert.doesNotThrow(() => new api.CodexhostSteering({ request, timeouts: { decideMs: 50, steerMs: 50, requestMs: 50 } }).free());
});

test("an initialize answer given as a plain object applies at once: a send right after the constructor steers", async () => {
  const sent = [];
  const acp = new api.AcpSteering({
    request: (method) => (sent.push(method), Promise.resolve({ outcome: "injected" })),
    initialize: { _meta: { steering: { supported: true } } },
  });
  assert.notEqual(acp.inputMode("s").mode, "unavailable");
  acp.promptSent("s");
  const accepted = [];
  const pending = acp.send("s", [{ type: "text", text: "x" }], { accepted: (path) => accepted.push(path) });
  await tick();
  assert.deepEqual(accepted, ["steeringExtension"], "accepted as pending input at once");
  acp.promptAnswered("s", { stopReason: "end_turn" });
  const outcome = await pending;
  assert.equal(outcome.kind, "injected");
  assert.equal(outcome.delivered, "turnEnded", "delivered once the turn ended having consumed it");
  assert.deepEqual(sent, ["_session/steering"]);
  const later = new api.AcpSteering({ request: () => new Promise(() => {}), initialize: Promise.resolve({}) });
  assert.equal(later.inputMode("s").mode, "queue", "a promise applies when it settles (sends wait for it meanwhile)");
  await tick();
  assert.equal(later.inputMode("s").mode, "idle");
});

test("free() called from inside the instance's own calls (the transport, a hook) is done when they return: no zombie", async () => {
  // From the transport, during the synchronous send of the inspect.
  let s;
  s = new api.CodexhostSteering({ request: () => (s.free(), new Promise(() => {})) });
  const draft = input();
  const first = await s.steer({ threadId: "t", expectedTurnId: "turn-1", input: draft }).then(() => assert.fail("resolved"), (e) => e);
  assert.equal(first.kind, "disposed", first.message);
  assert.equal(first.draft, draft);
  const later = await s.steer({ threadId: "t", input: input() }).then(() => assert.fail("resolved"), (e) => e);
  assert.equal(later.kind, "disposed", "a freed instance answers disposed, not 'null pointer passed to rust'");
  assert.doesNotThrow(() => s.free());
  // From the unconfirmed hook that the outer free()'s dispose calls.
  const h = host(() => new Promise(() => {}));
  const t = new api.CodexhostSteering({ request: h.request });
  const pending = t.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() }, { unconfirmed: () => t.free() });
  while (!h.sent.includes("turn/steer")) await tick();
  t.free();
  assert.equal((await pending.then(() => assert.fail("resolved"), (e) => e)).kind, "outcomeUnknown");
  assert.equal((await t.steer({ threadId: "u", input: input() }).catch((e) => e)).kind, "disposed");
  // A module that still works: a fresh instance steers.
  const ok = new api.CodexhostSteering({ request: host(() => Promise.resolve({ turnId: "turn-2" })).request });
  assert.equal((await ok.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() })).turnId, "turn-2");
});

test("a send made while the initialize promise is out waits for it, then steers (the ACP guide's shape)", async () => {
  const sent = [];
  let answerInitialize;
  const acp = new api.AcpSteering({
    request: (method, params) => (sent.push(method), Promise.resolve(method === "_session/steering" ? { outcome: "injected" } : { stopReason: "end_turn" })),
    initialize: new Promise((resolve) => (answerInitialize = resolve)),
  });
  assert.equal(acp.inputMode("s").mode, "queue", "the composer says the message waits");
  acp.promptSent("s");
  const shown = [];
  const pending = acp.send("s", [{ type: "text", text: "use pnpm" }]);
  await tick();
  assert.deepEqual(sent, [], "nothing leaves before the capabilities are known");
  answerInitialize({ _meta: { steering: { supported: true } } });
  while (!sent.includes("_session/steering")) await tick();
  await tick();
  acp.promptAnswered("s", { stopReason: "end_turn" });
  const outcome = await pending;
  assert.equal(outcome.kind, "injected");
  assert.deepEqual(sent, ["_session/steering"]);
  acp.free();
});

test("a send waiting for an initialize that fails (an Error, or a JSON-RPC error whose data is an object) or never answers within requestMs gets its draft back, unsent", async () => {
  const failures = [
    () => Promise.reject(new Error("agent crashed")),
    () => Promise.reject({ code: -32603, message: "Internal error", data: { agentCapabilities: {} } }),
    () => new Promise(() => {}),
  ];
  for (const failure of failures) {
    const initialize = failure();
    const sent = [];
    const acp = new api.AcpSteering({ request: (method) => (sent.push(method), new Promise(() => {})), initialize, timeouts: { requestMs: 30 } });
    const content = [{ type: "text", text: "keep me" }];
    const error = await acp.send("s", content).then(() => assert.fail("resolved"), (e) => e);
    assert.equal(error.kind, "unavailable", error.message);
    assert.equal(error.draft, content);
    assert.deepEqual(sent, []);
    assert.equal(acp.inputMode("s").mode, "unavailable");
    acp.free();
  }
});

test("an initialize answer that settles after connectionClosed() opens nothing and sends nothing", async () => {
  const sent = [];
  let answerInitialize;
  const acp = new api.AcpSteering({
    request: (method) => (sent.push(method), new Promise(() => {})),
    initialize: new Promise((resolve) => (answerInitialize = resolve)),
  });
  const waiting = acp.send("s", [{ type: "text", text: "x" }]).then(() => assert.fail("resolved"), (e) => e);
  acp.connectionClosed();
  assert.equal((await waiting).kind, "unavailable");
  answerInitialize({ agentCapabilities: {} });
  await tick();
  assert.equal(acp.inputMode("s").mode, "unavailable", "the old connection's answer is not applied");
  const refused = await acp.send("s", [{ type: "text", text: "y" }]).then(() => assert.fail("resolved"), (e) => e);
  assert.equal(refused.kind, "unavailable");
  assert.deepEqual(sent, []);
  acp.free();
});

test("requestOptions.timeoutMs bounds the steer's wait instead of steerMs; 0 ('no timeout' to many clients) leaves steerMs", async () => {
  const hung = () => new Promise(() => {});
  for (const [timeoutMs, atLeast, atMost] of [[40, 30, 250], [0, 290, 2000]]) {
    const h = host(hung);
    const steering = new api.CodexhostSteering({ request: h.request, timeouts: { steerMs: 300 } });
    const started = performance.now();
    const error = await steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: input(), requestOptions: { timeoutMs } }).then(() => assert.fail("resolved"), (e) => e);
    const waited = performance.now() - started;
    assert.equal(error.kind, "outcomeUnknown", `${timeoutMs}: ${error.message}`);
    assert.ok(waited >= atLeast && waited < atMost, `timeoutMs ${timeoutMs}: waited ${waited} ms`);
    steering.free();
  }
});
