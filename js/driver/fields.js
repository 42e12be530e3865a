// Reading and writing fields of objects the page hands in, so that writes
// to the shared built-in prototypes (prototype pollution:
// `Object.prototype.clientUserMessageId = "x"`, a setter for `kind`, a
// frozen `Error.prototype`) change nothing the engine reads or returns.
// The built-ins used here are captured when the module loads.

const { hasOwnProperty } = Object.prototype;
const { keys: objectKeys } = Object;
const { slice } = String.prototype;
const { apply, getPrototypeOf, defineProperty } = Reflect;

/** Prototypes every object of the page shares: a field found only there is no field. */
const SHARED = [Object.prototype, Function.prototype, Array.prototype, Error.prototype];

/**
 * True when `key` is the object's own or comes from its own classes (a
 * getter of a transport's error class counts), not from a shared built-in
 * prototype. May throw (a Proxy trap): callers read under try/catch.
 */
export function hasField(object, key) {
  for (let o = object; o !== null && o !== undefined; o = getPrototypeOf(o)) {
    if (SHARED.includes(o)) return false;
    if (apply(hasOwnProperty, o, [key])) return true;
  }
  return false;
}

/** True when some shared built-in prototype has `key` (polluted, or a built-in name such as `message`). */
function shadowed(key) {
  for (const proto of SHARED) if (apply(hasOwnProperty, proto, [key])) return true;
  return false;
}

/**
 * `object[key]` when `object` is an object or function, else `undefined`;
 * when a shared built-in prototype has `key` too (see `SHARED`), only a
 * field the object has before reaching it counts (`hasField`): otherwise a
 * plain read, so a Proxy answering from its `get` trap still works. Never
 * throws: a throwing getter or Proxy trap reads as absent.
 *
 * ```js
 * Object.prototype.allowPromptHandoff = true;
 * fieldOf({}, "allowPromptHandoff"); // undefined
 * ```
 */
export function fieldOf(object, key) {
  try {
    if (object === null || (typeof object !== "object" && typeof object !== "function")) return undefined;
    return !shadowed(key) || hasField(object, key) ? object[key] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Defines `key` as an own data property of `target` (defined, not assigned:
 * a read-only inherited `name` or a setter on a shared prototype cannot
 * drop or catch it); `undefined` values are left out. Never throws.
 */
export function defineField(target, key, value, enumerable = true) {
  if (value === undefined) return;
  try {
    defineProperty(target, key, { __proto__: null, value, writable: true, configurable: true, enumerable });
  } catch {
    // A non-extensible target keeps what it has.
  }
}

/**
 * Puts a SteeringError's fields on `error` (one crossing from wasm):
 * `name`, `kind`, `code`, `data`, `draft`, `trace`, `clientUserMessageId`.
 * Never throws.
 */
export function defineErrorFields(error, kind, code, data, draft, trace, clientUserMessageId) {
  defineField(error, "name", "SteeringError", false);
  defineField(error, "kind", kind);
  defineField(error, "code", code);
  defineField(error, "data", data);
  defineField(error, "draft", draft);
  defineField(error, "trace", trace);
  defineField(error, "clientUserMessageId", clientUserMessageId);
}

/**
 * The first `maxKeys` own enumerable string keys of `object` (each cut to
 * `maxUnits` characters), or `undefined` when they cannot be listed (a
 * Proxy's `ownKeys` trap throws, a revoked Proxy). Never throws.
 */
export function ownKeysOf(object, maxKeys, maxUnits) {
  try {
    const keys = objectKeys(object);
    const out = [];
    for (let i = 0; i < keys.length && i < maxKeys; i++) out[i] = apply(slice, keys[i], [0, maxUnits]);
    return out;
  } catch {
    return undefined;
  }
}

/**
 * `object[key]` when it is the object's own property, else `undefined`: for
 * reading the engine's answers (plain JSON objects), so that a key polluted
 * onto `Object.prototype` (`Object.prototype.thrown = "x"`) is never read
 * as part of an answer. Never throws.
 */
export function own(object, key) {
  return object !== null && typeof object === "object" && apply(hasOwnProperty, object, [key]) ? object[key] : undefined;
}
