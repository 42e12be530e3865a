// The driver's reading of what the app's transport rejects with, through
// the packed package: only the host's JSON-RPC error answer (an object with
// a negative integer code a client does not make up) is the host's refusal,
// with its message and data; an error named AbortError or TimeoutError, a
// DOMException, or a code of 0 means no answer came (outcomeUnknown).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const input = () => [{ type: "text", text: "use pnpm" }];

/** A codexhost host that answers inspect with activeTurn, and turn/steer with `steer()`. */
function host(steer) {
  return (method) => {
    if (method === "codexhost/thread/steering/inspect") return Promise.resolve({ delivery: "activeTurn" });
    if (method === "turn/steer") return steer();
    return Promise.reject({ code: -32601, message: "Method not found" });
  };
}

const steerWith = (rejection) =>
  new api.CodexhostSteering({ request: host(() => Promise.reject(rejection())) })
    .steer({ threadId: "t", expectedTurnId: "turn-1", input: input() })
    .then(() => assert.fail("resolved"), (e) => e);

for (const [name, make, words] of [
  ["an Error named AbortError with a host-range code", () => Object.assign(new Error("aborted by the app"), { name: "AbortError", code: -32000 }), "aborted by the app"],
  ["an Error named TimeoutError with a host-range code", () => Object.assign(new Error("timed out"), { name: "TimeoutError", code: -32001 }), "timed out"],
  ["a DOMException that carries a negative code of its own", () => Object.defineProperty(new DOMException("gone", "NetworkError"), "code", { value: -32000 }), "gone"],
  ["an Error with code 0", () => Object.assign(new Error("connection closed"), { code: 0 }), "connection closed"],
]) {
  test(`a rejection that is ${name} is no answer: outcomeUnknown, naming what it was`, async () => {
    const error = await steerWith(make);
    assert.equal(error.kind, "outcomeUnknown", error.message);
    assert.ok(error.message.includes(words), error.message);
  });
}

test("the host's error answer is its refusal with its message and data", async () => {
  const error = await steerWith(() => ({ code: -32074, message: "expected turn is not the active one", data: { activeTurnId: "turn-2" } }));
  assert.deepEqual([error.kind, error.code], ["host", -32074]);
  assert.match(error.message, /expected turn is not the active one/);
  assert.deepEqual(error.data, { activeTurnId: "turn-2" });
});

test("a host error answer whose message is not a string is still its refusal, with no message of its own", async () => {
  const error = await steerWith(() => ({ code: -32074, message: { text: "not a string" } }));
  assert.deepEqual([error.kind, error.code], ["host", -32074]);
  assert.doesNotMatch(error.message, /not a string|Stryker/);
});

test("a host error answer's message is kept to 16K UTF-16 units", async () => {
  const error = await steerWith(() => ({ code: -32074, message: "m".repeat(20_000) }));
  assert.equal(error.kind, "host");
  assert.ok(error.message.length <= 16 * 1024 + 200, `${error.message.length} units`);
});
