// Browser / Electron renderer / bundler entry (`browser` and `default`
// conditions): the .wasm is embedded as base64, so nothing is fetched and
// nothing needs a bundler plugin, a public folder or an http:// origin
// (esbuild, Rollup, webpack, Vite, IIFE bundles and file:// pages alike).
// `renderer-steering/url` is the fetch-based alternative (see README).
import { api } from "./api.js";
import wasmBase64 from "./wasm-base64.js";

export * from "./exports.js";

function decode(base64) {
  if (typeof Uint8Array.fromBase64 === "function") return Uint8Array.fromBase64(base64);
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** Loads the WebAssembly module: concurrent calls share one load; a failed load can be retried. */
export function init(source) {
  return api.init(source, () => decode(wasmBase64));
}
