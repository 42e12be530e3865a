// `installDesktopSteering(manager, options?)`: the hook for the desktop's
// request manager (spec "Desktop integration"), in plain JavaScript over the
// engine's public `CodexhostSteering.decide`. The engine still reads the
// draft (`__steerText`) and builds every failure (`__hookFailure`), so the
// rules and the words live in one place; what is here is plumbing on the
// app's own objects: a private prototype layer, bounded waits, and the
// rewrite of a newTurn's `turn/start` into a tagged `turn/steer`.
//
// Every read of an app object runs under try/catch (a throwing getter or a
// Proxy trap reads as absent), every wait on the app or the host is bounded
// by the steer bound and ends on dispose(), and nothing is written to a
// shared prototype: the wrappers live on a layer between the manager and
// its own prototype, and dispose() restores the chain exactly.
import { api } from "./api.js";

const PAUSE_REASON = "Interrupted before the steer was accepted.";
/** Longest id accepted (the engine's `MAX_ID_UNITS`). */
const MAX_ID_UNITS = 4096;

/** Logs a failure of app code; never throws, even if `console` does. */
function report(what, error) {
  try {
    console.error(`renderer-steering: ${what}`, error);
  } catch {
    // Nothing sensible is left to do.
  }
}

/** `object[key]`, or undefined when absent, not an object, or unreadable. */
function field(object, key) {
  if ((typeof object !== "object" || object === null) && typeof object !== "function") return undefined;
  try {
    return object[key];
  } catch {
    return undefined;
  }
}

/** A function field, or undefined. */
function method(object, key) {
  const value = field(object, key);
  return typeof value === "function" ? value : undefined;
}

/** A string id of bounded length, or undefined. */
function id(value) {
  return typeof value === "string" && value.length <= MAX_ID_UNITS ? value : undefined;
}

/** Calls `fn` with `this`; a throw becomes `{ threw }` (nothing escapes). */
function attempt(fn, self, args) {
  try {
    return { value: Reflect.apply(fn, self, args) };
  } catch (error) {
    return { threw: error };
  }
}

function randomId() {
  try {
    if (typeof crypto?.randomUUID === "function") return crypto.randomUUID();
  } catch {
    // Fall back below.
  }
  let hex = "";
  for (let i = 0; i < 4; i++) hex += Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, "0");
  return hex;
}

/** Ends every `bounded` wait of one hook at once (on dispose). */
function canceller() {
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
 * Waits for what a call returned (a value or a promise of it) for at most
 * `ms`, or until `cancel` fires. Resolves (never rejects) with
 * `{ kind: "ok", value }`, `{ kind: "error", error }`, `{ kind: "timeout" }`
 * or `{ kind: "cancelled" }`. A call that threw is `error` at once.
 */
function bounded(called, ms, cancel) {
  if ("threw" in called) return Promise.resolve({ kind: "error", error: called.threw });
  return new Promise((resolve) => {
    if (cancel.isCancelled()) return resolve({ kind: "cancelled" });
    const end = (how) => {
      clearTimeout(timer);
      cancel.waiting.delete(end);
      resolve(how);
    };
    const timer = setTimeout(() => end({ kind: "timeout" }), ms);
    cancel.waiting.add(end);
    new Promise((settle) => settle(called.value)).then(
      (value) => end({ kind: "ok", value }),
      (error) => end({ kind: "error", error }),
    );
  });
}

/** A rejection this package made (passed through unchanged). */
function isSteeringError(error) {
  try {
    return typeof error === "object" && error !== null && error.name === "SteeringError";
  } catch {
    return false;
  }
}

/** The hook's own failure, built by the engine (kind, code, words); `draft` is `input`. */
function fail(kind, methodName, detail, input) {
  return api.__hookFailure(kind, methodName, detail, input);
}

/** Where a newTurn's `turn/start` is waited for (ids may hold any character). */
const routeKey = (threadId, messageId) => JSON.stringify([threadId, messageId]);

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

  wait(called) {
    return bounded(called, this.steerMs, this.cancel);
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
    if (delivery === "newTurn") return this.newTurn(threadId, args);
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
      if (route) return this.rewriteStart(params, args[2], route);
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

  /**
   * newTurn: the steer is presented through the desktop's own `startTurn`,
   * whose `turn/start` leaves as a `turn/steer` tagged `newTurn`; follow-ups
   * the stop paused are resumed.
   */
  async newTurn(threadId, args) {
    const input = args[1];
    const restore = args[2];
    const host = this.submissionHost();
    const expectedTurnId = id(this.askHost(host, "getActiveTurnId", threadId));
    if (expectedTurnId === undefined) {
      const detail = "the desktop's submission binding is missing: a new turn cannot be started";
      throw fail("missingBinding", "", detail, input);
    }
    if (this.askHost(host, "hasPendingTurnStart", threadId) === true) throw fail("pendingTurnStart", "", undefined, input);
    if (args[7] !== undefined && args[7] !== null) {
      throw fail("invalidInput", "", "a steer cannot replace a tool response", input);
    }
    const context = field(restore, "context");
    if (typeof context !== "object" || context === null) {
      throw fail("invalidInput", "", "restoreMessage.context must be an object", input);
    }
    const messageId = id(args[5]) ?? id(field(restore, "id")) ?? randomId();
    const orNull = (v) => (v === undefined ? null : v);
    const orEmpty = (v) => (v === undefined || v === null ? [] : v);
    const submission = {
      request: {
        threadId,
        input,
        clientUserMessageId: messageId,
        additionalContext: args[6],
        responsesapiClientMetadata: field(restore, "responsesapiClientMetadata"),
        cwd: field(restore, "cwd"),
        serviceTier: args[3],
        model: null,
        effort: null,
        collaborationMode: orNull(field(context, "collaborationMode")),
      },
      context: {
        attachments: orEmpty(args[4]),
        commentAttachments: orEmpty(field(context, "commentAttachments")),
        mcpAppModelContextAttachments: field(context, "mcpAppModelContextAttachments"),
        useAppServerPermissionDefault: true,
      },
    };
    const start = method(this.manager, "startTurn");
    if (!start) throw fail("missingBinding", "", "startTurn is missing", input);
    const pausedBefore = await this.pausedFollowUps(threadId);
    if (this.disposed) throw fail("disposed", "", undefined, input);
    // The route catches this steer's turn/start until startTurn itself
    // settles, even after our wait ended: a late turn/start is refused, never
    // sent as a plain one (that would deliver a message reported as failed).
    const route = { expectedTurnId, sent: false, abandoned: undefined };
    const key = routeKey(threadId, messageId);
    this.routes.set(key, route);
    const release = () => {
      if (this.routes.get(key) === route) this.routes.delete(key);
      this.restoreWhenIdle();
    };
    const called = attempt(start, this.manager, [threadId, submission, args[8]]);
    if ("threw" in called) release();
    else called.value = new Promise((settle) => settle(called.value)).finally(release);
    const waited = await this.wait(called);
    if (waited.kind === "timeout" || waited.kind === "cancelled") route.abandoned = waited.kind;
    const error = waited.error;
    switch (waited.kind) {
      case "ok":
        await this.resumeFollowUps(threadId, pausedBefore);
        return waited.value;
      case "error":
        if (isSteeringError(error)) throw error;
        // After the rewritten steer left, a failure is never a plain one.
        throw route.sent ? fail("lost", "startTurn", error, input) : fail("transport", "startTurn", error, input);
      case "timeout":
        if (!route.sent) throw fail("timeout", "startTurn", this.steerMs, input);
        throw fail("outcomeUnknown", "startTurn", "no answer within the steer bound", input);
      default:
        if (!route.sent) throw fail("disposed", "", undefined, input);
        throw fail("outcomeUnknown", "startTurn", "disposed before the answer", input);
    }
  }

  /** Ids of follow-ups paused with the steer's reason (best effort, bounded). */
  async pausedFollowUps(threadId) {
    const coordinator = this.coordinator();
    const load = method(coordinator, "loadMessages");
    if (load) await this.wait(attempt(load, coordinator, [threadId]));
    const read = method(coordinator, "readMessages");
    if (!read) return [];
    const waited = await this.wait(attempt(read, coordinator, [threadId]));
    try {
      const messages = waited.value;
      if (waited.kind !== "ok" || !Array.isArray(messages)) return [];
      return messages.filter((m) => m?.pauseReason === PAUSE_REASON && typeof m.id === "string").map((m) => m.id);
    } catch (error) {
      report("could not read the follow-up messages", error);
      return [];
    }
  }

  /** Un-pauses follow-ups the stop paused (not those paused before); a failure is logged. */
  async resumeFollowUps(threadId, pausedBefore) {
    const coordinator = this.coordinator();
    const mutate = method(coordinator, "mutate");
    if (!mutate) return;
    const unpause = (messages) => {
      try {
        if (!Array.isArray(messages)) return messages;
        return messages.map((m) => (m?.pauseReason === PAUSE_REASON && !pausedBefore.includes(m.id) ? { ...m, pauseReason: null } : m));
      } catch (error) {
        report("could not resume the follow-up messages", error);
        return messages;
      }
    };
    const waited = await this.wait(attempt(mutate, coordinator, [threadId, unpause]));
    if (waited.kind === "error") report("could not resume follow-ups", waited.error);
    else if (waited.kind !== "ok") report("resuming follow-ups did not finish", undefined);
  }

  /**
   * The `turn/start` of a newTurn presentation goes out as a tagged
   * `turn/steer`; its `{ turnId }` answer comes back as `{ turn }`, the
   * shape the desktop's own `turn/start` resolves with.
   */
  async rewriteStart(params, options, route) {
    const input = field(params, "input");
    // The steer already failed (timeout) or the hook is gone: nothing is sent.
    if (route.abandoned === "timeout") throw fail("timeout", "startTurn", this.steerMs, input);
    if (this.disposed || route.abandoned) throw fail("disposed", "", undefined, input);
    const steer = {};
    for (const key of ["threadId", "input", "clientUserMessageId", "additionalContext", "responsesapiClientMetadata"]) {
      const value = field(params, key);
      if (value !== undefined && value !== null) steer[key] = value;
    }
    steer.expectedTurnId = route.expectedTurnId;
    steer.codexhostSteerDelivery = "newTurn";
    route.sent = true;
    const called = attempt(this.originalSend, this.manager, ["turn/steer", steer, options]);
    // Thrown synchronously: nothing was written.
    if ("threw" in called) throw fail("transport", "turn/steer", called.threw, input);
    const waited = await this.wait(called);
    if (waited.kind === "error") throw fail("answered", "turn/steer", waited.error, input);
    if (waited.kind !== "ok") {
      const detail = waited.kind === "timeout" ? "no answer within the steer bound" : "disposed before the answer";
      throw fail("outcomeUnknown", "turn/steer", detail, input);
    }
    const turnId = field(waited.value, "turnId");
    if (typeof turnId !== "string" || turnId === "") {
      throw fail("outcomeUnknown", "turn/steer", "the answer has no turnId", input);
    }
    return { turn: { id: turnId, status: "inProgress", items: [], error: null } };
  }
}

/** A short, never-throwing description of a thrown value. */
function describe(error) {
  try {
    if (typeof error === "string") return error.slice(0, 1000);
    if (error instanceof Error && typeof error.message === "string") return error.message.slice(0, 1000);
  } catch {
    // A Proxy or a throwing getter.
  }
  return "a value that cannot be described";
}
