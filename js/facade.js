// The thin layer every entry puts over the wasm-bindgen glue:
//  - before `init()` resolves, any class or function throws
//    "renderer-steering: call `await init()` first";
//  - if the module ever traps (a Rust panic, which aborts, or a stack
//    overflow inside wasm), it is marked stopped: every later call throws
//    at once, and promises it still owes reject, with an error telling the
//    window to re-create it (fail-fast, never a silently dead module).
// Traps are seen two ways: a WebAssembly.RuntimeError / stack-overflow
// RangeError thrown out of any call, and the module's panic listener, which
// the Rust panic hook calls just before trapping (also inside async tasks).
import { SteeringError } from "./steering-error.js";

const INTERNAL = new Set(["default", "initSync", "start", "__setPanicListener", "__setErrorClass"]);
const FREE = new Set(["free", Symbol.dispose]);
/** Methods that return a promise, and where their draft is in the arguments. */
const DRAFT_OF = {
  steer: (args) => field(args[0], "input"),
  decide: () => undefined,
  send: (args) => args[1],
  replace: (args) => args[2],
  revoke: () => undefined,
};

function field(object, key) {
  try {
    return object !== null && typeof object === "object" ? object[key] : undefined;
  } catch {
    return undefined;
  }
}

const isTrap = (e) =>
  e instanceof WebAssembly.RuntimeError || (e instanceof RangeError && /call stack/i.test(e.message));

const isCspBlock = (e) =>
  (e instanceof WebAssembly.CompileError || e instanceof EvalError) &&
  /Content.Security.Policy|CSP|unsafe-eval/i.test(String(e.message));

/**
 * Wraps the glue's exports; the entry's `init` passes `loadDefault()`, the
 * source used when init() has none, and `compileHere` (Node) to compile
 * bytes synchronously.
 */
export function createFacade(glue) {
  let loaded = false;
  let loading;
  let stopped;
  const owed = new Set(); // reject functions of promises the module still owes

  function stop(reason) {
    if (stopped) return;
    stopped = new Error(
      "renderer-steering: the WebAssembly module stopped after an internal error and cannot be used again; " +
        `re-create it by reloading the window (${reason})`,
    );
    stopped.name = "SteeringModuleStopped";
    for (const reject of owed) reject(stopped);
    owed.clear();
  }

  function check() {
    if (stopped) throw stopped;
    if (!loaded) throw new Error("renderer-steering: call `await init()` first");
  }

  function owe(promise) {
    return new Promise((resolve, reject) => {
      owed.add(reject);
      promise.then(
        (value) => (owed.delete(reject), resolve(value)),
        (error) => (owed.delete(reject), reject(error)),
      );
    });
  }

  // Calls of each instance still on the stack, and the glue's `free` of an
  // instance freed from inside one of them (a hook or the transport calling
  // `free()`): run when the outermost call returns, since wasm-bindgen cannot
  // release an instance one of its own calls still borrows.
  const active = new WeakMap();
  const freeLater = new WeakMap();

  /** Runs `run`; a trap coming out of it stops the module (and throws why). */
  function trapping(run) {
    try {
      return run();
    } catch (e) {
      if (!isTrap(e)) throw e;
      stop(e.message);
      throw stopped;
    }
  }

  const release = (self, free) => trapping(() => Reflect.apply(free, self, []));

  function call(fn, self, args) {
    check();
    const tracked = self !== null && typeof self === "object";
    if (tracked) active.set(self, (active.get(self) ?? 0) + 1);
    let result;
    try {
      result = trapping(() => Reflect.apply(fn, self, args));
    } finally {
      if (tracked) {
        const depth = active.get(self) - 1;
        if (depth > 0) active.set(self, depth);
        else active.delete(self);
        const free = depth > 0 || stopped ? undefined : freeLater.get(self);
        if (free) {
          freeLater.delete(self);
          release(self, free);
        }
      }
    }
    return result instanceof Promise ? owe(result) : result;
  }

  // Instances already freed: their methods answer `disposed` (a rejected
  // promise with the draft where they return one), never the glue's
  // "null pointer passed to rust"; free and dispose are no-ops.
  const freed = new WeakSet();

  function afterFree(key, args) {
    check();
    const draftOf = DRAFT_OF[key];
    const error = glue.__hookFailure("disposed", "", undefined, draftOf ? draftOf(args) : undefined);
    if (draftOf) return Promise.reject(error);
    throw error;
  }

  const guard = (key, fn) =>
    function (...args) {
      return freed.has(this) ? afterFree(key, args) : call(fn, this, args);
    };
  // free / dispose after a trap: nothing is left to release, so a no-op
  // (cleanup code on window unload must not throw).
  const disposing = (fn) =>
    function (...args) {
      return stopped || freed.has(this) ? undefined : call(fn, this, args);
    };
  // free() and `using` ([Symbol.dispose]) dispose first: what is still in
  // flight settles (outcome unknown once sent, else disposed, each with its
  // draft) instead of being dropped with the instance.
  const freeing = (fn, dispose) =>
    function () {
      if (stopped || freed.has(this)) return undefined;
      freed.add(this); // from here on (also re-entrant calls from the hooks dispose runs) it answers `disposed`
      if (dispose) call(dispose, this, []);
      if (active.has(this)) freeLater.set(this, fn);
      else release(this, fn);
      return undefined;
    };

  function wrapClass(Class) {
    const proto = Class.prototype;
    const dispose = typeof proto.dispose === "function" ? proto.dispose : undefined;
    for (const key of Reflect.ownKeys(proto)) {
      // The glue's own step of `free` (it must run after the instance is marked freed).
      if (key === "constructor" || key === "__destroy_into_raw") continue;
      const d = Object.getOwnPropertyDescriptor(proto, key);
      if (typeof d.value === "function") {
        if (FREE.has(key)) d.value = freeing(d.value, dispose);
        else if (key === "dispose") d.value = disposing(d.value);
        else d.value = guard(key, d.value);
      }
      if (d.get) d.get = guard(key, d.get);
      if (d.set) d.set = guard(key, d.set);
      Object.defineProperty(proto, key, d);
    }
    return new Proxy(Class, {
      construct(target, args, newTarget) {
        check();
        return trapping(() => Reflect.construct(target, args, newTarget));
      },
    });
  }

  const api = {};
  for (const [name, value] of Object.entries(glue)) {
    if (INTERNAL.has(name) || typeof value !== "function") continue;
    const isClass = /^class\b/.test(Function.prototype.toString.call(value));
    api[name] = isClass ? wrapClass(value) : guard(name, value);
  }

  async function load(source, loadDefault, compileHere) {
    try {
      const input = source ?? (await loadDefault());
      const bytes = input instanceof WebAssembly.Module || input instanceof ArrayBuffer || ArrayBuffer.isView(input);
      // Node: compiled and instantiated here, synchronously (no size limit
      // off the browser's main thread). The glue's async path tests
      // `typeof Response`, and the first touch of that global loads Node's
      // whole fetch implementation (about 40 ms) just to answer "no".
      if (compileHere && bytes) glue.initSync({ module: input });
      else await glue.default({ module_or_path: input });
    } catch (e) {
      if (!isCspBlock(e)) throw e;
      throw new Error(
        "renderer-steering: the page's Content-Security-Policy blocks WebAssembly; add 'wasm-unsafe-eval' " +
          "to script-src, e.g. script-src 'self' 'wasm-unsafe-eval'",
        { cause: e },
      );
    }
    glue.__setPanicListener((message) => stop(message));
    glue.__setErrorClass(SteeringError);
    loaded = true;
  }

  /** Throws what any call would now: before `init()`, or after the module stopped. */
  api.ready = check;

  /** Loads the module once: concurrent calls share one load, a failed load can be retried. */
  api.init = function init(source, loadDefault, compileHere = false) {
    if (stopped) return Promise.reject(stopped);
    if (loaded) return Promise.resolve();
    loading ??= load(source, loadDefault, compileHere).catch((e) => {
      loading = undefined;
      throw e;
    });
    return loading;
  };
  return api;
}
