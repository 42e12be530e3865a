// The driver's smaller rules, each pinned where it could silently change:
// what the journal reads back from the app's Web Storage (and what it stops
// touching once the storage failed). The packed package in Node.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { MapStorage, watchStorage } from "./map-storage.mjs";
import { packAndInstall } from "./pack.mjs";

let api;
let LIMITS;
before(async () => {
  const pack = packAndInstall();
  api = await import(pack.entry);
  ({ LIMITS } = await import(pathToFileURL(join(pack.shipped, "driver", "limits.js")).href));
  await api.init();
});

const input = (text) => [{ type: "text", text }];
const args = (text, id) => ({ threadId: "t", expectedTurnId: "turn-1", input: input(text), clientUserMessageId: id });

/** A host whose turn/steer answers or loses its answer; thread/read shows the message delivered. */
function host(steer = "answer") {
  const calls = [];
  const request = (method, params) => {
    calls.push(method);
    if (method === "codexhost/thread/steering/inspect") return Promise.resolve({ delivery: "activeTurn" });
    if (method === "turn/steer") return steer === "answer" ? Promise.resolve({ turnId: "turn-1" }) : Promise.reject(new Error("socket closed"));
    if (method === "thread/read") {
      const items = [{ type: "userMessage", clientId: "m-1", content: [{ type: "text", text: "use pnpm" }] }];
      return Promise.resolve({ thread: { id: "t", turns: [{ id: "turn-1", status: "completed", items }] } });
    }
    return Promise.reject({ code: -32601, message: "Method not found" });
  };
  return { request, calls };
}

/** A storage holding the record of a steer whose answer was lost ("m-1", "use pnpm"). */
async function journalWithRecord() {
  const journal = new MapStorage();
  const steering = new api.CodexhostSteering({ request: host("lose").request, journal });
  const lost = await steering.steer(args("use pnpm", "m-1")).catch((e) => e);
  assert.equal(lost.kind, "outcomeUnknown");
  assert.equal(journal.keys().length, 1);
  return journal;
}

const DELIVERED = [{ threadId: "t", clientUserMessageId: "m-1", draft: input("use pnpm"), outcome: "delivered" }];

test("a journal whose storage failed is not touched again: no more writes or removals, and the app is told once", async () => {
  const journal = new MapStorage();
  const calls = [];
  journal.setItem = (key) => {
    calls.push(["setItem", key]);
    throw new Error("QuotaExceededError");
  };
  const removeItem = journal.removeItem.bind(journal);
  journal.removeItem = (key) => {
    calls.push(["removeItem", key]);
    removeItem(key);
  };
  const told = [];
  const steering = new api.CodexhostSteering({ request: host().request, journal, onJournalError: (e) => told.push(e.message) });
  await steering.steer(args("one", "m-5"));
  await steering.steer(args("two", "m-6"));
  assert.deepEqual(calls.map(([name]) => name), ["setItem"], "only the first write was tried");
  assert.deepEqual(told, ["QuotaExceededError"]);
});

test("recover() reads back a record the journal kept, and a failed journal's recover() reads nothing more", async () => {
  const journal = await journalWithRecord();
  assert.deepEqual(await new api.CodexhostSteering({ request: host().request, journal }).recover(), DELIVERED);
  // A storage that failed on a write is not listed afterwards.
  const failing = await journalWithRecord();
  failing.setItem = () => {
    throw new Error("QuotaExceededError");
  };
  let listed = 0;
  const key = failing.key.bind(failing);
  failing.key = (i) => {
    listed += 1;
    return key(i);
  };
  const steering = new api.CodexhostSteering({ request: host().request, journal: failing, onJournalError: () => {} });
  await steering.steer(args("another", "m-2"));
  assert.deepEqual(await steering.recover(), []);
  assert.equal(listed, 0, "the failed storage was not listed");
});

test("a storage that cannot be listed fails recover() into nothing, is told once, and is not touched again", async () => {
  const journal = await journalWithRecord();
  const touched = watchStorage(journal, "key", "SecurityError");
  const told = [];
  const steering = new api.CodexhostSteering({ request: host().request, journal, onJournalError: (e) => told.push(e.message) });
  assert.deepEqual(await steering.recover(), []);
  assert.equal((await steering.steer(args("another", "m-2"))).turnId, "turn-1", "steering goes on");
  assert.deepEqual(await steering.recover(), []);
  assert.deepEqual([touched, told], [["key"], ["SecurityError"]]);
});

test("a storage whose length is not a positive safe integer lists nothing", async () => {
  for (const length of ["1", 1.5, -1, Number.NaN, 2 ** 53]) {
    const journal = await journalWithRecord();
    let listed = 0;
    Object.defineProperty(journal, "length", { get: () => length });
    const key = journal.key.bind(journal);
    journal.key = (i) => {
      listed += 1;
      return key(i);
    };
    assert.deepEqual(await new api.CodexhostSteering({ request: host().request, journal }).recover(), [], String(length));
    assert.equal(listed, 0, String(length));
  }
});

test("an entry another window removes while this one lists the storage is passed over: the other records recover and nothing fails", async () => {
  const journal = await journalWithRecord();
  const [key] = journal.keys();
  const gone = key.replace("m-1", "m-9");
  journal.setItem(gone, journal.getItem(key));
  const getItem = journal.getItem.bind(journal);
  // Listed, then removed before it is read: its getItem answers null.
  journal.getItem = (k) => (k === gone ? null : getItem(k));
  // One key more than it holds, as while another window removes one: key(i) answers null.
  const size = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(journal), "length").get;
  Object.defineProperty(journal, "length", { get: () => size.call(journal) + 1 });
  const told = [];
  const steering = new api.CodexhostSteering({ request: host("lose").request, journal, onJournalError: (e) => told.push(e) });
  assert.deepEqual(await steering.recover(), DELIVERED);
  assert.deepEqual(told, [], "the app is not told of a failure");
  assert.equal((await steering.steer(args("another", "m-2")).catch((e) => e)).kind, "outcomeUnknown");
  assert.ok(journal.keys().some((k) => k.includes("m-2")), "the journal is still on: an unsettled steer is recorded");
});

test("a recovery reads at most the driver's bound of keys under the prefix; the engine drops what it read of them", async () => {
  const journal = await journalWithRecord();
  const [key] = journal.keys();
  const over = LIMITS.journalKeys + 50;
  for (let i = 0; i < over; i++) journal.setItem(key.replace("m-1", `g-${i}`), "garbage");
  let read = 0;
  const getItem = journal.getItem.bind(journal);
  journal.getItem = (k) => {
    read += 1;
    return getItem(k);
  };
  await new api.CodexhostSteering({ request: host().request, journal }).recover();
  assert.equal(read, LIMITS.journalKeys);
  assert.equal(journal.keys().length, over + 1 - LIMITS.journalKeys, "what was read and is not a record is removed; the rest waits");
});

test("only keys under the journal's prefix are read, and a record longer than the longest one kept is dropped unread", async () => {
  const journal = await journalWithRecord();
  const [key] = journal.keys();
  const read = [];
  const getItem = journal.getItem.bind(journal);
  journal.getItem = (k) => {
    read.push(k);
    return getItem(k);
  };
  journal.setItem("someone-else", "x");
  const padded = await journalWithRecord();
  const [paddedKey] = padded.keys();
  // Still valid JSON, but longer than any record the engine writes.
  padded.setItem(paddedKey, padded.getItem(paddedKey) + " ".repeat(400_000));
  assert.deepEqual(await new api.CodexhostSteering({ request: host().request, journal }).recover(), DELIVERED);
  assert.deepEqual(read, [key], "the foreign key is never read");
  assert.deepEqual(await new api.CodexhostSteering({ request: host().request, journal: padded }).recover(), []);
});

test("a record as long as the bound is read; one unit longer is dropped", async () => {
  for (const [extra, expected] of [[0, DELIVERED], [1, []]]) {
    const journal = await journalWithRecord();
    const [key] = journal.keys();
    const record = journal.getItem(key);
    journal.setItem(key, record + " ".repeat(LIMITS.journalRecordUnits - record.length + extra));
    assert.deepEqual(await new api.CodexhostSteering({ request: host().request, journal }).recover(), expected, `bound + ${extra}`);
    assert.deepEqual(journal.keys(), [], "read and settled, or dropped: removed either way");
  }
});

test("a journal failure with no onJournalError is logged once; an onJournalError that throws is logged and changes nothing", async (t) => {
  const logged = [];
  t.mock.method(console, "error", (...a) => logged.push(String(a[0])));
  for (const onJournalError of [undefined, () => { throw new Error("the app's handler broke"); }]) {
    logged.length = 0;
    const journal = new MapStorage();
    journal.setItem = () => {
      throw new Error("QuotaExceededError");
    };
    const steering = new api.CodexhostSteering({ request: host().request, journal, onJournalError });
    assert.equal((await steering.steer(args("one", "m-5"))).turnId, "turn-1");
    assert.equal((await steering.steer(args("two", "m-6"))).turnId, "turn-1");
    const expected = onJournalError ? "renderer-steering: onJournalError threw" : "renderer-steering: the journal failed; steering goes on without it";
    assert.deepEqual(logged, [expected]);
  }
});
