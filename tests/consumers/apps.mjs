// Tiny renderer apps built from the packed package with each bundler and
// target. Every app runs one steer against an in-page fake JSON-RPC host
// (inspect -> activeTurn, turn/steer -> turn-1) and one rejected steer, and
// writes the outcome to `window.__steer`.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { cacheDir } from "./cache.mjs";

/** The strict policy an Electron renderer should run with; the package needs only 'wasm-unsafe-eval'. */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

const main = (specifier) => `
import { init, CodexhostSteering, SteeringError, isSteeringError } from "${specifier}";
const out = (window.__steer = { state: "running" });
async function run() {
  const start = performance.now();
  await init();
  out.initMs = performance.now() - start;
  out.readyMs = performance.now(); // since navigation start
  const calls = [];
  const request = async (method) => {
    calls.push(method);
    if (method === "codexhost/thread/steering/inspect") return { delivery: "activeTurn" };
    if (method === "turn/steer") return { turnId: "turn-1" };
    throw { code: -32601, message: "Method not found" };
  };
  const steering = new CodexhostSteering({ request });
  const input = [{ type: "text", text: "use pnpm instead" }];
  const result = await steering.steer({ threadId: "t", expectedTurnId: "turn-1", input });
  const refusing = new CodexhostSteering({ request: () => Promise.reject({ code: -32081, message: "no" }) });
  const error = await refusing.steer({ threadId: "t", expectedTurnId: "turn-1", input }).catch((e) => e);
  Object.assign(out, {
    state: "done", delivery: result.delivery, turnId: result.turnId, calls,
    errorIsClass: error instanceof SteeringError, errorGuard: isSteeringError(error, "host"), draftBack: error.draft === input,
  });
}
run().catch((e) => Object.assign(out, { state: "failed", error: String((e && e.message) || e) }));
`;

const html = (script) =>
  `<!doctype html><html><head><meta charset="utf-8">` +
  `<meta http-equiv="Content-Security-Policy" content="${STRICT_CSP}"><title>consumer</title></head>` +
  `<body>${script}</body></html>\n`;

function source(dir, specifier) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "main.js"), main(specifier));
  return join(dir, "main.js");
}

const load = createRequire(join(cacheDir, "package.json"));
const tool = async (name) => import(load.resolve(name));

async function esbuild(dir, out, format, specifier) {
  const { build } = await tool("esbuild");
  await build({ entryPoints: [source(dir, specifier)], bundle: true, format, outfile: join(out, "main.js"), minify: true, logLevel: "silent", absWorkingDir: cacheDir });
  writeFileSync(join(out, "index.html"), html(`<script ${format === "esm" ? 'type="module" ' : ""}src="./main.js"></script>`));
}

async function vite(dir, out, specifier) {
  const { build } = await tool("vite");
  source(dir, specifier);
  writeFileSync(join(dir, "index.html"), html(`<script type="module" src="./main.js"></script>`));
  await build({ root: dir, base: "./", logLevel: "silent", configFile: false, build: { outDir: out, emptyOutDir: true } });
}

async function webpack(dir, out, target, specifier) {
  const { default: webpackFn } = await tool("webpack");
  const entry = source(dir, specifier);
  const stats = await new Promise((resolve, reject) =>
    webpackFn({ mode: "production", target, entry, context: cacheDir, output: { path: out, filename: "main.js" }, performance: { hints: false } },
      (err, s) => (err ? reject(err) : resolve(s))));
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
  writeFileSync(join(out, "index.html"), html(`<script src="./main.js"></script>`));
}

async function rollup(dir, out, specifier) {
  const { rollup: rollupFn } = await tool("rollup");
  const { nodeResolve } = await tool("@rollup/plugin-node-resolve");
  const bundle = await rollupFn({ input: source(dir, specifier), plugins: [nodeResolve()], onwarn: () => {} });
  await bundle.write({ dir: out, format: "es", entryFileNames: "main.js" });
  writeFileSync(join(out, "index.html"), html(`<script type="module" src="./main.js"></script>`));
}

/**
 * Each setup: how it is built, whether its bundle is a module script, and
 * what its file:// page does. Chromium refuses module scripts from file://
 * unless started with --allow-file-access-from-files (Electron allows them),
 * and that flag also lets fetch() read file:. So module-script pages run from
 * file:// in a browser with the flag, classic-script pages in one without it,
 * where fetch() of the sibling .wasm fails as in an Electron file:// window.
 */
export const SETUPS = [
  { name: "esbuild --format=esm", module: true, build: (d, o) => esbuild(d, o, "esm", "renderer-steering") },
  { name: "esbuild (default IIFE)", build: (d, o) => esbuild(d, o, "iife", "renderer-steering") },
  { name: "Vite", module: true, build: (d, o) => vite(d, o, "renderer-steering") },
  { name: "webpack 5, target web", build: (d, o) => webpack(d, o, "web", "renderer-steering") },
  { name: "webpack 5, target electron-renderer", build: (d, o) => webpack(d, o, "electron-renderer", "renderer-steering") },
  { name: "Rollup + node-resolve", module: true, build: (d, o) => rollup(d, o, "renderer-steering") },
  { name: "Vite, renderer-steering/url", module: true, build: (d, o) => vite(d, o, "renderer-steering/url") },
  { name: "webpack 5 web, renderer-steering/url", fileFetchFails: true, build: (d, o) => webpack(d, o, "web", "renderer-steering/url") },
];

/** Bytes of the built app's scripts and wasm: raw and gzip -9. */
export function bundleSize(out) {
  let raw = 0;
  let gzip = 0;
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(m?js|wasm)$/.test(name)) {
        const bytes = readFileSync(path);
        raw += bytes.length;
        gzip += gzipSync(bytes, { level: 9 }).length;
      }
    }
  };
  walk(out);
  return { raw, gzip };
}

/** The built app's script text (to check no Node entry reached a browser bundle). */
export function scriptText(out) {
  let text = "";
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.m?js$/.test(name)) text += readFileSync(path, "utf8");
    }
  };
  walk(out);
  return text;
}
