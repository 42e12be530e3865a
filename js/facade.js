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
import { fieldOf as field } from "./fields.js";

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

  // Every live instance by its wasm pointer: its class and the object the
  // glue made (held weakly), on which every glue method then runs. A method
  // reached with another `this` (a Proxy of an instance, such as Vue's
  // reactive() or MobX hand back; another class's instance; a forged
  // object) is resolved through the pointer it shows, and refused unless
  // that is a live instance of the method's own class: the glue would
  // otherwise read one struct's memory as another's and trap.
  const instances = new Map();
  const forget =
    typeof FinalizationRegistry === "function"
      ? new FinalizationRegistry((ptr) => {
          if (instances.get(ptr)?.ref.deref() === undefined) instances.delete(ptr);
        })
      : undefined;

  function pointerOf(self) {
    try {
      if (self === null || (typeof self !== "object" && typeof self !== "function")) return undefined;
      const ptr = self.__wbg_ptr;
      return typeof ptr === "number" ? ptr : undefined;
    } catch {
      return undefined; // a Proxy whose trap throws stands for no instance
    }
  }

  /** `{ ptr, instance }` for the live instance of `Class` that `self` is or
   * stands for; `null` once it was freed (the glue zeroes the pointer);
   * `undefined` when it is none. */
  function resolve(self, Class) {
    const ptr = pointerOf(self);
    if (ptr === 0) return null;
    const entry = ptr === undefined ? undefined : instances.get(ptr);
    const instance = entry?.ref.deref();
    if (entry?.Class !== Class || instance === undefined || instance.__wbg_ptr !== ptr) return undefined;
    return { ptr, instance };
  }

  // Calls of each instance still on the stack (by pointer), and the release
  // of an instance freed from inside one of them (a hook or the transport
  // calling `free()`): run when the outermost call returns, since
  // wasm-bindgen cannot release an instance one of its own calls borrows.
  const active = new Map();
  const freeLater = new Map();
  // Instances freed whose release waits for their calls: their methods
  // already answer `disposed`.
  const freeing = new Set();

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

  function release({ ptr, instance }, free) {
    instances.delete(ptr);
    freeing.delete(ptr);
    trapping(() => Reflect.apply(free, instance, []));
  }

  // An instance that owes a promise is held (strongly) until the promise
  // settles: an app that keeps only the promise still gets its answer
  // within the bound, instead of the collector freeing the instance (and
  // with it the promise's waiter and timer) while the promise is pending.
  const owing = new Map();
  function holdUntilSettled(instance, promise) {
    owing.set(instance, (owing.get(instance) ?? 0) + 1);
    const settled = () => {
      const left = owing.get(instance) - 1;
      if (left > 0) owing.set(instance, left);
      else owing.delete(instance);
    };
    promise.then(settled, settled);
  }

  /** Calls `fn` on `self` (for an instance: `target.instance`, tracked by pointer). */
  function call(fn, self, args, target) {
    check();
    const ptr = target?.ptr;
    if (target) active.set(ptr, (active.get(ptr) ?? 0) + 1);
    let result;
    try {
      result = trapping(() => Reflect.apply(fn, target ? target.instance : self, args));
    } finally {
      if (target) {
        const depth = active.get(ptr) - 1;
        if (depth > 0) active.set(ptr, depth);
        else active.delete(ptr);
        const later = depth > 0 || stopped ? undefined : freeLater.get(ptr);
        if (later) {
          freeLater.delete(ptr);
          later();
        }
      }
    }
    if (!(result instanceof Promise)) return result;
    if (target) holdUntilSettled(target.instance, result);
    return owe(result);
  }

  /** What a method answers when it cannot run: `kind` (`disposed` after
   * free, `invalidInput` when `this` is no live instance of its class), a
   * rejected promise with the draft where it returns one, else thrown. */
  function refuse(key, args, kind, detail) {
    check();
    const draftOf = DRAFT_OF[key];
    const error = glue.__hookFailure(kind, "", detail, draftOf ? draftOf(args) : undefined);
    if (draftOf) return Promise.reject(error);
    throw error;
  }

  const method = (Class, key, fn) =>
    function (...args) {
      const target = resolve(this, Class);
      if (target === null || (target && freeing.has(target.ptr))) return refuse(key, args, "disposed");
      if (target === undefined) {
        return refuse(key, args, "invalidInput", `${Class.name}.${String(key)} was called on something that is not a live ${Class.name}`);
      }
      return call(fn, undefined, args, target);
    };
  // dispose: a no-op once freed, after a trap (nothing is left to release:
  // cleanup code on window unload must not throw) or on no instance.
  const disposing = (Class, fn) =>
    function (...args) {
      const target = stopped ? undefined : resolve(this, Class);
      return target && !freeing.has(target.ptr) ? call(fn, undefined, args, target) : undefined;
    };
  // free() and `using` ([Symbol.dispose]) dispose first: what is still in
  // flight settles (outcome unknown once sent, else disposed, each with its
  // draft) instead of being dropped with the instance. Never throws.
  const freeingWith = (Class, fn, dispose) =>
    function () {
      const target = stopped ? undefined : resolve(this, Class);
      if (!target || freeing.has(target.ptr)) return undefined;
      freeing.add(target.ptr); // from here on (also re-entrant calls from the hooks dispose runs) it answers `disposed`
      if (dispose) call(dispose, undefined, [], target);
      if (active.has(target.ptr)) freeLater.set(target.ptr, () => release(target, fn));
      else release(target, fn);
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
        if (FREE.has(key)) d.value = freeingWith(Class, d.value, dispose);
        else if (key === "dispose") d.value = disposing(Class, d.value);
        else d.value = method(Class, key, d.value);
      }
      if (d.get) d.get = method(Class, key, d.get);
      if (d.set) d.set = method(Class, key, d.set);
      Object.defineProperty(proto, key, d);
    }
    return new Proxy(Class, {
      construct(target, args, newTarget) {
        check();
        const instance = trapping(() => Reflect.construct(target, args, newTarget));
        instances.set(instance.__wbg_ptr, { Class: target, ref: new WeakRef(instance) });
        forget?.register(instance, instance.__wbg_ptr);
        return instance;
      },
    });
  }

  const api = {};
  for (const [name, value] of Object.entries(glue)) {
    if (INTERNAL.has(name) || typeof value !== "function") continue;
    const isClass = /^class\b/.test(Function.prototype.toString.call(value));
    api[name] = isClass ? wrapClass(value) : (...args) => call(value, undefined, args);
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
