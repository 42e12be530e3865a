// The package's entries as the bench measures them: the default entry
// (pkg/: every integration in one wasm) and one entry per integration
// (pkg/entries/<name>/: a wasm of its dialect only). Each folder holds its own
// wasm, wasm-bindgen glue, driver and entry modules (browser.js with the wasm
// embedded, node.js, url.js), so every measure applies to a folder alike.
// The package at the benchmark's base commit (scripts/bench-base.sh) has the
// same layout, so its entries are measured the same way.
import { existsSync, readFileSync } from "node:fs";
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

/** The package at the base commit, built by scripts/bench-base.sh. */
export const BASE_DIR = join(root, "target", "bench-base", "pkg");

/** The base commit as scripts/bench-base.sh stamps it, or undefined when the base is not built. */
export function baseCommit() {
  const stamp = join(BASE_DIR, ".commit");
  return existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : undefined;
}

/**
 * The base commit's entries among `names` that its build has (an older base
 * may have no pkg/entries/), in the shape of ENTRIES: named `<name>@<commit>`,
 * `label` `<name> @ <commit>`, specifier `<specifier> @ <commit>`. None when
 * the base is not built.
 */
export function baseEntries(names = ENTRIES.map((e) => e.name)) {
  const commit = baseCommit();
  if (!commit) return [];
  return names
    .map((name) => {
      const e = entry(name);
      const dir = name === "default" ? BASE_DIR : join(BASE_DIR, "entries", name);
      return { name: `${name}@${commit}`, label: `${name} @ ${commit}`, specifier: `${e.specifier} @ ${commit}`, dir };
    })
    .filter((e) => existsSync(join(e.dir, "renderer_steering_bg.wasm")));
}
