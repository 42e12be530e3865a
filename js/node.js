// Node entry (`node` condition): `await init()` reads the .wasm next to this file from disk.
import { readFile } from "node:fs/promises";
import { init as load } from "./driver/module.js";

export * from "./api/exports.js";

/**
 * What to read from disk (Node's fetch cannot read files): a `file:` URL
 * given as a `URL` or a string, or a plain path (a string with no URL
 * scheme, or a Windows drive path), else undefined.
 */
function fileToRead(source) {
  try {
    if (typeof source === "string" && (!/^[a-z][a-z0-9+.-]*:/i.test(source) || /^[a-z]:[\\/]/i.test(source))) return source;
    const url = source instanceof URL ? source : typeof source === "string" && /^file:/i.test(source) ? new URL(source) : undefined;
    return url?.protocol === "file:" ? url : undefined;
  } catch {
    return undefined;
  }
}

/** Loads the WebAssembly module: concurrent calls share one load; a failed load can be retried. */
export function init(source) {
  const file = fileToRead(source);
  if (file) return load(undefined, () => readFile(file), true);
  return load(source, () => readFile(new URL("./renderer_steering_bg.wasm", import.meta.url)), true);
}
