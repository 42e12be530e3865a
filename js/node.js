// Node entry (`node` condition): `await init()` reads the .wasm next to this file from disk.
import { readFile } from "node:fs/promises";
import { api } from "./api.js";

export * from "./exports.js";

/** A `file:` URL given as a `URL` or a string (Node's fetch cannot read those), else undefined. */
function fileUrl(source) {
  try {
    const url = source instanceof URL ? source : typeof source === "string" && /^file:/i.test(source) ? new URL(source) : undefined;
    return url?.protocol === "file:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Loads the WebAssembly module: concurrent calls share one load; a failed load can be retried. */
export function init(source) {
  const file = fileUrl(source);
  if (file) return api.init(undefined, () => readFile(file), true);
  return api.init(source, () => readFile(new URL("./renderer_steering_bg.wasm", import.meta.url)), true);
}
