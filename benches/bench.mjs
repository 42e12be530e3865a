// `npm run bench`: round trips before the steer and the engine's overhead per
// steer, in Node and in headless Chromium, in one run; plus, per entry
// (benches/package-entries.mjs), shipped size and init() time against the
// dependency floor (benches/init-time.mjs); memory; the paired A/B per steer
// of the codexhost entry, the default entry and the base commit; the targets.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { join, normalize, extname, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { runBench } from "./bench-core.mjs";
import { memoryRun } from "./memory.mjs";
import { entrySizes, formatEntrySizes } from "./package-size.mjs";
import { pairedRun, AB } from "./ab.mjs";
import { initTimes, formatInitTimes } from "./init-time.mjs";
import { entry } from "./package-entries.mjs";
import { targets, formatTargets } from "./targets.mjs";
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

const sizes = await entrySizes();
console.log(`\n${formatEntrySizes(sizes)}`);

// Needs target/floor-pkg/ (scripts/build-floor.sh; scripts/bench.sh builds it).
const init = await initTimes();
console.log(`\n${formatInitTimes(init)}`);

console.log("\nwasm memory (64 KiB pages) in Node, before and after:");
for (const r of await memoryRun(nodeApi, nodeWasm)) {
  console.log(`${r.what.padEnd(46)} ${String(r.before).padStart(4)} -> ${String(r.after).padStart(4)} pages; state left behind: ${r.live}`);
}

// The paired A/B in Node: the codexhost entry against the default entry (the
// same engine in a smaller wasm), and both against the base commit's package
// (target/bench-base/pkg, built by scripts/bench-base.sh).
const baseDir = join(root, "target", "bench-base", "pkg");
const baseCommit = readFileSync(join(baseDir, ".commit"), "utf8").trim();
const PAIRS = [["default", "codexhost", "/codexhost vs default"], ["base", "default", `default vs ${baseCommit}`], ["base", "codexhost", `/codexhost vs ${baseCommit}`]];
const ab = await pairedRun({ base: baseDir, default: entry("default").dir, codexhost: entry("codexhost").dir }, PAIRS.map(([a, b]) => [a, b]));
console.log(`\nNode, paired A/B per steer (median of ${AB.rounds} paired rounds of ${AB.count} steers, each pair back to back, its order alternating; B/A below 1: B is faster):`);
const abHeader = ["host", "thread", ...PAIRS.map(([, , label]) => `${label} B/A`)];
const abLines = ab.map((r) => [r.host, r.thread, ...PAIRS.map(([a, b]) => r.ratios[`${b}/${a}`].toFixed(3))]);
const abWidths = abHeader.map((h, i) => Math.max(h.length, ...abLines.map((l) => l[i].length)));
const abFmt = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(abWidths[i]) : c.padStart(abWidths[i]))).join("  ");
console.log(`  ${abFmt(abHeader)}`);
for (const l of abLines) console.log(`  ${abFmt(l)}`);

console.log(`\n${formatTargets(targets({ sizes, init, ab }))}`);
