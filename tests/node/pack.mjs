// Packs the repository with `npm pack` and installs the tarball into an empty
// temporary project, the way a user would get the package.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The driver's modules and the desktop hook's, as each entry ships them. */
const DRIVER = ["clock", "engine", "fields", "front-door", "host", "journal", "json-text", "limits", "module", "random-id", "report", "steering-error", "steps", "stream-role", "timer"];
const HOOK = ["core", "driver", "handle", "hook", "safety"];

/** The complete tarball: every file, nothing else (npm adds package.json). */
export const TARBALL_FILES = [
  "LICENSE",
  "README.md",
  "package.json",
  "pkg/api/acp.js",
  "pkg/api/codexhost.js",
  "pkg/api/exports.js",
  "pkg/api/instances.js",
  "pkg/browser.js",
  ...HOOK.map((f) => `pkg/desktop/${f}.js`),
  ...DRIVER.map((f) => `pkg/driver/${f}.js`),
  "pkg/index.d.ts",
  "pkg/node.js",
  "pkg/renderer_steering.d.ts",
  "pkg/renderer_steering.js",
  "pkg/renderer_steering_bg.wasm",
  "pkg/url.js",
  "pkg/wasm-inline.js",
  ...entryFiles("codexhost", ["codexhost.js"]),
  ...entryFiles("acp", ["acp.js"]),
  ...entryFiles("desktop", ["codexhost.js"], true),
].sort();

/** An integration entry's folder: its loaders, types, wasm and glue, and its own copy of the driver. */
function entryFiles(name, api, desktop = false) {
  const dir = `pkg/entries/${name}`;
  return [
    ...["browser.js", "index.d.ts", "node.js", "renderer_steering.js", "renderer_steering_bg.wasm", "url.js", "wasm-inline.js"].map((f) => `${dir}/${f}`),
    ...[...api, "exports.js", "instances.js"].map((f) => `${dir}/api/${f}`),
    ...DRIVER.map((f) => `${dir}/driver/${f}.js`),
    ...(desktop ? HOOK.map((f) => `${dir}/desktop/${f}.js`) : []),
  ];
}

export function packAndInstall() {
  const dir = mkdtempSync(join(tmpdir(), "steering-pkg-"));
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: repo, encoding: "utf8" });
  const [info] = JSON.parse(out);
  const tarball = join(dir, info.filename);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", tarball], { cwd: dir, stdio: "pipe" });
  // Resolve through the package's own `exports`, from inside the consumer project.
  writeFileSync(join(dir, "use.mjs"), 'export * from "renderer-steering";\n');
  const manifest = JSON.parse(readFileSync(join(dir, "node_modules", "renderer-steering", "package.json"), "utf8"));
  const shipped = join(dir, "node_modules", "renderer-steering", "pkg");
  return { dir, shipped, tarball, files: info.files.map((f) => f.path), manifest, entry: pathToFileURL(join(dir, "use.mjs")).href };
}

/** Modules of the installed package, by their path under its `pkg/` (one pack for all of them). */
export function shippedModules(...paths) {
  const { shipped } = packAndInstall();
  return Promise.all(paths.map((path) => import(pathToFileURL(join(shipped, path)).href)));
}

/** A scripted codexhost host: answers by method; records every call. */
export function scriptedHost(answers) {
  const calls = [];
  const request = (method, params, options) => {
    calls.push({ method, params, options });
    const answer = answers[method];
    if (answer === undefined) return Promise.reject({ code: -32601, message: "Method not found" });
    return typeof answer === "function" ? answer(params) : Promise.resolve(answer);
  };
  return { request, calls };
}

// Two consumers: a Node-only project (nodenext, no dom lib, no @types/node)
// and a bundler project with the dom lib. No skipLibCheck: the .d.ts itself is checked.
export const TS_SETUPS = [
  { name: "nodenext, no dom", module: "nodenext", moduleResolution: "nodenext", lib: ["es2022", "esnext.disposable"] },
  { name: "bundler, dom", module: "esnext", moduleResolution: "bundler", lib: ["es2022", "esnext.disposable", "dom"] },
];

export function tsc(dir, files, setup) {
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: "es2022", module: setup.module, moduleResolution: setup.moduleResolution, lib: setup.lib, types: [], skipLibCheck: false, noUnusedLocals: false },
    files,
  }));
  try {
    return execFileSync(process.execPath, [join(repo, "node_modules", "typescript", "bin", "tsc"), "-p", join(dir, "tsconfig.json")], { encoding: "utf8" });
  } catch (e) {
    return `${e.stdout}${e.stderr}`;
  }
}
