// The app's `streamRole(threadId)` through the packed package: the driver
// hands the engine what it answered and the engine reads it. "follower",
// or an object whose `role` is "follower", hands the steer to the owner
// window without a request; any other answer, a throwing callback, a
// throwing `role` getter and a Proxy that refuses every read are the
// owner's, and the steer goes out.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { shippedModules } from "./pack.mjs";

let api;
before(async () => {
  [api] = await shippedModules("node.js");
  await api.init();
});

const steerArgs = () => ({ threadId: "t", expectedTurnId: "turn-1", input: [{ type: "text", text: "use pnpm" }] });

/** A host that delivers into the active turn, and the methods it was asked. */
function host() {
  const calls = [];
  const request = (method) => {
    calls.push(method);
    return Promise.resolve(method === "turn/steer" ? { turnId: "turn-1" } : { delivery: "activeTurn" });
  };
  return { request, calls };
}

async function steeredWith(answer) {
  const { request, calls } = host();
  const steering = new api.CodexhostSteering({ request, streamRole: () => answer() });
  const result = await steering.steer(steerArgs()).then(
    (ok) => ok.turnId,
    (error) => error.kind,
  );
  steering.free();
  return { result, calls };
}

test("a follower's answer, as a word or a role field, refuses the steer before any request", async () => {
  for (const answer of [() => "follower", () => ({ role: "follower" }), () => Object.create({ role: "follower" })]) {
    assert.deepEqual(await steeredWith(answer), { result: "follower", calls: [] }, String(answer));
  }
});

test("any other answer, or one that cannot be read, is the owner's: the steer goes out", async () => {
  const owners = [
    () => "owner",
    () => undefined,
    () => "FOLLOWER",
    () => ({ role: "owner" }),
    () => ["follower"],
    () => {
      throw new Error("role unknown");
    },
    () => ({
      get role() {
        throw new Error("getter");
      },
    }),
    () => new Proxy({}, { get: () => { throw new Error("trap"); } }),
    () => Promise.resolve("follower"),
  ];
  for (const answer of owners) {
    assert.deepEqual(await steeredWith(answer), { result: "turn-1", calls: ["codexhost/thread/steering/inspect", "turn/steer"] }, String(answer));
  }
});

test("a role polluted onto Object.prototype makes no window a follower", async () => {
  Object.prototype.role = "follower";
  try {
    assert.equal((await steeredWith(() => ({}))).result, "turn-1");
  } finally {
    delete Object.prototype.role;
  }
});

test("a callback that throws after a follower's answer gives the thread back: a throw is an answer, the owner's", async () => {
  const { request, calls } = host();
  let answer = () => "follower";
  const steering = new api.CodexhostSteering({ request, streamRole: () => answer() });
  assert.equal(await steering.steer(steerArgs()).catch((error) => error.kind), "follower");
  answer = () => {
    throw new Error("role unknown");
  };
  assert.equal((await steering.steer(steerArgs())).turnId, "turn-1");
  assert.deepEqual(calls, ["codexhost/thread/steering/inspect", "turn/steer"]);
  steering.free();
});
