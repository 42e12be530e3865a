// init() and the facade against the real packed module, each case in a fresh
// Node process (a module instance that has not been initialized yet).
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { packAndInstall } from "./pack.mjs";

let pkg;
before(() => {
  pkg = packAndInstall();
});

function runIn(name, code) {
  const file = join(pkg.dir, name);
  writeFileSync(file, code);
  return JSON.parse(execFileSync(process.execPath, [file], { cwd: pkg.dir, encoding: "utf8" }));
}

test("a class or function used before init() throws 'call `await init()` first'", () => {
  const out = runIn("before.mjs", `
import { CodexhostSteering, AcpSteering, installDesktopSteering, version } from "renderer-steering";
const messages = [];
for (const use of [() => new CodexhostSteering({ request: async () => ({}) }), () => new AcpSteering({ request: async () => ({}) }),
                   () => installDesktopSteering({}), () => version()]) {
  try { use(); messages.push("no throw"); } catch (e) { messages.push(e.message); }
}
console.log(JSON.stringify(messages));
`);
  assert.deepEqual(out, Array(4).fill("renderer-steering: call `await init()` first"));
});

test("init() after a failed init() loads; concurrent init() calls share one compile", () => {
  const out = runIn("retry.mjs", `
let compiles = 0;
const instantiate = WebAssembly.instantiate;
// Counts the package's compiles only (Node's fetch compiles its own llhttp lazily).
const ours = () => new Error().stack.includes("renderer_steering.js");
WebAssembly.instantiate = (...args) => (ours() && compiles++, instantiate(...args));
// The Node entry compiles synchronously (initSync): count that path too.
WebAssembly.Module = new Proxy(WebAssembly.Module, { construct: (target, args) => (ours() && compiles++, Reflect.construct(target, args)) });
const { init, version } = await import("renderer-steering");
const failure = await init(new Uint8Array([0, 97, 115, 109])).then(() => "resolved", (e) => e.constructor.name);
const failedCompiles = compiles;
const a = init(), b = init();
await Promise.all([a, b]);
await init();
console.log(JSON.stringify({ failure, same: a === b, compiles: compiles - failedCompiles, version: version() }));
`);
  assert.equal(out.failure, "CompileError");
  assert.equal(out.same, true);
  assert.equal(out.compiles, 1);
  assert.match(out.version, /^\d+\.\d+\.\d+$/);
});

test("the embedded browser entry (also the `default` condition) inits and steers outside a browser too", () => {
  const out = runIn("embedded.mjs", `
const { init, CodexhostSteering } = await import("./node_modules/renderer-steering/pkg/browser.js");
await init();
const steering = new CodexhostSteering({ request: async (m) => (m === "turn/steer" ? { turnId: "u" } : { delivery: "activeTurn" }) });
const r = await steering.steer({ threadId: "t", expectedTurnId: "u", input: [{ type: "text", text: "x" }] });
console.log(JSON.stringify({ delivery: r.delivery }));
`);
  assert.deepEqual(out, { delivery: "activeTurn" });
});

test("a real trap (out of wasm memory: Rust aborts) stops the module: every later call fails fast", () => {
  const out = runIn("trap.mjs", `
import { init, CodexhostSteering, version } from "renderer-steering";
await init();
const steering = new CodexhostSteering({ request: async () => ({ delivery: "activeTurn" }) });
// The glue's loader hands back the loaded module's exports; fill its memory to the maximum.
const { default: loaded } = await import("./node_modules/renderer-steering/pkg/renderer_steering.js");
const wasm = await loaded();
for (const step of [4096, 256, 16, 1]) for (;;) try { wasm.memory.grow(step); } catch { break; }
const messages = [];
const input = [{ type: "text", text: "x".repeat(200_000) }];
try { await steering.steer({ threadId: "t", expectedTurnId: "u", input }); } catch (e) { messages.push(e.name + ": " + e.message); }
try { version(); } catch (e) { messages.push(e.name + ": " + e.message); }
await init().catch((e) => messages.push(e.name + ": " + e.message));
console.log(JSON.stringify(messages));
`);
  assert.equal(out.length, 3, JSON.stringify(out));
  for (const m of out) assert.match(m, /^SteeringModuleStopped: renderer-steering: the WebAssembly module stopped .* reloading the window \(unreachable\)$/);
});

test("the embedded entry without DecompressionStream rejects init() saying what to use instead", () => {
  const out = runIn("no-inflate.mjs", `
delete globalThis.DecompressionStream; // an old runtime
const { init } = await import("./node_modules/renderer-steering/pkg/browser.js");
console.log(JSON.stringify(await init().then(() => "resolved", (e) => e.message)));
`);
  assert.match(out, /lacks DecompressionStream; import renderer-steering\/url or pass the \.wasm bytes to init\(\)/);
});

test("an idle engine does not keep Node alive: the process exits right after the last answer", () => {
  // The engine's one timer stays armed after a steer (no setTimeout/clearTimeout
  // per submission) but stops holding the process once nothing is due; held, it
  // would keep this script alive for the whole 10 s decide bound.
  const started = Date.now();
  const out = runIn("idle-exit.mjs", `
import { init, CodexhostSteering } from "renderer-steering";
await init();
const request = async (method) => (method === "turn/steer" ? { turnId: "u" } : { delivery: "activeTurn" });
const steering = new CodexhostSteering({ request, timeouts: { decideMs: 10000, steerMs: 10000 } });
const result = await steering.steer({ threadId: "t", expectedTurnId: "u", input: [{ type: "text", text: "x" }] });
console.log(JSON.stringify(result.turnId));
`);
  assert.equal(out, "u");
  assert.ok(Date.now() - started < 5000, `exited after ${Date.now() - started} ms`);
});

test("the timer kept armed from an earlier steer still bounds a later wait at its own deadline", () => {
  const out = runIn("kept-timer.mjs", `
import { init, CodexhostSteering } from "renderer-steering";
await init();
let hang = false;
const request = (method) => hang ? new Promise(() => {}) : Promise.resolve(method === "turn/steer" ? { turnId: "u" } : { delivery: "activeTurn" });
const steering = new CodexhostSteering({ request, timeouts: { decideMs: 300, steerMs: 300 } });
await steering.steer({ threadId: "t", expectedTurnId: "u", input: [{ type: "text", text: "a" }] });
await new Promise((r) => setTimeout(r, 150)); // the kept timer now fires 150 ms before the next deadline
hang = true;
const started = Date.now();
const error = await steering.decide({ threadId: "t2", text: "b" }).catch((e) => e);
console.log(JSON.stringify({ kind: error.kind, waited: Date.now() - started }));
`);
  assert.equal(out.kind, "timeout");
  assert.ok(out.waited >= 290 && out.waited < 2000, `rejected after ${out.waited} ms`);
});

test("in Node, init() takes a file: URL (a URL or a string) or a plain path, which Node's fetch cannot read", () => {
  for (const form of ["url", "string", "path", "relative"]) {
    const out = runIn(`file-${form}.mjs`, `
import { init, version } from "renderer-steering";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { dirname, join, relative } from "node:path";
const wasm = join(dirname(createRequire(import.meta.url).resolve("renderer-steering")), "renderer_steering_bg.wasm");
const form = ${JSON.stringify(form)};
const source = form === "url" ? pathToFileURL(wasm) : form === "string" ? pathToFileURL(wasm).href : form === "path" ? wasm : relative(process.cwd(), wasm);
console.log(JSON.stringify(await init(source).then(() => typeof version(), (e) => e.message)));
`);
    assert.equal(out, "string", form);
  }
});
