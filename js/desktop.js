// The desktop hook's plumbing on the app's own objects (the request manager,
// its turn coordinator, message lists). Each helper runs under try/catch and
// never throws: a frozen manager, a Proxy whose traps throw or a coordinator
// that misbehaves becomes a refusal or a logged failure, never an exception
// inside wasm. Nothing here writes to a shared prototype: the hook's methods
// live on a private layer between the manager and its own prototype.
import { describe, report } from "./boundary.js";

/**
 * Puts a private prototype layer with `steerTurn` / `sendRequest` wrappers
 * between `manager` and its prototype. The wrappers forward `(this, args)`.
 * Returns `{ proto, layer }`, or `{ refused }` with a reason.
 */
export function installLayer(manager, steerTarget, sendTarget) {
  try {
    const proto = Reflect.getPrototypeOf(manager);
    const layer = Object.create(proto);
    for (const [name, target] of [["steerTurn", steerTarget], ["sendRequest", sendTarget]]) {
      const forward = function (...args) {
        return target(this, args);
      };
      Object.defineProperty(layer, name, { value: forward, writable: true, configurable: true });
    }
    if (!Reflect.setPrototypeOf(manager, layer)) {
      return { refused: "the request manager cannot take the hook (it is frozen or not extensible)" };
    }
    return { proto, layer };
  } catch (error) {
    return { refused: `the request manager refused the hook: ${describe(error)}` };
  }
}

/** Removes one wrapper; with `restore`, puts the manager's own prototype back. */
export function removeFromLayer(manager, proto, layer, name, restore) {
  try {
    delete layer[name];
    if (restore && Reflect.getPrototypeOf(manager) === layer) Reflect.setPrototypeOf(manager, proto);
  } catch (error) {
    report("could not remove the desktop hook", error);
  }
}

/** A shallow copy of `source` with `key` set, or `undefined` if it cannot be read. */
export function copyWith(source, key, value) {
  try {
    return { ...source, [key]: value };
  } catch (error) {
    report("could not read the request params", error);
    return undefined;
  }
}

/** Ids of the messages paused with `reason` (an empty list if unreadable). */
export function pausedIds(messages, reason) {
  try {
    if (!Array.isArray(messages)) return [];
    return messages.filter((m) => m?.pauseReason === reason && typeof m.id === "string").map((m) => m.id);
  } catch (error) {
    report("could not read the follow-up messages", error);
    return [];
  }
}

/** A `mutate` callback that un-pauses messages paused with `reason`, except `keep`. */
export function unpauseMessages(reason, keep) {
  return (messages) => {
    try {
      if (!Array.isArray(messages)) return messages;
      return messages.map((m) => (m?.pauseReason === reason && !keep.includes(m.id) ? { ...m, pauseReason: null } : m));
    } catch (error) {
      report("could not resume the follow-up messages", error);
      return messages;
    }
  };
}

/**
 * What ends every `bounded` wait of one hook at once (on dispose). Waits
 * register and unregister themselves, so nothing accumulates on a hook that
 * lives for days.
 */
export function canceller() {
  const waiting = new Set();
  let cancelled = false;
  return {
    waiting,
    isCancelled: () => cancelled,
    cancel() {
      cancelled = true;
      for (const end of waiting) end({ kind: "cancelled" });
      waiting.clear();
    },
  };
}

/**
 * Waits for `value` (a value or a promise of it) for at most `ms`, or until
 * `cancel` fires. Resolves (never rejects) with `{ kind: "ok", value }`,
 * `{ kind: "error", error }`, `{ kind: "timeout" }` or `{ kind: "cancelled" }`.
 */
export function bounded(value, ms, cancel) {
  return new Promise((resolve) => {
    if (cancel.isCancelled()) return resolve({ kind: "cancelled" });
    const end = (how) => {
      clearTimeout(timer);
      cancel.waiting.delete(end);
      resolve(how);
    };
    const timer = setTimeout(() => end({ kind: "timeout" }), ms);
    cancel.waiting.add(end);
    new Promise((settle) => settle(value)).then(
      (result) => end({ kind: "ok", value: result }),
      (error) => end({ kind: "error", error }),
    );
  });
}
