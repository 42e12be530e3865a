#!/usr/bin/env node
// Writes js/driver/limits.js: the front door's read limits as the engine
// states them (`bridge::Limits`, the module's `limits` input), read from
// the built wasm in pkg/. The driver ships them as a constant so `init()`
// makes no first call into the wasm (V8 compiles a wasm function on its
// first call: that call cost 3 to 4 ms of `init()`).
// tests/node/limits.test.mjs fails when the file and the wasm differ.
//   node scripts/write-limits.mjs [--check]
import { readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const file = join(root, "js", "driver", "limits.js");

/** The limits the wasm in `dir` states. */
export async function wasmLimits(dir) {
  const glue = await import(pathToFileURL(join(dir, "renderer_steering.js")).href);
  glue.initSync({ module: readFileSync(join(dir, "renderer_steering_bg.wasm")) });
  return JSON.parse(glue.step(0, JSON.stringify({ do: "limits" }), "")).value;
}

/** The text of js/driver/limits.js for `limits`. */
export function limitsText(limits) {
  return `// The front door's read limits, as the engine states them (bridge::Limits).
// Written by scripts/write-limits.mjs from the built wasm; checked against
// each entry's wasm by tests/node/limits.test.mjs. A constant, so init()
// makes no call into the wasm.
export const LIMITS = Object.freeze(${JSON.stringify(limits, null, 2)});
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = limitsText(await wasmLimits(join(root, "pkg")));
  if (process.argv[2] === "--check") {
    if (readFileSync(file, "utf8") !== text) throw new Error("js/driver/limits.js differs from the wasm's limits: run node scripts/write-limits.mjs");
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
