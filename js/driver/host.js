// The app's transport, called for the engine: `request(method, params,
// options?)`, and what came of it described for the engine as data (the
// bridge's `host_answer`): a result (its JSON text, read by the front
// door), a rejection's raw facts (the engine decides whether it is the
// host's error answer or means no answer came), unreadable, or not sent (it
// threw synchronously: nothing was written). Nothing here throws.
import { fieldOf } from "./fields.js";
import { describe, jsonText } from "./json-text.js";
import { limits } from "./module.js";
import { report } from "./report.js";

const MAX_MESSAGE_UNITS = 16 * 1024;

/**
 * The raw facts of a rejected value, for the engine to classify (the host's
 * error answer, or no answer came: `core::RejectionFacts`): whether it is
 * an object, a `DOMException`, its `name`, its `code` when a safe integer,
 * its `message`, a description; and `data`, the error data's JSON text
 * when it has a code. Never throws: an unreadable field reads as absent.
 */
export function readRejection(error, maxUnits = limits.argumentUnits) {
  const facts = { __proto__: null, object: false, domException: false, words: describe(error) };
  let data;
  try {
    if (error === null || typeof error !== "object") return { facts, data };
    facts.object = true;
    facts.domException = typeof DOMException === "function" && error instanceof DOMException;
    const name = fieldOf(error, "name");
    if (typeof name === "string") facts.name = name.slice(0, MAX_MESSAGE_UNITS);
    const code = fieldOf(error, "code");
    if (!Number.isSafeInteger(code)) return { facts, data };
    facts.code = code;
    const message = fieldOf(error, "message");
    if (typeof message === "string") facts.message = message.slice(0, MAX_MESSAGE_UNITS);
    const value = fieldOf(error, "data");
    const text = value === undefined ? undefined : jsonText(value, maxUnits, limits.depth);
    if (typeof text === "string") data = text;
  } catch {
    // A field that cannot be read is absent.
  }
  return { facts, data };
}

function resolved(value, maxUnits) {
  if (value === undefined) return [{ how: "unreadable", words: "the answer was undefined" }, ""];
  const text = jsonText(value, maxUnits, limits.depth);
  return typeof text === "string" ? [{ how: "result" }, text] : [{ how: "unreadable", words: text.reason }, ""];
}

function rejected(error, maxUnits) {
  const { facts, data } = readRejection(error, maxUnits);
  return [{ how: "rejected", rejection: facts }, data ?? ""];
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
