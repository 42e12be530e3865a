// The desktop hook's driver: it hands its engine (src/core/desktop/,
// through `core.js`) what the hook read of the desktop, and carries out the
// actions the engine answers, in order: the calls of the desktop (and of
// the decider) it names, promises settled, journal records written, the
// app told, the layer taken out. It holds the values the engine names (an
// op's receiver and arguments, what each call returned, resolved with or
// threw), builds what the engine describes, reads what the engine asks of
// a value, and keeps the one timer at the engine's next deadline, on the
// clock and the kind of timer every engine has. It decides nothing.
import { now } from "../driver/clock.js";
import { own } from "../driver/fields.js";
import { described, describedId } from "../driver/front-door.js";
import { isStopped, limits } from "../driver/module.js";
import { steeringError } from "../driver/steering-error.js";
import { carrySteps } from "../driver/steps.js";
import { Timer } from "../driver/timer.js";
import { DesktopCore, rejection } from "./core.js";
import { attempt, define, field, id, method, report } from "./safety.js";

const { apply, defineProperty } = Reflect;

/** A promise and its settle functions. */
function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((s, f) => ((resolve = s), (reject = f)));
  return { promise, resolve, reject };
}

export class Driver {
  /** The driver of `hook` (its manager, originals, decider and reads), over the decider's engine `engine`. */
  constructor(hook, engine, onReconcile) {
    this.hook = hook;
    this.core = new DesktopCore(engine);
    /** The decider's journal, which the hook's records go to. */
    this.journal = engine.journal;
    this.onReconcile = onReconcile;
    /** op -> { self, args, waiters }: the values an op's calls take, and the promises it settles. */
    this.ops = new Map();
    /** call -> { op, value, threw, resolved, error, done }: what a call returned, resolved with or threw. */
    this.calls = new Map();
    /** route -> deferred, resolved when the engine says the route is gone. */
    this.routes = new Map();
    /** Objects numbered by identity, for the engine's recognition of a draft. */
    this.identities = new WeakMap();
    this.nextIdentity = 0;
    this.depth = 0;
    this.deadline = null;
    this.timer = new Timer(() => this.safely({ op: "tick", now: now() }));
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

  /**
   * A wrapped method's call (`facts`, what the hook read of it; `given`,
   * its receiver and arguments): what it returns, as the engine says
   * (`{ reply: "desktop" }` for the desktop's own method, as called).
   * Throws only when the module stopped before anything was done.
   */
  enter(facts, given) {
    let reply = { reply: "desktop" };
    this.run({ do: "call", call: facts }, (out) => {
      const value = own(out, "value");
      const kind = own(value, "reply");
      const draft = () => this.build(own(value, "draft"), given);
      if (kind === "promise") reply = { reply: kind, promise: this.promiseOf(value.op, given, draft).promise };
      else if (kind === "refused") reply = { reply: kind, error: steeringError(own(out, "error"), draft()) };
      else if (kind === "returned") {
        this.ops.set(value.op, given);
        reply = { reply: kind, call: value.call, op: value.op };
      }
    });
    if (reply.reply === "returned") {
      const made = this.calls.get(reply.call);
      this.release(reply.op);
      return made === undefined ? { reply: "desktop" } : { reply: "returned", made };
    }
    return reply;
  }

  /** What the wrapped method returns for `reply` (`desktop()`: the desktop's own method). */
  answer(reply, desktop) {
    if (reply.reply === "promise") return reply.promise;
    if (reply.reply === "refused") return Promise.reject(reply.error);
    if (reply.reply === "returned") {
      if (reply.made.threw) throw reply.made.error;
      return reply.made.value;
    }
    return desktop();
  }

  /** A promise of op `op` (a steer joined gets its own, settled with the one it joins, with its own draft). */
  promiseOf(op, given, draft) {
    let record = this.ops.get(op);
    if (record?.waiters === undefined) {
      record = { ...given, waiters: [] };
      this.ops.set(op, record);
    }
    const waiter = { ...deferred(), draft: draft() };
    record.waiters.push(waiter);
    return waiter;
  }

  /**
   * One step of the engine with `input`; `before(out)` runs before its
   * actions are carried out, in order. The timer is armed once the
   * outermost step is done, for the latest deadline.
   */
  run(input, before) {
    const out = this.core.run(input);
    if (carrySteps(this, out, before)) {
      this.timer.arm(this.deadline, now);
      // Once disposed, only the late window is left: it does not keep Node alive.
      if (this.core.disposed) this.timer.hold(false);
    }
    return out;
  }

  /** A step from a callback: nothing may throw out of it. */
  safely(facts) {
    try {
      this.run({ do: "call", call: facts });
    } catch (error) {
      if (!isStopped()) report("a desktop hook step failed", error);
    }
  }

  carry(action) {
    const kind = own(action, "do");
    if (kind === "call") this.call(action);
    else if (kind === "complete") this.complete(action);
    else if (kind === "journal") this.journalWrite(action);
    else if (kind === "journalError") this.journal.tell();
    else if (kind === "delivered") this.reconcile(action);
    else if (kind === "restore") this.hook.restore();
    else if (kind === "released") this.resolveRoute(action.op);
    else if (kind === "report") report(action.what, this.calls.get(own(action, "call"))?.error);
  }

  /** Writes or removes one record, as the engine says; the engine is told when the storage threw. */
  journalWrite(action) {
    if (this.journal.write(action.key, own(action, "record"))) return;
    try {
      this.run({ do: "journalFailed" });
    } catch (error) {
      if (!isStopped()) report("a desktop hook step failed", error);
    }
  }

  /** Makes the call the engine asks for, and reports it; an awaited one's end is reported when it settles. */
  call({ id: call, of, target, args, read, awaited }) {
    const given = this.ops.get(of);
    const [fn, self] = this.target(target, given);
    if (fn === undefined) return this.safely({ op: "called", now: now(), call, missing: true });
    // Arguments that cannot be built (params whose traps throw when copied) fail as the call itself would.
    const values = () => (args === null ? given?.args ?? [] : args.map((b) => this.build(b, given)));
    const made = attempt(() => apply(fn, self, values()), undefined, []);
    const record = { op: of, value: made.value, threw: "threw" in made, error: made.threw, done: !awaited || "threw" in made };
    this.calls.set(call, record);
    if (record.threw) this.safely({ op: "called", now: now(), call, error: rejection(made.threw) });
    // What a synchronous call returned is read as asked; of an awaited one, only whether it returned anything.
    else this.safely({ op: "called", now: now(), call, facts: this.read(awaited && read !== "defined" ? undefined : read, made.value) });
    if (record.done) return;
    const settled = (facts) => {
      record.done = true;
      this.safely({ op: "settled", now: now(), call, ...facts });
      if (!this.ops.has(record.op)) this.calls.delete(call);
    };
    new Promise((s) => s(made.value)).then(
      (value) => {
        record.resolved = value;
        settled({ ok: true, facts: this.read(read, value) });
      },
      (error) => {
        record.error = error;
        settled({ ok: false, error: rejection(error) });
      },
    );
  }

  /** The function a target names, and its receiver. */
  target(target, given) {
    const { hook } = this;
    if (target === "decide") return [(what) => hook.decider.decide(what), undefined];
    if (target === "ownSteer") return [hook.originalSteer, given?.self];
    if (target === "ownSend") return [hook.originalSend, given?.self];
    if (target === "startTurn") return [method(hook.manager, "startTurn"), hook.manager];
    if (target === "below") return [(key) => hook.belowReleased(key), undefined];
    const coordinator = own(target, "coordinator");
    if (coordinator !== undefined) {
      const object = hook.coordinator();
      return [method(object, coordinator), object];
    }
    const host = hook.submissionHost();
    return [method(host, own(target, "submissionHost")), host];
  }

  /** The value a build describes, from what `given` holds. */
  build(b, given) {
    if (typeof b !== "object" || b === null) return undefined;
    if ("text" in b) return b.text;
    if ("literal" in b) return b.literal;
    if ("arg" in b) return given?.args?.[b.arg];
    if ("field" in b) return field(this.build(b.field[0], given), b.field[1]);
    if ("or" in b) {
      const [value, fallback, nullToo] = b.or;
      const v = this.build(value, given);
      return v === undefined || (nullToo && v === null) ? fallback : v;
    }
    if ("object" in b) return this.fields({}, b.object, given);
    if ("with" in b) return this.fields({ ...this.build(b.with[0], given) }, b.with[1], given);
    if ("unpause" in b) return (messages) => this.unpause(messages, b.unpause);
    return undefined;
  }

  fields(object, entries, given) {
    for (const { key, value, skipAbsent } of entries) {
      const v = this.build(value, given);
      if (skipAbsent && (v === undefined || v === null)) continue;
      // Defined, not assigned: a setter for `key` on Object.prototype can neither drop nor catch it.
      defineProperty(object, key, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true });
    }
    return object;
  }

  /** The facts the engine asks of a value (`read`), never throwing. */
  read(read, value) {
    if (read === "answer") return { turnId: id(field(value, "turnId")), delivery: id(field(value, "delivery")) };
    if (read === "turnId") return { absent: value === undefined || value === null, turnId: id(value) };
    if (read === "isTrue") return { yes: value === true };
    if (read === "defined") return { yes: value !== undefined };
    if (read === "followUps") {
      try {
        return { followUps: readQueue(value) };
      } catch (error) {
        report("could not read the follow-up messages", error);
        return {};
      }
    }
    const thread = own(read, "decision");
    if (thread === undefined) return undefined;
    const delivery = field(value, "delivery");
    return { delivery: typeof delivery === "string" ? delivery : "", hostDeduplicates: field(value, "hostDeduplicates") === true, role: this.hook.roleOf(thread) };
  }

  /** Settles op `op`'s promises as the engine says, and lets its values go. */
  complete(action) {
    const waiters = this.ops.get(action.op)?.waiters;
    if (waiters === undefined) return;
    const ok = own(action, "ok");
    const error = own(action, "error");
    const of = (call) => this.calls.get(call) ?? {};
    const rethrow = own(ok, "rethrow");
    for (const [at, waiter] of waiters.entries()) {
      if (error !== undefined) waiter.reject(steeringError(error, waiter.draft));
      else if (rethrow !== undefined) waiter.reject(rethrown(of(rethrow[0]).error, rethrow[1], at, waiter.draft));
      else if (own(ok, "value") !== undefined) waiter.resolve(of(ok.value).resolved);
      else waiter.resolve(own(ok, "built"));
    }
    this.release(action.op);
  }

  /** Drops op `op`'s values, and those of its calls that settled. */
  release(op) {
    this.ops.delete(op);
    for (const [call, record] of this.calls) if (record.op === op && record.done) this.calls.delete(call);
  }

  reconcile(action) {
    if (typeof this.onReconcile !== "function") return;
    const { threadId, clientUserMessageId, presented, delivery, turnId } = action;
    const called = attempt(this.onReconcile, undefined, [{ threadId, clientUserMessageId, presented, delivery, turnId }]);
    if ("threw" in called) report("onReconcile threw", called.threw);
  }

  /** `mutate`'s function: the follow-ups the engine names lose their pause; a failure is logged. */
  unpause(messages, pausedBefore) {
    try {
      const queue = readQueue(messages);
      if (queue === undefined) return messages;
      const resumed = new Set(this.core.unpause(queue, pausedBefore));
      return messages.map((m, at) => (resumed.has(at) ? { ...m, pauseReason: null } : m));
    } catch (error) {
      report("could not resume the follow-up messages", error);
      return messages;
    }
  }

  /** Resolves once the engine says route `route` is gone. */
  until(route) {
    let d = this.routes.get(route);
    if (d === undefined) this.routes.set(route, (d = deferred()));
    return d.promise;
  }

  resolveRoute(route) {
    this.routes.get(route)?.resolve();
    this.routes.delete(route);
  }
}

/**
 * What a call rejected with, for the `at`-th promise of an op: unchanged,
 * or, for the engine's own `SteeringError` (`redraft`), handing the
 * promise's own input back by identity (a copy of it past the first, each
 * joined steer with its own draft).
 */
function rethrown(error, redraft, at, draft) {
  if (!redraft) return error;
  let made = error;
  try {
    if (at > 0) made = Object.create(Object.getPrototypeOf(error), Object.getOwnPropertyDescriptors(error));
  } catch (e) {
    report("could not copy the error", e);
  }
  define(made, "draft", draft);
  return made;
}

/**
 * The queue for the engine: each message's `id` and `pauseReason`,
 * described, as one flat list; undefined unless an array within the
 * module's bound. May throw (a Proxy).
 */
function readQueue(messages) {
  if (!Array.isArray(messages) || messages.length > limits.followUps) return undefined;
  const read = [];
  for (let at = 0; at < messages.length; at++) {
    const message = messages[at];
    read.push(describedId(field(message, "id")), described(field(message, "pauseReason")));
  }
  return read;
}
