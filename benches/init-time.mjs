// init() time of every entry (benches/package-entries.mjs) and of the base
// commit's default entry (target/bench-base/pkg, when scripts/bench-base.sh
// has built it) against the dependency floor (benches/size-floor, built into
// target/floor-pkg/ by scripts/build-floor.sh), in Node and in headless
// Chromium, in one run.
// Part of `npm run bench`; alone: `node benches/init-time.mjs` after
// scripts/build-pkg.sh and scripts/build-floor.sh (SAMPLES=15 by default).
//
// What is timed, per sample, in a fresh context so that no earlier
// compilation can be reused (V8 shares compiled wasm between isolates of one
// process, and Chromium caches wasm code per browser context):
//  - Node: a fresh `node` process per sample. Outside the timing: reading the
//    .wasm file and importing the JS (entry, driver, glue). Timed: from just
//    before the call to its resolution (two rows: as is, and with Node's fetch
//    globals loaded before the clock; the glue's loader tests `typeof Response`,
//    and Node 20 loads its fetch implementation, undici, on that first touch:
//    ~40 ms, the same for every entry and the floor, unrelated to the wasm):
//      entry: `await init(bytes)` of the entry's node.js (the `node`
//             condition): the driver, the glue's compile + instantiate, the
//             start function (panic hook) and the driver's first step;
//      floor: `await init({ module_or_path: bytes })` of the floor's glue.
//  - Chromium: a fresh browser context (own renderer process, empty caches)
//    and page per sample; files from a local HTTP server. Outside the timing:
//    the module imports and, for the `bytes` rows, fetching the .wasm, at
//    load; then the renderer is left to settle (benches/fresh-context.mjs).
//    Timed: from just before the call to its resolution:
//      entry, init():      `await init()` of the entry's browser.js (what a
//                          user imports): base64 decode of the embedded
//                          gzip'd wasm, inflate, streaming compile,
//                          instantiate, start, the driver's first step;
//      entry, init(bytes): `await init(bytes)` of the same module: no
//                          decode/inflate, as the floor;
//      floor:              `await init({ module_or_path: bytes })`.
// Each figure is the median of SAMPLES samples; the kinds are interleaved, one
// sample of each per round, and an entry's "x floor" is the median over the
// rounds of its sample divided by the floor's sample of the same round, so a
// slow stretch of the machine weighs on both sides of a ratio alike. The
// Chromium pages are cross-origin isolated (COOP and COEP headers), which
// gives `performance.now()` its fine resolution (5 µs instead of 100 µs).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { join, normalize, extname, dirname, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CHROMIUM_FLAGS } from "../tests/browser/flags.mjs";
import { ENTRIES, baseEntries } from "./package-entries.mjs";
import { median } from "./bench-core.mjs";
import { ISOLATED, settledPage, sample } from "./fresh-context.mjs";

const here = fileURLToPath(import.meta.url);
const root = join(dirname(here), "..");
const WASM = "renderer_steering_bg.wasm";
const FLOOR_DIR = join(root, "target", "floor-pkg");
const FLOOR_WASM = join(FLOOR_DIR, "size_floor_bg.wasm");
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
/** What is timed beside the floor: this build's entries and the base's default entry. */
const MEASURED = [...ENTRIES, ...baseEntries(["default"])];

// One Node sample, in its own process: prints the timed milliseconds.
async function nodeSample(kind, preload) {
  if (preload === "fetch-preloaded") void globalThis.Response; // loads undici now, outside the timing
  if (kind !== "floor") {
    const { dir } = MEASURED.find((e) => e.name === kind);
    const bytes = await readFile(join(dir, WASM));
    const api = await import(pathToFileURL(join(dir, "node.js")).href);
    const t0 = performance.now();
    await api.init(bytes);
    return performance.now() - t0;
  }
  const bytes = await readFile(FLOOR_WASM);
  const glue = await import(pathToFileURL(join(FLOOR_DIR, "size_floor.js")).href);
  const t0 = performance.now();
  await glue.default({ module_or_path: bytes });
  const ms = performance.now() - t0;
  if (glue.round_trip({ a: [1] }).a[0] !== 1) throw new Error("floor: round_trip failed");
  return ms;
}

/** Node samples: `{ "<entry|floor> <cold|fetch-preloaded>": ms[] }`. */
function inNode(samples) {
  const ms = {};
  for (const preload of ["cold", "fetch-preloaded"]) {
    for (const kind of [...MEASURED.map((e) => e.name), "floor"]) ms[`${kind} ${preload}`] = [];
  }
  for (let i = 0; i < samples; i++) {
    for (const key of Object.keys(ms)) {
      const out = execFileSync(process.execPath, [here, "--sample", ...key.split(" ")], { encoding: "utf8" });
      ms[key].push(Number(out.trim()));
    }
  }
  return ms;
}

// Pages for Chromium: the imports (and the fetch of the bytes) happen at load, before the clock.
const url = (dir, file) => `/${relative(root, join(dir, file)).split("\\").join("/")}`;
const ISOLATION = `if (!crossOriginIsolated) throw new Error("the page is not cross-origin isolated");`;
const PAGES = {
  ...Object.fromEntries(MEASURED.flatMap(({ name, dir }) => [
    [`${name}-init`, [`import * as api from "${url(dir, "browser.js")}"; ${ISOLATION}`, `
    const t0 = performance.now(); await api.init(); return performance.now() - t0;`]],
    [`${name}-bytes`, [`import * as api from "${url(dir, "browser.js")}"; ${ISOLATION}
    const bytes = new Uint8Array(await (await fetch("${url(dir, WASM)}")).arrayBuffer());`, `
    const t0 = performance.now(); await api.init(bytes); return performance.now() - t0;`]],
  ])),
  floor: [`import init, { round_trip } from "/target/floor-pkg/size_floor.js"; ${ISOLATION}
    const bytes = new Uint8Array(await (await fetch("/target/floor-pkg/size_floor_bg.wasm")).arrayBuffer());`, `
    const t0 = performance.now(); await init({ module_or_path: bytes }); const ms = performance.now() - t0;
    if (round_trip({ a: [1] }).a[0] !== 1) throw new Error("floor: round_trip failed");
    return ms;`],
};

async function inChromium(samples) {
  const { chromium } = await import("playwright-core");
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path.startsWith("/__init/")) {
      const body = PAGES[path.slice("/__init/".length)];
      if (!body) return res.writeHead(404).end();
      const [setup, timed] = body;
      return res.writeHead(200, { "content-type": "text/html", "cache-control": "no-store", ...ISOLATED }).end(settledPage({ setup, body: timed }));
    }
    const file = normalize(join(root, path));
    const body = file.startsWith(root) ? await readFile(file).catch(() => null) : null;
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store", ...ISOLATED }).end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const base = `http://127.0.0.1:${server.address().port}/__init/`;
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS });
  const ms = Object.fromEntries(Object.keys(PAGES).map((k) => [k, []]));
  try {
    for (let i = 0; i < samples; i++) {
      for (const kind of Object.keys(PAGES)) ms[kind].push(await sample(browser, base + kind));
    }
  } finally {
    await browser.close();
    server.close();
  }
  return ms;
}

/**
 * Median init() ms of every entry (the base's default entry too, named
 * `default@<commit>`) and of the floor, per runtime:
 * `{ samples, floorBytes, entries: [{ name, label, specifier, bytes }], rows: [{ runtime, floorMs, ms: { [entry]: ms } }] }`.
 */
export async function initTimes(samples = Number(process.env.SAMPLES ?? 15)) {
  const node = inNode(samples);
  const chrome = await inChromium(samples);
  const row = (runtime, floor, of) => ({
    runtime,
    floorMs: median(floor),
    ms: Object.fromEntries(MEASURED.map(({ name }) => [name, median(of(name))])),
    ratio: Object.fromEntries(MEASURED.map(({ name }) => [name, median(of(name).map((ms, i) => ms / floor[i]))])),
  });
  const entries = [];
  for (const e of MEASURED) {
    entries.push({ name: e.name, label: e.label ?? e.name, specifier: e.specifier, bytes: (await readFile(join(e.dir, WASM))).length });
  }
  return {
    samples,
    floorBytes: (await readFile(FLOOR_WASM)).length,
    entries,
    rows: [
      row("Node, init(bytes)", node["floor cold"], (n) => node[`${n} cold`]),
      row("Node, init(bytes), fetch preloaded", node["floor fetch-preloaded"], (n) => node[`${n} fetch-preloaded`]),
      row("Chromium, init() (embedded)", chrome.floor, (n) => chrome[`${n}-init`]),
      row("Chromium, init(bytes)", chrome.floor, (n) => chrome[`${n}-bytes`]),
    ],
  };
}

export function formatInitTimes({ samples, floorBytes, entries, rows }) {
  const header = ["runtime", "floor ms", ...entries.map((e) => `${e.label} ms (x floor)`)];
  const lines = rows.map((r) => [
    r.runtime,
    r.floorMs.toFixed(2),
    ...entries.map(({ name }) => `${r.ms[name].toFixed(2)} (${r.ratio[name].toFixed(2)}x)`),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
  return [
    `init() time per entry vs the dependency floor (benches/size-floor); wasm: ${entries.map((e) => `${e.label} ${e.bytes} B`).join(", ")}, floor ${floorBytes} B`,
    `(median of ${samples} samples, each in a fresh Node process / fresh Chromium context; x floor: the median over the rounds of`,
    ` the entry's sample / the floor's sample of the same round; timed from the init call to its`,
    ` resolution, after the imports and the .wasm read/fetch and, in Chromium, once the new renderer has settled after the load;`,
    ` init() (embedded) includes decoding and inflating the embedded wasm;`,
    ` "fetch preloaded": Node's lazily loaded fetch globals, which the glue's loader touches, loaded before the clock)\n`,
    fmt(header),
    ...lines.map(fmt),
  ].join("\n");
}

if (process.argv[1] === here) {
  if (process.argv[2] === "--sample") {
    process.stdout.write(`${await nodeSample(process.argv[3], process.argv[4])}\n`);
  } else {
    console.log(formatInitTimes(await initTimes()));
  }
}
