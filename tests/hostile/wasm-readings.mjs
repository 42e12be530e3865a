// The wasm memory and externref-table readings of one class: the exports
// captured at instantiation, the memory pages and live table slots read from
// them, the growth allowed after the warm-up, and the GC pause before each
// reading. Runs in Node and in a Chromium page alike.
import { sleep } from "./timer-watch.mjs";

/** Growth allowed after the warm-up (a constant, not per input). */
export const FLAT = { pages: 16, live: 64 };

/** Lets pending finalizers run (Node with --expose-gc, Chromium with --js-flags=--expose-gc) before a reading. */
export async function quiesce() {
  // A transport call that never settles is given up 100 ms after the
  // engine's bound (which has already rejected the promise): wait past it.
  await sleep(200);
  for (let i = 0; i < 2; i++) {
    if (typeof globalThis.gc === "function") globalThis.gc();
    await sleep(20);
  }
}

/**
 * Records the exports of every wasm instance created from now on (installed
 * before the package is imported), for when `init()` resolves with something
 * other than the exports (a facade may resolve with undefined).
 */
export const captured = { exports: null, how: null, all: [] };
export function captureWasm() {
  const W = WebAssembly;
  if (W.__hostileCapture) return;
  const OriginalInstance = W.Instance;
  const keep = (result, how) => {
    const instance = result instanceof OriginalInstance ? result : result?.instance;
    // Other modules may be instantiated too (a runtime's own wasm): keep the
    // one wasm-bindgen built (its memory, a table and __wbindgen_* exports).
    if (instance instanceof OriginalInstance && instance.exports?.memory instanceof W.Memory) {
      const names = Object.keys(instance.exports);
      captured.all.push(names.length);
      if (names.some((n) => n.startsWith("__wbindgen_")) && names.some((n) => instance.exports[n] instanceof W.Table)) {
        captured.exports = instance.exports;
        captured.how = how;
      }
    }
    return result;
  };
  const instantiate = W.instantiate;
  W.instantiate = function (...args) { return instantiate.apply(this, args).then((r) => keep(r, "WebAssembly.instantiate")); };
  if (typeof W.instantiateStreaming === "function") {
    const streaming = W.instantiateStreaming;
    W.instantiateStreaming = function (...args) { return streaming.apply(this, args).then((r) => keep(r, "WebAssembly.instantiateStreaming")); };
  }
  W.Instance = new Proxy(OriginalInstance, {
    construct(target, args, newTarget) { return keep(Reflect.construct(target, args, newTarget), "new WebAssembly.Instance"); },
  });
  W.__hostileCapture = true;
}

/**
 * The wasm memory and the externref table, from what `await init()` resolved
 * with. wasm-bindgen's init resolves with the instance's exports; if it is an
 * Instance or { instance } instead, look inside it; if it holds no memory
 * (e.g. undefined), use the exports captured at instantiation.
 */
export function wasmParts(initResult) {
  let exports = initResult;
  let how = "init() resolved with the wasm exports";
  const hasMemory = (x) => { try { return Object.values(x).some((v) => v instanceof WebAssembly.Memory); } catch { return false; } };
  if (!(initResult && typeof initResult === "object" && hasMemory(initResult)) && !initResult?.instance && captured.exports) {
    exports = captured.exports;
    how = `init() resolved with ${initResult === undefined ? "undefined" : typeof initResult}; exports captured from ${captured.how}`;
  }
  else if (typeof WebAssembly.Instance === "function" && initResult instanceof WebAssembly.Instance) {
    exports = initResult.exports;
    how = "init() resolved with the Instance; used .exports";
  } else if (initResult && typeof initResult === "object" && initResult.instance?.exports) {
    exports = initResult.instance.exports;
    how = "init() resolved with { instance }; used .instance.exports";
  }
  const entries = exports && typeof exports === "object" ? Object.entries(exports) : [];
  let memory = exports?.memory instanceof WebAssembly.Memory ? exports.memory : entries.find(([, v]) => v instanceof WebAssembly.Memory)?.[1];
  const tables = entries.filter(([, v]) => v instanceof WebAssembly.Table);
  // The externref table: named so by wasm-bindgen, or the one holding the
  // booleans wasm-bindgen preloads (a funcref table holds only functions / null).
  let table = tables.find(([k]) => /externref/i.test(k));
  if (!table) {
    table = tables.find(([, t]) => {
      for (let i = 0; i < Math.min(t.length, 1024); i++) {
        try {
          const v = t.get(i);
          if (v === true || v === false || v === undefined) return true;
        } catch { return false; }
      }
      return false;
    });
    if (table) how += `; externref table found by content (${table[0]})`;
  } else {
    how += `; externref table ${table[0]}`;
  }
  if (!memory) how += "; NO memory export found";
  if (!table) how += "; NO externref table found";
  return {
    how,
    pages: () => (memory ? memory.buffer.byteLength / 65536 : NaN),
    table: () => (table ? table[1].length : NaN),
    /** Slots holding a value (wasm-bindgen empties a slot when it frees it). */
    live: () => {
      if (!table) return NaN;
      const t = table[1];
      let n = 0;
      for (let i = 0; i < t.length; i++) {
        const v = t.get(i);
        if (v !== undefined && v !== null) n++;
      }
      return n;
    },
  };
}
