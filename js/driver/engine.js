// The one driver of every engine (codexhost, ACP, and the desktop hook's
// decider): it hands the engine what happened, as data (`step`), and
// carries out the steps it answers, in order: calls the app's transport,
// runs the presentation hooks, settles promises, tells the app of changes,
// and keeps the one timer at the engine's next deadline. It decides
// nothing: every rule is in the Rust core.
import { callHost } from "./host.js";
import { own } from "./fields.js";
import { callHook } from "./front-door.js";
import { isStopped, limits, owe, step } from "./module.js";
import { Journal } from "./journal.js";
import { now, wallNow } from "./clock.js";
import { report } from "./report.js";
import { steeringError } from "./steering-error.js";
import { roleOf } from "./stream-role.js";
import { carrySteps } from "./steps.js";
import { Timer } from "./timer.js";

/**
 * Engines that owe a promise: held (strongly) until it settles, so an app
 * that keeps only the promise still gets its answer within the bound
 * instead of the collector freeing the engine while the promise is pending.
 */
const owing = new Set();

/** The engine's report of a failure when no engine is asked (`kind`, words). */
function refusalReport(kind, detail = "") {
  return own(step(0, { do: "failure", kind, detail }), "error");
}

/** The `SteeringError` a call fails with when no engine is asked: `kind`, words, the caller's draft (by identity). */
export function refusal(kind, detail, draft) {
  return steeringError(refusalReport(kind, detail), draft);
}

/**
 * The engine a constructor opened (`opened`: the module's answer, with
 * `journal`, the records' prefix, when it keeps one), over the app's
 * options as read (`values`).
 */
export function openEngine(opened, values, streamRole) {
  const engine = new Engine(opened.handle, values.request, streamRole);
  if (own(opened, "journal") !== undefined) engine.journal = new Journal(values.journal, values.journalMethods, values.onJournalError);
  return engine;
}

/**
 * `recover()`: hands the engine the journal's records, asks the app's
 * `streamRole` about each thread they name, and resolves with what the
 * engine reads of them.
 */
export function recover(engine) {
  const listing = own(engine.run({ do: "recoverList" }), "value");
  const entries = engine.journalEntries(own(listing, "prefix"));
  const read = engine.run({ do: "recoverRead", now: now(), wall: wallNow() }, JSON.stringify(entries));
  const threads = own(own(read, "value"), "threads") ?? [];
  const roles = threads.map((thread) => [thread, roleOf(engine.streamRole, thread) ?? null]);
  return engine.submit({ do: "recover", now: now(), roles });
}

export class Engine {
  /** Engine `handle` of the module, sending through `request`; `streamRole` when the app gave one. */
  constructor(handle, request, streamRole) {
    this.handle = handle;
    this.request = request;
    this.streamRole = typeof streamRole === "function" ? streamRole : undefined;
    /** op -> { resolve, reject, original }: every op is a submission of its own. */
    this.waiters = new Map();
    /** op -> the call record (hooks, requestOptions) */
    this.records = new Map();
    this.timer = new Timer(() => this.safely({ do: "tick", now: now() }));
    this.depth = 0;
    this.deadline = null;
    this.onChange = undefined;
    this.closed = false;
    this.releaseWhenIdle = false;
    /** The app's journal (`journal.js`), when it gave one and the engine keeps it. */
    this.journal = undefined;
  }

  /**
   * One step: the engine's output (`value`, `error`) once its steps are
   * carried out; `before(output)` runs first (a submission registers its
   * waiter there, before any step can settle it). Throws the message of a
   * constructor-style refusal, or the module's stop error.
   */
  run(input, payload, before) {
    if (this.closed) return { value: undefined, error: refusalReport("disposed") };
    const out = step(this.handle, input, payload);
    if (own(out, "thrown") !== undefined) throw new Error(out.thrown);
    // Armed once the outermost step is done, for the latest deadline (a hook may have stepped again).
    if (carrySteps(this, out, before) && !this.closed) this.timer.arm(this.deadline, now);
    return out;
  }

  /** A step from a callback (an answer, the timer): nothing may throw out of it. */
  safely(input, payload) {
    try {
      this.run(input, payload);
    } catch (error) {
      if (!isStopped()) report("an engine step failed", error);
    }
  }

  /**
   * A submission: a promise of its outcome, or rejected at once with the
   * engine's refusal. `record` holds the call's hooks and request options;
   * a rejection's `draft` is `original` (the caller's input) itself.
   */
  submit(input, payload, record, original) {
    let promise;
    const out = this.run(input, payload, (out) => {
      const op = own(own(out, "value"), "op");
      if (op === undefined) return;
      if (record !== undefined) this.records.set(op, record);
      promise = new Promise((resolve, reject) => this.waiters.set(op, { resolve, reject, original }));
      owing.add(this);
    });
    const error = own(out, "error");
    if (error !== undefined) return Promise.reject(steeringError(error, original));
    if (promise === undefined) return Promise.reject(refusal("disposed", "", original));
    return owe(promise);
  }

  carry(s) {
    const kind = own(s, "do");
    if (kind === "send") this.send(s);
    else if (kind === "journal") this.journalWrite(s);
    else if (kind === "journalError") this.journal.tell();
    else if (kind === "complete") this.complete(s);
    else if (kind === "changed") this.changed(s);
    else callHook(this.records.get(s.op), kind, own(s, "shown") ?? own(s, "from"), own(s, "to"));
  }

  send(request) {
    const { id, op, method, params, message } = request;
    const key = own(request, "key");
    const options = message ? this.records.get(op)?.requestOptions : undefined;
    callHost(this.request, method, params, options, (settled, payload) => {
      if (this.closed) return; // freed meanwhile: the answer is dropped
      const role = roleOf(this.streamRole, key);
      const input = { do: "answer", id, now: now(), how: settled.how, words: settled.words, rejection: settled.rejection, role };
      this.safely(input, payload);
    });
  }

  /** Writes or removes one record, as the engine says; the engine is told when the storage threw. */
  journalWrite(s) {
    if (!this.journal.write(s.key, own(s, "record"))) this.safely({ do: "journalFailed" });
  }

  /**
   * The journal's records (`[key, text]`) under `prefix` for `recover()`:
   * what the engine reads after a restart. None when the engine names no
   * prefix (no journal, or one that is off); the engine is told when the
   * storage threw.
   */
  journalEntries(prefix) {
    if (prefix === undefined) return [];
    const { found, failed } = this.journal.entries(prefix, limits.journalKeys, limits.journalRecordUnits);
    if (failed) this.safely({ do: "journalFailed" });
    return found;
  }

  complete(done) {
    const op = done.op;
    const ok = own(done, "ok");
    const error = own(done, "error");
    const waiter = this.waiters.get(op);
    this.waiters.delete(op);
    this.records.delete(op);
    if (error === undefined) waiter?.resolve(ok);
    else waiter?.reject(steeringError(error, waiter.original));
    if (this.waiters.size === 0) {
      owing.delete(this);
      if (this.releaseWhenIdle) this.close();
    }
  }

  changed({ key, state }) {
    const listener = this.onChange;
    if (typeof listener !== "function") return;
    try {
      listener(key, state);
    } catch (error) {
      report("onChange threw", error);
    }
  }

  /** Frees the engine in the module; later answers and timers find nothing. Never throws. */
  close() {
    if (this.closed) return;
    this.closed = true;
    this.timer.clear();
    owing.delete(this);
    try {
      if (!isStopped()) step(0, { do: "close", handle: this.handle });
    } catch {
      // The module stopped: nothing is left to free.
    }
  }

  /** The public object was collected: free now, or once nothing is owed. */
  release() {
    if (this.waiters.size === 0) this.close();
    else this.releaseWhenIdle = true;
  }
}
