// Tiny renderer apps built from the packed package with each bundler and
// target, for each entry (the default and one per integration). Every app
// sends one message through its integration against an in-page fake host
// (codexhost: inspect -> activeTurn, turn/steer -> turn-1; ACP: a prompt;
// the desktop hook: the desktop's own steerTurn) and one that is refused,
// and writes the outcome to `window.__steer`.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { cacheDir } from "./cache.mjs";

/** The strict policy an Electron renderer should run with; the package needs only 'wasm-unsafe-eval'. */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

/** What each integration's app does once `init()` resolved: one message through it, then one refused. */
const PROGRAMS = {
  codexhost: `
  const request = async (method) => {
    calls.push(method);
    if (method === "codexhost/thread/steering/inspect") return { delivery: "activeTurn" };
    if (method === "turn/steer") return { turnId: "turn-1" };
    throw { code: -32601, message: "Method not found" };
  };
  const input = [{ type: "text", text: "use pnpm instead" }];
  const result = await new api.CodexhostSteering({ request }).steer({ threadId: "t", expectedTurnId: "turn-1", input });
  const refusing = new api.CodexhostSteering({ request: () => Promise.reject({ code: -32081, message: "no" }) });
  const error = await refusing.steer({ threadId: "t", expectedTurnId: "turn-1", input }).catch((e) => e);
  return { delivery: result.delivery, error, input };`,
  acp: `
  const request = async (method) => (calls.push(method), { stopReason: "end_turn" });
  const input = [{ type: "text", text: "use pnpm instead" }];
  const outcome = await new api.AcpSteering({ request, initialize: { agentCapabilities: {} } }).send("s", input);
  const refusing = new api.AcpSteering({ request: () => Promise.reject({ code: -32602, message: "no" }), initialize: {} });
  const error = await refusing.send("s", input).catch((e) => e);
  return { delivery: outcome.kind, error, input };`,
  desktop: `
  const answers = { "codexhost/thread/steering/inspect": { delivery: "activeTurn" }, "turn/steer": { turnId: "turn-1" } };
  class Manager {
    sendRequest(method) {
      calls.push(method);
      return answers[method] ? Promise.resolve(answers[method]) : Promise.reject({ code: -32081, message: "no" });
    }
    steerTurn(threadId, input) { return this.sendRequest("turn/steer", { threadId, expectedTurnId: "turn-1", input }); }
    startTurn(threadId, submission) { return this.sendRequest("turn/start", submission.request); }
    getTurnCoordinator() { return { options: { submissionHost: { getActiveTurnId: () => "turn-1", hasPendingTurnStart: () => false } } }; }
  }
  const manager = new Manager();
  const hook = api.installDesktopSteering(manager);
  const input = [{ type: "text", text: "use pnpm instead" }];
  const result = await manager.steerTurn("t", input);
  const first = calls.splice(0);
  // A newTurn message the host refuses: the hook's own route fails it with the draft.
  answers["codexhost/thread/steering/inspect"] = { delivery: "newTurn" };
  delete answers["turn/steer"];
  const error = await manager.steerTurn("t", input).catch((e) => e);
  calls.splice(0, calls.length, ...first);
  hook.dispose();
  return { delivery: result.turnId === "turn-1" ? "activeTurn" : String(result.turnId), error, input };`,
};

/** The integration a specifier names (the default entry's app steers a codexhost host). */
export const integrationOf = (specifier) => ["acp", "desktop"].find((name) => specifier.includes(`/${name}`)) ?? "codexhost";

const main = (specifier) => `
import * as api from "${specifier}";
const out = (window.__steer = { state: "running" });
const calls = [];
async function program() {${PROGRAMS[integrationOf(specifier)]}
}
async function run() {
  const start = performance.now();
  await api.init();
  out.initMs = performance.now() - start;
  out.readyMs = performance.now(); // since navigation start
  const { delivery, error, input } = await program();
  Object.assign(out, {
    state: "done", delivery, calls,
    errorIsClass: error instanceof api.SteeringError, errorGuard: api.isSteeringError(error), draftBack: error.draft === input,
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
const BASE_SETUPS = [
  { name: "esbuild --format=esm", module: true, build: (d, o, s) => esbuild(d, o, "esm", s) },
  { name: "esbuild (default IIFE)", build: (d, o, s) => esbuild(d, o, "iife", s) },
  { name: "Vite", module: true, build: (d, o, s) => vite(d, o, s) },
  { name: "webpack 5, target web", build: (d, o, s) => webpack(d, o, "web", s) },
  { name: "webpack 5, target electron-renderer", build: (d, o, s) => webpack(d, o, "electron-renderer", s) },
  { name: "Rollup + node-resolve", module: true, build: (d, o, s) => rollup(d, o, s) },
  { name: "Vite, /url", url: true, module: true, build: (d, o, s) => vite(d, o, `${s}/url`) },
  { name: "webpack 5 web, /url", url: true, fileFetchFails: true, build: (d, o, s) => webpack(d, o, "web", `${s}/url`) },
];

/** The entries every setup is built with: the default one and one per integration. */
export const ENTRY_SPECIFIERS = ["renderer-steering", "renderer-steering/codexhost", "renderer-steering/acp", "renderer-steering/desktop"];

/** Every setup with every entry. */
export const SETUPS = ENTRY_SPECIFIERS.flatMap((specifier) =>
  BASE_SETUPS.map((setup) => ({
    ...setup,
    specifier,
    name: `${setup.name.replace("/url", `${specifier}/url`)}${setup.url ? "" : `, ${specifier}`}`,
    build: (d, o) => setup.build(d, o, specifier),
  })),
);

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
