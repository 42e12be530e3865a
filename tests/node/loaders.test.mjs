// The loaders of the packed package's entries (js/node.js, js/browser.js,
// js/url.js) in this one process: each integration entry has its own copy
// of the driver, so each is a module not yet loaded, and its init() is the
// first. Which source Node reads from disk and which it fetches, that Node
// compiles without the glue's fetch path, and the embedded entry's stream.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { packAndInstall } from "./pack.mjs";

let root;
before(() => {
  root = packAndInstall().shipped;
});

/** An entry's module (`dir` under pkg/, "" for the default entry). */
const entry = (dir, file) => import(pathToFileURL(join(root, dir, file)).href);
/** A data: URL of an entry's own .wasm. */
const dataUrl = (dir) => `data:application/wasm;base64,${readFileSync(join(root, dir, "renderer_steering_bg.wasm")).toString("base64")}`;
/** What an init() came to: "loaded", or the failure's code (else its name). */
const outcome = (promise) => promise.then(() => "loaded", (e) => e.code ?? e.name);

const warn = console.warn;
after(() => {
  console.warn = warn;
});

test("in Node, a path (plain, relative, a Windows drive) or a file: URL is read from disk; another scheme is fetched", async () => {
  const { init, version } = await entry("", "node.js");
  for (const source of ["/missing/renderer_steering_bg.wasm", "/missing/a:b/renderer_steering_bg.wasm", "missing.wasm", "C:/missing/renderer_steering_bg.wasm", "C:\\missing\\renderer_steering_bg.wasm", "file:///missing/renderer_steering_bg.wasm", pathToFileURL("/missing/renderer_steering_bg.wasm")]) {
    assert.equal(await outcome(init(source)), "ENOENT", `read from disk: ${source}`);
  }
  for (const source of ["http://127.0.0.1:9/renderer_steering_bg.wasm", new URL("http://127.0.0.1:9/renderer_steering_bg.wasm")]) {
    assert.equal(await outcome(init(source)), "TypeError", `fetched (and nothing listens there): ${source}`);
  }
  assert.equal(await outcome(init(new Uint8Array([0, 97, 115, 109]))), "CompileError", "bytes are compiled, not taken for a path");
  assert.throws(() => version(), /call `await init\(\)` first/, "still not loaded: the embedded entry's case below loads it");
});

/** Runs `load` with the global Response watched: how often it was read. */
async function responseReads(load) {
  const real = Object.getOwnPropertyDescriptor(globalThis, "Response");
  let reads = 0;
  Object.defineProperty(globalThis, "Response", { configurable: true, get: () => (reads++, real.get ? real.get.call(globalThis) : real.value) });
  try {
    await load();
  } finally {
    Object.defineProperty(globalThis, "Response", real);
  }
  return reads;
}

test("in Node, init() of a path compiles the .wasm here, without the glue's fetch path (no read of the global Response)", async () => {
  const { init, version } = await entry("entries/codexhost", "node.js");
  const wasm = join(root, "entries/codexhost", "renderer_steering_bg.wasm");
  assert.equal(await responseReads(() => init(relative(process.cwd(), wasm))), 0);
  assert.equal(typeof version(), "string");
});

test("the embedded entry needs DecompressionStream, uses Uint8Array.fromBase64 where the runtime has it, and compiles a stream of application/wasm", async () => {
  const { init, version } = await entry("entries/acp", "browser.js");
  const inflate = globalThis.DecompressionStream;
  delete globalThis.DecompressionStream;
  const missing = await init().then(() => "loaded", (e) => e.message);
  globalThis.DecompressionStream = inflate;
  assert.equal(missing, "renderer-steering: this runtime lacks DecompressionStream; import renderer-steering/url or pass the .wasm bytes to init()");
  const had = Object.hasOwn(Uint8Array, "fromBase64");
  const decoded = [];
  Uint8Array.fromBase64 = (text) => (decoded.push(text.length), new Uint8Array(Buffer.from(text, "base64")));
  const warnings = [];
  console.warn = (...args) => warnings.push(args);
  try {
    await init();
  } finally {
    if (!had) delete Uint8Array.fromBase64;
    console.warn = warn;
  }
  assert.equal(decoded.length, 1);
  assert.deepEqual(warnings, [], "no fallback from the streaming compile");
  assert.equal(typeof version(), "string");
});

test("the embedded entry decodes the base64 itself where the runtime lacks Uint8Array.fromBase64, and feeds the inflate all of its gzip'd wasm in slices of at most 64 KB, so the streaming compile can start before the inflate ends", async () => {
  const { init, version } = await entry("", "browser.js");
  const { default: embedded } = await entry("", "wasm-inline.js");
  assert.equal(Object.hasOwn(Uint8Array, "fromBase64"), false, "this Node has no fromBase64 (else the decode is not this entry's own)");
  const Inflate = globalThis.DecompressionStream;
  const fed = [];
  // A stand-in that counts what is written to the real inflate.
  globalThis.DecompressionStream = function (format) {
    const inflate = new Inflate(format);
    const counted = new TransformStream({ transform: (chunk, c) => (fed.push(chunk.byteLength), c.enqueue(chunk)) });
    counted.readable.pipeTo(inflate.writable);
    return { writable: counted.writable, readable: inflate.readable };
  };
  try {
    await init();
  } finally {
    globalThis.DecompressionStream = Inflate;
  }
  assert.ok(fed.length > 1, `more than one slice (got ${fed.length})`);
  assert.ok(fed.every((n) => n > 0 && n <= 65536), `each slice at most 64 KB: ${fed}`);
  assert.equal(fed.reduce((a, n) => a + n, 0), Buffer.from(embedded, "base64").length, "every byte of the gzip'd wasm");
  assert.equal(typeof version(), "string");
});

test("the url entry loads the source it is given (a data: URL, fetched)", async () => {
  const { init } = await entry("entries/desktop", "url.js");
  assert.equal(await outcome(init("data:application/wasm;base64,AGFzbQ==")), "CompileError", "a truncated module, compiled");
});

test("in Node, init() without a source reads the .wasm next to the entry and compiles it here", async () => {
  const { init, version } = await entry("entries/desktop", "node.js");
  assert.equal(await responseReads(() => init()), 0);
  assert.equal(typeof version(), "string");
});
