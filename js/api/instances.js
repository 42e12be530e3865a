// What every public class shares: the engine behind an instance, found from
// `this` whatever the app calls a method on (the instance, a Proxy of it
// such as Vue's reactive() or MobX hand back, or something that is no
// instance at all), `free()` and `using`, and freeing the engine when an
// instance is collected.
import { refusal } from "../driver/engine.js";
import { ready } from "../driver/module.js";

const ENGINE = Symbol("renderer-steering engine");
/** Engines made for an instance, with the class they belong to. */
const classOf = new WeakMap();

const collected =
  typeof FinalizationRegistry === "function" ? new FinalizationRegistry((engine) => engine.release()) : undefined;

/** Makes `self` an instance of `Class` over `engine`. */
export function adopt(self, Class, engine) {
  classOf.set(engine, Class);
  Object.defineProperty(self, ENGINE, { __proto__: null, value: engine });
  collected?.register(self, engine, engine);
}

/**
 * The engine `self` is or stands for as an instance of `Class`; `null` once
 * freed; `undefined` when it is none. Never throws (a Proxy trap that
 * throws stands for no instance).
 */
function engineOf(self, Class) {
  let engine;
  try {
    engine = self === null || self === undefined ? undefined : self[ENGINE];
  } catch {
    return undefined;
  }
  if (engine === undefined || classOf.get(engine) !== Class) return undefined;
  return engine.closed ? null : engine;
}

/**
 * Runs `body(engine)` for a method of `Class` called on `self`. A freed
 * instance answers `disposed`, anything else `invalidInput`; `draft` is the
 * caller's draft, `async` says the method answers a promise (then the
 * refusal rejects it instead of being thrown).
 */
export function method(self, Class, name, { async = false, draft } = {}, body) {
  ready();
  const engine = engineOf(self, Class);
  if (engine) return body(engine);
  const error =
    engine === null
      ? refusal("disposed", "", draft)
      : refusal("invalidInput", `${Class.name}.${name} was called on something that is not a live ${Class.name}`, draft);
  if (async) return Promise.reject(error);
  throw error;
}

/**
 * `free()` (and `[Symbol.dispose]`): disposes first, so what is still in
 * flight settles (outcome unknown once sent, else disposed, each with its
 * draft) instead of being dropped, then frees the engine. A no-op once
 * freed, on no instance, or after the module stopped. Never throws.
 */
export function free(self, Class) {
  let engine;
  try {
    engine = engineOf(self, Class);
    if (!engine) return;
    collected?.unregister(engine);
    engine.run({ do: "dispose" });
  } catch {
    // The module stopped: nothing is left to settle.
  }
  engine?.close();
}

/** Gives `Class` `free()` and `[Symbol.dispose]()`. */
export function freeable(Class) {
  const methods = {
    free() {
      free(this, Class);
    },
  };
  Object.defineProperty(Class.prototype, "free", { value: methods.free, writable: true, configurable: true });
  if (typeof Symbol.dispose === "symbol") {
    Object.defineProperty(Class.prototype, Symbol.dispose, { value: methods.free, writable: true, configurable: true });
  }
}
