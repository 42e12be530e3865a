// The module gate (js/driver/module.js) over a fake glue shaped like
// wasm-bindgen's: the init gate, one shared load for concurrent calls, retry
// after a failed load, the CSP message, which source is compiled where, and
// fail-fast after a trap (a WebAssembly.RuntimeError or a stack overflow out
// of `step`), with every owed promise rejected.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const repo = new URL("../../", import.meta.url);

/** A fresh copy of the driver over a fake glue that `control` steers. */
async function gateOverFakeGlue() {
  const dir = mkdtempSync(join(tmpdir(), "steering-module-"));
  cpSync(new URL("js/driver/", repo), join(dir, "driver"), { recursive: true });
  const key = `fakeGlue${Math.random().toString(16).slice(2)}`;
  writeFileSync(
    join(dir, "renderer_steering.js"),
    `const control = globalThis.${key};
export function step(handle, input, payload) { return control.step(handle, input, payload); }
export function version() { return "1.2.3"; }
export function initSync(options) { control.loads += 1; control.compiled = options.module; }
export default async function load(options) { control.loads += 1; control.source = options.module_or_path; await new Promise((r) => setTimeout(r, 5)); const failure = control.loadFails.shift(); if (failure) throw failure; }
`,
  );
  const control = {
    loads: 0,
    loadFails: [],
    step: (handle, input) => (JSON.parse(input).do === "limits" ? JSON.stringify({ value: { depth: 64 }, timer: null }) : JSON.stringify({ value: 1, timer: null })),
  };
  globalThis[key] = control;
  const gate = await import(pathToFileURL(join(dir, "driver", "module.js")).href);
  return { gate, control };
}

const BEFORE = "renderer-steering: call `await init()` first";

test("before init() every call throws 'call `await init()` first'", async () => {
  const { gate } = await gateOverFakeGlue();
  assert.throws(() => gate.ready(), { message: BEFORE });
  assert.throws(() => gate.step(0, {}), { message: BEFORE });
  assert.throws(() => gate.version(), { message: BEFORE });
});

test("concurrent init() calls share one load; a later call resolves at once; init() makes no call into the wasm", async () => {
  const { gate, control } = await gateOverFakeGlue();
  const steps = [];
  const inner = control.step;
  control.step = (...args) => (steps.push(args[1]), inner(...args));
  await Promise.all([gate.init(undefined, () => "x"), gate.init(undefined, () => "x")]);
  assert.equal(control.loads, 1);
  await gate.init();
  assert.equal(control.loads, 1);
  assert.deepEqual(steps, [], "the limits ship as a constant: no first step at load");
  assert.equal(gate.limits.depth, 64);
  assert.equal(gate.version(), "1.2.3");
});

test("a failed init() can be retried", async () => {
  const { gate, control } = await gateOverFakeGlue();
  control.loadFails.push(new TypeError("network down"));
  await assert.rejects(gate.init(undefined, () => "x"), /network down/);
  await gate.init(undefined, () => "x");
  assert.equal(control.loads, 2);
});

test("a CSP block rejects naming 'wasm-unsafe-eval', keeping the original as cause", async () => {
  const { gate, control } = await gateOverFakeGlue();
  const csp = new WebAssembly.CompileError("WebAssembly.instantiate(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive");
  control.loadFails.push(csp);
  await assert.rejects(gate.init(undefined, () => "x"), (e) => {
    assert.match(e.message, /'wasm-unsafe-eval'/);
    assert.equal(e.cause, csp);
    return true;
  });
});

for (const [how, trap] of [
  ["a WebAssembly.RuntimeError thrown out of step", () => new WebAssembly.RuntimeError("unreachable")],
  ["a stack overflow inside step", () => new RangeError("Maximum call stack size exceeded")],
]) {
  test(`after ${how}, every call fails fast and owed promises reject`, async () => {
    const { gate, control } = await gateOverFakeGlue();
    await gate.init(undefined, () => "x");
    const owed = gate.owe(new Promise(() => {}));
    control.step = () => {
      throw trap();
    };
    const stopped = /renderer-steering: the WebAssembly module stopped .* re-create it by reloading the window/;
    assert.throws(() => gate.step(1, {}), { name: "SteeringModuleStopped", message: stopped });
    await assert.rejects(owed, stopped);
    assert.equal(gate.isStopped(), true);
    control.step = () => JSON.stringify({ timer: null });
    assert.throws(() => gate.step(1, {}), stopped, "fails fast even though the module would answer");
    assert.throws(() => gate.version(), stopped);
    await assert.rejects(gate.init(), stopped);
    await assert.rejects(gate.owe(Promise.resolve(1)), stopped);
  });
}

test("ordinary errors pass through and do not stop the module", async () => {
  const { gate, control } = await gateOverFakeGlue();
  await gate.init(undefined, () => "x");
  for (const error of [new TypeError("bad argument"), new RangeError("Invalid array length")]) {
    control.step = () => {
      throw error;
    };
    assert.throws(() => gate.step(1, {}), (e) => e === error, "a RangeError that is no stack overflow is no trap");
  }
  control.step = () => JSON.stringify({ value: 2, timer: null });
  assert.equal(gate.step(1, {}).value, 2);
  assert.equal(gate.isStopped(), false);
});

test("in Node, bytes (a view, an ArrayBuffer, a compiled Module) are compiled here; any other source goes to the glue's loader", async () => {
  const module = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  for (const source of [new Uint8Array(8), new ArrayBuffer(8), module]) {
    const { gate, control } = await gateOverFakeGlue();
    await gate.init(source, undefined, true);
    assert.equal(control.compiled, source, "initSync");
    assert.equal(control.source, undefined);
  }
  const { gate, control } = await gateOverFakeGlue();
  await gate.init("https://cdn.example/renderer_steering_bg.wasm", undefined, true);
  assert.equal(control.compiled, undefined);
  assert.equal(control.source, "https://cdn.example/renderer_steering_bg.wasm");
});

test("outside Node every source goes to the glue's loader, bytes too; without one, the default source does", async () => {
  const bytes = new Uint8Array(8);
  const given = await gateOverFakeGlue();
  await given.gate.init(bytes, () => "unused");
  assert.equal(given.control.source, bytes);
  assert.equal(given.control.compiled, undefined);
  const fallback = await gateOverFakeGlue();
  await fallback.gate.init(undefined, () => "the default");
  assert.equal(fallback.control.source, "the default");
});

test("a call without a payload steps the engine with an empty one", async () => {
  const { gate, control } = await gateOverFakeGlue();
  await gate.init(undefined, () => "x");
  control.step = (handle, input, payload) => JSON.stringify({ value: [handle, JSON.parse(input), payload], timer: null });
  assert.deepEqual(gate.step(3, { do: "x" }).value, [3, { do: "x" }, ""]);
  assert.deepEqual(gate.step(3, { do: "x" }, "{}").value, [3, { do: "x" }, "{}"]);
});

test("only a CompileError or an EvalError naming the Content-Security-Policy is a CSP block; other load failures pass through as they are", async () => {
  const advice = "renderer-steering: the page's Content-Security-Policy blocks WebAssembly; add 'wasm-unsafe-eval' to script-src, e.g. script-src 'self' 'wasm-unsafe-eval'";
  const evalBlock = new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source of script");
  const blocked = await gateOverFakeGlue();
  blocked.control.loadFails.push(evalBlock);
  await assert.rejects(blocked.gate.init(undefined, () => "x"), (e) => e.message === advice && e.cause === evalBlock);
  for (const failure of [new WebAssembly.CompileError("expected magic word 00 61 73 6d"), new TypeError("fetch blocked by the Content Security Policy")]) {
    const { gate, control } = await gateOverFakeGlue();
    control.loadFails.push(failure);
    await assert.rejects(gate.init(undefined, () => "x"), (e) => e === failure);
  }
});
