// Where Chromium's init() of an embedded entry goes, and what each cut would
// save: `node benches/init-split.mjs [entry ...]` (default: default codexhost;
// SAMPLES=25) after scripts/build-pkg.sh and scripts/build-floor.sh. Not part
// of `npm run bench`; docs/performance.md quotes its output through
// `node scripts/docs-performance.mjs --init-split <file>`.
//
// It copies each entry's files into target/init-split/<entry>/ and adds
// performance.now() marks at each step of init(): the base64 decode, the
// first and last inflated chunk, the call into
// WebAssembly.instantiateStreaming and its answer, the glue's start. The
// driver makes no call into the wasm at init() (its read limits ship as a
// constant), so what the first call compiles shows in the first steer.
// Every sample is a fresh browser context (its own renderer process, no
// compiled code to reuse); each figure is the median over samples of that
// sample's own phase or total. The pages import at load and start the clock
// once the renderer has settled (benches/fresh-context.mjs), and each one
// steers once after init(), so what init() defers to the first steer shows
// too.
import { createServer } from "node:http";
import { readFile, writeFile, cp, rm, mkdir } from "node:fs/promises";
import { execFileSync } from "node:child_process";
import { deflateRawSync, gzipSync } from "node:zlib";
import { join, normalize, extname, dirname, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "../tests/browser/flags.mjs";
import { entry } from "./package-entries.mjs";
import { median } from "./bench-core.mjs";
import { ISOLATED, settledPage, sample } from "./fresh-context.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "target", "init-split");
const SAMPLES = Number(process.env.SAMPLES ?? 25);
const names = process.argv.slice(2).length ? process.argv.slice(2) : ["default", "codexhost"];
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };
const WASM = "renderer_steering_bg.wasm";

// The marks, as exact replacements in the copies; a file without the text to
// replace stops the run rather than measuring something else.
const m = (k) => `globalThis.__m?.(${JSON.stringify(k)});`;
const MARKS = {
  "browser.js": [[
    'const wasm = slices(decode(wasmGzipBase64)).pipeThrough(new DecompressionStream("gzip"));',
    `const gz = decode(wasmGzipBase64); ${m("decoded")}
  let first = true;
  const wasm = slices(gz).pipeThrough(new DecompressionStream("gzip")).pipeThrough(new TransformStream({
    transform(chunk, c) { if (first) { first = false; ${m("first chunk")} } c.enqueue(chunk); },
    flush() { ${m("last chunk")} },
  }));`,
  ]],
  "renderer_steering.js": [
    ["return await WebAssembly.instantiateStreaming(module, imports);",
      `${m("compile call")} const r = await WebAssembly.instantiateStreaming(module, imports); ${m("instantiated")} return r;`],
    ["const instance = await WebAssembly.instantiate(module, imports);",
      `${m("compile call")} const instance = await WebAssembly.instantiate(module, imports); ${m("instantiated")}`],
    ["wasm.__wbindgen_start();", `${m("start")} wasm.__wbindgen_start(); ${m("started")}`],
  ],
};

async function patch(file, pairs) {
  let text = await readFile(file, "utf8");
  for (const [from, to] of pairs) {
    if (!text.includes(from)) throw new Error(`${relative(root, file)} does not hold: ${from}`);
    text = text.replace(from, to);
  }
  await writeFile(file, text);
}

/** The instrumented copy of entry `name`, and its embeds as modules. */
async function instrument(name) {
  const { dir } = entry(name);
  const to = join(out, name);
  await rm(to, { recursive: true, force: true });
  await mkdir(to, { recursive: true });
  await cp(dir, to, { recursive: true, filter: (f) => !f.startsWith(join(dir, "entries")) });
  for (const [file, pairs] of Object.entries(MARKS)) await patch(join(to, file), pairs);
  const wasm = await readFile(join(dir, WASM));
  const raw = `export default "${wasm.toString("base64")}";\n`;
  await writeFile(join(out, name, "wasm-raw.js"), raw);
  // The same bytes as raw deflate: gzip's stream without its header and CRC-32.
  await writeFile(join(out, name, "wasm-deflate-raw.js"), `export default "${deflateRawSync(wasm, { level: 9 }).toString("base64")}";\n`);
  const inline = await readFile(join(dir, "wasm-inline.js"));
  // Over the wire, a server gzips the JavaScript that carries the embed.
  const wire = (b) => gzipSync(b, { level: 9 }).length;
  return { wasm: wasm.length, inline: inline.length, inlineWire: wire(inline), raw: raw.length, rawWire: wire(Buffer.from(raw)) };
}

const u = (copy, file) => `/target/init-split/${copy}/${file}`;
// One steer after init(), with an in-memory host: what init() leaves to the first call.
const STEER = `
    const s = new api.CodexhostSteering({ request: (m) => Promise.resolve(m === "turn/steer" ? { turnId: "t" } : { delivery: "activeTurn" }) });
    const a = performance.now();
    await s.steer({ threadId: "t1", expectedTurnId: "t", input: [{ type: "text", text: "use pnpm" }], clientUserMessageId: "m1" });
    M.steerAfter = performance.now() - a;`;
/** A page that feeds the inflate the embed `file` (base64 of `format`) in `size`-byte slices, outside the split's marks. */
const sliced = (name, label, file, format, size) => [label,
  `import * as api from "${u(name, "browser.js")}"; import embedded from "${u(name, file)}";`,
  `const packed = Uint8Array.fromBase64(embedded); let at = 0;
    const slices = new ReadableStream({ pull(c) { if (at >= packed.length) c.close(); else c.enqueue(packed.subarray(at, (at += ${size}))); } }, { highWaterMark: 0 });
    await api.init(new Response(slices.pipeThrough(new DecompressionStream("${format}")), { headers: { "content-type": "application/wasm" } }));`];
/** The pages of entry `name`: [label, imports, timed body]. */
const variants = (name) => [
  ["as shipped: 64 KB slices -> DecompressionStream -> instantiateStreaming", `import * as api from "${u(name, "browser.js")}";`,
    "await api.init();"],
  ["uncompressed embed (base64 of the .wasm) -> instantiateStreaming", `import * as api from "${u(name, "browser.js")}"; import raw from "${u(name, "wasm-raw.js")}";`,
    `await api.init(new Response(Uint8Array.fromBase64(raw), { headers: { "content-type": "application/wasm" } }));`],
  sliced(name, "the same pipes, outside the split's marks, 64 KB slices", "wasm-inline.js", "gzip", 65536),
  sliced(name, "the same pipes, outside the split's marks, 16 KB slices", "wasm-inline.js", "gzip", 16384),
  sliced(name, "the same, 64 KB slices of a raw deflate embed (no gzip CRC-32)", "wasm-deflate-raw.js", "deflate-raw", 65536),
  ["the same, the gzip'd embed as one chunk (a Response body)",
    `import * as api from "${u(name, "browser.js")}"; import gzb64 from "${u(name, "wasm-inline.js")}";`,
    `const gz = Uint8Array.fromBase64(gzb64);
    await api.init(new Response(new Response(gz).body.pipeThrough(new DecompressionStream("gzip")), { headers: { "content-type": "application/wasm" } }));`],
  ["/url: init() with its fetch", `import * as api from "${u(name, "url.js")}";`, "await api.init();"],
  ["/url: a fetched Response (headers in) to init()", `import * as api from "${u(name, "url.js")}"; const res = await fetch("${u(name, WASM)}");`,
    "await api.init(res);"],
  ["init(bytes): WebAssembly.instantiate(bytes)", `import * as api from "${u(name, "browser.js")}"; const bytes = new Uint8Array(await (await fetch("${u(name, WASM)}")).arrayBuffer());`,
    "await api.init(bytes);"],
];
// The parts on their own, on the entry's own bytes.
const parts = (name) => [`import gzb64 from "${u(name, "wasm-inline.js")}"; import rawb64 from "${u(name, "wasm-raw.js")}";
    const gzText = await (await fetch("${u(name, "wasm-inline.js")}")).text(); const rawText = await (await fetch("${u(name, "wasm-raw.js")}")).text();`, `
    const t = async (k, f) => { const a = performance.now(); await f(); M[k] = performance.now() - a; };
    const loop = (b64) => { const s = atob(b64); const b = new Uint8Array(s.length); for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i); return b; };
    M.fromBase64 = typeof Uint8Array.fromBase64 === "function" ? 1 : 0;
    const gz = Uint8Array.fromBase64(gzb64); const raw = Uint8Array.fromBase64(rawb64);
    const inflate = (stream) => new Response(stream.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    await t("decode gzip'd, fromBase64", () => Uint8Array.fromBase64(gzb64));
    await t("decode gzip'd, atob loop", () => loop(gzb64));
    await t("decode uncompressed, fromBase64", () => Uint8Array.fromBase64(rawb64));
    await t("new Blob of the gzip bytes", () => new Blob([gz]));
    await t("inflate, from a Blob", () => inflate(new Blob([gz]).stream()));
    await t("inflate, from a Response body", () => inflate(new Response(gz).body));
    await t("parse the gzip'd embed's module text", () => new Function(gzText.replace("export default", "return"))());
    await t("parse the uncompressed embed's module text", () => new Function(rawText.replace("export default", "return"))());`];
const COMPILES = [
  ["WebAssembly.compile(bytes)", "await WebAssembly.compile(raw);"],
  ["WebAssembly.compileStreaming(Response)", `await WebAssembly.compileStreaming(new Response(raw, { headers: { "content-type": "application/wasm" } }));`],
  ["new WebAssembly.Module(bytes), synchronous", "new WebAssembly.Module(raw);"],
];
const FLAGS = [
  ["V8 as shipped (lazy compile, Liftoff first, TurboFan in the background)", []],
  ["--no-wasm-lazy-compilation (every function compiled up front)", ["--js-flags=--no-wasm-lazy-compilation"]],
  ["--liftoff-only (no tier-up to TurboFan)", ["--js-flags=--liftoff-only"]],
  ["--no-liftoff (TurboFan only)", ["--js-flags=--no-liftoff"]],
];

// The marks' recorder is a classic script before the module: a module's
// imports evaluate before its own code, and the marks fire inside them.
// Import declarations and set-up sit at the module's top level, at load; the
// timed part runs once the renderer has settled (benches/fresh-context.mjs).
const html = (imports, timed, after) => settledPage({
  head: "const M = {}; let T0 = 0; globalThis.__m = (k) => { M[k] = performance.now() - T0; };",
  setup: imports,
  body: `T0 = performance.now(); ${timed} M.total = performance.now() - T0; ${after}
    return M;`,
});
const pages = new Map();
const server = createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
  if (pages.has(path)) return res.writeHead(200, { "content-type": "text/html", "cache-control": "no-store", ...ISOLATED }).end(pages.get(path));
  const file = normalize(join(root, path));
  const data = file.startsWith(root) ? await readFile(file).catch(() => null) : null;
  if (!data) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store", ...ISOLATED }).end(data);
});

/** Median per mark over SAMPLES fresh contexts of each page, the pages interleaved. */
async function sampleAll(list, flags = []) {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: [...CHROMIUM_FLAGS, ...flags] });
  const runs = list.map(() => []);
  try {
    for (let i = 0; i < SAMPLES; i++) {
      for (const [k, path] of list.entries()) runs[k].push(await sample(browser, `http://127.0.0.1:${server.address().port}${path}`));
    }
  } finally {
    await browser.close();
  }
  return runs.map((rs) => (key) => median(rs.map(typeof key === "function" ? key : (r) => r[key])));
}

await new Promise((r) => server.listen(0, "127.0.0.1", r));
const sizes = {};
for (const name of names) sizes[name] = await instrument(name);
const add = (path, imports, timed, after = "") => (pages.set(path, html(imports, timed, after)), path);
const list = [];
for (const name of names) {
  variants(name).forEach(([, imports, timed], i) => list.push(add(`/${name}/v${i}`, imports, timed, STEER)));
  list.push(add(`/${name}/parts`, ...parts(name)));
  COMPILES.forEach(([, code], i) => list.push(add(`/${name}/c${i}`, `import rawb64 from "${u(name, "wasm-raw.js")}"; const raw = Uint8Array.fromBase64(rawb64);`, code)));
}
list.push(add("/floor", `import init from "/target/floor-pkg/size_floor.js"; const bytes = new Uint8Array(await (await fetch("/target/floor-pkg/size_floor_bg.wasm")).arrayBuffer());`,
  "await init({ module_or_path: bytes });"));
const got = await sampleAll(list);
const of = (path) => got[list.indexOf(path)];
const floor = of("/floor")("total");

const col = (cells, w) => cells.map((c, i) => (i === 0 ? String(c).padEnd(w[0]) : String(c).padStart(w[i]))).join("  ");
const table = (header, rows) => {
  const w = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  return [col(header, w), ...rows.map((r) => col(r, w))].join("\n");
};
const f = (x) => x.toFixed(1);
const lines = [];
lines.push(`Chromium ${execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim().replace(/^Chromium /, "").split(" ")[0]}: init() of the embedded entry, split (ms, median of ${SAMPLES} fresh contexts; floor init(bytes) ${f(floor)} ms)`);
lines.push(`wasm: ${names.map((n) => `${n} ${sizes[n].wasm} B`).join(", ")}; its embed, bytes as a file / gzip -9 over the wire:`);
lines.push(...names.map((n) => `  ${n}: base64 of the gzip'd wasm (as shipped) ${sizes[n].inline} / ${sizes[n].inlineWire}; base64 of the wasm itself ${sizes[n].raw} / ${sizes[n].rawWire}`), "");
const d = (a, b) => (r) => r[b] - r[a];
const PHASES = [
  ["base64 decode (Uint8Array.fromBase64)", (r) => r.decoded],
  ["Response body, pipes, driver and glue up to instantiateStreaming", d("decoded", "compile call")],
  ["until the first inflated chunk", d("compile call", "first chunk")],
  ["inflate with the streaming compile alongside, to the last chunk", d("first chunk", "last chunk")],
  ["compile's end and instantiate, after the last chunk", d("last chunk", "instantiated")],
  ["glue and start function (panic hook)", d("instantiated", "started")],
  ["init() total", "total"],
  ["then the first steer", "steerAfter"],
];
lines.push(table(["phase", ...names], PHASES.map(([label, key]) => [label, ...names.map((n) => f(of(`/${n}/v0`)(key)))])));
lines.push("");
lines.push(table(["init() by way of: ms (x floor), then the first steer ms", ...names.flatMap((n) => [`${n} init`, "steer"])],
  variants(names[0]).map(([label], i) => [label, ...names.flatMap((n) => {
    const g = of(`/${n}/v${i}`);
    return [`${f(g("total"))} (${(g("total") / floor).toFixed(1)}x)`, f(g("steerAfter"))];
  })])));
lines.push("");
const partKeys = ["decode gzip'd, fromBase64", "decode gzip'd, atob loop", "decode uncompressed, fromBase64", "new Blob of the gzip bytes",
  "inflate, from a Blob", "inflate, from a Response body", "parse the gzip'd embed's module text", "parse the uncompressed embed's module text"];
lines.push(table(["part, alone (ms)", ...names], [
  ["Uint8Array.fromBase64 in this Chromium", ...names.map((n) => (of(`/${n}/parts`)("fromBase64") ? "yes" : "no"))],
  ...partKeys.map((k) => [k, ...names.map((n) => f(of(`/${n}/parts`)(k)))]),
  ...COMPILES.map(([label], i) => [`compile: ${label}`, ...names.map((n) => f(of(`/${n}/c${i}`)("total")))]),
]));
// V8's wasm tiers: the shipped path under each flag set, in a browser of its own.
const flagged = [];
for (const [label, flags] of FLAGS) {
  const paths = names.map((n) => `/${n}/v0`);
  flagged.push([label, await sampleAll(paths, flags)]);
}
lines.push("");
lines.push(table(["V8 flags: as shipped, ms", ...names.flatMap((n) => [`${n} init`, "steer"])],
  flagged.map(([label, g]) => [label, ...g.flatMap((h) => [f(h("total")), f(h("steerAfter"))])])));
server.close();
console.log(lines.join("\n"));
