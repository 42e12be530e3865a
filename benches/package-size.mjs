// The shipped package's size, as the size guard counts it: the wasm, the
// JavaScript the engine runs on (the wasm-bindgen glue, the driver, the
// classes, the browser entry; not the embedded copy of the wasm) and the
// desktop hook (pkg/desktop/), each gzip -9 (Node's zlib),
// the JavaScript without its comments (what a minifier keeps at least).
//   node benches/package-size.mjs [pkg-dir]   prints the figures
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

/** The JavaScript outside the desktop hook: the glue, the entry, and every file of these folders. */
const GLUE = ["renderer_steering.js", "browser.js"];
const GLUE_DIRS = ["driver", "api"];
/** A build before the driver had folders kept its JavaScript beside the glue. */
const FLAT = ["facade.js", "fields.js", "steering-error.js", "api.js", "exports.js", "boundary.js", "json-text.js"];

/** Sizes in bytes of the package in `pkg` (a built pkg/ directory). */
export async function packageSize(pkg) {
  const ts = (await import("typescript")).default;
  const withoutComments = (b) =>
    Buffer.from(ts.transpileModule(b.toString(), { compilerOptions: { removeComments: true, target: ts.ScriptTarget.ES2022 } }).outputText);
  const read = (files) => Buffer.concat(files.map((f) => readFileSync(join(pkg, f))));
  const gz = (b) => gzipSync(b, { level: 9 }).length;
  const wasm = readFileSync(join(pkg, "renderer_steering_bg.wasm"));
  const snippetsDir = join(pkg, "snippets");
  const snippets = existsSync(snippetsDir)
    ? readdirSync(snippetsDir, { recursive: true }).filter((f) => f.endsWith(".js")).map((f) => join("snippets", f))
    : [];
  const inDir = (dir) => (existsSync(join(pkg, dir)) ? readdirSync(join(pkg, dir)).filter((f) => f.endsWith(".js")).sort().map((f) => join(dir, f)) : []);
  const glue = read([...[...GLUE, ...FLAT].filter((f) => existsSync(join(pkg, f))), ...GLUE_DIRS.flatMap(inDir), ...snippets]);
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

/** The figures as printed by `npm run bench`. */
export function formatPackageSize(s) {
  return `package size: wasm ${s.wasmRaw} B raw / ${s.wasm} B gzip -9; ` +
    `JS glue + classes ${s.glue} B gzip -9 as shipped, ${s.glueBare} B without comments; ` +
    `desktop hook (pkg/desktop*.js) ${s.hook} B gzip -9 as shipped, ${s.hookBare} B without comments\n` +
    `total gzip -9 (wasm + JS without comments + desktop hook without comments): ${s.total} B`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const pkg = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "pkg");
  console.log(formatPackageSize(await packageSize(pkg)));
}
