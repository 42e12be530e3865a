// The desktop hook tells the app (`onReconcile`) when the host's answer
// names a delivery other than the one the desktop presented, as `steer`
// reconciles through its hooks; an answer that agrees, or names none, is
// not reported, and a throwing callback changes nothing.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { RequestManager, callSteer } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const answers = (decided, delivered) => ({
  "codexhost/thread/steering/inspect": { delivery: decided },
  "turn/steer": delivered === undefined ? { turnId: "turn-2" } : { turnId: "turn-2", delivery: delivered },
});

test("activeTurn presented, the host delivered it as a new turn: onReconcile is told once, with the thread, id and turn", async () => {
  const told = [];
  const m = new RequestManager(answers("activeTurn", "newTurn"));
  const hook = api.installDesktopSteering(m, { onReconcile: (r) => told.push(r) });
  await callSteer(m, "t", "use pnpm", { messageId: "m-1" });
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(told, [{ threadId: "t", clientUserMessageId: "m-1", presented: "activeTurn", delivery: "newTurn", turnId: "turn-2" }]);
  hook.dispose();
});

test("newTurn presented through startTurn, the host folded it into the running turn: onReconcile is told", async () => {
  const told = [];
  const m = new RequestManager(answers("newTurn", "activeTurn"));
  const hook = api.installDesktopSteering(m, { onReconcile: (r) => told.push(r) });
  const result = await callSteer(m, "t", "start over", { messageId: "m-2" });
  assert.equal(result.turn.id, "turn-2");
  assert.deepEqual(told.map((r) => [r.presented, r.delivery, r.clientUserMessageId]), [["newTurn", "activeTurn", "m-2"]]);
  hook.dispose();
});

test("an answer that agrees with the presentation, or names no delivery, is not reconciled", async () => {
  for (const [decided, delivered] of [["activeTurn", "activeTurn"], ["newTurn", "newTurn"], ["activeTurn", undefined], ["official", undefined]]) {
    const told = [];
    const m = new RequestManager(answers(decided, delivered));
    const hook = api.installDesktopSteering(m, { onReconcile: (r) => told.push(r) });
    await callSteer(m, "t", "x", { messageId: "m-3" });
    await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(told, [], `${decided} answered ${delivered}`);
    hook.dispose();
  }
});

test("an onReconcile that throws changes neither the steer's result nor the request", async () => {
  const m = new RequestManager(answers("activeTurn", "newTurn"));
  const hook = api.installDesktopSteering(m, { onReconcile: () => { throw new Error("the view is gone"); } });
  const errors = [];
  const original = console.error;
  console.error = (...args) => errors.push(args.join(" "));
  try {
    const result = await callSteer(m, "t", "use pnpm", { messageId: "m-4" });
    await new Promise((r) => setTimeout(r, 5));
    assert.deepEqual(result, { turnId: "turn-2", delivery: "newTurn" }, "the desktop's own answer, untouched");
  } finally {
    console.error = original;
  }
  assert.ok(errors.some((e) => e.includes("onReconcile")), "reported");
  hook.dispose();
});
