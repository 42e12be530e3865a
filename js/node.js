// Node entry: `await init()` reads the .wasm next to this file from disk.
import { readFile } from "node:fs/promises";
import initWasm from "./renderer_steering.js";

export * from "./renderer_steering.js";

let ready;

/** Loads the WebAssembly module once; later calls return the same promise. */
export function init(source) {
  ready ??= (async () => {
    const bytes = source ?? (await readFile(new URL("./renderer_steering_bg.wasm", import.meta.url)));
    return initWasm({ module_or_path: bytes });
  })();
  return ready;
}
