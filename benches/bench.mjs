// `npm run bench`: round trips before the steer and the engine's overhead per
// steer, in Node and in headless Chromium, in one run; plus package size,
// init() time against the dependency floor (benches/init-time.mjs) and memory.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, normalize, extname, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { runBench } from "./bench-core.mjs";
import { memoryRun } from "./memory.mjs";
import { initTimes, formatInitTimes } from "./init-time.mjs";
import { CHROMIUM_FLAGS } from "../tests/browser/flags.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

let nodeApi;
let nodeWasm;
async function inNode() {
  nodeApi = await import(join(root, "pkg", "node.js"));
  await nodeApi.init();
  // The glue's own loader returns the already-loaded module's exports (its memory).
  nodeWasm = await (await import(join(root, "pkg", "renderer_steering.js"))).default();
  return runBench(nodeApi);
}

async function inChromium() {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/") {
      return res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><script type="module">
import * as api from "/pkg/browser.js"; import { runBench } from "/benches/bench-core.mjs";
await api.init(); window.__rows = await runBench(api);</script>`);
    }
    const file = normalize(join(root, path));
    const body = file.startsWith(root) ? await readFile(file).catch(() => null) : null;
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.__rows, null, { timeout: 120_000 });
    return await page.evaluate(() => window.__rows);
  } finally {
    await browser.close();
    server.close();
  }
}

const rt = (x) => `${x.rt}${x.ok ? "" : ` (${x.path})`}`;
const node = await inNode();
const chrome = await inChromium();
console.log("Round trips before the steer, and engine cost per full steer relative to the bare transport");
console.log("(transport: JSON-RPC text over a MessageChannel; ratio = engine time / bare time for the same requests;");
console.log(" overhead = (engine - bare) / bare; median of 9 interleaved rounds of 200 steers on fresh threads, after a warm-up round on fresh threads)\n");
const header = ["host", "thread", "1st", "2nd", "reqs/steer", "node µs/steer", "node ratio", "node overhead", "chromium µs/steer", "chromium ratio", "chromium overhead"];
const lines = node.map((n, i) => {
  const c = chrome[i];
  const us = (x) => (x.engineMsPerSteer * 1000).toFixed(0);
  return [n.host, n.thread, rt(n.first), rt(n.second), String(n.requestsPerSteer), us(n), n.ratio.toFixed(2), n.overheadRatio.toFixed(2), us(c), c.ratio.toFixed(2), c.overheadRatio.toFixed(2)];
});
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
const fmt = (cells) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
console.log(fmt(header));
for (const l of lines) console.log(fmt(l));

const wasm = readFileSync(join(root, "pkg", "renderer_steering_bg.wasm"));
const read = (files) => Buffer.concat(files.map((f) => readFileSync(join(root, "pkg", f))));
const ts = (await import("typescript")).default;
const withoutComments = (b) =>
  Buffer.from(ts.transpileModule(b.toString(), { compilerOptions: { removeComments: true, target: ts.ScriptTarget.ES2022 } }).outputText);
// The JavaScript the engine runs on: the wasm-bindgen glue, its snippets
// (the front door: js/boundary.js, js/json-text.js, js/fields.js), the facade, the error
// class and the browser entry (not the embedded copy of the wasm).
const snippets = readdirSync(join(root, "pkg", "snippets"), { recursive: true }).filter((f) => f.endsWith(".js")).map((f) => join("snippets", f));
const glue = read(["renderer_steering.js", ...snippets, "facade.js", "fields.js", "steering-error.js", "api.js", "exports.js", "browser.js"]);
// The desktop hook left the wasm for pkg/desktop*.js (five modules).
const hook = read(["desktop.js", "desktop-active-turn.js", "desktop-new-turn.js", "desktop-safety.js", "desktop-unconfirmed.js"]);
// Each counted as shipped and without its comments (what a minifier keeps
// at least), its files gzip'd together.
const gz = (b) => gzipSync(b, { level: 9 }).length;
const [glueBare, hookBare] = [withoutComments(glue), withoutComments(hook)];
console.log(`\npackage size: wasm ${wasm.length} B raw / ${gz(wasm)} B gzip -9; ` +
  `JS glue + front door + facade ${gz(glue)} B gzip -9 as shipped, ${gz(glueBare)} B without comments; ` +
  `desktop hook (pkg/desktop*.js) ${gz(hook)} B gzip -9 as shipped, ${gz(hookBare)} B without comments`);
const totalGzip = gz(wasm) + gz(glueBare) + gz(hookBare);
console.log(`total gzip -9 (wasm + JS without comments + desktop hook without comments): ${totalGzip} B`);

// Needs target/floor-pkg/ (scripts/build-floor.sh; scripts/bench.sh builds it).
const init = await initTimes();
console.log(`\n${formatInitTimes(init)}`);

console.log("\nwasm memory (64 KiB pages) in Node, before and after:");
for (const r of await memoryRun(nodeApi, nodeWasm)) {
  console.log(`${r.what.padEnd(46)} ${String(r.before).padStart(4)} -> ${String(r.after).padStart(4)} pages; state left behind: ${r.live}`);
}

// The package's size and speed targets, each with this run's figure and
// whether it is met (successful rows: the steers the timed rounds make succeed).
const successful = node.map((n, i) => [n, chrome[i]]).filter(([n]) => n.first.ok);
const worst = (side) => Math.max(...successful.map((pair) => pair[side].overheadRatio));
const verdict = (ok) => (ok ? "met" : "NOT met");
const targets = [
  ["package wasm + glue + desktop hook <= 60 KB gzip -9", `${(totalGzip / 1000).toFixed(1)} KB`, totalGzip <= 60_000],
  [`overhead of a successful steer <= 1.0 in Node (worst of ${successful.length} rows)`, worst(0).toFixed(2), worst(0) <= 1.0],
  [`overhead of a successful steer <= 1.0 in Chromium (worst of ${successful.length} rows)`, worst(1).toFixed(2), worst(1) <= 1.0],
  ["init() in Node and Chromium printed beside the floor crate's", `${init.rows.length} rows above`, init.rows.length > 0],
];
console.log("\ntargets, this run:");
for (const [what, figure, ok] of targets) console.log(`  ${what.padEnd(72)} ${figure.padStart(10)}  ${verdict(ok)}`);
