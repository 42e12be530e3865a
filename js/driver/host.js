// The app's transport, called for the engine: `request(method, params,
// options?)`, and what came of it described for the engine as data (the
// bridge's `Settled`): a result (its JSON text, read by the front door), a
// JSON-RPC error answer, no answer (any other rejection: the request may
// have been written), unreadable, or not sent (it threw synchronously:
// nothing was written). Nothing here throws.
import { fieldOf } from "./fields.js";
import { describe, jsonText } from "./json-text.js";
import { limits } from "./module.js";
import { report } from "./report.js";

const MAX_MESSAGE_UNITS = 16 * 1024;

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

/**
 * What a rejection says: `{ code, message, data }` (data as JSON text) for
 * the host's JSON-RPC error answer, else `{ words }`. Never throws.
 */
export function readRejection(error, maxUnits = limits.argumentUnits) {
  try {
    // `code` is read once more (a getter may change its mind): checked again.
    const code = isErrorAnswer(error) ? fieldOf(error, "code") : undefined;
    if (Number.isSafeInteger(code)) {
      const message = fieldOf(error, "message");
      const data = fieldOf(error, "data");
      const text = data === undefined ? undefined : jsonText(data, maxUnits, limits.depth);
      return { __proto__: null, code, message: typeof message === "string" ? message.slice(0, MAX_MESSAGE_UNITS) : "", data: typeof text === "string" ? text : undefined };
    }
  } catch {
    // A rejection whose fields cannot be read is not a JSON-RPC error answer.
  }
  return { __proto__: null, code: undefined, words: describe(error) };
}

function resolved(value, maxUnits) {
  if (value === undefined) return [{ how: "unreadable", words: "the answer was undefined" }, ""];
  const text = jsonText(value, maxUnits, limits.depth);
  return typeof text === "string" ? [{ how: "result" }, text] : [{ how: "unreadable", words: text.reason }, ""];
}

function rejected(error, maxUnits) {
  const read = readRejection(error, maxUnits);
  if (read.code === undefined) return [{ how: "lost", words: read.words }, ""];
  return [{ how: "error", code: read.code, message: read.message }, read.data ?? ""];
}

/**
 * Follows `value` to its settlement and calls `done(settled, payload)` once,
 * never synchronously; with `giveUpMs` >= 0, `{ how: "timeout" }` after that
 * long. One timer at most, and a native promise is followed directly (no
 * adoption hops): this is on every request's path.
 */
export function follow(value, maxUnits, giveUpMs, done) {
  let timer;
  let settled = false;
  const end = ([described, payload]) => {
    if (settled) return;
    settled = true;
    if (timer !== undefined) clearTimeout(timer);
    try {
      done(described, payload);
    } catch (error) {
      report("delivering an answer failed", error);
    }
  };
  const ok = (result) => end(resolved(result, maxUnits));
  const failed = (error) => end(rejected(error, maxUnits));
  if (giveUpMs >= 0) timer = setTimeout(() => end([{ how: "timeout" }, ""]), giveUpMs);
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
 * Calls the app's `request(method, params[, options])` (`options` only when
 * given: the caller's own `requestOptions`, with the request that carries
 * the message) and hands `done(settled, payload)` what happened, never
 * synchronously and at most once. No timer: the engine bounds every wait
 * with its own, and a transport that never settles holds only `done`.
 */
export function callHost(request, method, params, options, done) {
  let returned;
  try {
    returned = options === undefined ? request(method, params) : request(method, params, options);
  } catch (error) {
    Promise.resolve().then(() => {
      try {
        done({ how: "notSent", words: describe(error) }, "");
      } catch (failure) {
        report("delivering an answer failed", failure);
      }
    });
    return;
  }
  follow(returned, limits.answerUnits, -1, done);
}
