// The front door (js/driver/front-door.js), as the package ships it: how a
// page's value is described for the engine, how a constructor's options and
// a call's arguments are read (each field once, within its budget), how a
// call's UI hooks run, and the bounded JSON reader under all of it
// (js/driver/json-text.js).
import { test, before, afterEach } from "node:test";
import assert from "node:assert/strict";
import { shippedModules } from "./pack.mjs";

let door;
let limits;
let json;
before(async () => {
  [door, { LIMITS: limits }, json] = await shippedModules("driver/front-door.js", "driver/limits.js", "driver/json-text.js");
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

/** The reason and kind of a refusal, or the text. */
const read = (value, units = 1000, depth = 64, keys) => {
  const out = json.jsonText(value, units, depth, keys);
  return typeof out === "string" ? out : { reason: out.reason, what: out.what };
};

test("JSON text is JSON's own, with undefined dropped from objects and null in arrays", () => {
  assert.equal(read({ a: 1, b: undefined, c: [true, undefined, null, "x"], d: false, e: -2.5 }), '{"a":1,"c":[true,null,null,"x"],"d":false,"e":-2.5}');
  assert.equal(read([]), "[]");
  assert.equal(read({}), "{}");
  assert.equal(read('q"\n'), JSON.stringify('q"\n'));
  const shared = { s: 1 };
  assert.equal(read({ a: shared, b: [shared] }), '{"a":{"s":1},"b":[{"s":1}]}', "a value seen twice is no cycle");
});

test("a toJSON method is called with the value's key, as JSON.stringify calls it", () => {
  const keyed = { toJSON: (key) => `key ${key}` };
  assert.equal(read({ d: keyed, l: [keyed] }), '{"d":"key d","l":["key 0"]}');
  assert.equal(read(keyed), '"key "');
  assert.equal(read(new Date(0)), '"1970-01-01T00:00:00.000Z"');
  assert.equal(read({ toJSON: 1, a: 2 }), '{"toJSON":1,"a":2}', "a toJSON that is no function is a field");
});

test("values JSON cannot carry are refused, saying why", () => {
  const cyclic = [];
  cyclic.push(cyclic);
  const cases = [
    [undefined, "the value is undefined"],
    [{ f() {} }, "a function is not JSON"],
    [[1n], "a BigInt is not JSON"],
    [{ s: Symbol("s") }, "a Symbol is not JSON"],
    [[NaN], "NaN is not a finite number"],
    [{ i: -Infinity }, "-Infinity is not a finite number"],
    [cyclic, "it contains itself (a cycle)"],
    [new Proxy([], { get: (t, k) => (k === "length" ? -1 : undefined) }), "an array with an invalid length"],
    [new Proxy([], { get: (t, k) => (k === "length" ? 1.5 : undefined) }), "an array with an invalid length"],
  ];
  for (const [value, reason] of cases) assert.deepEqual(read(value), { reason, what: "unreadable" }, reason);
});

test("nesting is refused past the depth limit, at the limit kept", () => {
  assert.equal(read([[1]], 100, 2), "[[1]]");
  assert.deepEqual(read([[[1]]], 100, 2), { reason: "nested deeper than 2 levels", what: "unreadable" });
  assert.equal(read({ a: { b: 1 } }, 100, 2), '{"a":{"b":1}}');
  assert.deepEqual(read({ a: { b: {} } }, 100, 2), { reason: "nested deeper than 2 levels", what: "unreadable" });
});

test("the size limit is in units of JSON text: up to it kept, past it refused as too large", () => {
  const tooLarge = (units) => ({ reason: `larger than ${units} characters of JSON`, what: "tooLarge" });
  assert.equal(read("ab", 4), '"ab"');
  assert.deepEqual(read("ab", 3), tooLarge(3));
  assert.equal(read(12345, 5), "12345");
  assert.deepEqual(read(12345, 4), tooLarge(4));
  assert.equal(read(null, 4), "null");
  assert.deepEqual(read(null, 3), tooLarge(3));
  assert.equal(read([1, 2], 5), "[1,2]");
  assert.deepEqual(read([1, 2], 4), tooLarge(4));
  assert.equal(read([undefined], 6), "[null]");
  assert.deepEqual(read([undefined], 5), tooLarge(5));
  assert.equal(read("", 2), '""');
  assert.deepEqual(read("", 1), tooLarge(1));
  assert.equal(read([1, 2, 3], 7), "[1,2,3]");
  assert.deepEqual(read([1, 2, 3], 6), tooLarge(6));
  assert.equal(read({ a: 1, b: 2, c: 3 }, 19), '{"a":1,"b":2,"c":3}');
  assert.deepEqual(read({ a: 1, b: 2, c: 3 }, 18), tooLarge(18));
});

test("a key left out still counts against the size limit, so reading stays bounded", () => {
  const skipped = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, undefined]));
  assert.equal(read(skipped, 102), "{}");
  assert.deepEqual(read(skipped, 101), { reason: "larger than 101 characters of JSON", what: "tooLarge" });
});

test("with keys, only those top-level keys are read, of an object only", () => {
  let reads = 0;
  const value = { a: 1, get b() { reads += 1; return 2; }, c: 3 };
  assert.equal(read(value, 100, 64, ["c", "a"]), '{"c":3,"a":1}');
  assert.equal(reads, 0);
  assert.equal(read({ a: { b: 1 } }, 100, 64, ["a"]), '{"a":{"b":1}}', "nested objects are read whole");
  assert.deepEqual(read([1], 100, 64, ["a"]), { reason: "an object is expected, not an array", what: "unreadable" });
  assert.equal(read({ a: 1 }, 100, 64, null), '{"a":1}');
});

test("a thrown value is described by its text or string message, cut at 1000 characters, else in generic words", () => {
  assert.equal(json.describe("boom"), "boom");
  assert.equal(json.describe(new Error("broken")), "broken");
  assert.equal(json.describe({ message: "m".repeat(1001) }), "m".repeat(1000));
  assert.equal(json.describe("s".repeat(1001)), "s".repeat(1000));
  for (const value of [undefined, null, 7, { message: 7 }, { message: ["not", "text"] }, new Proxy({}, { get() { throw new Error("trap"); } })]) {
    assert.equal(json.describe(value), "a value that cannot be described");
  }
  assert.deepEqual(read({ get a() { throw new Error("getter"); } }), { reason: "reading it threw: getter", what: "unreadable" });
  const thrown = new Proxy({}, { getPrototypeOf() { throw new Error("trap"); }, get() { throw new Error("trap"); } });
  assert.deepEqual(read({ get a() { throw thrown; } }), { reason: "reading it threw: a value that cannot be described", what: "unreadable" });
  const refusal = json.asRefusal(new json.Refusal("why", "tooLarge"));
  assert.deepEqual({ ...refusal }, { reason: "why", what: "tooLarge", field: "" });
});
