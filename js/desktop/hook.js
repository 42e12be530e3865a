// `installDesktopSteering(manager, options?)`: the hook for the desktop's
// request manager (docs/specs/codexhost-steering.md, "Desktop
// integration"). Every decision, and the order of every steer, is the
// engine's (src/core/desktop/): one steer in flight per thread, the paths, the routes, the tags, how a failure is
// classified, the bounds, the ids not to send again. Here: the private
// prototype layer and the wrapped `steerTurn`/`sendRequest`, which read
// the desktop's values safely (`safety.js`) and hand what they read to the
// driver (`driver.js`), which carries out what the engine answers.
//
// Every read of an app object runs under try/catch (a throwing getter or a
// Proxy trap reads as absent), so nothing the desktop throws reaches the
// engine, and nothing is written to a shared prototype: the wrappers live
// on a layer between the manager and its own prototype, and dispose()
// restores the chain exactly.
import { CodexhostSteering, engineOf } from "../api/codexhost.js";
import { own } from "../driver/fields.js";
import { describedId, readOptions } from "../driver/front-door.js";
import { limits, ready, step } from "../driver/module.js";
import { now } from "../driver/clock.js";
import { roleOf } from "../driver/stream-role.js";
import { attempt, describe, field, HOOK_MARK, id, method, randomId, report } from "./safety.js";
import { Driver } from "./driver.js";
import { DesktopSteering } from "./handle.js";

export { DesktopSteering };

/**
 * Installs the hook; returns `null` when `manager` lacks the methods, and
 * throws a clear error when the manager refuses it (frozen, a refusing
 * Proxy) or already has a hook (dispose that one first).
 *
 * ```js
 * const hook = installDesktopSteering(requestManager, {
 *   timeouts: { decideMs: 5000 },
 *   // The host delivered otherwise than the desktop showed: update the view.
 *   onReconcile: ({ threadId, clientUserMessageId, presented, delivery, turnId }) => view.redraw(threadId),
 * });
 * ```
 */
export function installDesktopSteering(manager, options) {
  ready();
  const names = ["steerTurn", "sendRequest", "startTurn", "getTurnCoordinator"];
  const [originalSteer, originalSend, ...rest] = names.map((name) => method(manager, name));
  if (!originalSteer || !originalSend || rest.some((f) => !f)) return null;
  // `options` is checked by the engine (each field read once) before the
  // hook is built, and its bounds by the decider, named as the caller wrote them.
  const { read, values } = readOptions(options, ["timeouts", "onReconcile", "journal", "journalKey", "onJournalError"]);
  const checked = step(0, { do: "desktopOptions", options: read });
  if (own(checked, "thrown") !== undefined) throw new Error(checked.thrown);
  // The decider keeps the journal too: the hook writes its records, `recover()` reads them.
  const decider = new CodexhostSteering({
    request: (...args) => Reflect.apply(originalSend, manager, args),
    timeouts: values.timeouts,
    journal: values.journal,
    journalKey: values.journalKey,
    onJournalError: values.onJournalError,
  });
  const hook = new Hook(manager, originalSteer, originalSend, decider, values.onReconcile);
  // `recover()` leaves the records of threads whose stream this window follows to their owner.
  engineOf(decider).streamRole = hook.streamRole;
  try {
    hook.install();
  } catch (refused) {
    decider.free();
    throw refused;
  }
  return new DesktopSteering(hook);
}

class Hook {
  constructor(manager, originalSteer, originalSend, decider, onReconcile) {
    this.manager = manager;
    this.originalSteer = originalSteer;
    this.originalSend = originalSend;
    this.decider = decider;
    this.driver = new Driver(this, engineOf(decider), onReconcile);
    this.core = this.driver.core;
    /** Marks of hooks disposed on this manager before this one whose routes are still open. */
    this.below = [];
    /** The desktop's `getStreamRole(threadId)` as it answers (undefined without one); may throw. */
    this.streamRole = (threadId) => {
      const getRole = method(this.manager, "getStreamRole");
      return getRole === undefined ? undefined : Reflect.apply(getRole, this.manager, [threadId]);
    };
  }

  /** Puts the wrappers on a private layer between the manager and its prototype. */
  install() {
    const hook = this;
    // A hook below this one would see every steer first: stacked hooks
    // inspect twice, and their disposes could not restore the chain in any order.
    this.below = hookMarks(this.manager);
    if (this.below.some((mark) => call(mark, "live") === true)) {
      throw new Error("a desktop steering hook is already installed on this request manager; dispose it before installing another");
    }
    let refused;
    try {
      // Own `steerTurn` / `sendRequest` (bound in a constructor, or an object
      // literal) would hide the layer: the hook would silently do nothing.
      const own = ["steerTurn", "sendRequest"].filter((name) => Object.prototype.hasOwnProperty.call(this.manager, name));
      if (own.length > 0) {
        throw new Error(`${own.join(" and ")} ${own.length > 1 ? "are own properties" : "is an own property"} of the request manager, which would hide the hook (it installs below the instance); install it on a manager whose methods live on its prototype`);
      }
      this.layer = Object.create(Reflect.getPrototypeOf(this.manager));
      const wrappers = {
        steerTurn(...args) {
          return hook.steerTurn(this, args);
        },
        sendRequest(...args) {
          return hook.sendRequest(this, args);
        },
      };
      for (const [name, value] of Object.entries(wrappers)) {
        Object.defineProperty(this.layer, name, { value, writable: true, configurable: true });
      }
      const mark = { live: () => !hook.core.disposed, released: (key) => hook.released(key) };
      Object.defineProperty(this.layer, HOOK_MARK, { value: Object.freeze(mark) });
      if (!Reflect.setPrototypeOf(this.manager, this.layer)) {
        refused = "the request manager cannot take the hook (it is frozen or not extensible)";
      }
    } catch (error) {
      refused = `the request manager refused the hook: ${describe(error)}`;
    }
    if (refused !== undefined) throw new Error(refused);
  }

  /**
   * Restores `steerTurn` now; decisions still out fail closed as `disposed`
   * (nothing was sent but the inspect), and waits on the app end. The
   * core keeps the layer while a route may still see its late request and
   * an activeTurn `turn/steer` may still leave, at most one steer bound.
   */
  dispose() {
    if (this.core.disposed) return;
    this.removeFromLayer("steerTurn", false);
    this.core.disposed = true;
    this.driver.safely({ op: "dispose", now: now() });
    try {
      this.decider.dispose();
      this.decider.free();
    } catch (error) {
      report("could not release the hook's engine", error); // only if the module stopped
    }
  }

  /** Drops the journal's records of a message: those the hook wrote and those its decider knows. */
  forget(clientUserMessageId) {
    this.decider.forget(clientUserMessageId);
    try {
      this.driver.run({ do: "forget", messageId: describedId(clientUserMessageId) });
    } catch (error) {
      report("could not forget the message", error); // only if the module stopped
    }
  }

  /** The engine's `restore`: `sendRequest` goes too, and the layer leaves the chain. */
  restore() {
    this.removeFromLayer("sendRequest", true);
  }

  removeFromLayer(name, restore) {
    try {
      delete this.layer[name];
      if (restore) this.unlink();
    } catch (error) {
      report("could not remove the desktop hook", error);
    }
  }

  /**
   * Takes the layer out of the chain: from under the manager, or from under
   * the layer of a hook installed after this one was disposed (its routes
   * still open then), so each dispose leaves the chain exactly as it was.
   */
  unlink() {
    let object = this.manager;
    for (let depth = 0; depth < MAX_CHAIN; depth++) {
      const next = Reflect.getPrototypeOf(object);
      if (next === null) return;
      if (next === this.layer) {
        Reflect.setPrototypeOf(object, Reflect.getPrototypeOf(this.layer));
        return;
      }
      object = next;
    }
  }

  /** Resolves once this hook's route of `key` (a route key) is gone; undefined when none is open. */
  released(key) {
    try {
      const [threadId, messageId] = JSON.parse(key);
      const route = this.core.openRoute(String(threadId), String(messageId));
      return route === undefined ? undefined : this.driver.until(route);
    } catch {
      return undefined;
    }
  }

  /** Resolves once a disposed hook below has no route of `key` open; undefined when none has. */
  belowReleased(key) {
    for (const mark of this.below) {
      const released = call(mark, "released", key);
      if (released !== undefined) return released;
    }
    return undefined;
  }

  /** What the desktop's `getStreamRole(threadId)` answered, for the engine to read (`roleOf`); never throws. */
  roleOf(threadId) {
    return roleOf(this.streamRole, threadId);
  }

  coordinator() {
    const get = method(this.manager, "getTurnCoordinator");
    return get ? attempt(get, this.manager, []).value : undefined;
  }

  /** The desktop's `submissionHost` (undefined when it has none). */
  submissionHost() {
    return field(field(this.coordinator(), "options"), "submissionHost");
  }

  /**
   * The wrapped `steerTurn`: what the hook reads of the call goes to the
   * engine; a steer it does not handle goes to the desktop's own method at
   * once, its return value untouched.
   */
  steerTurn(self, args) {
    let reply;
    try {
      const threadId = id(args[0]);
      const text = threadId === undefined ? undefined : this.core.steerText(args[1]);
      const restore = args[2];
      const context = field(restore, "context");
      reply = this.driver.enter(
        {
          op: "steer",
          now: now(),
          input: this.driver.identity(args[1]),
          // A steer the hook does not take (no text) runs no more of the desktop's code.
          role: text === undefined ? undefined : this.roleOf(threadId),
          threadId,
          text,
          argumentId: id(args[5]),
          restoreId: id(field(restore, "id")),
          toolOutput: args[7] !== undefined && args[7] !== null,
          contextIsObject: typeof context === "object" && context !== null,
          startTurn: method(this.manager, "startTurn") !== undefined,
          freshId: text === undefined ? "" : randomId(),
        },
        { self, args },
      );
    } catch {
      reply = { reply: "desktop" }; // The module stopped: the desktop's own path keeps working.
    }
    return this.driver.answer(reply, () => Reflect.apply(this.originalSteer, self, args));
  }

  /** The wrapped `sendRequest`: a routed method's request goes as the engine says. */
  sendRequest(self, args) {
    const [name, params] = args;
    if (!limits.routedMethods.includes(name)) return Reflect.apply(this.originalSend, self, args);
    let reply;
    try {
      const facts = {
        op: "request",
        now: now(),
        input: this.driver.identity(field(params, "input")),
        method: name,
        threadId: id(field(params, "threadId")) ?? "",
        messageId: id(field(params, "clientUserMessageId")),
        expectedTurnId: id(field(params, "expectedTurnId")),
      };
      reply = this.driver.enter(facts, { self, args });
    } catch {
      reply = { reply: "desktop" }; // The module stopped: the desktop's own request goes.
    }
    return this.driver.answer(reply, () => Reflect.apply(this.originalSend, self, args));
  }
}
/** Longest prototype chain walked (a cycle-free chain is short; a Proxy could fake any length). */
const MAX_CHAIN = 64;

/** The marks of desktop hooks already in `manager`'s prototype chain (an unreadable link ends the walk). */
function hookMarks(manager) {
  const marks = [];
  let object = manager;
  for (let depth = 0; depth < MAX_CHAIN; depth++) {
    try {
      object = Reflect.getPrototypeOf(object);
      if (object === null) break;
      const mark = Reflect.getOwnPropertyDescriptor(object, HOOK_MARK)?.value;
      if (typeof mark === "object" && mark !== null) marks.push(mark);
    } catch {
      break;
    }
  }
  return marks;
}

/** `mark[name](...args)` of another hook (perhaps another copy of the package); undefined when it throws. */
function call(mark, name, ...args) {
  const fn = method(mark, name);
  return fn ? attempt(fn, mark, args).value : undefined;
}
