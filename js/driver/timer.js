// An engine's one timer, armed with `setTimeout` for the engine's earliest
// deadline. When nothing is due any more it stays armed and only stops
// holding a Node process open (`unref`), so a stream of submissions costs
// no `setTimeout`/`clearTimeout` pair each; when it fires early it finds
// nothing due and is armed again only if needed. A page that broke
// `setTimeout` gets a report, never an exception.
import { report } from "./report.js";

/** setTimeout holds at most 2^31 - 1 ms (longer reads as 1 ms and spins). */
const MAX_DELAY = 2 ** 31 - 2;

export class Timer {
  /** `fire()` runs when it is due. */
  constructor(fire) {
    this.fire = fire;
    this.handle = undefined;
    this.at = undefined;
    this.holds = false;
    this.arming = false;
    this.lastNow = 0;
  }

  /**
   * Arms for `deadline` (engine ms; null: nothing due). `clock()` is read
   * only when a new timeout is set, and not again while it runs: a page
   * clock may call back into the engine, whose arm is then dropped (the
   * engine arms again after its next step).
   */
  arm(deadline, clock) {
    if (deadline === null || deadline === undefined) {
      this.hold(false);
      return;
    }
    if (this.handle !== undefined && this.at <= deadline) {
      this.hold(true);
      return;
    }
    if (this.arming) return;
    this.arming = true;
    let now;
    try {
      now = clock();
    } finally {
      this.arming = false;
    }
    // A broken page clock (NaN) reads as its last good reading, as the engine reads it.
    if (Number.isFinite(now) && now >= 0) this.lastNow = now;
    this.clear();
    const delay = Math.min(Math.max(deadline - Math.floor(this.lastNow), 0), MAX_DELAY) + 1;
    try {
      this.handle = setTimeout(() => {
        this.handle = undefined;
        this.at = undefined;
        this.fire();
      }, delay);
      this.at = deadline;
      this.holds = true;
    } catch (error) {
      report("cannot arm the engine's timer", error);
    }
  }

  /** Clears it; never throws. */
  clear() {
    if (this.handle === undefined) return;
    try {
      clearTimeout(this.handle);
    } catch {
      // A page that broke clearTimeout: the timer fires and finds nothing due.
    }
    this.handle = undefined;
    this.at = undefined;
  }

  hold(hold) {
    if (this.handle === undefined || this.holds === hold) return;
    this.holds = hold;
    try {
      if (hold) this.handle.ref?.();
      else this.handle.unref?.();
    } catch {
      // A host timer without ref/unref.
    }
  }
}
