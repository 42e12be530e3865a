// `installDesktopSteering(manager, options?)`: the hook for the desktop's
// request manager (spec "Desktop integration"), in plain JavaScript over the
// engine's public `CodexhostSteering.decide`. The engine still reads the
// draft (`__steerText`) and builds every failure (`__hookFailure`), so the
// rules and the words live in one place. Here: the private prototype layer
// and the wrapped `steerTurn`/`sendRequest`; the newTurn path (startTurn and
// the rewrite of its `turn/start` into a tagged `turn/steer`) is in
// `desktop-new-turn.js`, the never-throwing reads and bounded waits in
// `desktop-safety.js`.
//
// Every read of an app object runs under try/catch (a throwing getter or a
// Proxy trap reads as absent), every wait on the app or the host is bounded
// by the steer bound and ends on dispose(), and nothing is written to a
// shared prototype: the wrappers live on a layer between the manager and
// its own prototype, and dispose() restores the chain exactly.
import { api } from "./api.js";
import { attempt, bounded, canceller, describe, fail, field, id, isSteeringError, method, report, routeKey } from "./desktop-safety.js";
import { newTurn, rewriteStart } from "./desktop-new-turn.js";

/** The handle `installDesktopSteering` returns. */
export class DesktopSteering {
  #dispose;

  /** @internal */
  constructor(dispose) {
    this.#dispose = dispose;
  }

  /**
   * Restores `steerTurn` now and `sendRequest` once pending replacements
   * settle (they fail closed as `disposed`).
   *
   * ```js
   * const hook = installDesktopSteering(manager);
   * hook?.dispose();
   * ```
   */
  dispose() {
    this.#dispose();
  }
}
// `using hook = installDesktopSteering(...)` where the runtime has it.
if (typeof Symbol.dispose === "symbol") {
  Object.defineProperty(DesktopSteering.prototype, Symbol.dispose, {
    value() {
      this.dispose();
    },
    writable: true,
    configurable: true,
  });
}

/**
 * Installs the hook; returns `null` when `manager` lacks the methods, and
 * throws a clear error when the manager refuses it (frozen, a refusing Proxy).
 *
 * ```js
 * const hook = installDesktopSteering(requestManager, { timeouts: { decideMs: 5000 } });
 * ```
 */
export function installDesktopSteering(manager, options) {
  api.ready();
  const names = ["steerTurn", "sendRequest", "startTurn", "getTurnCoordinator"];
  const [originalSteer, originalSend, ...rest] = names.map((name) => method(manager, name));
  if (!originalSteer || !originalSend || rest.some((f) => !f)) return null;
  const decider = new api.CodexhostSteering({
    request: (...args) => Reflect.apply(originalSend, manager, args),
    timeouts: field(options, "timeouts"),
  });
  const hook = new Hook(manager, originalSteer, originalSend, decider);
  try {
    hook.install();
  } catch (refused) {
    decider.free();
    throw refused;
  }
  return new DesktopSteering(() => hook.dispose());
}

class Hook {
  constructor(manager, originalSteer, originalSend, decider) {
    this.manager = manager;
    this.originalSteer = originalSteer;
    this.originalSend = originalSend;
    this.decider = decider;
    this.steerMs = Math.min(decider.__steerMs(), 2 ** 31 - 2);
    /** threadId -> the tag for the desktop's own `turn/steer` while it is out. */
    this.activeTags = new Map();
    /** routeKey -> { expectedTurnId, sent, abandoned } while a newTurn's startTurn has not settled. */
    this.routes = new Map();
    this.disposed = false;
    this.cancel = canceller();
  }

  /** Puts the wrappers on a private layer between the manager and its prototype. */
  install() {
    const hook = this;
    let refused;
    try {
      // Own `steerTurn` / `sendRequest` (bound in a constructor, or an object
      // literal) would hide the layer: the hook would silently do nothing.
      const own = ["steerTurn", "sendRequest"].filter((name) => Object.prototype.hasOwnProperty.call(this.manager, name));
      if (own.length > 0) {
        throw new Error(`${own.join(" and ")} ${own.length > 1 ? "are own properties" : "is an own property"} of the request manager, which would hide the hook (it installs below the instance); install it on a manager whose methods live on its prototype`);
      }
      this.proto = Reflect.getPrototypeOf(this.manager);
      this.layer = Object.create(this.proto);
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
   * (nothing was sent but the inspect), and waits on the app end.
   */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.removeFromLayer("steerTurn", false);
    this.cancel.cancel();
    this.restoreWhenIdle();
    try {
      this.decider.dispose();
      this.decider.free();
    } catch (error) {
      report("could not release the hook's engine", error); // only if the module stopped
    }
  }

  removeFromLayer(name, restore) {
    try {
      delete this.layer[name];
      if (restore && Reflect.getPrototypeOf(this.manager) === this.layer) Reflect.setPrototypeOf(this.manager, this.proto);
    } catch (error) {
      report("could not remove the desktop hook", error);
    }
  }

  restoreWhenIdle() {
    if (this.disposed && this.routes.size === 0) this.removeFromLayer("sendRequest", true);
  }

  /** Waits on the app or the host: at most the steer bound, or until `deadline` (a `performance.now()` time) when given. */
  wait(called, deadline) {
    const ms = deadline === undefined ? this.steerMs : Math.max(0, deadline - performance.now());
    return bounded(called, ms, this.cancel);
  }

  isFollower(threadId) {
    const getRole = method(this.manager, "getStreamRole");
    if (!getRole) return false;
    const called = attempt(getRole, this.manager, [threadId]);
    const role = called.value;
    return (typeof role === "object" && role !== null ? field(role, "role") : role) === "follower";
  }

  coordinator() {
    const get = method(this.manager, "getTurnCoordinator");
    return get ? attempt(get, this.manager, []).value : undefined;
  }

  /** The desktop's `submissionHost` (undefined when it has none). */
  submissionHost() {
    return field(field(this.coordinator(), "options"), "submissionHost");
  }

  /** `host[name](threadId)` (undefined when absent or it threw). */
  askHost(host, name, threadId) {
    const fn = method(host, name);
    return fn ? attempt(fn, host, [threadId]).value : undefined;
  }

  /**
   * The wrapped `steerTurn`: a steer this hook does not handle (unreadable,
   * not text, a follower window) goes to the desktop's own method at once,
   * its return value untouched; a text steer is decided first.
   */
  steerTurn(self, args) {
    // After dispose (a saved reference, a hook stacked on this one): the desktop's own path.
    if (this.disposed) return Reflect.apply(this.originalSteer, self, args);
    const threadId = id(args[0]);
    let text;
    try {
      if (threadId !== undefined) text = api.__steerText(args[1]);
    } catch {
      // The module stopped: the desktop's own path keeps working.
    }
    if (text === undefined || this.isFollower(threadId)) return Reflect.apply(this.originalSteer, self, args);
    return this.route(self, args, threadId, text);
  }

  async route(self, args, threadId, text) {
    const input = args[1];
    let delivery;
    try {
      ({ delivery } = await this.decider.decide({ threadId, text }));
    } catch (error) {
      // The engine's own SteeringError hands the desktop's input back by identity.
      if (isSteeringError(error)) error.draft = input;
      throw error;
    }
    if (this.isFollower(threadId) || delivery === "official") {
      // The desktop's own steer (also when the role changed while inspect was out, or after dispose).
      return Reflect.apply(this.originalSteer, self, args);
    }
    // Disposed while the inspect was out: nothing but the inspect has left.
    if (this.disposed || (delivery !== "newTurn" && delivery !== "activeTurn")) throw fail("disposed", "", undefined, input);
    if (delivery === "newTurn") return newTurn(this, threadId, args);
    this.activeTags.set(threadId, "activeTurn");
    const waited = await this.wait(attempt(this.originalSteer, self, args));
    this.activeTags.delete(threadId);
    if (waited.kind === "ok") return waited.value;
    if (waited.kind === "error") throw waited.error; // the desktop's own failure, unchanged
    // The desktop's own turn/steer may have left: never a plain failure.
    const detail = waited.kind === "timeout" ? "no answer within the steer bound" : "disposed before the answer";
    throw fail("outcomeUnknown", "steerTurn", detail, input);
  }

  /** The wrapped `sendRequest`: tags the desktop's own steer, rewrites a newTurn's start. */
  sendRequest(self, args) {
    const [name, params] = args;
    const threadId = id(field(params, "threadId")) ?? "";
    if (name === "turn/start") {
      const messageId = id(field(params, "clientUserMessageId")) ?? "";
      const route = this.routes.get(routeKey(threadId, messageId));
      if (route) return rewriteStart(this, params, args[2], route);
    }
    if (name === "turn/steer") {
      const tag = this.activeTags.get(threadId);
      if (tag !== undefined) {
        try {
          args[1] = { ...params, codexhostSteerDelivery: tag };
        } catch (error) {
          report("could not read the request params", error);
        }
      }
    }
    return Reflect.apply(this.originalSend, self, args);
  }
}
