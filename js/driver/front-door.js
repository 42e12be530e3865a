// The front door: every value that comes from the page or the host is read
// here, in JavaScript, under try/catch, and reaches the engine as data: a
// caller's value described by its type (`described`), or JSON text within
// a size and depth limit (`json-text.js`), or a refusal the engine turns
// into a typed error. No JS exception, cycle or unbounded recursion can
// reach wasm. Limits are the engine's own (`limits`, read at load).
import { fieldOf, ownKeysOf } from "./fields.js";
import { asRefusal, jsonText, Refusal, write } from "./json-text.js";
import { limits } from "./module.js";
import { report } from "./report.js";

/**
 * `value` as the engine's `Described`: its type, a string's text when at
 * most `maxUnits` long (else its length), a number (JSON cannot hold NaN or
 * the infinities: those as text); `thenable` for an object whose `then` is a
 * function when `thenable` is asked. Runs no page code but that one read.
 */
export function described(value, maxUnits = limits.shownUnits, thenable = false) {
  switch (typeof value) {
    case "string":
      return value.length <= maxUnits ? { t: "string", s: value } : { t: "string", units: value.length };
    case "number":
      return Number.isFinite(value) ? { t: "number", n: value } : { t: "number", s: String(value) };
    case "boolean":
      return { t: "boolean", s: String(value) };
    case "undefined":
      return { t: "undefined" };
    case "object":
      if (value === null) return { t: "null" };
      return thenable && typeof fieldOf(value, "then") === "function" ? { t: "thenable" } : { t: "object" };
    default:
      return { t: typeof value }; // function, bigint, symbol
  }
}

/** An id as the engine reads it: whole when at most `limits.idUnits` long. */
export function describedId(value) {
  return described(value, limits.idUnits);
}

/**
 * A constructor's `options`: the object itself and each of `names` read
 * once (`values`, the fields as given, for the functions the driver keeps;
 * `kinds`, their types), described for the engine (`read`, `[name, value]`
 * pairs), `timeouts` with its first keys.
 */
export function readOptions(options, names) {
  const read = { options: described(options), fields: [] };
  // Without a prototype: a key polluted onto Object.prototype is no field.
  const values = { __proto__: null };
  const kinds = { __proto__: null };
  if (options === null || (typeof options !== "object" && typeof options !== "function")) return { read, values, kinds };
  for (const name of names) {
    const value = fieldOf(options, name);
    const what = described(value, limits.shownUnits, name === "initialize");
    values[name] = value;
    kinds[name] = what.t;
    read.fields.push([name, what]);
  }
  const timeouts = values.timeouts;
  if (timeouts !== null && typeof timeouts === "object") {
    read.timeoutKeys = ownKeysOf(timeouts, limits.timeoutKeys, limits.shownUnits) ?? null;
    read.timeouts = limits.timeoutNames.map((key) => [key, described(fieldOf(timeouts, key))]);
  }
  const journal = values.journal;
  if (journal !== null && typeof journal === "object") {
    // Its methods, read once: the driver calls these very functions.
    values.journalMethods = { __proto__: null };
    read.journalMethods = limits.journalMethods.map((name) => {
      const method = fieldOf(journal, name);
      values.journalMethods[name] = method;
      return [name, described(method)];
    });
  }
  return { read, values, kinds };
}

/**
 * A host value the app relays, as `[refused, payload]`: its JSON text (only
 * the top-level `keys`, when given) within the relayed limit, or why not.
 */
export function hostValue(value, keys) {
  const text = jsonText(value, limits.relayedUnits, limits.depth, keys);
  return typeof text === "string" ? [undefined, text] : [{ reason: text.reason, what: text.what }, ""];
}

/** A draft (content items) as `[refused, payload]`, within the draft limit. */
export function draftText(value) {
  if (value === undefined) return [{ reason: "the value is undefined" }, ""];
  try {
    if (!Array.isArray(value)) return [{ reason: "", what: "notAnArray" }, ""];
  } catch (error) {
    return [{ reason: asRefusal(error).reason }, ""]; // a revoked Proxy
  }
  const text = jsonText(value, limits.draftUnits, limits.depth);
  return typeof text === "string" ? [undefined, text] : [{ reason: text.reason, what: text.what }, ""];
}

const HOOK_NAMES = ["present", "retract", "reconcile", "unconfirmed"];

/**
 * Reads one call's arguments once into a call record: `fields` lists
 * `[key, maxUnits]` pairs, each read once (a getter runs once) within its
 * own budget into one JSON object text; `input` must be an array (the
 * draft). The record: `text` (the JSON text) or `refused` (`{ field,
 * reason, what }`); the caller's own `input`, `threadId` and
 * `requestOptions` values (passed on by identity); `timeoutMs`
 * (`requestOptions.timeoutMs`, described); and the hook functions. Never throws.
 */
export function readCall(args, fields, hooks) {
  const record = { text: "", refused: undefined, input: undefined, threadId: undefined, requestOptions: undefined, timeoutMs: { t: "undefined" }, hooks: { __proto__: null } };
  const isObject = args !== null && (typeof args === "object" || typeof args === "function");
  const parts = [];
  let field = "";
  try {
    if (isObject) {
      // Unreadable options read as absent, like every other option; a field
      // only a shared prototype has (pollution) is no field (`fieldOf`).
      record.requestOptions = fieldOf(args, "requestOptions");
      const options = record.requestOptions;
      if (options !== null && typeof options === "object") record.timeoutMs = described(fieldOf(options, "timeoutMs"));
    }
    for (const [key, maxUnits] of fields) {
      field = key;
      const value = isObject ? fieldOf(args, key) : undefined;
      if (key === "input") {
        record.input = value;
        if (value === undefined) throw new Refusal("the value is undefined");
        if (!Array.isArray(value)) throw new Refusal("", "notAnArray");
      }
      if (key === "threadId") record.threadId = value;
      const state = { budget: maxUnits, limit: maxUnits, maxDepth: limits.depth, ancestors: [args] };
      const text = write(value, state, undefined, key);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
    }
    record.text = `{${parts.join(",")}}`;
  } catch (error) {
    const refusal = asRefusal(error);
    record.refused = { field, reason: refusal.reason, what: refusal.what };
  }
  readHooks(hooks, record, HOOK_NAMES);
  return record;
}

/** A call record holding an ACP send's hooks, `accepted` and `unconfirmed`. Never throws. */
export function sendHooks(hooks) {
  const record = { hooks: { __proto__: null } };
  readHooks(hooks, record, ["accepted", "unconfirmed"]);
  return record;
}

function readHooks(hooks, record, names) {
  if (hooks === undefined || hooks === null) return;
  for (const name of names) {
    // A hook that cannot be read is no hook.
    const hook = fieldOf(hooks, name);
    if (typeof hook === "function") record.hooks[name] = hook;
  }
}

// Explicit arguments, not a spread: a spread runs the page's array iterator.
function runHook(record, name, count, first, second) {
  const hook = record === undefined ? undefined : record.hooks[name];
  if (typeof hook !== "function") return;
  try {
    if (count === 0) hook();
    else if (count === 1) hook(first);
    else hook(first, second);
  } catch (error) {
    // A throwing UI hook must not change what is delivered.
    report("a presentation hook threw", error);
  }
}

/**
 * Runs a call record's UI hook as the engine names it: `present(shown)`,
 * `retract()`, `accepted(shown)`, `unconfirmed(shown)` or `reconcile(from,
 * to)` (asked only of a caller who gave one). A missing hook does nothing;
 * a throwing one is reported. Never throws.
 */
export function callHook(record, name, first, second) {
  if (name === "retract") runHook(record, "retract", 0);
  else if (name === "reconcile") runHook(record, "reconcile", 2, first, second);
  else runHook(record, name, 1, first);
}
