// Writes to the page's shared built-in prototypes (prototype pollution
// through a deep merge; hardening such as a frozen Error.prototype) change
// nothing the engine reads or returns: fields found only on a shared
// prototype are no fields (`js/fields.js` `fieldOf`), and a SteeringError's
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
