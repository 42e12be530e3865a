// The app's transport as the driver calls it (js/driver/host.js), as the
// package ships it: what a rejection's raw facts are, how a settlement is
// described for the engine, a give-up timer, at most one answer and never a
// synchronous one, and a transport that throws before anything is written.
import { test, before, afterEach } from "node:test";
import assert from "node:assert/strict";
import { shippedModules } from "./pack.mjs";

let host;
before(async () => {
  [host] = await shippedModules("driver/host.js");
});

const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, error: console.error };
afterEach(() => {
  Object.assign(globalThis, { setTimeout: real.setTimeout, clearTimeout: real.clearTimeout });
  console.error = real.error;
});

/** The facts `readRejection` reads, as the null-prototype record it returns. */
const facts = (fields) => Object.assign(Object.create(null), fields);

/** What `follow` or `callHost` hands `done`, awaited. */
function settlement(start) {
  return new Promise((resolve) => start((described, payload) => resolve({ described, payload })));
}

test("a rejection that is not an object is no object, no DOMException, and only described", () => {
  for (const error of ["boom", null, undefined, 42]) {
    const { facts: read, data } = host.readRejection(error);
    assert.equal(read.object, false, String(error));
    assert.equal(read.domException, false, String(error));
    assert.equal(typeof read.words, "string");
    assert.deepEqual(Object.keys(read).sort(), ["domException", "object", "words"]);
    assert.equal(data, undefined);
  }
});

test("an error object gives its name; without a safe integer code, nothing else", () => {
  for (const code of [undefined, 1.5, "-32000", 2 ** 60]) {
    const { facts: read, data } = host.readRejection({ name: "TypeError", code, message: "failed to fetch", data: { a: 1 } });
    assert.deepEqual(read, facts({ object: true, domException: false, words: read.words, name: "TypeError" }), String(code));
    assert.equal(data, undefined);
  }
});

test("an error answer gives its code, its message and its data's JSON text", () => {
  const { facts: read, data } = host.readRejection({ code: -32000, message: "busy", data: { retry: [1, "a"] } });
  assert.deepEqual(read, facts({ object: true, domException: false, words: read.words, code: -32000, message: "busy" }));
  assert.equal(data, '{"retry":[1,"a"]}');
});

test("a message or name that is not a string is absent, and the data is still read", () => {
  const { facts: read, data } = host.readRejection({ name: 7, code: 5, message: 42, data: "d" });
  assert.deepEqual(read, facts({ object: true, domException: false, words: read.words, code: 5 }));
  assert.equal(data, '"d"');
});

test("a name and a message are cut to 16,384 UTF-16 units", () => {
  const long = "x".repeat(20_000);
  const { facts: read } = host.readRejection({ name: long, code: 1, message: long });
  assert.equal(read.name.length, 16_384);
  assert.equal(read.message.length, 16_384);
});

test("error data too large to read, or unreadable, is absent; the code and message stay", () => {
  const big = host.readRejection({ code: 1, message: "m", data: "y".repeat(100) }, 10);
  assert.equal(big.data, undefined);
  assert.equal(big.facts.code, 1);
  const cyclic = { code: 2, message: "m" };
  cyclic.data = cyclic;
  const unreadable = host.readRejection(cyclic);
  assert.equal(unreadable.data, undefined);
  assert.equal(unreadable.facts.message, "m");
});

test("a DOMException is one, with its name and legacy code", () => {
  const { facts: read } = host.readRejection(new DOMException("The operation was aborted", "AbortError"));
  assert.equal(read.domException, true);
  assert.equal(read.name, "AbortError");
  assert.equal(read.code, 20);
  assert.equal(read.message, "The operation was aborted");
});

test("a hostile rejection reads as an object with nothing readable, and never throws", () => {
  const hostile = new Proxy({}, {
    get() { throw new Error("get"); },
    getPrototypeOf() { throw new Error("prototype"); },
    has() { throw new Error("has"); },
    getOwnPropertyDescriptor() { throw new Error("descriptor"); },
  });
  const { facts: read, data } = host.readRejection(hostile);
  assert.equal(read.object, true);
  assert.equal(read.name, undefined);
  assert.equal(read.code, undefined);
  assert.equal(data, undefined);
});

test("a resolved answer is its JSON text; undefined or unreadable is described, with no text", async () => {
  assert.deepEqual(await settlement((done) => host.follow(Promise.resolve({ ok: [true] }), 1000, -1, done)), { described: { how: "result" }, payload: '{"ok":[true]}' });
  assert.deepEqual(await settlement((done) => host.follow(Promise.resolve(undefined), 1000, -1, done)), { described: { how: "unreadable", words: "the answer was undefined" }, payload: "" });
  const tooBig = await settlement((done) => host.follow(Promise.resolve("z".repeat(50)), 10, -1, done));
  assert.equal(tooBig.described.how, "unreadable");
  assert.equal(typeof tooBig.described.words, "string");
  assert.notEqual(tooBig.described.words, "");
  assert.equal(tooBig.payload, "");
});

test("a rejection is its facts, with the data's text or an empty payload", async () => {
  const withData = await settlement((done) => host.follow(Promise.reject({ code: -32601, message: "nope", data: [1] }), 1000, -1, done));
  assert.equal(withData.described.how, "rejected");
  assert.equal(withData.described.rejection.code, -32601);
  assert.equal(withData.payload, "[1]");
  const without = await settlement((done) => host.follow(Promise.reject(new TypeError("gone")), 1000, -1, done));
  assert.equal(without.described.rejection.name, "TypeError");
  assert.equal(without.payload, "");
});

test("a plain value, a thenable and a hostile promise are followed too", async () => {
  assert.deepEqual(await settlement((done) => host.follow(5, 1000, -1, done)), { described: { how: "result" }, payload: "5" });
  const thenable = { then: (resolve) => resolve("later") };
  assert.deepEqual(await settlement((done) => host.follow(thenable, 1000, -1, done)), { described: { how: "result" }, payload: '"later"' });
  const hostile = new Proxy(Promise.resolve(1), { getPrototypeOf() { throw new Error("prototype"); }, get() { throw new Error("then"); } });
  const read = await settlement((done) => host.follow(hostile, 1000, -1, done));
  assert.equal(read.described.how, "rejected");
});

test("a native promise's answer comes in one microtask, never synchronously", async () => {
  const order = [];
  const ready = Promise.resolve({});
  const chain = Promise.resolve().then(() => order.push("tick 1")).then(() => order.push("tick 2"));
  host.follow(ready, 1000, -1, () => order.push("answer"));
  order.push("returned");
  await chain;
  assert.deepEqual(order, ["returned", "tick 1", "answer", "tick 2"]);
});

test("a thenable that answers at once is still told a microtask later", async () => {
  let told = false;
  const answer = settlement((done) => host.follow({ then: (resolve) => resolve("now") }, 1000, -1, (...args) => { told = true; done(...args); }));
  assert.equal(told, false);
  assert.deepEqual(await answer, { described: { how: "result" }, payload: '"now"' });
});

test("with a give-up time, a transport that never settles ends as a timeout, once", async () => {
  for (const giveUpMs of [0, 5]) {
    let answers = 0;
    const first = await settlement((done) => host.follow(new Promise(() => {}), 1000, giveUpMs, (...args) => (answers++, done(...args))));
    assert.deepEqual(first, { described: { how: "timeout" }, payload: "" });
    assert.equal(answers, 1);
  }
});

test("an answer after the give-up time is dropped, and an answer before it clears the timer", async () => {
  let late;
  const answers = [];
  await settlement((done) => host.follow(new Promise((resolve) => (late = resolve)), 1000, 1, (d, p) => (answers.push(d.how), done(d, p))));
  late("too late");
  await new Promise((resolve) => real.setTimeout(resolve, 5));
  assert.deepEqual(answers, ["timeout"]);

  const armed = [];
  const cleared = [];
  globalThis.setTimeout = (callback, delay) => (armed.push({ callback, delay }), armed.length);
  globalThis.clearTimeout = (handle) => cleared.push(handle);
  const answered = await settlement((done) => host.follow(Promise.resolve(1), 1000, 60_000, done));
  assert.equal(answered.described.how, "result");
  assert.deepEqual(armed.map((t) => t.delay), [60_000]);
  assert.deepEqual(cleared, [1]);
});

test("without a give-up time no timer is armed", async () => {
  const armed = [];
  globalThis.setTimeout = (callback, delay) => (armed.push(delay), 1);
  await settlement((done) => host.follow(Promise.resolve(1), 1000, -1, done));
  assert.deepEqual(armed, []);
});

test("a `done` that throws is reported, never thrown", async () => {
  const reports = [];
  console.error = (...args) => reports.push(args);
  host.follow(Promise.resolve(1), 1000, -1, () => { throw new Error("listener"); });
  host.callHost(() => { throw new Error("transport"); }, "m", {}, undefined, () => { throw new Error("listener 2"); });
  await new Promise((resolve) => real.setTimeout(resolve, 5));
  assert.deepEqual(reports.map(([what, error]) => [what, error.message]), [
    ["renderer-steering: delivering an answer failed", "listener"],
    ["renderer-steering: delivering an answer failed", "listener 2"],
  ]);
});

test("the app's request gets the options argument only when there are options", async () => {
  const calls = [];
  const request = (...args) => (calls.push(args), Promise.resolve(null));
  await settlement((done) => host.callHost(request, "turn/steer", { a: 1 }, undefined, done));
  await settlement((done) => host.callHost(request, "turn/steer", { a: 1 }, { signal: "s" }, done));
  assert.deepEqual(calls, [["turn/steer", { a: 1 }], ["turn/steer", { a: 1 }, { signal: "s" }]]);
});

test("a request that throws is not sent, told a microtask later with what it threw", async () => {
  let told;
  const answer = settlement((done) => host.callHost(() => { throw new Error("socket closed"); }, "turn/steer", {}, undefined, (...args) => { told = true; done(...args); }));
  assert.equal(told, undefined, "never synchronously");
  const { described, payload } = await answer;
  assert.equal(described.how, "notSent");
  assert.match(described.words, /socket closed/);
  assert.equal(payload, "");
});

test("a request's answer is read up to the answer limit", async () => {
  const { described, payload } = await settlement((done) => host.callHost(() => Promise.resolve({ text: "ok" }), "m", {}, undefined, done));
  assert.equal(described.how, "result");
  assert.equal(payload, '{"text":"ok"}');
});
