// An app that keeps only a steer's or send's promise, not the instance:
// the instance is held until its promises settle, so the collector cannot
// free it (and with it the waiter and the timer) while the answer is
// pending; the promise still settles within its bound, where a collected
// instance would leave it pending forever.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { packAndInstall } from "./pack.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function collectWhilePending(sent, method, pending) {
  let outcome = "pending";
  pending.then(() => (outcome = "resolved"), (e) => (outcome = e));
  while (!sent.includes(method)) await sleep(1);
  for (let i = 0; i < 5; i++) {
    gc();
    await sleep(10);
  }
  await sleep(400); // twice the bound
  return outcome;
}

test("a steer whose instance is unreferenced settles within steerMs (outcomeUnknown with the draft)", async () => {
  const sent = [];
  const unconfirmed = [];
  const draft = [{ type: "text", text: "use pnpm" }];
  const request = (method) => {
    sent.push(method);
    return method === "codexhost/thread/steering/inspect" ? Promise.resolve({ delivery: "activeTurn" }) : new Promise(() => {});
  };
  const pending = (() => {
    const steering = new api.CodexhostSteering({ request, timeouts: { steerMs: 200 } });
    return steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: draft }, { unconfirmed: (d) => unconfirmed.push(d) });
  })();
  const outcome = await collectWhilePending(sent, "turn/steer", pending);
  assert.notEqual(outcome, "pending", "the steer's promise never settled");
  assert.equal(outcome.kind, "outcomeUnknown");
  assert.equal(outcome.draft, draft);
  assert.deepEqual(unconfirmed, ["activeTurn"], "still shown where it went, unconfirmed");
});

test("an ACP send whose instance is unreferenced settles within requestMs", async () => {
  const sent = [];
  const draft = [{ type: "text", text: "use pnpm" }];
  const request = (method) => (sent.push(method), new Promise(() => {}));
  const pending = (() => {
    const initialize = { agentCapabilities: {}, _meta: { steering: { supported: true } } };
    const acp = new api.AcpSteering({ request, initialize, timeouts: { requestMs: 200 } });
    acp.promptSent("s");
    return acp.send("s", draft);
  })();
  const outcome = await collectWhilePending(sent, "_session/steering", pending);
  assert.notEqual(outcome, "pending", "the send's promise never settled");
  assert.equal(outcome.kind, "outcomeUnknown");
  assert.equal(outcome.draft, draft);
});
