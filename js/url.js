// `renderer-steering/url`: fetches the .wasm next to this file (streaming
// compilation, the .wasm cached on its own). Needs a bundler that emits
// `new URL("...", import.meta.url)` assets (Vite, webpack 5) and an http(s)
// origin: `fetch` cannot read file:// pages' siblings.
import { init as load } from "./driver/module.js";

export * from "./api/exports.js";

/** Loads the WebAssembly module: concurrent calls share one load; a failed load can be retried. */
export function init(source) {
  return load(source, () => new URL("./renderer_steering_bg.wasm", import.meta.url));
}
