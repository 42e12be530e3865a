// `npm run bench`: round trips before the steer and the engine's overhead per
// steer, in Node and in headless Chromium, in one run; plus, per entry
// (benches/package-entries.mjs), shipped size and init() time against the
// dependency floor (benches/init-time.mjs); memory; the paired A/B per steer
// of the codexhost entry, the default entry and the base commit, in Node and
// (the default entry against the base) in Chromium; the targets. The base
// commit's package (target/bench-base/pkg, built by scripts/bench-base.sh)
// also has rows in the size table and a column in the init() table, so each
// figure reads before and after.
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { runBench } from "./bench-core.mjs";
import { memoryRun } from "./memory.mjs";
import { entrySizes, formatEntrySizes } from "./package-size.mjs";
import { pairedRun, AB } from "./ab.mjs";
import { pairedRunChromium } from "./ab-chromium.mjs";
import { initTimes, formatInitTimes } from "./init-time.mjs";
import { entry, baseEntries, baseCommit, BASE_DIR } from "./package-entries.mjs";
import { targets, formatTargets } from "./targets.mjs";
import { inPage } from "./chromium-page.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// Checked first: every "before" figure needs the base, and the run is long.
const base = baseCommit();
if (!base) throw new Error(`${BASE_DIR} is not built: run scripts/bench-base.sh`);

let nodeApi;
let nodeWasm;
async function inNode() {
  nodeApi = await import(join(root, "pkg", "node.js"));
  await nodeApi.init();
  // The glue's own loader returns the already-loaded module's exports (its memory).
  nodeWasm = await (await import(join(root, "pkg", "renderer_steering.js"))).default();
  return runBench(nodeApi);
}

function inChromium() {
  return inPage(`
    const api = await import("/pkg/browser.js");
    const { runBench } = await import("/benches/bench-core.mjs");
    await api.init();
    return await runBench(api);`);
}

/** A paired A/B table: one row per host/thread, one column per [A, B, label] of `pairs`. */
function formatPaired(rows, pairs) {
  const header = ["host", "thread", ...pairs.map(([, , label]) => `${label} B/A`)];
  const lines = rows.map((r) => [r.host, r.thread, ...pairs.map(([a, b]) => r.ratios[`${b}/${a}`].toFixed(3))]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [header, ...lines].map((l) => `  ${fmt(l)}`).join("\n");
}
const pairedAbout = `median of ${AB.rounds} paired rounds of ${AB.count} steers, each pair back to back, its order alternating; B/A below 1: B is faster`;

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

// The base's rows follow this build's; the targets read this build's only.
const sizes = await entrySizes();
console.log(`\n${formatEntrySizes([...sizes, ...(await entrySizes(baseEntries()))])}`);

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
const PAIRS = [["default", "codexhost", "/codexhost vs default"], ["base", "default", `default vs ${base}`], ["base", "codexhost", `/codexhost vs ${base}`]];
const ab = await pairedRun({ base: BASE_DIR, default: entry("default").dir, codexhost: entry("codexhost").dir }, PAIRS.map(([a, b]) => [a, b]));
console.log(`\nNode, paired A/B per steer (${pairedAbout}):`);
console.log(formatPaired(ab, PAIRS));

// The same rounds in Chromium, for the default entry against the base: the
// browser is where the package runs, and its JIT and GC are not Node's.
const CHROMIUM_PAIRS = [["base", "default", `default vs ${base}`]];
const abChromium = await pairedRunChromium({ base: BASE_DIR, default: entry("default").dir }, CHROMIUM_PAIRS.map(([a, b]) => [a, b]));
console.log(`\nChromium, paired A/B per steer (${pairedAbout}):`);
console.log(formatPaired(abChromium, CHROMIUM_PAIRS));

console.log(`\n${formatTargets(targets({ sizes, init, ab }))}`);
