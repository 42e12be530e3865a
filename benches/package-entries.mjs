// The package's entries as the bench measures them: the default entry
// (pkg/: every integration in one wasm) and one entry per integration
// (pkg/entries/<name>/: a wasm of its dialect only). Each folder holds its own
// wasm, wasm-bindgen glue, driver and entry modules (browser.js with the wasm
// embedded, node.js, url.js), so every measure applies to a folder alike.
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

export const ENTRIES = [
  { name: "default", specifier: "renderer-steering", dir: join(root, "pkg") },
  { name: "codexhost", specifier: "renderer-steering/codexhost", dir: join(root, "pkg", "entries", "codexhost") },
  { name: "acp", specifier: "renderer-steering/acp", dir: join(root, "pkg", "entries", "acp") },
  { name: "desktop", specifier: "renderer-steering/desktop", dir: join(root, "pkg", "entries", "desktop") },
];

/** The entry named `name`. */
export function entry(name) {
  const found = ENTRIES.find((e) => e.name === name);
  if (!found) throw new Error(`no entry ${name}; entries: ${ENTRIES.map((e) => e.name).join(", ")}`);
  return found;
}
