// The desktop hook's journal through the packed package: the hook writes a
// record just before the desktop's own request carries the message, removes
// it once the steer is settled, keeps it while the outcome is unknown, and
// after a restart the hook's `recover()` reads the thread through the
// desktop's own sendRequest.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { MapStorage, watchStorage } from "./map-storage.mjs";
import { packAndInstall } from "./pack.mjs";
import { RequestManager, callSteer } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});


const inspect = (delivery) => ({ "codexhost/thread/steering/inspect": { delivery } });

test("an activeTurn steer delivered through the desktop leaves nothing in the journal; the record was written before it left", async () => {
  const journal = new MapStorage();
  const seen = [];
  const m = new RequestManager({
    ...inspect("activeTurn"),
    "turn/steer": () => (seen.push(journal.keys().length), { turnId: "turn-1" }),
  });
  const hook = api.installDesktopSteering(m, { journal });
  await callSteer(m, "t", "use pnpm", { messageId: "m-1" });
  assert.deepEqual(seen, [1], "the record existed when the turn/steer left");
  assert.deepEqual(journal.keys(), []);
  hook.dispose();
});

test("a desktop steer whose answer is lost stays journaled; after a restart the hook's recover() reads the thread: delivered", async () => {
  const journal = new MapStorage();
  const lost = new RequestManager({ ...inspect("activeTurn"), "turn/steer": () => Promise.reject(new Error("socket closed")) });
  const first = api.installDesktopSteering(lost, { journal });
  const failed = await callSteer(lost, "t", "use pnpm", { messageId: "m-2" }).catch((e) => e);
  assert.equal(failed.kind, "outcomeUnknown");
  assert.equal(journal.keys().length, 1);
  const record = JSON.parse(journal.getItem(journal.keys()[0]));
  assert.equal(record.expectedTurnId, "turn-1", "the turn it was meant for");
  assert.equal(record.presented, "activeTurn");
  first.dispose();
  const thread = { id: "t", turns: [{ id: "turn-1", status: "completed", items: [{ type: "userMessage", clientId: "m-2" }] }] };
  const restarted = new RequestManager({ "thread/read": { thread } });
  const hook = api.installDesktopSteering(restarted, { journal });
  const entries = await hook.recover();
  assert.deepEqual(entries, [{ threadId: "t", clientUserMessageId: "m-2", draft: [{ type: "text", text: "use pnpm" }], outcome: "delivered" }]);
  assert.deepEqual(restarted.sent.map((s) => s.method), ["thread/read"], "read through the desktop's sendRequest; nothing resent");
  assert.deepEqual(journal.keys(), []);
  hook.dispose();
});

test("a host refusal settles the desktop steer: its record goes", async () => {
  const journal = new MapStorage();
  const m = new RequestManager({ ...inspect("activeTurn"), "turn/steer": () => Promise.reject({ code: -32072, message: "busy" }) });
  const hook = api.installDesktopSteering(m, { journal });
  await callSteer(m, "t", "use pnpm", { messageId: "m-3" }).catch(() => {});
  assert.deepEqual(journal.keys(), []);
  hook.dispose();
});

test("forget() on the hook drops a record it wrote", async () => {
  const journal = new MapStorage();
  const m = new RequestManager({ ...inspect("activeTurn"), "turn/steer": () => Promise.reject(new Error("socket closed")) });
  const hook = api.installDesktopSteering(m, { journal });
  await callSteer(m, "t", "use pnpm", { messageId: "m-4" }).catch(() => {});
  assert.equal(journal.keys().length, 1);
  hook.forget("m-4");
  assert.deepEqual(journal.keys(), []);
  hook.dispose();
});

test("without a journal nothing is written; a bad journal option is refused by name", () => {
  assert.throws(() => api.installDesktopSteering(new RequestManager({}), { journal: { getItem() {} } }), /options\.journal\.setItem/);
});

test("a follower window's hook recovers nothing: the records are the owner window's", async () => {
  const journal = new MapStorage();
  const lost = new RequestManager({ ...inspect("activeTurn"), "turn/steer": () => Promise.reject(new Error("socket closed")) });
  const first = api.installDesktopSteering(lost, { journal });
  await callSteer(lost, "t", "use pnpm", { messageId: "m-5" }).catch(() => {});
  first.dispose();
  const follower = new RequestManager({ "thread/read": { thread: { id: "t", turns: [] } } }, { role: "follower" });
  const hook = api.installDesktopSteering(follower, { journal });
  assert.deepEqual(await hook.recover(), []);
  assert.deepEqual(follower.sent, [], "not read");
  assert.equal(journal.keys().length, 1, "left for the owner");
  hook.dispose();
});

test("a storage that fails under the hook is told once and touched by neither the hook nor its decider again", async () => {
  const journal = new MapStorage();
  const touched = watchStorage(journal, "setItem", "QuotaExceededError");
  const told = [];
  const m = new RequestManager({ ...inspect("activeTurn"), "turn/steer": { turnId: "turn-1" } });
  const hook = api.installDesktopSteering(m, { journal, onJournalError: (e) => told.push(e.message) });
  assert.equal((await callSteer(m, "t", "use pnpm", { messageId: "m-5" })).turnId, "turn-1", "the steer goes on");
  assert.equal((await callSteer(m, "t", "use yarn", { messageId: "m-6" })).turnId, "turn-1");
  assert.deepEqual(await hook.recover(), [], "the decider lists nothing");
  assert.deepEqual(touched, ["setItem"], "only the first write was tried");
  assert.deepEqual(told, ["QuotaExceededError"]);
  hook.dispose();
});
