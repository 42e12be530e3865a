// `installDesktopSteering(manager, options?)`: the hook for the desktop's
// request manager (spec "Desktop integration"), in plain JavaScript over the
// engine's public `CodexhostSteering.decide`. The engine still reads the
// draft (`__steerText`) and builds every failure (`__hookFailure`), so the
// rules and the words live in one place. Here: the private prototype layer
// and the wrapped `steerTurn`/`sendRequest`, with one steer in flight per
// thread; the newTurn path (startTurn and the rewrite of its `turn/start`
// into a tagged `turn/steer`) is in `desktop-new-turn.js`, the activeTurn
// path (its tag) in `desktop-active-turn.js`, the never-throwing reads and
// bounded waits in `desktop-safety.js`, the refusal of a same-id retry on a
// host that does not deduplicate in `desktop-unconfirmed.js`.
//
// Every read of an app object runs under try/catch (a throwing getter or a
// Proxy trap reads as absent), every wait on the app or the host is bounded
// by the steer bound and ends on dispose(), and nothing is written to a
// shared prototype: the wrappers live on a layer between the manager and
// its own prototype, and dispose() restores the chain exactly.
import { api } from "./api.js";
import { attempt, bounded, busy, canceller, define, describe, fail, field, HOOK_MARK, id, isSteeringError, method, report, routeKey } from "./desktop-safety.js";
import { newTurn, releaseRoute, startRouted } from "./desktop-new-turn.js";
import { activeTag, ownSteer } from "./desktop-active-turn.js";
import { Unconfirmed } from "./desktop-unconfirmed.js";

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
 * throws a clear error when the manager refuses it (frozen, a refusing
 * Proxy) or already has a hook (dispose that one first).
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
  // `options` is checked by the engine (`__desktopTimeouts`) before the hook
  // is built, and its bounds by the decider, named as the caller wrote them.
  const timeouts = api.__desktopTimeouts(options);
  const decider = new api.CodexhostSteering({
    request: (...args) => Reflect.apply(originalSend, manager, args),
    timeouts,
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
    /** threadId -> { messageId, text, result } of the steer in flight there. */
    this.lanes = new Map();
    /** activeTurn steers whose desktop steerTurn is out (`desktop-active-turn.js`). */
    this.activeSteers = new Set();
    /** routeKey -> the route of a newTurn while its `turn/start` may still come (`desktop-new-turn.js`). */
    this.routes = new Map();
    /** Ids whose outcome is unknown on a host that does not deduplicate (`desktop-unconfirmed.js`). */
    this.unconfirmed = new Unconfirmed();
    /** Threads whose `startTurn` this hook is calling right now (a re-entrant steerTurn is the desktop's own). */
    this.starting = new Set();
    /** Marks of hooks disposed on this manager before this one whose routes are still open. */
    this.below = [];
    this.disposed = false;
    /** Set one steer bound after dispose: late requests are no longer waited for. */
    this.lateWindowOver = false;
    this.cancel = canceller();
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
      const mark = { live: () => !hook.disposed, released: (key) => hook.routes.get(key)?.released };
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
   * (nothing was sent but the inspect), and waits on the app end.
   */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.removeFromLayer("steerTurn", false);
    this.cancel.cancel();
    // Routes whose startTurn has settled go now, the others when it settles;
    // one whose startTurn resolved before its turn/start left refuses that
    // late turn/start ("disposed") for one more steer bound, and a late
    // activeTurn turn/steer is tagged as long: then the layer goes.
    for (const route of [...this.routes.values()]) releaseRoute(this, route);
    const expire = () => {
      this.lateWindowOver = true;
      for (const route of [...this.routes.values()]) releaseRoute(this, route);
      this.restoreWhenIdle();
    };
    if ([...this.activeSteers].some((steer) => steer.tag !== undefined) || this.routes.size > 0) {
      const timer = setTimeout(expire, this.steerMs);
      timer?.unref?.(); // Node: it does not keep the process alive
    }
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

  /**
   * Resolves once the route of an earlier attempt of this message (this
   * hook's, or a disposed hook's below) is gone; undefined when there is none.
   */
  earlierRoute(key) {
    const own = this.routes.get(key);
    if (own) return own.released;
    for (const mark of this.below) {
      const released = call(mark, "released", key);
      if (released !== undefined) return released;
    }
    return undefined;
  }

  /**
   * Once disposed: takes the layer away when no route is open and no
   * activeTurn steerTurn of the desktop is out (its late turn/steer stays
   * tagged), those at most one steer bound after dispose.
   */
  restoreWhenIdle() {
    if (!this.disposed || this.routes.size > 0) return;
    if ([...this.activeSteers].some((steer) => steer.tag !== undefined && !this.lateWindowOver)) return;
    this.removeFromLayer("sendRequest", true);
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
    // After dispose (a saved reference): the desktop's own path.
    if (this.disposed) return Reflect.apply(this.originalSteer, self, args);
    const threadId = id(args[0]);
    let text;
    try {
      if (threadId !== undefined) text = api.__steerText(args[1]);
    } catch {
      // The module stopped: the desktop's own path keeps working.
    }
    const messageId = id(args[5]) ?? id(field(args[2], "id"));
    // The desktop's own startTurn that this hook is calling for the thread
    // hands the submission to its steerTurn (while the call runs, or later
    // while that startTurn is out, for the route's message): the desktop's
    // own path, never a loop; its turn/steer is then the route's one
    // message (`sendRequest`).
    const route = messageId === undefined ? undefined : this.routes.get(routeKey(threadId, messageId));
    // (Later: that steer still waits on its startTurn. A retry after the
    // steer ended is an attempt of its own, which waits for the route.)
    const handedOver = route !== undefined && route.startOut && !route.sent && !route.finished;
    if (this.starting.has(threadId) || handedOver) {
      if (handedOver) route.handedToSteer = true;
      return Reflect.apply(this.originalSteer, self, args);
    }
    // Not text, or a follower window: the desktop's own path.
    if (text === undefined || this.isFollower(threadId)) return Reflect.apply(this.originalSteer, self, args);
    // One steer in flight per thread (spec "Concurrency and idempotency").
    const inFlight = this.lanes.get(threadId);
    if (inFlight !== undefined) {
      // The same submission (same id, same words) shares the first's result: nothing new is sent.
      if (messageId !== undefined && inFlight.messageId === messageId && inFlight.text === text) return inFlight.result;
      return Promise.reject(busy(args[1]));
    }
    const lane = { messageId, text, result: undefined };
    lane.release = () => {
      if (this.lanes.get(threadId) === lane) this.lanes.delete(threadId);
    };
    this.lanes.set(threadId, lane);
    lane.result = this.route(self, args, threadId, text, lane);
    lane.result.then(lane.release, lane.release);
    return lane.result;
  }

  async route(self, args, threadId, text, lane) {
    const input = args[1];
    // A retry of a message whose outcome is unknown on a host that does not deduplicate: nothing is sent.
    const refusal = this.unconfirmed.refusal(threadId, lane.messageId, input);
    if (refusal !== undefined) throw refusal;
    let delivery;
    let hostDeduplicates;
    try {
      ({ delivery, hostDeduplicates } = await this.decider.decide({ threadId, text }));
    } catch (error) {
      // The engine's own SteeringError hands the desktop's input back by identity.
      if (isSteeringError(error)) define(error, "draft", input);
      throw error;
    }
    if (this.isFollower(threadId)) {
      // The desktop's own steer (the role changed while inspect was out),
      // its result untouched; the thread stays in flight until it settles,
      // at most the steer bound.
      const own = attempt(this.originalSteer, self, args);
      if ("threw" in own) throw own.threw;
      this.wait(own).then(lane.release);
      return own.value;
    }
    // Disposed while the inspect was out: nothing but the inspect has left.
    if (this.disposed || !["official", "activeTurn", "newTurn"].includes(delivery)) throw fail("disposed", "", undefined, input);
    // newTurn through startTurn; official: its turn/steer untouched;
    // activeTurn: tagged. All bounded.
    const steer = delivery === "newTurn" ? newTurn(this, threadId, args) : ownSteer(this, self, args, threadId, delivery === "activeTurn" ? "activeTurn" : undefined);
    // Deduplicated by the host (`hostDeduplicates`: an external thread of a
    // codexhost host) only as a turn/steer: otherwise an unknown outcome's id is remembered.
    return this.unconfirmed.follow(threadId, lane.messageId, steer, () => hostDeduplicates !== true || lane.leftAsStart === true);
  }

  /** The wrapped `sendRequest`: tags the desktop's own steer, rewrites a newTurn's start. */
  sendRequest(self, args) {
    const [name, params] = args;
    const threadId = id(field(params, "threadId")) ?? "";
    if (name === "turn/start" || name === "turn/steer") {
      // The one request a newTurn route lets leave carrying its message:
      // its turn/start, or the desktop's own turn/steer when its startTurn
      // handed the submission to its steerTurn (not another attempt's
      // turn/steer that carries the same id).
      const messageId = id(field(params, "clientUserMessageId")) ?? "";
      const route = this.routes.get(routeKey(threadId, messageId));
      const plainStart = name === "turn/start" && (route === undefined || route.expectedTurnId === undefined);
      // A codexhost host deduplicates turn/steer only: a message that left
      // as a plain turn/start is not resent on a retry unverified.
      const lane = this.lanes.get(threadId);
      if (plainStart && lane !== undefined) lane.leftAsStart = true;
      if (route && (name === "turn/start" || route.handedToSteer)) return startRouted(this, name, params, args[2], route);
    }
    // An official or activeTurn steer's message leaves (a turn/start when
    // the desktop's steerTurn found the turn ended): from now on it may
    // have arrived. Only a turn/steer carries the tag.
    if (name === "turn/steer" || name === "turn/start") {
      const tag = activeTag(this, threadId, params);
      if (tag !== undefined && name === "turn/steer") {
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
