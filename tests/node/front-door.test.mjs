// The front door (js/driver/front-door.js), as the package ships it: how a
// page's value is described for the engine, how a constructor's options and
// a call's arguments are read (each field once, within its budget), and how
// a call's UI hooks run.
import { test, before, afterEach } from "node:test";
import assert from "node:assert/strict";
import { shippedModules } from "./pack.mjs";

let door;
let limits;
before(async () => {
  [door, { LIMITS: limits }] = await shippedModules("driver/front-door.js", "driver/limits.js");
});

const realError = console.error;
afterEach(() => {
  console.error = realError;
});

test("a value is described by its type, with its text, number or length", () => {
  const cases = [
    ["abc", { t: "string", s: "abc" }],
    ["x".repeat(64), { t: "string", s: "x".repeat(64) }],
    ["x".repeat(65), { t: "string", units: 65 }],
    [2.5, { t: "number", n: 2.5 }],
    [NaN, { t: "number", s: "NaN" }],
    [-Infinity, { t: "number", s: "-Infinity" }],
    [true, { t: "boolean", s: "true" }],
    [false, { t: "boolean", s: "false" }],
    [undefined, { t: "undefined" }],
    [null, { t: "null" }],
    [{ then() {} }, { t: "object" }],
    [[], { t: "object" }],
    [() => {}, { t: "function" }],
    [1n, { t: "bigint" }],
    [Symbol("s"), { t: "symbol" }],
  ];
  for (const [value, expected] of cases) assert.deepEqual(door.described(value), expected, String(value));
});

test("a thenable is one only where asked, and only when its then is a function", () => {
  assert.deepEqual(door.described({ then() {} }, 64, true), { t: "thenable" });
  assert.deepEqual(door.described({ then: 1 }, 64, true), { t: "object" });
  assert.deepEqual(door.described(null, 64, true), { t: "null" });
});

test("an id is whole up to the id limit", () => {
  assert.deepEqual(door.describedId("i".repeat(limits.idUnits)), { t: "string", s: "i".repeat(limits.idUnits) });
  assert.deepEqual(door.describedId("i".repeat(limits.idUnits + 1)), { t: "string", units: limits.idUnits + 1 });
});

test("options that are not an object are described, and no field is read", () => {
  for (const options of [null, undefined, "fast", 3]) {
    const { read, values, kinds } = door.readOptions(options, ["request"]);
    assert.deepEqual(read, { options: door.described(options), fields: [] });
    assert.deepEqual(Object.keys(values), []);
    assert.deepEqual(Object.keys(kinds), []);
  }
});

test("each named option is read once, described, and kept as given, in records without a prototype", () => {
  let reads = 0;
  const request = () => {};
  const options = {
    get request() {
      reads += 1;
      return request;
    },
    initialize: { then() {} },
    other: { then() {} },
  };
  const { read, values, kinds } = door.readOptions(options, ["request", "initialize", "other", "missing"]);
  assert.equal(reads, 1);
  assert.equal(values.request, request);
  assert.deepEqual(read.fields, [
    ["request", { t: "function" }],
    ["initialize", { t: "thenable" }],
    ["other", { t: "object" }],
    ["missing", { t: "undefined" }],
  ]);
  assert.deepEqual({ ...kinds }, { request: "function", initialize: "thenable", other: "object", missing: "undefined" });
  assert.equal(Object.getPrototypeOf(values), null);
  assert.equal(Object.getPrototypeOf(kinds), null);
  assert.equal("timeoutKeys" in read, false);
  assert.equal("journalMethods" in read, false);
});

test("options given as a function are read like an object", () => {
  const options = Object.assign(() => {}, { request: 1 });
  assert.deepEqual(door.readOptions(options, ["request"]).read.fields, [["request", { t: "number", n: 1 }]]);
});

test("timeouts are read with their first keys and each named timeout, only when an object", () => {
  const { read } = door.readOptions({ timeouts: { steerMs: 5, a: 1, b: 2, c: 3, d: 4 } }, ["timeouts"]);
  assert.deepEqual(read.timeoutKeys, ["steerMs", "a", "b", "c"]);
  assert.deepEqual(read.timeouts, limits.timeoutNames.map((name) => [name, name === "steerMs" ? { t: "number", n: 5 } : { t: "undefined" }]));
  const unlisted = door.readOptions({ timeouts: new Proxy({}, { ownKeys() { throw new Error("keys"); } }) }, ["timeouts"]).read;
  assert.equal(unlisted.timeoutKeys, null, "keys that cannot be listed read as null");
  for (const timeouts of [null, 5, () => {}]) {
    const { read: other } = door.readOptions({ timeouts }, ["timeouts"]);
    assert.equal("timeoutKeys" in other, false, String(timeouts));
    assert.equal("timeouts" in other, false, String(timeouts));
  }
});

test("a journal's methods are read once each and kept, only when it is an object", () => {
  const getItem = () => null;
  const journal = { getItem, setItem: 1 };
  const { read, values } = door.readOptions({ journal }, ["journal"]);
  assert.deepEqual(read.journalMethods, limits.journalMethods.map((name) => [name, name === "getItem" ? { t: "function" } : name === "setItem" ? { t: "number", n: 1 } : { t: "undefined" }]));
  assert.equal(values.journalMethods.getItem, getItem);
  assert.equal(Object.getPrototypeOf(values.journalMethods), null);
  for (const other of [null, "storage"]) {
    const { read: none, values: kept } = door.readOptions({ journal: other }, ["journal"]);
    assert.equal("journalMethods" in none, false);
    assert.equal(kept.journalMethods, undefined);
  }
});

test("a relayed host value is its JSON text, only the keys asked, or why not", () => {
  assert.deepEqual(door.hostValue({ a: 1, b: [2] }), [undefined, '{"a":1,"b":[2]}']);
  assert.deepEqual(door.hostValue({ a: 1, b: [2] }, ["b"]), [undefined, '{"b":[2]}']);
  const cyclic = {};
  cyclic.self = cyclic;
  const [refused, payload] = door.hostValue(cyclic);
  assert.equal(typeof refused.reason, "string");
  assert.notEqual(refused.reason, "");
  assert.equal(payload, "");
  assert.equal(door.hostValue(undefined)[0].reason, "the value is undefined");
});

test("a draft is an array's JSON text, or refused: undefined, not an array, a revoked Proxy, too large", () => {
  assert.deepEqual(door.draftText([{ type: "text", text: "hi" }]), [undefined, '[{"type":"text","text":"hi"}]']);
  assert.deepEqual(door.draftText(undefined), [{ reason: "the value is undefined" }, ""]);
  assert.deepEqual(door.draftText("hi"), [{ reason: "", what: "notAnArray" }, ""]);
  const { proxy, revoke } = Proxy.revocable([], {});
  revoke();
  const [revoked, none] = door.draftText(proxy);
  assert.match(revoked.reason, /^reading it threw: /);
  assert.equal(none, "");
  const [tooLarge, empty] = door.draftText(["d".repeat(limits.draftUnits + 1)]);
  assert.equal(typeof tooLarge.reason, "string");
  assert.equal(empty, "");
});

const FIELDS = [["threadId", 100], ["input", 1000]];

test("a call's fields are read once each into one JSON text; the caller's values are kept by identity", () => {
  let reads = 0;
  const input = [{ type: "text", text: "use pnpm" }];
  const requestOptions = { timeoutMs: 5 };
  const args = {
    threadId: "t1",
    get input() {
      reads += 1;
      return input;
    },
    requestOptions,
  };
  const record = door.readCall(args, FIELDS);
  assert.equal(reads, 1);
  assert.equal(record.text, '{"threadId":"t1","input":[{"type":"text","text":"use pnpm"}]}');
  assert.equal(record.refused, undefined);
  assert.equal(record.input, input);
  assert.equal(record.threadId, "t1");
  assert.equal(record.requestOptions, requestOptions);
  assert.deepEqual(record.timeoutMs, { t: "number", n: 5 });
});

test("a call without requestOptions, or with ones that are no object, has no timeout", () => {
  for (const requestOptions of [undefined, null, 7]) {
    const record = door.readCall({ threadId: "t", input: [], requestOptions }, FIELDS);
    assert.deepEqual(record.timeoutMs, { t: "undefined" }, String(requestOptions));
    assert.equal(record.requestOptions, requestOptions);
  }
});

test("arguments that are not an object read every field as absent", () => {
  for (const args of [null, "t1", 5]) {
    const record = door.readCall(args, [["threadId", 100]]);
    assert.equal(record.text, "{}");
    assert.equal(record.threadId, undefined);
    assert.equal(record.requestOptions, undefined);
  }
  const fn = Object.assign(() => {}, { threadId: "t2" });
  assert.equal(door.readCall(fn, [["threadId", 100]]).text, '{"threadId":"t2"}');
});

test("an input that is missing or not an array refuses the call, naming the field", () => {
  assert.deepEqual(door.readCall({ threadId: "t" }, FIELDS).refused, { field: "input", reason: "the value is undefined", what: "unreadable" });
  const notArray = door.readCall({ threadId: "t", input: "text" }, FIELDS);
  assert.deepEqual(notArray.refused, { field: "input", reason: "", what: "notAnArray" });
  assert.equal(notArray.input, "text", "the caller's value is kept to hand back");
  assert.equal(notArray.text, "");
});

test("a field over its budget refuses the call, naming it", () => {
  const record = door.readCall({ threadId: "t".repeat(101), input: [] }, FIELDS);
  assert.equal(record.refused.field, "threadId");
  assert.equal(typeof record.refused.reason, "string");
  assert.equal(record.text, "");
});

test("a call's hooks are kept when they are functions; hooks that cannot be read are none", () => {
  const present = () => {};
  const record = door.readCall({ input: [] }, FIELDS, { present, retract: "no", reconcile: undefined, other: () => {} });
  assert.deepEqual(Object.keys(record.hooks), ["present"]);
  assert.equal(record.hooks.present, present);
  assert.equal(Object.getPrototypeOf(record.hooks), null);
  for (const hooks of [undefined, null, new Proxy({}, { get() { throw new Error("get"); } })]) {
    assert.deepEqual(Object.keys(door.readCall({ input: [] }, FIELDS, hooks).hooks), []);
  }
  const sent = door.sendHooks({ accepted: present, unconfirmed: present, present });
  assert.deepEqual(Object.keys(sent.hooks), ["accepted", "unconfirmed"]);
  assert.equal(Object.getPrototypeOf(sent.hooks), null);
});

/** A record whose hooks log their calls. */
function loggedHooks(names) {
  const calls = [];
  const hooks = {};
  for (const name of names) hooks[name] = (...args) => calls.push([name, ...args]);
  return { record: door.readCall({ input: [] }, FIELDS, hooks), calls };
}

test("a hook gets its arguments: present and unconfirmed one, retract none, reconcile two", () => {
  const { record, calls } = loggedHooks(["present", "retract", "reconcile", "unconfirmed"]);
  door.callHook(record, "present", "shown", "extra");
  door.callHook(record, "retract", "ignored");
  door.callHook(record, "reconcile", "from", "to");
  door.callHook(record, "unconfirmed", "shown");
  assert.deepEqual(calls, [["present", "shown"], ["retract"], ["reconcile", "from", "to"], ["unconfirmed", "shown"]]);
});

test("without a reconcile hook, a reconcile is a retract then a present of the new form", () => {
  const { record, calls } = loggedHooks(["present", "retract"]);
  door.callHook(record, "reconcile", "from", "to");
  assert.deepEqual(calls, [["retract"], ["present", "to"]]);
});

test("a missing record or hook does nothing; a throwing hook is reported, never thrown", () => {
  door.callHook(undefined, "present", "x");
  door.callHook(undefined, "reconcile", "a", "b");
  const reports = [];
  console.error = (...args) => reports.push(args);
  const record = door.readCall({ input: [] }, FIELDS, { present: () => { throw new Error("ui"); } });
  door.callHook(record, "present", "x");
  door.callHook(record, "retract");
  assert.deepEqual(reports.map(([what, error]) => [what, error.message]), [["renderer-steering: a presentation hook threw", "ui"]]);
});
