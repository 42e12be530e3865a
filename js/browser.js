// Browser / Electron renderer entry: `await init()` fetches the .wasm next to
// this file (bundlers follow the `new URL(..., import.meta.url)` in the glue).
import initWasm from "./renderer_steering.js";

export * from "./renderer_steering.js";

let ready;

/** Loads the WebAssembly module once; later calls return the same promise. */
export function init(source) {
  ready ??= initWasm(source === undefined ? undefined : { module_or_path: source });
  return ready;
}
