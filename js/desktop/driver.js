// The desktop hook's driver over its engine (`core.js`, the rules in Rust:
// src/core/desktop/): it hands the core what was read from
// the desktop, carries out the effects the core returns (ending waits,
// releasing routes, taking the layer out, telling the app to reconcile,
// resuming follow-ups),
// and owns the one timer, set to the core's next deadline. Every wait on
// the desktop or the host is one of the core's deadlines, on the clock and
// the kind of timer every engine has (`driver/clock.js`, `driver/timer.js`).
import { now } from "../driver/clock.js";
import { own } from "../driver/fields.js";
import { Timer } from "../driver/timer.js";
import { DesktopCore } from "./core.js";
import { attempt, report } from "./safety.js";

/** A promise and its resolve function. */
function deferred() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  return { promise, resolve };
}

export class Driver {
  /** A driver for the hook over the decider's engine (`decider`: its steer bound). */
  constructor(decider, onReconcile, restore, resume) {
    this.core = new DesktopCore(decider);
    /** The decider's journal, which the hook's records go to. */
    this.journal = decider.journal;
    this.onReconcile = onReconcile;
    this.restore = restore;
    this.resume = resume;
    /** waitId -> resolve of a pending `wait`. */
    this.waiters = new Map();
    /** routeId -> deferred, resolved when the core releases the route / its one request ends. */
    this.released = new Map();
    this.done = new Map();
    /** Input arrays (and any object) numbered by identity, for the core's tag matching. */
    this.identities = new WeakMap();
    this.nextIdentity = 0;
    this.timer = new Timer(() => {
      this.core.call("tick", { now: now() });
      this.drain();
    });
  }

  /** A number that stands for `value`'s identity (0: not an object). */
  identity(value) {
    if ((typeof value !== "object" && typeof value !== "function") || value === null) return 0;
    let n = this.identities.get(value);
    if (n === undefined) {
      n = ++this.nextIdentity;
      this.identities.set(value, n);
    }
    return n;
  }

  /** Carries out the core's effects, then sets the timer to its next deadline. */
  drain() {
    const { effects, next } = this.core.effects();
    for (const effect of effects) {
      if (effect === "restore") this.restore();
      else if (own(effect, "journal") !== undefined) this.journal?.write(effect.journal.key, own(effect.journal, "record"));
      else if ("expired" in effect) this.end(effect.expired, { kind: "timeout" });
      else if ("cancelled" in effect) this.end(effect.cancelled, { kind: "cancelled" });
      else if ("released" in effect) this.resolve(this.released, effect.released);
      else if ("done" in effect) this.resolve(this.done, effect.done);
      else if ("reconcile" in effect) this.reconcile(effect.reconcile);
      else if ("resume" in effect) this.resume(effect.resume.threadId, effect.resume.pausedBefore);
    }
    this.arm(next);
  }

  arm(next) {
    this.timer.arm(next, now);
    // Once disposed, only the late window is left: it does not keep Node alive.
    if (this.core.disposed) this.timer.hold(false);
  }

  end(waitId, how) {
    const resolve = this.waiters.get(waitId);
    this.waiters.delete(waitId);
    resolve?.(how);
  }

  resolve(map, routeId) {
    map.get(routeId)?.resolve();
    map.delete(routeId);
  }

  /** Resolves once the core releases route `routeId` (or its one request ends, from `done`). */
  until(map, routeId) {
    let d = map.get(routeId);
    if (d === undefined) map.set(routeId, (d = deferred()));
    return d.promise;
  }

  reconcile(what) {
    if (typeof this.onReconcile !== "function") return;
    const called = attempt(this.onReconcile, undefined, [what]);
    if ("threw" in called) report("onReconcile threw", called.threw);
  }

  /**
   * Waits on what a call returned (`{ value }` or `{ threw }`) until the
   * core's deadline for `steer` (its newTurn bound, else one steer bound).
   * Resolves (never rejects) with `{ kind: "ok", value }`, `{ kind: "error",
   * error }`, `{ kind: "timeout" }` or `{ kind: "cancelled" }`.
   */
  wait(called, steer) {
    if ("threw" in called) return Promise.resolve({ kind: "error", error: called.threw });
    return this.waitOn(this.core.call("wait", { now: now(), steer }), called);
  }

  /** `wait` for a wait the core opened (`waitId`). */
  waitOn(waitId, called) {
    return new Promise((resolve) => {
      this.waiters.set(waitId, resolve);
      const settle = (how) => {
        if (this.waiters.has(waitId) && this.core.call("settled", { wait: waitId })) {
          this.end(waitId, how);
          this.drain();
        }
      };
      new Promise((s) => s(called.value)).then(
        (value) => settle({ kind: "ok", value }),
        (error) => settle({ kind: "error", error }),
      );
      this.drain(); // opened after dispose: cancelled at once
    });
  }
}

/** Ends a steer as the core's verdict says: `waited.value`, `waited.error` unchanged, or `error`. */
export function verdict([step, error], waited) {
  if (step.do === "resolve") return waited?.value;
  if (step.do === "rethrow") throw waited?.error;
  throw error;
}
