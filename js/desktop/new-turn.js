// The newTurn path of the desktop hook: the steer is presented through the
// desktop's own `startTurn`, and the core's route lets exactly one request
// carrying the message leave: its `turn/start`, as a `turn/steer` tagged
// `newTurn` (or plain, when no turn ran), or the desktop's own `turn/steer`
// when its `startTurn` handed the submission to its `steerTurn`. Here the
// calls of the desktop and the host, and the submission built as the spec
// says; every check, bound and outcome is the core's (src/core/desktop/).
import { attempt, field, id, method, randomId, report, routeKey } from "./safety.js";
import { rejection, waitedError } from "./core.js";
import { verdict } from "./driver.js";
import { now } from "../driver/clock.js";
import { described, describedId } from "../driver/front-door.js";
import { limits } from "../driver/module.js";

/** Fails the steer unless the core's step is `want`. */
function expect([step, error], want) {
  if (step.do !== want) verdict([step, error]);
  return step;
}

/** What the desktop's submission host says about the thread's turn. */
function turnFacts(hook, threadId) {
  const host = hook.submissionHost();
  const pending = hook.askHost(host, "hasPendingTurnStart", threadId) === true;
  if (pending) return { pending, kind: "unreadable", turnId: undefined };
  const get = method(host, "getActiveTurnId");
  const active = get ? attempt(get, host, [threadId]) : { threw: undefined };
  const turnId = active.value;
  if ("threw" in active) return { pending, kind: "unreadable", turnId: undefined };
  if (turnId === undefined || turnId === null) return { pending, kind: "ended", turnId: undefined };
  return { pending, kind: id(turnId) === undefined ? "unreadable" : "running", turnId: id(turnId) };
}

/**
 * newTurn: the checks (the core's), the submission, waiting for an earlier
 * attempt's route, reading the follow-ups, `startTurn` and its outcome, all
 * within one steer bound (the core's deadline). Once it was accepted, the
 * core's `resume` effect un-pauses the follow-ups the stop paused (on their
 * own bound, not delaying the result).
 */
export async function newTurn(hook, steer, threadId, args) {
  const { core, driver } = hook;
  const input = args[1];
  const restore = args[2];
  const turn = turnFacts(hook, threadId);
  const context = field(restore, "context");
  const start = method(hook.manager, "startTurn");
  const hasTool = args[7] !== undefined && args[7] !== null;
  const isObject = typeof context === "object" && context !== null;
  const facts = { now: now(), steer, pendingTurnStart: turn.pending, toolOutput: hasTool, contextIsObject: isObject, startTurn: start !== undefined, activeTurn: turn.kind, turnId: turn.turnId, freshId: randomId() };
  const built = core.call("newTurn", facts, input);
  const { messageId } = expect(built, "build");
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
  // An earlier attempt of this very message (this hook's, or a disposed
  // hook's below) may still see its late turn/start: this one waits.
  const below = core.call("openRoute", { threadId, messageId }) === undefined ? hook.belowReleased(routeKey(threadId, messageId)) : undefined;
  const earlier = core.call("earlier", { now: now(), steer, below: below !== undefined }, input);
  if (earlier[0].do === "waitEarlier") {
    const route = earlier[0].steer;
    const released = route === undefined ? below : driver.until(driver.released, route);
    const waited = await driver.waitOn(earlier[0].wait, { value: released });
    expect(core.call("earlierEnded", { steer, how: waited.kind }, input), "go");
  } else expect(earlier, "go");
  const { followUps, timedOut } = await readFollowUps(hook, steer, threadId);
  expect(core.call("start", { now: now(), steer, usedUp: timedOut, followUps }, input), "go");
  const called = attempt(start, hook.manager, [threadId, submission, args[8]]);
  core.call("startCalled", { steer, threw: "threw" in called });
  if (!("threw" in called)) {
    const settled = (resolved) => () => {
      core.call("startSettled", { steer, resolved });
      driver.drain();
    };
    called.value = new Promise((settle) => settle(called.value));
    called.value.then(settled(true), settled(false));
  }
  driver.drain();
  const waited = await driver.wait(called, steer);
  let ended = core.call("startEnded", { now: now(), steer, how: waited.kind, error: waitedError(waited) }, input);
  driver.drain();
  if (ended[0].do === "waitDone") {
    // startTurn resolved: its turn/start left (or may still leave) through the route.
    const done = await driver.waitOn(ended[0].wait, { value: driver.until(driver.done, steer) });
    ended = core.call("doneEnded", { steer, how: done.kind }, input);
    driver.drain();
  }
  return verdict(ended, waited);
}

/**
 * The thread's follow-up queue, read within the steer's bound: `followUps`
 * (`readQueue`; undefined when it could not be read, so none is resumed),
 * `timedOut` when the read used up the bound.
 */
async function readFollowUps(hook, steer, threadId) {
  const coordinator = hook.coordinator();
  const unread = (waited) => ({ followUps: undefined, timedOut: waited?.kind === "timeout" });
  const load = method(coordinator, "loadMessages");
  if (load) {
    const loaded = await hook.driver.wait(attempt(load, coordinator, [threadId]), steer);
    if (loaded.kind !== "ok") return unread(loaded);
  }
  const read = method(coordinator, "readMessages");
  if (!read) return unread();
  const waited = await hook.driver.wait(attempt(read, coordinator, [threadId]), steer);
  if (waited.kind !== "ok") return unread(waited);
  try {
    return { followUps: readQueue(waited.value), timedOut: false };
  } catch (error) {
    report("could not read the follow-up messages", error);
    return unread();
  }
}

/**
 * The queue for the core: each message's `id` and `pauseReason`, described,
 * as one flat list; undefined unless an array within the module's bound.
 * May throw (a Proxy).
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

/**
 * Carries out the core's `resume`: through the coordinator's `mutate`, the
 * follow-ups the core names (`unpause`) lose their pause; a failure is logged.
 */
export async function resumeFollowUps(hook, threadId, pausedBefore) {
  const coordinator = hook.coordinator();
  const mutate = method(coordinator, "mutate");
  if (!mutate) return;
  const unpause = (messages) => {
    try {
      const read = readQueue(messages);
      if (read === undefined) return messages;
      const resumed = new Set(hook.driver.core.unpause(read, pausedBefore));
      return messages.map((m, at) => (resumed.has(at) ? { ...m, pauseReason: null } : m));
    } catch (error) {
      report("could not resume the follow-up messages", error);
      return messages;
    }
  };
  const waited = await hook.driver.wait(attempt(mutate, coordinator, [threadId, unpause]));
  if (waited.kind === "error") report("could not resume follow-ups", waited.error);
  else if (waited.kind !== "ok") report("resuming follow-ups did not finish", undefined);
}

/**
 * A route's `turn/start` of an ended turn: the desktop's own request, its
 * answer untouched; the answer decides the steer (the core's `Done`).
 */
export async function plainStart(hook, steer, params, options) {
  const { core, driver } = hook;
  const called = attempt(hook.originalSend, hook.manager, ["turn/start", params, options]);
  if ("threw" in called) {
    core.call("routedThrew", { steer, error: rejection(called.threw) });
    driver.drain();
    throw called.threw;
  }
  const ended = (failed) => (error) => {
    core.call("plainStartEnded", { steer, failed, error: failed ? rejection(error) : undefined });
    driver.drain();
  };
  new Promise((settle) => settle(called.value)).then(ended(false), ended(true));
  return called.value;
}

/**
 * A route's message as a `turn/steer`: its `turn/start` rewritten (into the
 * turn that ran at the decision, tagged `newTurn`), whose `{ turnId }`
 * answer comes back as `{ turn }` (the shape the desktop's own `turn/start`
 * resolves with), or the desktop's own `turn/steer` (unchanged, its answer
 * untouched). Bounded by the steer's deadline; the core classifies the end.
 */
export async function routedSteer(hook, step, name, params, options) {
  const { core, driver } = hook;
  const input = field(params, "input");
  const steer = step.rewrite ? rewritten(params, step) : params;
  const called = attempt(hook.originalSend, hook.manager, ["turn/steer", steer, options]);
  if ("threw" in called) {
    const error = core.call("routedThrew", { steer: step.steer, error: rejection(called.threw) }, input);
    driver.drain();
    throw error;
  }
  const waited = await driver.wait(called, step.steer);
  const text = (v) => (typeof v === "string" && v !== "" ? v : undefined);
  const turnId = text(field(waited.value, "turnId"));
  const delivery = text(field(waited.value, "delivery"));
  const ended = core.call("routedEnded", { steer: step.steer, how: waited.kind, error: waitedError(waited), turnId, delivery: id(delivery) }, input);
  driver.drain();
  const answer = verdict(ended, waited);
  if (!step.rewrite) return answer;
  return { turn: { id: turnId, status: "inProgress", items: [], error: null } };
}

/** The newTurn's `turn/start` as the `turn/steer` the core's step makes of it (the fields it keeps, its turn and tag). */
function rewritten(params, step) {
  const steer = {};
  for (const key of step.keep) {
    const value = field(params, key);
    if (value !== undefined && value !== null) steer[key] = value;
  }
  steer.expectedTurnId = step.expectedTurnId;
  steer.codexhostSteerDelivery = step.tag;
  return steer;
}
