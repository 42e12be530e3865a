// Browser / Electron renderer / bundler entry (`browser` and `default`
// conditions): the .wasm is embedded, gzip'd then base64'd, so nothing is
// fetched and nothing needs a bundler plugin, a public folder or an http://
// origin (esbuild, Rollup, webpack, Vite, IIFE bundles and file:// pages).
// Inflated with DecompressionStream into a streaming compile. The fetch-based
// alternative is `renderer-steering/url` (docs/bundlers.md compares them).
import { init as load } from "./driver/module.js";
import wasmGzipBase64 from "./wasm-inline.js";

export * from "./api/exports.js";

function decode(base64) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(base64);
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

// The inflate is fed the gzip'd bytes in slices, straight from memory (a
// Blob's stream() reads them back over IPC, about twice as slowly): given
// them as one chunk, it hands the streaming compile nothing until most of
// the module is inflated; slices let the compile run alongside the inflate
// (docs/performance.md).
const SLICE_BYTES = 65536;

function slices(bytes) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else controller.enqueue(bytes.subarray(at, (at += SLICE_BYTES)));
    },
  }, { highWaterMark: 0 });
}

function embedded() {
  if (typeof DecompressionStream !== "function") {
    throw new Error("renderer-steering: this runtime lacks DecompressionStream; import renderer-steering/url or pass the .wasm bytes to init()");
  }
  const wasm = slices(decode(wasmGzipBase64)).pipeThrough(new DecompressionStream("gzip"));
  return new Response(wasm, { headers: { "content-type": "application/wasm" } });
}

/** Loads the WebAssembly module: concurrent calls share one load; a failed load can be retried. */
export function init(source) {
  return load(source, embedded);
}
