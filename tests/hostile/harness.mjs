// The contract checks, the tally of one class, poisoning probes, wasm memory
// and externref-table readings, and scripted good hosts. Runs in Node and in
// a Chromium page alike (no Node or DOM API).
import { describe, isHostile, isRuntimeError, isSteeringError, safeGet } from "./values.mjs";

export const MAX_TIMER_MS = 2147483647;
/** Short bounds every instance under test gets, so every wait ends fast. */
export const TIMEOUTS = { decideMs: 50, steerMs: 50, requestMs: 50 };
/** A steer may run the whole decision chain (3 probes) and the steer itself. */
export const BOUND = { decide: 150, steer: 200, acp: 100, desktop: 250 };
/** Cap on every promise: its bound + 1 s. */
export const cap = (bound) => bound + 1000;
/** Growth allowed after the warm-up (a constant, not per input). */
export const FLAT = { pages: 16, live: 64 };

export const CALLER_KINDS = ["invalidInput", "draftTooLarge"];
export const HOST_KINDS = ["malformedAnswer", "host", "transport", "timeout", "outcomeUnknown", "ownershipUnknown"];

const realSetTimeout = globalThis.setTimeout.bind(globalThis);
const realClearTimeout = globalThis.clearTimeout.bind(globalThis);
export const sleep = (ms) => new Promise((r) => realSetTimeout(r, ms));
export const tick = () => sleep(0);

/**
 * Counts timers armed with a delay no engine can honour (negative, NaN,
 * above 2^31 - 1: browsers and Node fire those at once, which spins).
 * Installed before the package runs any timer; our own timers use the real one.
 */
export const timerWatch = { bad: 0, total: 0, samples: [] };
export function watchTimers() {
  if (globalThis.setTimeout.__hostileWatch) return;
  const wrapped = function (fn, delay, ...rest) {
    timerWatch.total++;
    if (delay !== undefined && !(typeof delay === "number" && delay >= 0 && delay <= MAX_TIMER_MS)) {
      timerWatch.bad++;
      if (timerWatch.samples.length < 3) timerWatch.samples.push(String(delay));
    }
    return realSetTimeout(fn, delay, ...rest);
  };
  wrapped.__hostileWatch = true;
  globalThis.setTimeout = wrapped;
}

/** Lets pending finalizers run (Node with --expose-gc, Chromium with --js-flags=--expose-gc) before a reading. */
export async function quiesce() {
  // A transport call that never settles is given up 100 ms after the
  // engine's bound (which has already rejected the promise): wait past it.
  await sleep(200);
  for (let i = 0; i < 2; i++) {
    if (typeof globalThis.gc === "function") globalThis.gc();
    await sleep(20);
  }
}

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

/**
 * Records the exports of every wasm instance created from now on (installed
 * before the package is imported), for when `init()` resolves with something
 * other than the exports (a facade may resolve with undefined).
 */
export const captured = { exports: null, how: null, all: [] };
export function captureWasm() {
  const W = WebAssembly;
  if (W.__hostileCapture) return;
  const OriginalInstance = W.Instance;
  const keep = (result, how) => {
    const instance = result instanceof OriginalInstance ? result : result?.instance;
    // Other modules may be instantiated too (a runtime's own wasm): keep the
    // one wasm-bindgen built (its memory, a table and __wbindgen_* exports).
    if (instance instanceof OriginalInstance && instance.exports?.memory instanceof W.Memory) {
      const names = Object.keys(instance.exports);
      captured.all.push(names.length);
      if (names.some((n) => n.startsWith("__wbindgen_")) && names.some((n) => instance.exports[n] instanceof W.Table)) {
        captured.exports = instance.exports;
        captured.how = how;
      }
    }
    return result;
  };
  const instantiate = W.instantiate;
  W.instantiate = function (...args) { return instantiate.apply(this, args).then((r) => keep(r, "WebAssembly.instantiate")); };
  if (typeof W.instantiateStreaming === "function") {
    const streaming = W.instantiateStreaming;
    W.instantiateStreaming = function (...args) { return streaming.apply(this, args).then((r) => keep(r, "WebAssembly.instantiateStreaming")); };
  }
  W.Instance = new Proxy(OriginalInstance, {
    construct(target, args, newTarget) { return keep(Reflect.construct(target, args, newTarget), "new WebAssembly.Instance"); },
  });
  W.__hostileCapture = true;
}

/**
 * The wasm memory and the externref table, from what `await init()` resolved
 * with. wasm-bindgen's init resolves with the instance's exports; if it is an
 * Instance or { instance } instead, look inside it; if it holds no memory
 * (e.g. undefined), use the exports captured at instantiation.
 */
export function wasmParts(initResult) {
  let exports = initResult;
  let how = "init() resolved with the wasm exports";
  const hasMemory = (x) => { try { return Object.values(x).some((v) => v instanceof WebAssembly.Memory); } catch { return false; } };
  if (!(initResult && typeof initResult === "object" && hasMemory(initResult)) && !initResult?.instance && captured.exports) {
    exports = captured.exports;
    how = `init() resolved with ${initResult === undefined ? "undefined" : typeof initResult}; exports captured from ${captured.how}`;
  }
  else if (typeof WebAssembly.Instance === "function" && initResult instanceof WebAssembly.Instance) {
    exports = initResult.exports;
    how = "init() resolved with the Instance; used .exports";
  } else if (initResult && typeof initResult === "object" && initResult.instance?.exports) {
    exports = initResult.instance.exports;
    how = "init() resolved with { instance }; used .instance.exports";
  }
  const entries = exports && typeof exports === "object" ? Object.entries(exports) : [];
  let memory = exports?.memory instanceof WebAssembly.Memory ? exports.memory : entries.find(([, v]) => v instanceof WebAssembly.Memory)?.[1];
  const tables = entries.filter(([, v]) => v instanceof WebAssembly.Table);
  // The externref table: named so by wasm-bindgen, or the one holding the
  // booleans wasm-bindgen preloads (a funcref table holds only functions / null).
  let table = tables.find(([k]) => /externref/i.test(k));
  if (!table) {
    table = tables.find(([, t]) => {
      for (let i = 0; i < Math.min(t.length, 1024); i++) {
        try {
          const v = t.get(i);
          if (v === true || v === false || v === undefined) return true;
        } catch { return false; }
      }
      return false;
    });
    if (table) how += `; externref table found by content (${table[0]})`;
  } else {
    how += `; externref table ${table[0]}`;
  }
  if (!memory) how += "; NO memory export found";
  if (!table) how += "; NO externref table found";
  return {
    how,
    pages: () => (memory ? memory.buffer.byteLength / 65536 : NaN),
    table: () => (table ? table[1].length : NaN),
    /** Slots holding a value (wasm-bindgen empties a slot when it frees it). */
    live: () => {
      if (!table) return NaN;
      const t = table[1];
      let n = 0;
      for (let i = 0; i < t.length; i++) {
        const v = t.get(i);
        if (v !== undefined && v !== null) n++;
      }
      return n;
    },
  };
}

// ---- scripted hosts ---------------------------------------------------------

export const INSPECT = "codexhost/thread/steering/inspect";

/** A good codexhost host: inspect says activeTurn, turn/steer answers its turn. */
export function goodCodexhost(method, params) {
  if (method === INSPECT) return Promise.resolve({ delivery: "activeTurn" });
  if (method === "turn/steer") return Promise.resolve({ turnId: safeGet(params, "expectedTurnId") ?? "turn-1" });
  return Promise.reject({ code: -32601, message: "Method not found" });
}

/** A good ACP agent with the steering extension. */
export const GOOD_INIT = { _meta: { steering: { supported: true } } };
export const INJECT_INIT = { agentCapabilities: { session: { inject: { modes: ["steer"], pending: { replace: true } } } } };
let injectIds = 0;
export function goodAcp(method) {
  if (method === "_session/steering") return Promise.resolve({ outcome: "injected" });
  if (method === "session/inject") return Promise.resolve({ messageId: `m${++injectIds}` });
  if (method === "session/prompt") return Promise.resolve({ stopReason: "end_turn" });
  return Promise.resolve({});
}

/**
 * An app whose agent turns end: 30 ms after each `_session/steering`
 * request it reports the turn's prompt answered (`end_turn`) and starts the
 * next turn. A steer the agent accepted lands on its turn's end, so every
 * send settles within its bound; the session keeps a running turn for the
 * next steer. `bind(acp)` names the instance once it is made.
 */
export function turnsEnd(request) {
  const app = { acp: null };
  app.bind = (acp) => (app.acp = acp);
  app.request = (method, params, options) => {
    if (method === "_session/steering") {
      const sessionId = params.sessionId;
      realSetTimeout(() => {
        try {
          app.acp?.promptAnswered(sessionId, { stopReason: "end_turn" });
          app.acp?.promptSent(sessionId);
        } catch {
          // disposed or freed meanwhile: no turn to end
        }
      }, 30);
    }
    return request(method, params, options);
  };
  return app;
}

/** A transport whose behaviour can be switched (hostile during a class, good after). */
export function switchable(impl) {
  const sw = { impl, calls: 0 };
  sw.request = (method, params, options) => {
    sw.calls++;
    return sw.impl(method, params, options);
  };
  return sw;
}

export function freeAll(list) {
  for (const x of list.splice(0)) {
    try { x.dispose?.(); } catch { /* checked elsewhere */ }
    try { x.free?.(); } catch { /* checked elsewhere */ }
  }
}

async function capped(p, ms) {
  let timer;
  try {
    return await Promise.race([p, new Promise((_, reject) => { timer = realSetTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms); })]);
  } finally {
    realClearTimeout(timer);
  }
}

let goodIds = 0;
/** Does this codexhost instance still steer and decide correctly? null or what went wrong. */
export async function codexhostSteers(steering, sw) {
  sw.impl = goodCodexhost;
  const threadId = `good-${++goodIds}`;
  try {
    const shown = [];
    const r = await capped(steering.steer({ threadId, expectedTurnId: "turn-1", input: [{ type: "text", text: "use pnpm" }] }, { present: (d) => shown.push(d) }), 3000);
    if (r.delivery !== "activeTurn" || r.turnId !== "turn-1" || shown.join() !== "activeTurn") return `steer gave ${JSON.stringify({ d: r.delivery, t: r.turnId, shown })}`;
    const d = await capped(steering.decide({ threadId, text: "and again" }), 3000);
    if (d.delivery !== "activeTurn") return `decide gave ${d.delivery}`;
    const input = [{ type: "image", url: "x" }];
    const e = await capped(steering.steer({ threadId, expectedTurnId: "turn-1", input }).then(() => null, (err) => err), 3000);
    if (!isSteeringError(e) || e.kind !== "invalidInput" || e.draft !== input) return `a refused steer gave ${describe(e)}`;
    return null;
  } catch (e) {
    return `steer failed: ${describe(e)} (${safeGet(e, "kind") ?? ""})`;
  }
}

/** Does this ACP instance still steer? */
export async function acpSteers(acp, sw) {
  sw.impl = goodAcp;
  const sessionId = `good-${++goodIds}`;
  try {
    acp.onChange(null);
    acp.initialized(GOOD_INIT);
    await tick();
    acp.promptSent(sessionId);
    const sending = acp.send(sessionId, [{ type: "text", text: "use pnpm" }]);
    // Accepted as pending input, the steer is delivered when its turn ends.
    await sleep(20);
    acp.promptAnswered(sessionId, { stopReason: "end_turn" });
    const out = await capped(sending, 3000);
    if (out.kind !== "injected") return `send gave ${out.kind}`;
    acp.sessionClosed(sessionId);
    return null;
  } catch (e) {
    return `send failed: ${describe(e)} (${safeGet(e, "kind") ?? ""})`;
  }
}

// ---- a desktop request manager of the shape the spec describes ---------------

export const PAUSE_REASON = "Interrupted before the steer was accepted.";

export class Manager {
  constructor(send = goodCodexhost) {
    this.send = send;
    this.sent = [];
    this.coordinator = {
      options: { submissionHost: { getActiveTurnId: () => "turn-1", hasPendingTurnStart: () => false } },
      loadMessages: async () => undefined,
      readMessages: () => [],
      mutate: async () => undefined,
    };
  }
  sendRequest(method, params, options) {
    this.sent.push({ method, params });
    return this.send(method, params, options);
  }
  steerTurn(threadId, input, restoreMessage, serviceTier, attachments, clientUserMessageId) {
    return this.sendRequest("turn/steer", { threadId, expectedTurnId: "turn-1", input, clientUserMessageId });
  }
  startTurn(threadId, submission) {
    return this.sendRequest("turn/start", submission.request);
  }
  getTurnCoordinator() {
    return this.coordinator;
  }
  getStreamRole() {
    return { role: "owner" };
  }
}

export function restoreMessage() {
  return { id: `restore-${++goodIds}`, context: { collaborationMode: "pair", commentAttachments: [] }, cwd: "/repo" };
}

/** Does a hook on this manager still steer (inspect, then the desktop's turn/steer tagged activeTurn)? */
export async function desktopSteers(api, manager) {
  manager.send = goodCodexhost;
  manager.sent.length = 0;
  try {
    const threadId = `good-${++goodIds}`;
    const r = await capped(manager.steerTurn(threadId, [{ type: "text", text: "use pnpm" }], restoreMessage(), "fast"), 3000);
    const methods = manager.sent.map((s) => s.method).join(",");
    if (methods !== `${INSPECT},turn/steer`) return `requests were ${methods}`;
    if (manager.sent[1].params.codexhostSteerDelivery !== "activeTurn") return "turn/steer not tagged activeTurn";
    if (r?.turnId !== "turn-1") return `steerTurn gave ${describe(r)}`;
    return null;
  } catch (e) {
    return `steerTurn failed: ${describe(e)}`;
  }
}
