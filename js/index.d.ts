export * from "./renderer_steering.js";
/**
 * Loads the WebAssembly module (once). No argument is needed in Node >= 20
 * or in a browser / Electron renderer; pass bytes, a URL or a Response to
 * load it from elsewhere.
 */
export function init(source?: BufferSource | URL | string | Response | WebAssembly.Module): Promise<unknown>;
