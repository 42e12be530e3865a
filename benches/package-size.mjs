// The shipped size of each entry, as the size targets count it: the wasm, the
// JavaScript the engine runs on (the wasm-bindgen glue, the driver, the
// classes, the browser entry; not the embedded copy of the wasm) and the
// desktop hook (desktop*.js and desktop/), each gzip -9 (Node's zlib), the
// JavaScript without its comments (what a minifier keeps at least). An entry
// is a folder (benches/package-entries.mjs), so one count applies to each,
// the base commit's entries (target/bench-base/pkg) as well.
//   node benches/package-size.mjs [pkg-dir]   prints one folder's figures, or every entry's and the base's
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ENTRIES, baseEntries } from "./package-entries.mjs";

/** The JavaScript outside the desktop hook: the glue, the entry, and every file of these folders. */
const GLUE = ["renderer_steering.js", "browser.js"];
const GLUE_DIRS = ["driver", "api"];

/** Sizes in bytes of the entry in `pkg` (a built pkg/ directory or one of pkg/entries/). */
export async function packageSize(pkg) {
  const ts = (await import("typescript")).default;
  const withoutComments = (b) =>
    Buffer.from(ts.transpileModule(b.toString(), { compilerOptions: { removeComments: true, target: ts.ScriptTarget.ES2022 } }).outputText);
  const read = (files) => Buffer.concat(files.map((f) => readFileSync(join(pkg, f))));
  // No files ship nothing: 0 B, not the 20 B of an empty gzip stream.
  const gz = (b) => (b.length === 0 ? 0 : gzipSync(b, { level: 9 }).length);
  const wasm = readFileSync(join(pkg, "renderer_steering_bg.wasm"));
  const snippetsDir = join(pkg, "snippets");
  const snippets = existsSync(snippetsDir)
    ? readdirSync(snippetsDir, { recursive: true }).filter((f) => f.endsWith(".js")).map((f) => join("snippets", f))
    : [];
  const inDir = (dir) => (existsSync(join(pkg, dir)) ? readdirSync(join(pkg, dir)).filter((f) => f.endsWith(".js")).sort().map((f) => join(dir, f)) : []);
  const glue = read([...GLUE.filter((f) => existsSync(join(pkg, f))), ...GLUE_DIRS.flatMap(inDir), ...snippets]);
  const hook = read([...readdirSync(pkg).filter((f) => /^desktop.*\.js$/.test(f)).sort(), ...inDir("desktop")]);
  const size = {
    wasmRaw: wasm.length,
    wasm: gz(wasm),
    glue: gz(glue),
    glueBare: gz(withoutComments(glue)),
    hook: gz(hook),
    hookBare: gz(withoutComments(hook)),
  };
  size.total = size.wasm + size.glueBare + size.hookBare;
  return size;
}

/** Every entry's sizes: `[{ name, specifier, size }]`. */
export async function entrySizes(entries = ENTRIES) {
  const rows = [];
  for (const e of entries) rows.push({ name: e.name, specifier: e.specifier, size: await packageSize(e.dir) });
  return rows;
}

/** The per-entry table as printed by `npm run bench`. */
export function formatEntrySizes(rows) {
  const header = ["entry", "wasm raw B", "wasm gzip", "JS gzip", "JS bare", "hook gzip", "hook bare", "shipped gzip -9"];
  const lines = rows.map(({ specifier, size: s }) =>
    [specifier, s.wasmRaw, s.wasm, s.glue, s.glueBare, s.hook, s.hookBare, s.total].map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [
    "shipped size per entry, bytes (gzip -9, Node's zlib; JS: the glue, driver, classes and entry; hook: the desktop hook;",
    " bare: without comments; shipped = wasm gzip + JS bare + hook bare; the embedded copy of the wasm is not counted twice)\n",
    fmt(header),
    ...lines.map(fmt),
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = process.argv[2]
    ? [{ specifier: resolve(process.argv[2]), size: await packageSize(resolve(process.argv[2])) }]
    : [...(await entrySizes()), ...(await entrySizes(baseEntries()))];
  console.log(formatEntrySizes(rows));
}
