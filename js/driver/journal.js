// The journal: records of messages whose outcome is not settled, kept in the
// app's Web Storage (`localStorage` as it is, or any object with `getItem`,
// `setItem`, `removeItem`, `key` and `length`) so a reload loses nothing. The
// engine says what to write, remove and list, and when; this only does it,
// and says when the storage threw. What a failure means (the journal goes
// off, the app is told once) is the engine's: it answers `journalError`
// when the app is to be told, with the error the storage threw.
import { report } from "./report.js";

const { apply } = Reflect;

export class Journal {
  /** Over `storage` (its methods read once, checked by the engine); `onError(error)` is what the app is told with. */
  constructor(storage, methods, onError) {
    this.storage = storage;
    this.methods = methods;
    this.onError = onError;
    /** What the storage threw last: the error the app is told of. */
    this.error = undefined;
  }

  call(name, args) {
    return apply(this.methods[name], this.storage, args);
  }

  /** Writes `record` (JSON text) at `key`, or removes `key` (`record` undefined). False when the storage threw. */
  write(key, record) {
    try {
      if (record === undefined) this.call("removeItem", [key]);
      else this.call("setItem", [key, record]);
      return true;
    } catch (error) {
      this.error = error;
      return false;
    }
  }

  /**
   * Every `[key, text]` under `prefix` (`found`): at most `maxKeys` of them,
   * a text longer than `maxUnits` (or not a string) read as "" (the engine
   * drops it); `failed` when the storage threw while listing.
   */
  entries(prefix, maxKeys, maxUnits) {
    const found = [];
    try {
      const length = this.storage.length;
      const count = Number.isSafeInteger(length) && length > 0 ? length : 0;
      const keys = [];
      for (let i = 0; i < count; i++) {
        const key = this.call("key", [i]);
        if (typeof key === "string" && key.startsWith(prefix)) keys.push(key);
      }
      for (const key of keys.slice(0, maxKeys)) {
        const text = this.call("getItem", [key]);
        found.push([key, typeof text === "string" && text.length <= maxUnits ? text : ""]);
      }
    } catch (error) {
      this.error = error;
      return { found, failed: true };
    }
    return { found, failed: false };
  }

  /** The engine's `journalError`: the app's `onJournalError(error)`, or the log without one. Never throws. */
  tell() {
    const told = this.onError;
    if (typeof told !== "function") {
      report("the journal failed; steering goes on without it", this.error);
      return;
    }
    try {
      told(this.error);
    } catch (thrown) {
      report("onJournalError threw", thrown);
    }
  }
}
