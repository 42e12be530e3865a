// Never-throwing reads of the desktop's objects, shared by the desktop
// hook's files: a throwing getter or a Proxy trap reads as absent, and a
// call that throws becomes `{ threw }`. Nothing the desktop throws reaches
// the engine: only what was read (strings, numbers, booleans) does.
import { fieldOf } from "../driver/fields.js";
import { limits } from "../driver/module.js";

export { report } from "../driver/report.js";
export { randomId } from "../driver/random-id.js";
export { isSteeringError } from "../driver/steering-error.js";

/** `object[key]`, or undefined when absent, not an object, unreadable, or only on a shared built-in prototype (`fields.js`). */
export const field = fieldOf;

/** A function field, or undefined. */
export function method(object, key) {
  const value = field(object, key);
  return typeof value === "function" ? value : undefined;
}

/** A string id of bounded length, or undefined. */
export function id(value) {
  return typeof value === "string" && value.length <= limits.idUnits ? value : undefined;
}

/** Calls `fn` with `this`; a throw becomes `{ threw }` (nothing escapes). */
export function attempt(fn, self, args) {
  try {
    return { value: Reflect.apply(fn, self, args) };
  } catch (error) {
    return { threw: error };
  }
}

/** An own data property on an error this package made (never throws). */
export function define(error, key, value) {
  try {
    Object.defineProperty(error, key, { value, writable: true, enumerable: true, configurable: true });
  } catch (e) {
    report(`could not set the error's ${key}`, e);
  }
}

/**
 * Marks a hook's prototype layer (shared by every copy of the package, so
 * a second hook on one manager is seen whichever copy installed the first).
 */
export const HOOK_MARK = Symbol.for("renderer-steering.desktop-hook");

/** A short, never-throwing description of a thrown value. */
export { describe } from "../driver/json-text.js";
