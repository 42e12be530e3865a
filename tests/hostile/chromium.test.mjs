// The hostile-input layer in headless Chromium: the packed package served on
// 127.0.0.1 and imported through its `exports.browser` (as tests/browser does),
// each class in a fresh page (a poisoned module cannot hide the others);
// prints the class table.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { join, normalize, extname } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "../browser/flags.mjs";
import { CLASS_WALL_MS, SCALE, SELECTED, explain, packWhenReady, repo, table } from "./common.mjs";

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html", ".json": "application/json" };
const results = new Map();
let server, browser, base, pkg, queue;

/** Import map: the package through its browser export, fast-check and its pure-rand subpaths. */
function importMap() {
  const entry = pkg.manifest.exports["."].browser.replace(/^\.\//, "");
  const imports = {
    "renderer-steering": `/node_modules/renderer-steering/${entry}`,
    "fast-check": "/deps/fast-check/lib/fast-check.js",
  };
  const pureRand = JSON.parse(readFileSync(join(repo, "node_modules", "pure-rand", "package.json"), "utf8"));
  for (const [key, target] of Object.entries(pureRand.exports ?? {})) {
    const file = typeof target === "string" ? target : target.import?.default ?? target.import ?? target.default;
    if (typeof file === "string") imports[`pure-rand${key.slice(1)}`] = `/deps/pure-rand/${file.replace(/^\.\//, "")}`;
  }
  return { imports };
}

function page(name) {
  return `<!doctype html><meta charset="utf-8"><title>hostile ${name}</title>
<script type="importmap">${JSON.stringify(importMap())}</script>
<script type="module">
const escapes = { uncaught: 0, unhandled: 0, samples: [] };
const note = (kind, e) => {
  escapes[kind]++;
  if (escapes.samples.length < 5) { let s; try { s = e instanceof Error ? e.name + ": " + e.message : typeof e === "symbol" ? "a Symbol" : String(e); } catch { s = "an unprintable " + typeof e; } escapes.samples.push(kind + ": " + s.slice(0, 160)); }
};
addEventListener("error", (e) => { note("uncaught", e.error ?? e.message); e.preventDefault(); });
addEventListener("unhandledrejection", (e) => { note("unhandled", e.reason); e.preventDefault(); });
let logged = 0;
for (const level of ["error", "warn", "log", "info", "debug"]) console[level] = () => { logged++; };
try {
  const { watchTimers } = await import("/hostile/timer-watch.mjs");
  const { captureWasm } = await import("/hostile/wasm-readings.mjs");
  watchTimers();
  captureWasm();
  const api = await import("renderer-steering");
  const initResult = await api.init();
  const { runClass } = await import("/hostile/run-class.mjs");
  const properties = ${JSON.stringify(name)} === "properties" ? await import("/hostile/properties.mjs") : undefined;
  const result = await runClass(api, initResult, ${JSON.stringify(name)}, { scale: ${SCALE}, properties, progress: (p) => { window.__progress = p; } });
  result.escapes = escapes;
  result.logged = logged;
  if (escapes.uncaught + escapes.unhandled > 0) {
    result.failureCount += escapes.uncaught + escapes.unhandled;
    result.failures.push(escapes.uncaught + " uncaught exceptions, " + escapes.unhandled + " unhandled rejections (" + escapes.samples.join("; ") + ")");
  }
  window.__result = result;
} catch (e) {
  window.__result = { name: ${JSON.stringify(name)}, crashed: "the page failed: " + (e && e.message) };
}
</script>`;
}

async function serve(req, res) {
  const url = new URL(req.url, "http://x");
  const path = decodeURIComponent(url.pathname);
  if (path === "/") return res.writeHead(200, { "content-type": "text/html" }).end(page(url.searchParams.get("class")));
  let root, rel;
  if (path.startsWith("/hostile/")) [root, rel] = [join(repo, "tests", "hostile"), path.slice(9)];
  else if (path.startsWith("/deps/")) [root, rel] = [join(repo, "node_modules"), path.slice(6)];
  else [root, rel] = [pkg.dir, path];
  const file = normalize(join(root, rel));
  if (!file.startsWith(root)) return res.writeHead(403).end();
  const body = await readFile(file).catch(() => null);
  if (body === null) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
}

async function runPage(name) {
  const started = Date.now();
  const context = await browser.newContext();
  const p = await context.newPage();
  let crashed = null;
  p.on("crash", () => { crashed = "the page crashed"; });
  try {
    await p.goto(`${base}/?class=${encodeURIComponent(name)}`);
    await p.waitForFunction(() => window.__result, null, { timeout: CLASS_WALL_MS, polling: 250 });
    return await p.evaluate(() => window.__result);
  } catch (e) {
    const progress = await p.evaluate(() => window.__progress ?? null).catch(() => null);
    return { name, crashed: crashed ?? `no result within ${CLASS_WALL_MS} ms (hung or spinning): ${e.message.split("\n")[0]}`, progress, inputs: progress?.inputs, poisonings: progress?.poisoned ? 1 : undefined, ms: Date.now() - started };
  } finally {
    await context.close().catch(() => {});
  }
}

before(async () => {
  pkg = await packWhenReady();
  server = createServer((req, res) => { serve(req, res).catch(() => res.writeHead(500).end()); });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: [...CHROMIUM_FLAGS, "--js-flags=--expose-gc"] });
  const pending = [...SELECTED];
  const running = new Map();
  const next = () => {
    const name = pending.shift();
    if (!name) return;
    running.set(name, runPage(name).then((r) => { results.set(name, r); next(); return r; }));
  };
  queue = (name) => running.get(name) ?? new Promise((resolve) => {
    const poll = setInterval(() => { if (running.has(name)) { clearInterval(poll); resolve(running.get(name)); } }, 50);
  });
  next();
  next();
});

after(async () => {
  const lines = table("Chromium", SELECTED.map((n) => results.get(n)).filter(Boolean));
  console.log(`\n${lines.join("\n")}`);
  await browser?.close();
  server?.close();
});

for (const name of SELECTED) {
  test(`hostile class ${name} (Chromium, fresh page)`, { timeout: CLASS_WALL_MS * SELECTED.length + 60_000 }, async () => {
    const r = await queue(name);
    assert.ok(!r.crashed, explain(r));
    assert.equal(r.poisonings, 0, explain(r));
    assert.equal(r.failureCount, 0, explain(r));
  });
}
