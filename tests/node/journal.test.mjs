// The journal through the packed package: a message whose outcome is not
// known survives a restart in the app's Web Storage, and `recover()` reads
// the thread to say what became of it; a storage that throws or holds
// garbage changes nothing else. A restart is a new instance over the same
// storage.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { MapStorage } from "./map-storage.mjs";
import { packAndInstall } from "./pack.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});


const input = (text) => [{ type: "text", text }];
const args = (text, id) => ({ threadId: "t", expectedTurnId: "turn-1", input: input(text), clientUserMessageId: id });

/** A host whose turn/steer is answered, lost, or never reached; `thread` is what thread/read shows. */
function host({ steer = "answer", thread = () => ({ id: "t", turns: [] }) } = {}) {
  const calls = [];
  const request = (method, params) => {
    calls.push(method);
    if (method === "codexhost/thread/steering/inspect") return Promise.resolve({ delivery: "activeTurn" });
    if (method === "turn/steer") return steer === "answer" ? Promise.resolve({ turnId: "turn-1" }) : Promise.reject(new Error("socket closed"));
    if (method === "thread/read") return Promise.resolve({ thread: thread(params) });
    return Promise.reject({ code: -32601, message: "Method not found" });
  };
  return { request, calls };
}

const turn = (id, status, items) => ({ id, status, items });
const userMessage = (clientId, text) => ({ type: "userMessage", clientId, content: [{ type: "text", text }] });

test("a delivered steer leaves nothing in the journal", async () => {
  const journal = new MapStorage();
  const steering = new api.CodexhostSteering({ request: host().request, journal });
  await steering.steer(args("use pnpm", "m-1"));
  assert.deepEqual(journal.keys(), []);
});

test("a lost answer keeps the record; after a restart the thread shows it: delivered, never sent again", async () => {
  const journal = new MapStorage();
  const before = new api.CodexhostSteering({ request: host({ steer: "lose" }).request, journal });
  const lost = await before.steer(args("use pnpm", "m-1")).catch((e) => e);
  assert.equal(lost.kind, "outcomeUnknown");
  assert.equal(journal.keys().length, 1, "the record stays while the outcome is unknown");
  assert.ok(journal.keys()[0].startsWith("renderer-steering:"));
  const after = host({ thread: () => ({ id: "t", turns: [turn("turn-1", "completed", [userMessage("m-1", "use pnpm")])] }) });
  const steering = new api.CodexhostSteering({ request: after.request, journal });
  const entries = await steering.recover();
  assert.deepEqual(entries, [{ threadId: "t", clientUserMessageId: "m-1", draft: input("use pnpm"), outcome: "delivered" }]);
  assert.deepEqual(after.calls, ["thread/read"], "recover() reads; it never sends the message");
  assert.deepEqual(journal.keys(), [], "settled: it leaves the journal");
  // The same id after recovery is not applied twice: it resolves from what is known.
  const again = await steering.steer(args("use pnpm", "m-1")).catch((e) => e);
  assert.ok(!after.calls.includes("turn/steer"), `no second turn/steer: ${after.calls}`);
  assert.ok(again.turnId !== undefined || again.kind !== undefined);
});

test("the turn it was meant for ended without it: notDelivered with the user's words", async () => {
  const journal = new MapStorage();
  const before = new api.CodexhostSteering({ request: host({ steer: "lose" }).request, journal });
  await before.steer(args("keep my words", "m-2")).catch(() => {});
  const after = host({ thread: () => ({ id: "t", turns: [turn("turn-1", "completed", [])] }) });
  const [entry] = await new api.CodexhostSteering({ request: after.request, journal }).recover();
  assert.equal(entry.outcome, "notDelivered");
  assert.deepEqual(entry.draft, input("keep my words"));
  assert.deepEqual(journal.keys(), []);
});

test("the turn still runs: unknown, and the record stays for a later recover() or forget()", async () => {
  const journal = new MapStorage();
  const before = new api.CodexhostSteering({ request: host({ steer: "lose" }).request, journal });
  await before.steer(args("wait for it", "m-3")).catch(() => {});
  const after = host({ thread: () => ({ id: "t", turns: [turn("turn-1", "inProgress", [])] }) });
  const steering = new api.CodexhostSteering({ request: after.request, journal });
  const [entry] = await steering.recover();
  assert.equal(entry.outcome, "unknown");
  assert.equal(journal.keys().length, 1);
  steering.forget("m-3");
  assert.deepEqual(journal.keys(), [], "forget() drops it");
});

test("a follower window recovers nothing: the record is its owner's", async () => {
  const journal = new MapStorage();
  const before = new api.CodexhostSteering({ request: host({ steer: "lose" }).request, journal });
  await before.steer(args("mine", "m-4")).catch(() => {});
  const after = host({ thread: () => ({ id: "t", turns: [turn("turn-1", "completed", [])] }) });
  const follower = new api.CodexhostSteering({ request: after.request, journal, streamRole: () => "follower" });
  assert.deepEqual(await follower.recover(), []);
  assert.deepEqual(after.calls, []);
  assert.equal(journal.keys().length, 1, "left for the owner");
});

test("a journal that throws changes nothing else: the steer is delivered and the app is told once", async () => {
  const told = [];
  const quota = new MapStorage();
  quota.setItem = () => {
    throw new Error("QuotaExceededError");
  };
  const steering = new api.CodexhostSteering({ request: host().request, journal: quota, onJournalError: (e) => told.push(e.message) });
  assert.equal((await steering.steer(args("one", "m-5"))).turnId, "turn-1");
  assert.equal((await steering.steer({ ...args("two", "m-6") })).turnId, "turn-1");
  assert.deepEqual(told, ["QuotaExceededError"]);
});

test("garbage, other versions and foreign keys: the bad records are dropped, foreign keys untouched", async () => {
  const journal = new MapStorage();
  journal.setItem("renderer-steering:not a triple", "x");
  journal.setItem('renderer-steering:["codexhost","t","m-9"]', "{not json");
  journal.setItem('renderer-steering:["codexhost","t","m-8"]', JSON.stringify({ v: 99 }));
  journal.setItem("someone-else", "keep me");
  const steering = new api.CodexhostSteering({ request: host().request, journal });
  assert.deepEqual(await steering.recover(), []);
  assert.deepEqual(journal.keys().sort(), ["renderer-steering:not a triple", "someone-else"].sort());
});

test("a storage that cannot be listed: recover() resolves with none and the app is told", async () => {
  const told = [];
  const broken = new MapStorage();
  broken.setItem("x", "y");
  broken.key = () => {
    throw new Error("SecurityError");
  };
  const steering = new api.CodexhostSteering({ request: host().request, journal: broken, onJournalError: (e) => told.push(e.message) });
  assert.deepEqual(await steering.recover(), []);
  assert.deepEqual(told, ["SecurityError"]);
});

test("journal options are checked by name", () => {
  const request = host().request;
  assert.throws(() => new api.CodexhostSteering({ request, journal: {} }), /options\.journal\.getItem/);
  assert.throws(() => new api.CodexhostSteering({ request, journal: new MapStorage(), journalKey: 7 }), /options\.journalKey must be a string/);
  assert.throws(() => new api.AcpSteering({ request, journal: 5 }), /options\.journal must be/);
  const keyed = new MapStorage();
  new api.CodexhostSteering({ request: host({ steer: "lose" }).request, journal: keyed, journalKey: "app:" }).steer(args("x", "m-7")).catch(() => {});
  return new Promise((r) => setTimeout(r, 20)).then(() => assert.ok(keyed.keys()[0].startsWith("app:")));
});

test("ACP: the journal's records are under journalKey, and a failing storage is told to onJournalError", async () => {
  const init = { agentCapabilities: { _meta: { steering: { supported: true } } } };
  const request = (method) => (method === "_session/steering" ? Promise.reject(new Error("socket closed")) : new Promise(() => {}));
  const keyed = new MapStorage();
  const acp = new api.AcpSteering({ request, initialize: init, journal: keyed, journalKey: "app:" });
  acp.promptSent("s");
  await acp.send("s", input("use pnpm")).catch(() => {});
  assert.equal(keyed.keys().length, 1);
  assert.ok(keyed.keys()[0].startsWith("app:"), keyed.keys()[0]);
  const told = [];
  const full = new MapStorage();
  full.setItem = () => {
    throw new DOMException("the quota is used up", "QuotaExceededError");
  };
  const failing = new api.AcpSteering({ request, initialize: init, journal: full, onJournalError: (e) => told.push(e.name) });
  failing.promptSent("s");
  await failing.send("s", input("use bun")).catch(() => {});
  assert.deepEqual(told, ["QuotaExceededError"]);
});

test("ACP: a send whose answer is lost is recovered as unknown with its draft (an agent keeps no history to read)", async () => {
  const journal = new MapStorage();
  const init = { agentCapabilities: { _meta: { steering: { supported: true } } } };
  const request = (method) => (method === "_session/steering" ? Promise.reject(new Error("socket closed")) : new Promise(() => {}));
  const before = new api.AcpSteering({ request, initialize: init, journal });
  before.promptSent("s");
  const lost = await before.send("s", input("use pnpm")).catch((e) => e);
  assert.equal(lost.kind, "outcomeUnknown", lost.message);
  assert.equal(journal.keys().length, 1);
  const after = new api.AcpSteering({ request: () => new Promise(() => {}), initialize: init, journal });
  const [entry] = await after.recover();
  assert.equal(entry.sessionId, "s");
  assert.equal(entry.outcome, "unknown");
  assert.deepEqual(entry.draft, input("use pnpm"));
  after.forget(entry.messageId);
  assert.deepEqual(journal.keys(), []);
});
