// The front door between the page and the wasm engine. Every value that
// comes from the page or the host is read here, in JavaScript, under
// try/catch, and crosses into wasm as JSON text (`json-text.js`) or as a
// refusal the engine turns into a typed error, so no JS exception, cycle or
// unbounded recursion can reach wasm. Here: one call's arguments and hooks
// (the call record), the host calls and their answers, the clock, random
// ids and the engine's timer.

import { fieldOf } from "./fields.js";
import { asRefusal, describe, jsonText, Refusal, write } from "./json-text.js";

const HOOK_NAMES = ["present", "retract", "reconcile", "unconfirmed"];

/** Where a call record (`readCall`) keeps each value. */
const TEXT = 0;
const TIMEOUT_MS = 1;
const INPUT = 2;
const REQUEST_OPTIONS = 3;
const FIRST_HOOK = 4;
const PRESENT = 4;
const RETRACT = 5;
const RECONCILE = 6;
const UNCONFIRMED = 7;

/**
 * Reads one call's arguments in a single crossing into a call record, the
 * one handle the engine keeps for the call. `fields` lists `[key, maxUnits]`
 * pairs: each is read once (a getter runs once) within its own budget into
 * one JSON object text; `input` must be an array (the draft). The record is
 * `[textOrRefusal, timeoutMs, input, requestOptions, present, retract,
 * reconcile, unconfirmed]`: the caller's own `input` and `requestOptions`
 * objects (passed on by identity), the raw `requestOptions.timeoutMs`, and
 * the hook functions (absent when a hook is not a function or cannot be
 * read; they are called by `callHook`). A Refusal names its field
 * (`field`). Never throws.
 */
export function readCall(args, fields, maxDepth, hooks) {
  const out = [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined];
  const isObject = args !== null && (typeof args === "object" || typeof args === "function");
  const parts = [];
  let field = "";
  try {
    if (isObject) {
      // Unreadable options read as absent, like every other option; a field
      // only a shared prototype has (pollution) is no field (`fieldOf`).
      out[REQUEST_OPTIONS] = fieldOf(args, "requestOptions");
      const options = out[REQUEST_OPTIONS];
      if (options !== null && typeof options === "object") out[TIMEOUT_MS] = fieldOf(options, "timeoutMs");
    }
    for (const [key, maxUnits] of fields) {
      field = key;
      const value = isObject ? fieldOf(args, key) : undefined;
      if (key === "input") {
        out[INPUT] = value;
        if (value === undefined) throw new Refusal("the value is undefined", false);
        if (!Array.isArray(value)) throw new Refusal("the draft must be an array of content items", false);
      }
      const state = { budget: maxUnits, limit: maxUnits, maxDepth, ancestors: [args] };
      const text = write(value, state, undefined, key);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
    }
    out[TEXT] = `{${parts.join(",")}}`;
  } catch (error) {
    const refusal = asRefusal(error);
    refusal.field = field;
    out[TEXT] = refusal;
  }
  readHooks(hooks, out);
  return out;
}

/** Copies the hook functions of `hooks` into `record` (a hook that cannot be read is no hook). Never throws. */
function readHooks(hooks, record) {
  if (hooks === undefined || hooks === null) return;
  for (let i = 0; i < HOOK_NAMES.length; i++) {
    // A hook that cannot be read is no hook.
    const hook = fieldOf(hooks, HOOK_NAMES[i]);
    if (typeof hook === "function") record[FIRST_HOOK + i] = hook;
  }
}

/** A call record holding only `hooks.unconfirmed` (an ACP send's one hook). Never throws. */
export function unconfirmedRecord(hooks) {
  const record = [undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined];
  const hook = fieldOf(hooks, "unconfirmed"); // a hook that cannot be read is no hook
  if (typeof hook === "function") record[UNCONFIRMED] = hook;
  return record;
}

/** The caller's own `input` a call record holds (handed back on failure). */
export function recordInput(record) {
  return record[INPUT];
}

// Explicit arguments, not a spread: a spread runs the page's array iterator.
function runHook(record, slot, count, first, second) {
  const hook = record[slot];
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
 * Runs the call record's UI hook in `slot` (4 `present`, 5 `retract`,
 * 6 `reconcile`, 7 `unconfirmed`, as `Hook` in `src/shell/hooks.rs`):
 * `present(presentation)`, `retract()`, `unconfirmed(presentation)` or
 * `reconcile(presentation, to)`; without a `reconcile` hook, `retract()`
 * then `present(to)`. A missing hook does nothing; a throwing one is
 * reported. Never throws.
 */
export function callHook(record, slot, presentation, to) {
  if (slot === RETRACT) runHook(record, RETRACT, 0);
  else if (slot !== RECONCILE) runHook(record, slot, 1, presentation);
  else if (typeof record[RECONCILE] === "function") runHook(record, RECONCILE, 2, presentation, to);
  else {
    runHook(record, RETRACT, 0);
    runHook(record, PRESENT, 1, to);
  }
}

const MAX_MESSAGE_UNITS = 16 * 1024;

// A settled host call is described in one string the engine reads in one
// crossing: a one-letter kind, then its text. "r" result (JSON text),
// "u" unreadable, "x" no answer (the request may have been written),
// "n" not sent, "t" timeout. A JSON-RPC error answer is the one object:
// { code, message, data? } (data as JSON text).
function answered(value, maxUnits, maxDepth) {
  if (value === undefined) return "uthe answer was undefined";
  const text = jsonText(value, maxUnits, maxDepth);
  return typeof text === "string" ? `r${text}` : `u${text.reason}`;
}

/**
 * Codes that JSON-RPC clients make up themselves when no answer came, in the
 * range hosts use: vscode-jsonrpc's message write/read error, pending
 * response rejected (connection disposed) and connection inactive
 * (-32099..-32096), and request cancelled (-32800, LSP and ACP: the request
 * may already have run).
 */
const CLIENT_CODES = [-32099, -32098, -32097, -32096, -32800];

/**
 * Whether a rejection is the host's JSON-RPC error answer: an object with a
 * negative integer `code` (every code the specs' hosts send is negative),
 * and not a failure that only looks like one, which means no answer came:
 * a `DOMException` (`AbortError` 20, `TimeoutError` 23), an error named
 * so, a positive code (a WebSocket close code such as 1006, a client's
 * connection-error enum), or a code a client makes up (`CLIENT_CODES`).
 * Reading too much as "no answer" is the safe side: it becomes
 * `outcomeUnknown`, which is never resent; the other way invites a
 * duplicate. Never throws.
 */
export function isErrorAnswer(error) {
  try {
    if (error === null || typeof error !== "object") return false;
    if (typeof DOMException === "function" && error instanceof DOMException) return false;
    const name = fieldOf(error, "name");
    if (name === "AbortError" || name === "TimeoutError") return false;
    const code = fieldOf(error, "code");
    return Number.isSafeInteger(code) && code < 0 && !CLIENT_CODES.includes(code);
  } catch {
    return false;
  }
}

function rejected(error, maxUnits, maxDepth) {
  try {
    // `code` is read once more (a getter may change its mind): checked again.
    const code = isErrorAnswer(error) ? fieldOf(error, "code") : undefined;
    if (Number.isSafeInteger(code)) {
      const message = fieldOf(error, "message");
      const data = fieldOf(error, "data");
      const text = data === undefined ? undefined : jsonText(data, maxUnits, maxDepth);
      return { code, message: typeof message === "string" ? message.slice(0, MAX_MESSAGE_UNITS) : "", data: typeof text === "string" ? text : undefined };
    }
  } catch {
    // A rejection whose fields cannot be read is not a JSON-RPC error answer.
  }
  return `x${describe(error)}`;
}

/**
 * Calls the app's `request(method, params[, options])` (`options`: the
 * `requestOptions` of the call `record`, when the request carries its
 * message and the caller gave them) and hands what
 * happened to `deliver(id, described, now)` (never synchronously, at most
 * once; `now` is the engine clock's reading, so the answer costs wasm no
 * second crossing to read it):
 * a result, a JSON-RPC error answer, no answer (any other rejection: the
 * request may have been written), unreadable, or not sent (it threw
 * synchronously: nothing was written). No timer: the engine bounds every
 * wait with its own, and a transport that never settles holds nothing of
 * the engine's (only `deliver`, one function per engine, whose answer for
 * a request the engine already gave up on is ignored).
 */
export function callHost(request, method, paramsText, record, maxUnits, maxDepth, deliver, id) {
  const done = (described) => {
    try {
      deliver(id, described, now());
    } catch (error) {
      report("delivering an answer failed", error);
    }
  };
  let returned;
  try {
    const params = JSON.parse(paramsText);
    const options = record === undefined ? undefined : record[REQUEST_OPTIONS];
    returned = options === undefined ? request(method, params) : request(method, params, options);
  } catch (error) {
    Promise.resolve(`n${describe(error)}`).then(done);
    return;
  }
  follow(returned, maxUnits, maxDepth, -1, done);
}

/**
 * Waits for `value` (a value, a promise or a thenable) and hands
 * `done(described)`, once and never synchronously, its description as a host
 * answer; with `giveUpMs` >= 0, `"t"` (timeout) after that long.
 */
export function settleAnswer(value, maxUnits, maxDepth, giveUpMs, done) {
  follow(value, maxUnits, maxDepth, giveUpMs, (described) => {
    try {
      done(described);
    } catch (error) {
      report("delivering an answer failed", error);
    }
  });
}

/**
 * Follows `value` to its settlement and calls `done(described)` once. One
 * timer, and a native promise is followed directly (no adoption hops): this
 * is on every request's path.
 */
function follow(value, maxUnits, maxDepth, giveUpMs, done) {
  let timer;
  let settled = false;
  const end = (described) => {
    if (settled) return;
    settled = true;
    if (timer !== undefined) clearTimeout(timer);
    done(described);
  };
  const ok = (result) => end(answered(result, maxUnits, maxDepth));
  const failed = (error) => end(rejected(error, maxUnits, maxDepth));
  if (giveUpMs >= 0) timer = setTimeout(() => end("t"), giveUpMs);
  try {
    if (value instanceof Promise) {
      value.then(ok, failed);
      return;
    }
  } catch {
    // A Proxy or a promise with a hostile `then`: the generic path below.
  }
  new Promise((adopt) => adopt(value)).then(ok, failed);
}

/**
 * A promise and the one function that settles it: `settle(true, value)`
 * resolves, `settle(false, error)` rejects. Cheaper than building the
 * promise from wasm (no executor closure crosses).
 */
export function deferred() {
  let settle;
  const promise = new Promise((resolve, reject) => {
    settle = (ok, value) => (ok ? resolve(value) : reject(value));
  });
  return [promise, settle];
}

/** Text that `serde_json` wrote, as a plain JS value (one crossing per value). */
export function parseJson(text) {
  return JSON.parse(text);
}

// The engine's clock: performance.now() where the page has it (monotonic:
// no wall-clock step moves a deadline), else Date.now(); chosen once.
const clock = (() => {
  try {
    if (typeof performance.now() === "number") return () => performance.now();
  } catch {
    // No usable performance clock: the wall clock below.
  }
  return () => Date.now();
})();

/** Milliseconds for the engine's deadlines; NaN if the page broke its clock (never throws). */
export function now() {
  try {
    return clock();
  } catch {
    return NaN;
  }
}

/** `crypto.randomUUID()`, else 128 random bits as hex; "" if the page broke both (the engine then makes its own). Never throws. */
export function randomId() {
  try {
    if (typeof crypto?.randomUUID === "function") return crypto.randomUUID();
  } catch {
    // A page without (or with a broken) Web Crypto: Math.random below.
  }
  try {
    let hex = "";
    for (let i = 0; i < 4; i++) hex += Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, "0");
    return hex;
  } catch {
    return "";
  }
}

/** Logs a hook's or the desktop's failure; never throws, even if `console` does. */
export function report(what, error) {
  try {
    console.error(`renderer-steering: ${what}`, error);
  } catch {
    // Nothing sensible is left to do.
  }
}

/**
 * Arms the engine's one timer callback (made once per engine) for `ms`.
 * Returns the handle; throws only if the page broke `setTimeout` (the import
 * is declared `catch`, so that reaches wasm as an error, not an unwind).
 */
export function armTimer(callback, ms) {
  return setTimeout(callback, ms);
}

/** Clears an armed engine timer; never throws. */
export function clearTimer(handle) {
  try {
    clearTimeout(handle);
  } catch {
    // A page that broke clearTimeout: the timer fires and finds nothing due.
  }
}

/**
 * Lets an armed engine timer keep a Node process alive only while a deadline
 * is pending (Node's Timeout ref/unref; browsers' numeric handles have
 * neither). Never throws.
 */
export function holdTimer(handle, hold) {
  try {
    if (hold) handle.ref?.();
    else handle.unref?.();
  } catch {
    // A host timer without ref/unref.
  }
}
