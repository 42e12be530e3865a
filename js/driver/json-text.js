// Page and host values as bounded JSON text (the front door's reader:
// drafts, answers, error data), and the one description of a thrown value.
// Throwing getters, Proxy traps, BigInt, symbols, cycles and depth beyond
// the limit are refused while reading, and sizes are bounded while reading,
// in time proportional to the limit (plus `Object.keys`, which lists an
// object's own keys up front). Nothing here throws out of `jsonText`.

import { fieldOf } from "./fields.js";

/**
 * Why a value could not be read: `what` is `"tooLarge"` when only its size
 * is at fault, `"notAnArray"` for a draft that is no array, else
 * `"unreadable"` (`reason` says why).
 */
export class Refusal {
  constructor(reason, what = "unreadable") {
    this.reason = reason;
    this.what = what;
    this.field = ""; // named by `readCall`
  }
}

/** The Refusal `error` is, or one saying why reading threw; never throws
 * (`instanceof` on a thrown Proxy runs its trap, so it is guarded too). */
export function asRefusal(error) {
  try {
    if (error instanceof Refusal) return error;
  } catch {
    // A thrown Proxy whose prototype trap throws: described below.
  }
  return new Refusal(`reading it threw: ${describe(error)}`);
}

/** Longest description kept. */
const MAX_WORDS = 1000;

/**
 * A short, never-throwing description of any thrown value: a string, or
 * an object's string `message` (cut at 1000 characters), else generic words.
 */
export function describe(error) {
  try {
    const words = typeof error === "string" ? error : fieldOf(error, "message");
    if (typeof words === "string") return words.slice(0, MAX_WORDS);
  } catch {
    // A Proxy or a throwing getter: the generic words below.
  }
  return "a value that cannot be described";
}

function spend(state, units) {
  state.budget -= units;
  if (state.budget < 0) throw new Refusal(`larger than ${state.limit} characters of JSON`, "tooLarge");
}

function writeString(text, state) {
  if (text.length + 2 > state.budget) spend(state, text.length + 2);
  const quoted = JSON.stringify(text);
  spend(state, quoted.length);
  return quoted;
}

function writeArray(list, state) {
  const length = list.length;
  if (!Number.isSafeInteger(length) || length < 0) throw new Refusal("an array with an invalid length");
  spend(state, 2);
  const parts = [];
  for (let i = 0; i < length; i++) {
    if (i > 0) spend(state, 1);
    const item = write(list[i], state, undefined, String(i));
    if (item === undefined) spend(state, 4);
    parts.push(item === undefined ? "null" : item);
  }
  return `[${parts.join(",")}]`;
}

function writeObject(object, state, keys) {
  spend(state, 2);
  const parts = [];
  for (const key of keys ?? Object.keys(object)) {
    const item = write(object[key], state, undefined, key);
    // A skipped key still costs a unit: time stays bounded by the limit
    // even for an object of a million undefined values.
    if (item === undefined) {
      spend(state, 1);
      continue;
    }
    const name = writeString(key, state);
    spend(state, parts.length > 0 ? 2 : 1);
    parts.push(`${name}:${item}`);
  }
  return `{${parts.join(",")}}`;
}

export function write(value, state, keys, key) {
  const toJSON = value !== null && typeof value === "object" ? fieldOf(value, "toJSON") : undefined;
  if (typeof toJSON === "function") value = Reflect.apply(toJSON, value, [key]);
  switch (typeof value) {
    case "string":
      return writeString(value, state);
    case "number": {
      if (!Number.isFinite(value)) throw new Refusal(`${value} is not a finite number`);
      const text = JSON.stringify(value);
      spend(state, text.length);
      return text;
    }
    case "boolean":
      spend(state, 5);
      return value ? "true" : "false";
    case "undefined":
      return undefined; // as JSON: dropped from objects, null in arrays
    case "function":
      throw new Refusal("a function is not JSON");
    case "bigint":
      throw new Refusal("a BigInt is not JSON");
    case "symbol":
      throw new Refusal("a Symbol is not JSON");
    default:
      break;
  }
  if (value === null) {
    spend(state, 4);
    return "null";
  }
  if (state.ancestors.includes(value)) throw new Refusal("it contains itself (a cycle)");
  if (state.ancestors.length >= state.maxDepth) throw new Refusal(`nested deeper than ${state.maxDepth} levels`);
  const list = Array.isArray(value);
  if (list && keys) throw new Refusal("an object is expected, not an array");
  state.ancestors.push(value);
  const text = list ? writeArray(value, state) : writeObject(value, state, keys);
  state.ancestors.pop();
  return text;
}

/**
 * `value` as JSON text, or a Refusal. At most `maxUnits` UTF-16 units of
 * output (each is at least one UTF-8 byte, so a value refused here is also
 * larger than `maxUnits` bytes) and `maxDepth` levels of nesting. `keys`,
 * when given, lists the only top-level keys read (the rest is never touched).
 * Never throws.
 */
export function jsonText(value, maxUnits, maxDepth, keys) {
  const state = { budget: maxUnits, limit: maxUnits, maxDepth, ancestors: [] };
  try {
    const text = write(value, state, keys ?? undefined, "");
    return text === undefined ? new Refusal("the value is undefined") : text;
  } catch (error) {
    return asRefusal(error);
  }
}
