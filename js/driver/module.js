// The WebAssembly module and the one way it is called: `step(handle, input,
// payload)`, data in and data out (src/bridge/). The module imports none of
// the package's JavaScript and calls back into none, so no JavaScript runs
// while Rust holds state, and nothing thrown here can unwind through wasm.
//
// Also here: loading (`init`), and what happens if the module ever traps (a
// Rust panic aborts; a stack overflow): it is marked stopped, every later
// call throws at once, and every promise it still owes rejects, telling the
// window to re-create it (fail fast, never a silently dead module).
import * as glue from "../renderer_steering.js";
import { LIMITS } from "./limits.js";

let loaded = false;
let loading;
let stopped;
/** Reject functions of promises the module still owes. */
const owed = new Set();
/** The front door's read limits (`bridge::Limits`, shipped as a constant: js/driver/limits.js). */
export const limits = LIMITS;

const isTrap = (e) =>
  e instanceof WebAssembly.RuntimeError || (e instanceof RangeError && /call stack/i.test(e.message));

const isCspBlock = (e) =>
  (e instanceof WebAssembly.CompileError || e instanceof EvalError) &&
  /Content.Security.Policy|CSP|unsafe-eval/i.test(String(e.message));

function stop(reason) {
  if (stopped) return;
  stopped = new Error(
    "renderer-steering: the WebAssembly module stopped after an internal error and cannot be used again; " +
      `re-create it by reloading the window (${reason})`,
  );
  stopped.name = "SteeringModuleStopped";
  for (const reject of owed) reject(stopped);
  owed.clear();
}

/** Throws what any call would now: before `init()`, or after the module stopped. */
export function ready() {
  if (stopped) throw stopped;
  if (!loaded) throw new Error("renderer-steering: call `await init()` first");
}

/** True once the module stopped. */
export function isStopped() {
  return stopped !== undefined;
}

/**
 * One call of engine `handle` (0: the module): `input` is a plain object
 * the driver built, `payload` JSON text the front door read. Answers the
 * bridge's output (`{ value?, error?, thrown?, steps?, timer }`); a trap
 * stops the module and throws why.
 */
export function step(handle, input, payload = "") {
  ready();
  let text;
  try {
    text = glue.step(handle, JSON.stringify(input), payload);
  } catch (e) {
    if (!isTrap(e)) throw e;
    stop(e.message);
    throw stopped;
  }
  return JSON.parse(text);
}

/** `promise`, rejected with the module's stop error if it stops first. */
export function owe(promise) {
  if (stopped) return Promise.reject(stopped);
  return new Promise((resolve, reject) => {
    owed.add(reject);
    promise.then(
      (value) => (owed.delete(reject), resolve(value)),
      (error) => (owed.delete(reject), reject(error)),
    );
  });
}

/** The package version. */
export function version() {
  ready();
  return glue.version();
}

async function load(source, loadDefault, compileHere) {
  try {
    const input = source ?? (await loadDefault());
    const bytes = input instanceof WebAssembly.Module || input instanceof ArrayBuffer || ArrayBuffer.isView(input);
    // Node: compiled and instantiated here, synchronously (no size limit
    // off the browser's main thread). The glue's async path tests
    // `typeof Response`, and the first touch of that global loads Node's
    // whole fetch implementation (about 40 ms) just to answer "no".
    if (compileHere && bytes) glue.initSync({ module: input });
    else await glue.default({ module_or_path: input });
  } catch (e) {
    if (!isCspBlock(e)) throw e;
    throw new Error(
      "renderer-steering: the page's Content-Security-Policy blocks WebAssembly; add 'wasm-unsafe-eval' " +
        "to script-src, e.g. script-src 'self' 'wasm-unsafe-eval'",
      { cause: e },
    );
  }
  loaded = true;
}

/**
 * Loads the module once: concurrent calls share one load, a failed load can
 * be retried. `loadDefault()` gives the source when `source` is absent;
 * `compileHere` (Node) compiles bytes synchronously.
 */
export function init(source, loadDefault, compileHere = false) {
  if (stopped) return Promise.reject(stopped);
  if (loaded) return Promise.resolve();
  loading ??= load(source, loadDefault, compileHere).catch((e) => {
    loading = undefined;
    throw e;
  });
  return loading;
}
