// The contract checks: the bounds every instance under test gets, the tally
// of one class, `launch` for promise-returning methods, `sync` for the others,
// and the probe that tells whether the module is still usable. Runs in Node
// and in a Chromium page alike (no Node or DOM API).
import { describe, isHostile, isRuntimeError, isSteeringError, safeGet } from "./values.mjs";
import { realClearTimeout, realSetTimeout } from "./timer-watch.mjs";

/** Short bounds every instance under test gets, so every wait ends fast. */
export const TIMEOUTS = { decideMs: 50, steerMs: 50, requestMs: 50 };
/** A steer may run the whole decision chain (3 probes) and the steer itself. */
export const BOUND = { decide: 150, steer: 200, acp: 100, desktop: 250 };
/** Cap on every promise: its bound + 1 s. */
export const cap = (bound) => bound + 1000;

export const CALLER_KINDS = ["invalidInput", "draftTooLarge"];
export const HOST_KINDS = ["malformedAnswer", "host", "transport", "timeout", "outcomeUnknown", "ownershipUnknown"];

/** One class's record: inputs, failures grouped by place and message, poisoning. */
export class Tally {
  constructor(name) {
    this.name = name;
    this.inputs = 0;
    this.failures = new Map();
    this.runtimeErrors = 0;
    this.poisoned = null;
    this.outcomes = new Map();
    this.entries = new Map();
  }
  input(where) {
    this.inputs++;
    const entry = where.split(" <- ")[0];
    this.entries.set(entry, (this.entries.get(entry) ?? 0) + 1);
  }
  fail(where, message) {
    const key = `${where}: ${message}`;
    this.first ??= `after ${this.inputs} inputs: ${key}`;
    this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
  }
  runtime(where, e) {
    this.runtimeErrors++;
    this.fail(where, `WebAssembly.RuntimeError escaped: ${describe(e)}`);
  }
  outcome(what) {
    this.outcomes.set(what, (this.outcomes.get(what) ?? 0) + 1);
  }
  failureCount() {
    let n = 0;
    for (const c of this.failures.values()) n += c;
    return n;
  }
}

export function isThenable(p) {
  try {
    return p !== null && (typeof p === "object" || typeof p === "function") && typeof p.then === "function";
  } catch {
    return false;
  }
}

function checkRejection(t, where, e, exp) {
  if (isRuntimeError(e)) return t.runtime(where, e);
  if (!isSteeringError(e)) return t.fail(where, `rejected with a raw value (${describe(e)})`);
  const kind = safeGet(e, "kind");
  t.outcome(`rejected ${kind}`);
  if (exp.kinds && !exp.kinds.includes(kind)) t.fail(where, `SteeringError kind ${kind}, expected ${exp.kinds.join(" | ")}`);
  const draft = safeGet(e, "draft");
  if (exp.draft !== undefined) {
    if (draft !== exp.draft) t.fail(where, "error.draft is not the caller's input array (identity)");
  } else if (draft === undefined) {
    t.fail(where, "SteeringError without a draft");
  }
  if (exp.mention) {
    const message = String(safeGet(e, "message"));
    if (!message.includes(exp.mention)) t.fail(where, `message does not mention ${exp.mention}: ${message.slice(0, 80)}`);
  }
}

/**
 * Calls a promise-returning method. Expected: no synchronous throw, a promise,
 * settled within exp.cap; a rejection is a SteeringError of exp.kinds with
 * the draft (by identity when exp.draft is given); a resolution only when
 * !exp.mustReject. Returns a handle settleAll() waits on.
 */
export function launch(t, where, fn, exp) {
  t.input(where);
  let p;
  try {
    p = fn();
  } catch (e) {
    if (isRuntimeError(e)) t.runtime(where, e);
    else t.fail(where, `threw synchronously instead of rejecting (${describe(e)})`);
    return null;
  }
  if (!isThenable(p)) {
    t.fail(where, "did not return a promise");
    return null;
  }
  const rec = { where, cap: exp.cap, settled: false, started: Date.now(), value: undefined };
  rec.done = Promise.resolve(p).then(
    (value) => {
      rec.settled = true;
      rec.value = value;
      tookTooLong(t, where, rec.started, exp);
      t.outcome("resolved");
      if (exp.mustReject) t.fail(where, "resolved; expected a SteeringError");
      else if (exp.onResolve) exp.onResolve(value);
    },
    (e) => {
      rec.settled = true;
      tookTooLong(t, where, rec.started, exp);
      checkRejection(t, where, e, exp);
    },
  );
  return rec;
}

/** exp.maxMs: refusing an oversized input must take time proportional to the limit, not to the input. */
function tookTooLong(t, where, started, exp) {
  const ms = Date.now() - started;
  if (exp.maxMs === undefined || ms <= exp.maxMs) return;
  // A garbage-collection pause can hit any call: exp.onSlow re-times it once after a GC.
  if (exp.onSlow) exp.onSlow(ms);
  else t.fail(where, `took more than ${exp.maxMs} ms (time proportional to the input, not to the limit)`);
}

/** Waits until every launched promise settled or its cap passed; reports the rest. */
export async function settleAll(t, recs) {
  const live = recs.filter(Boolean);
  if (live.length === 0) return;
  const longest = Math.max(...live.map((r) => r.cap));
  let timer;
  await Promise.race([Promise.all(live.map((r) => r.done)), new Promise((r) => { timer = realSetTimeout(r, longest); })]);
  realClearTimeout(timer);
  for (const r of live) if (!r.settled) t.fail(r.where, `not settled within ${r.cap} ms (bound + 1 s)`);
}

/**
 * Calls a synchronous method. Expected: it works, or throws an Error with a
 * clear message: not a RuntimeError, not the hostile value itself, and
 * mentioning exp.mention when given. exp.mustThrow: working is a failure.
 */
export function sync(t, where, fn, exp = {}) {
  t.input(where);
  const started = Date.now();
  try {
    const value = fn();
    tookTooLong(t, where, started, exp);
    if (exp.mustThrow) t.fail(where, `accepted; expected an Error${exp.mention ? ` mentioning ${exp.mention}` : ""}`);
    t.outcome("returned");
    return { ok: true, value };
  } catch (e) {
    tookTooLong(t, where, started, exp);
    checkThrown(t, where, e, exp);
    return { ok: false, error: e };
  }
}

export function checkThrown(t, where, e, exp = {}) {
  if (isRuntimeError(e)) return t.runtime(where, e);
  if (isHostile(e)) return t.fail(where, `the hostile value escaped raw (${describe(e)})`);
  let isError = false;
  try {
    isError = e instanceof Error;
  } catch { /* unreadable */ }
  if (!isError) return t.fail(where, `threw a non-Error (${describe(e)})`);
  t.outcome("threw");
  const message = safeGet(e, "message");
  if (typeof message !== "string" || message.trim() === "") return t.fail(where, "threw an Error with no message");
  if (/memory access out of bounds|unreachable|recursion|already (mutably )?borrowed/i.test(message)) t.fail(where, `threw an engine fault (${describe(e)})`);
  if (exp.mention && !(message.includes(exp.mention) || (exp.orMention && exp.orMention.test(message)))) t.fail(where, `Error does not mention ${exp.mention} (${message.slice(0, 100)})`);
}

/** Is the module still usable? null when yes, otherwise what failed. */
export function probe(api) {
  try {
    api.version();
    const s = new api.CodexhostSteering({ request: () => new Promise(() => {}) });
    s.liveState();
    s.dispose();
    s.free();
    const a = new api.AcpSteering({ request: () => new Promise(() => {}) });
    a.inputMode("probe");
    a.dispose();
    a.free();
    return null;
  } catch (e) {
    return describe(e);
  }
}
