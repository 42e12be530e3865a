// The journal: records of messages whose outcome is not settled, kept in the
// app's Web Storage (`localStorage` as it is, or any object with `getItem`,
// `setItem`, `removeItem`, `key` and `length`) so a reload loses nothing. The
// engine says what to write and remove, and when; this only does it. A
// storage that throws (quota, a private window) never breaks a steer: the
// app is told once (`onJournalError`) and the engine goes on without it.
import { report } from "./report.js";

const { apply } = Reflect;

export class Journal {
  /** Over `storage` (its methods read once, checked by the engine); `onError(error)` is told of the first failure. */
  constructor(storage, methods, onError) {
    this.storage = storage;
    this.methods = methods;
    this.onError = typeof onError === "function" ? onError : undefined;
    this.failed = false;
  }

  call(name, args) {
    return apply(this.methods[name], this.storage, args);
  }

  /** Writes `record` (JSON text) at `key`, or removes `key` (`record` undefined). False once it failed. */
  write(key, record) {
    if (this.failed) return false;
    try {
      if (record === undefined) this.call("removeItem", [key]);
      else this.call("setItem", [key, record]);
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  /**
   * Every `[key, text]` under `prefix`: at most `maxKeys` of them, a text
   * longer than `maxUnits` (or not a string) read as "" (the engine drops
   * it). A storage that cannot be listed is a failure (told once).
   */
  entries(prefix, maxKeys, maxUnits) {
    const found = [];
    if (this.failed) return found;
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
      this.fail(error);
    }
    return found;
  }

  fail(error) {
    if (this.failed) return;
    this.failed = true;
    const told = this.onError;
    if (told === undefined) {
      report("the journal failed; steering goes on without it", error);
      return;
    }
    try {
      told(error);
    } catch (thrown) {
      report("onJournalError threw", thrown);
    }
  }
}
