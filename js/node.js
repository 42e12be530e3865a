// Node entry (`node` condition): `await init()` reads the .wasm next to this file from disk.
import { readFile } from "node:fs/promises";
import { api } from "./api.js";

export * from "./exports.js";

/** Loads the WebAssembly module: concurrent calls share one load; a failed load can be retried. */
export function init(source) {
  return api.init(source, () => readFile(new URL("./renderer_steering_bg.wasm", import.meta.url)), true);
}
