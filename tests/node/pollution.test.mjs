// Writes to the page's shared built-in prototypes (prototype pollution
// through a deep merge; hardening such as a frozen Error.prototype) change
// nothing the engine reads or returns: fields found only on a shared
// prototype are no fields (`js/driver/fields.js` `fieldOf`), and a SteeringError's
// fields are defined, not assigned. Each case in its own Node process
// (pollution is process-wide). The packed package.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { packAndInstall } from "./pack.mjs";

let entry;
before(() => {
  entry = packAndInstall().entry;
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
