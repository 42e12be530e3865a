// Writes to the page's shared built-in prototypes (prototype pollution
// through a deep merge; hardening such as a frozen Error.prototype) change
// nothing the engine reads or returns: fields found only on a shared
// prototype are no fields (`js/driver/fields.js` `fieldOf`), and a SteeringError's
// fields are defined, not assigned. Each case in its own Node process
// (pollution is process-wide). The packed package. The reader itself is also
// tested in this process, over names the shared prototypes have without any
// pollution (`toString`, `map`, `message`).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { packAndInstall } from "./pack.mjs";

let entry;
let fields;
before(async () => {
  const pkg = packAndInstall();
  entry = pkg.entry;
  fields = await import(pathToFileURL(join(pkg.shipped, "driver", "fields.js")).href);
});

function run(pollute, body) {
  const src = `
    const api = await import(${JSON.stringify(entry)}); await api.init();
    const { RequestManager } = await import(${JSON.stringify(new URL("./fake-manager.mjs", import.meta.url).href)});
    ${pollute}
    const sent = [];
    const input = () => [{ type: "text", text: "use pnpm" }];
    ${body}
    process.exit(0);
  `;
  const out = spawnSync(process.execPath, ["--input-type=module", "-e", src], { encoding: "utf8", timeout: 30_000 });
  assert.equal(out.status, 0, out.stderr.slice(0, 1500));
  return JSON.parse(out.stdout.trim().split("\n").pop());
}

const inspectThen = (then) => `(m, p) => { sent.push(m);
  return m === "codexhost/thread/steering/inspect" ? Promise.resolve({ delivery: "activeTurn" }) : ${then}; }`;

test("Object.prototype.code: a lost connection after turn/steer is still outcomeUnknown, not the host's refusal", () => {
  const result = run(`Object.prototype.code = -32000;`, `
    const s = new api.CodexhostSteering({ request: ${inspectThen(`Promise.reject(new Error("socket closed"))`)} });
    const e = await s.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() }).then(() => null, (e) => e);
    console.log(JSON.stringify({ kind: e?.kind }));
  `);
  assert.equal(result.kind, "outcomeUnknown");
});

test("Object.prototype.clientUserMessageId: two messages without an id are both sent", () => {
  const result = run(`Object.prototype.clientUserMessageId = "polluted";`, `
    const s = new api.CodexhostSteering({ request: ${inspectThen(`Promise.resolve({ turnId: "turn-1" })`)} });
    const steer = () => s.steer({ threadId: "t", expectedTurnId: "turn-1", input: [{ type: "text", text: "yes" }] });
    await steer();
    const second = await steer();
    console.log(JSON.stringify({ path: second.trace.path, steers: sent.filter((m) => m === "turn/steer").length }));
  `);
  assert.notEqual(result.path, "alreadyDelivered");
  assert.equal(result.steers, 2);
});

test("Object.prototype.allowPromptHandoff: the handoff kill-switch stays off", () => {
  const result = run(`Object.prototype.allowPromptHandoff = true;`, `
    const initialize = { agentCapabilities: { _meta: { claudeCode: { promptQueueing: true } } } };
    const a = new api.AcpSteering({ request: (m) => { sent.push(m); return new Promise(() => {}); }, initialize });
    a.promptSent("s");
    a.send("s", input()).catch(() => {});
    await new Promise((r) => setTimeout(r, 50));
    console.log(JSON.stringify({ sent }));
  `);
  assert.deepEqual(result.sent, [], "no concurrent session/prompt the app never allowed");
});

test("hooks on Object.prototype are no hooks; a hooks object's class methods are", () => {
  const result = run(`Object.prototype.present = () => { globalThis.polluted = true; };`, `
    class Ui { retract() {} unconfirmed() {} present() { globalThis.classHook = true; } }
    const s = new api.CodexhostSteering({ request: ${inspectThen(`Promise.resolve({ turnId: "turn-1" })`)} });
    await s.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() }, {});
    const polluted = globalThis.polluted === true;
    await s.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() }, new Ui());
    console.log(JSON.stringify({ polluted, classHook: globalThis.classHook === true }));
  `);
  assert.deepEqual(result, { polluted: false, classHook: true });
});

for (const [name, pollute] of [
  ["Error.prototype frozen", `Object.freeze(Error.prototype);`],
  ["setters for the fields on Object.prototype", `for (const k of ["kind", "draft", "name", "code", "trace"]) Object.defineProperty(Object.prototype, k, { set() {}, get() { return undefined; }, configurable: true });`],
]) {
  test(`${name}: every rejection is still a SteeringError with its kind and draft`, () => {
    const result = run(pollute, `
      const s = new api.CodexhostSteering({ request: ${inspectThen(`Promise.reject({ code: -32000, message: "refused" })`)} });
      const draft = input();
      const host = await s.steer({ threadId: "t", expectedTurnId: "turn-1", input: draft }).then(() => null, (e) => e);
      const invalid = await s.steer({ threadId: "t", input: 42 }).then(() => null, (e) => e);
      console.log(JSON.stringify({
        host: [host.kind, host.name, host instanceof api.SteeringError, api.isSteeringError(host, "host"), host.draft === draft, host.code],
        invalid: [invalid.kind, api.isSteeringError(invalid, "invalidInput"), invalid.draft],
      }));
    `);
    assert.deepEqual(result.host, ["host", "SteeringError", true, true, true, -32000]);
    assert.deepEqual(result.invalid, ["invalidInput", true, 42]);
  });
}

test("Object.prototype.toJSON does not replace the words that are sent", () => {
  const result = run(
    `Object.defineProperty(Object.prototype, "toJSON", { value() { return Array.isArray(this) || this.type !== "text" ? this : { type: "text", text: "rm -rf" }; }, configurable: true, writable: true });`,
    `
    const params = [];
    const s = new api.CodexhostSteering({ request: (m, p) => { sent.push(m); params.push(p);
      return m === "codexhost/thread/steering/inspect" ? Promise.resolve({ delivery: "activeTurn" }) : Promise.resolve({ turnId: "turn-1" }); } });
    await s.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() });
    console.log(JSON.stringify({ text: params[sent.indexOf("turn/steer")].input[0].text }));
  `,
  );
  assert.equal(result.text, "use pnpm");
});

test("desktop hook: Object.prototype.id does not become every newTurn steer's clientUserMessageId", () => {
  const result = run(`Object.prototype.id = "polluted";`, `
    const answers = { "codexhost/thread/steering/inspect": { delivery: "newTurn" }, "turn/steer": { turnId: "turn-2" }, "turn/start": { turn: { id: "turn-3" } } };
    const manager = new RequestManager(answers);
    api.installDesktopSteering(manager);
    const restore = () => ({ context: { collaborationMode: "pair", commentAttachments: [] }, cwd: "/repo" });
    await manager.steerTurn("t", [{ type: "text", text: "first" }], restore(), "fast");
    await manager.steerTurn("t", [{ type: "text", text: "second, different" }], restore(), "fast");
    console.log(JSON.stringify({ ids: manager.sent.filter((s) => s.method === "turn/steer").map((s) => s.params.clientUserMessageId) }));
  `);
  assert.equal(result.ids.length, 2);
  assert.notEqual(result.ids[0], result.ids[1], "two messages under one id: a deduplicating host drops the second");
});

test("desktop hook: a setter for codexhostSteerDelivery on Object.prototype does not drop the delivery tag", () => {
  const result = run(`Object.defineProperty(Object.prototype, "codexhostSteerDelivery", { set() {}, get() { return undefined; }, configurable: true });`, `
    const manager = new RequestManager({ "codexhost/thread/steering/inspect": { delivery: "activeTurn" }, "turn/steer": { turnId: "turn-1" } });
    api.installDesktopSteering(manager);
    const restore = { id: "r-1", context: { collaborationMode: "pair", commentAttachments: [] }, cwd: "/repo" };
    await manager.steerTurn("t", [{ type: "text", text: "use pnpm" }], restore, "fast", undefined, "m-1");
    const steer = manager.sent.find((s) => s.method === "turn/steer");
    console.log(JSON.stringify({ tag: Object.getOwnPropertyDescriptor(steer.params, "codexhostSteerDelivery")?.value, wire: JSON.parse(JSON.stringify(steer.params)).codexhostSteerDelivery }));
  `);
  assert.deepEqual(result, { tag: "activeTurn", wire: "activeTurn" }, "the steer went without the tag it was decided with");
});

// Without pollution a plain read: a Proxy answering from its `get` trap
// (a mock, a forwarding config object) still works.
test("hooks and options given as Proxies with only a get trap still work", () => {
  const result = run(``, `
    let presented = false;
    const request = ${inspectThen(`Promise.resolve({ turnId: "turn-1" })`)};
    const options = new Proxy({}, { get: (_, k) => (k === "request" ? request : undefined) });
    const hooks = new Proxy({}, { get: (_, k) => (k === "present" ? () => { presented = true; } : undefined) });
    const s = new api.CodexhostSteering(options);
    const outcome = await s.steer({ threadId: "t", expectedTurnId: "turn-1", input: input() }, hooks);
    console.log(JSON.stringify({ presented, turnId: outcome.turnId }));
  `);
  assert.deepEqual(result, { presented: true, turnId: "turn-1" });
});

test("a field found only on a shared built-in prototype is no field; the object's own or its class's is", () => {
  assert.equal(fields.fieldOf({}, "toString"), undefined);
  assert.equal(fields.fieldOf([], "map"), undefined);
  assert.equal(fields.fieldOf(() => {}, "call"), undefined);
  const own = () => "own";
  assert.equal(fields.fieldOf({ toString: own }, "toString"), own);
  assert.equal(fields.fieldOf(new Error("broken"), "message"), "broken");
  class Failure {
    get message() {
      return "from the class";
    }
  }
  assert.equal(fields.fieldOf(new Failure(), "message"), "from the class");
  assert.equal(fields.fieldOf(Object.assign(() => {}, { code: 7 }), "code"), 7);
});

test("a Proxy answering from its get trap is read, except for a key only a shared prototype has", () => {
  const answering = (target) => new Proxy(target, { get: (_, key) => `answer ${String(key)}` });
  assert.equal(fields.fieldOf(answering({}), "code"), "answer code");
  assert.equal(fields.fieldOf(answering({}), "toString"), undefined);
  assert.equal(fields.fieldOf(answering(Object.create(null)), "toString"), undefined);
});

test("a value that is no object has no fields; a throwing getter or trap reads as absent", () => {
  for (const value of [null, undefined, "abc", 5, true]) assert.equal(fields.fieldOf(value, "length"), undefined, String(value));
  assert.equal(fields.fieldOf({ get code() { throw new Error("getter"); } }, "code"), undefined);
  assert.equal(fields.fieldOf(new Proxy({}, { getPrototypeOf() { throw new Error("trap"); } }), "message"), undefined);
});

test("an engine answer's field is its own property, of an object only", () => {
  assert.equal(fields.own({ thrown: "x" }, "thrown"), "x");
  assert.equal(fields.own(Object.create({ thrown: "x" }), "thrown"), undefined);
  for (const value of [null, undefined, "abc", () => {}]) assert.equal(fields.own(value, "length"), undefined, String(value));
});

test("an object's first keys are listed, each cut; keys that cannot be listed are none", () => {
  assert.deepEqual(fields.ownKeysOf({ abc: 1, de: 2, f: 3 }, 2, 2), ["ab", "de"]);
  assert.deepEqual(fields.ownKeysOf({ a: 1 }, 4, 64), ["a"]);
  assert.deepEqual(fields.ownKeysOf({}, 4, 64), []);
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  assert.equal(fields.ownKeysOf(proxy, 4, 64), undefined);
});

test("a SteeringError's fields are defined as own data properties, its name hidden, undefined ones left out", () => {
  const error = new Error("m");
  fields.defineErrorFields(error, "host", -32000, undefined, ["d"], undefined, "id-1");
  assert.deepEqual(Object.keys(error), ["kind", "code", "draft", "clientUserMessageId"]);
  const field = (value, enumerable = true) => ({ value, writable: true, enumerable, configurable: true });
  assert.deepEqual(Object.getOwnPropertyDescriptor(error, "name"), field("SteeringError", false));
  assert.deepEqual(Object.getOwnPropertyDescriptor(error, "kind"), field("host"));
  assert.deepEqual(Object.getOwnPropertyDescriptor(error, "clientUserMessageId"), field("id-1"));
  const full = new Error("m");
  fields.defineErrorFields(full, "timeout", 1, { a: 1 }, [], { path: "p" }, "id");
  assert.deepEqual({ ...full }, { kind: "timeout", code: 1, data: { a: 1 }, draft: [], trace: { path: "p" }, clientUserMessageId: "id" });
  const guarded = Object.create({ set kind(v) { throw new Error("setter"); } });
  fields.defineField(guarded, "kind", "k");
  assert.equal(Object.getOwnPropertyDescriptor(guarded, "kind").value, "k", "defined past the setter");
  const frozen = Object.freeze({});
  fields.defineField(frozen, "kind", "k");
  assert.equal(Object.hasOwn(frozen, "kind"), false, "a non-extensible target keeps what it has, and nothing throws");
});
