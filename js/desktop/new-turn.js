// The newTurn path of the desktop hook: the steer is presented through the
// desktop's own `startTurn`, and the core's route lets exactly one request
// carrying the message leave: its `turn/start`, as a `turn/steer` tagged
// `newTurn` (or plain, when no turn ran), or the desktop's own `turn/steer`
// when its `startTurn` handed the submission to its `steerTurn`. Here the
// calls of the desktop and the host, and the submission built as the spec
// says; every check, bound and outcome is the core's (src/core/desktop/).
import { attempt, field, id, method, randomId, report, routeKey } from "./safety.js";
import { packageFacts, verdict } from "./driver.js";

const PAUSE_REASON = "Interrupted before the steer was accepted.";

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
 * within one steer bound (the core's deadline); follow-ups the stop paused
 * are resumed once it was accepted (on their own bound, not delaying the result).
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
  const built = core.call("newTurn", [driver.now(), steer, turn.pending, hasTool, isObject, start !== undefined], input, undefined, turn.kind, turn.turnId, randomId());
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
  const below = core.call("openRoute", [], undefined, undefined, threadId, messageId) === undefined ? hook.belowReleased(routeKey(threadId, messageId)) : undefined;
  const earlier = core.call("earlier", [driver.now(), steer, below !== undefined], input);
  if (earlier[0].do === "waitEarlier") {
    const route = earlier[0].steer;
    const released = route === undefined ? below : driver.until(driver.released, route);
    const waited = await driver.waitOn(earlier[0].wait, { value: released });
    expect(core.call("earlierEnded", [steer], input, undefined, waited.kind), "go");
  } else expect(earlier, "go");
  const { pausedBefore, timedOut } = await pausedFollowUps(hook, steer, threadId);
  expect(core.call("start", [driver.now(), steer, timedOut], input), "go");
  const called = attempt(start, hook.manager, [threadId, submission, args[8]]);
  core.call("startCalled", [steer, "threw" in called]);
  if (!("threw" in called)) {
    const settled = (resolved) => () => {
      core.call("startSettled", [steer, resolved]);
      driver.drain();
    };
    called.value = new Promise((settle) => settle(called.value));
    called.value.then(settled(true), settled(false));
  }
  driver.drain();
  const waited = await driver.wait(called, steer);
  let ended = core.call("startEnded", [driver.now(), steer], input, waited.error, waited.kind, ...packageFacts(waited.error));
  driver.drain();
  if (ended[0].do === "waitDone") {
    // startTurn resolved: its turn/start left (or may still leave) through the route.
    const done = await driver.waitOn(ended[0].wait, { value: driver.until(driver.done, steer) });
    ended = core.call("doneEnded", [steer], input, undefined, done.kind);
    driver.drain();
  }
  const value = verdict(ended, waited);
  // Started now (the app's mutate runs before the result is returned), not waited for.
  if (pausedBefore !== undefined) resumeFollowUps(hook, threadId, pausedBefore).catch((e) => report("could not resume follow-ups", e));
  return value;
}

/**
 * `pausedBefore`: ids of follow-ups paused with the steer's reason (read
 * within the steer's bound), undefined when they could not be read (then none is
 * resumed); `timedOut` when the read used up the bound.
 */
async function pausedFollowUps(hook, steer, threadId) {
  const coordinator = hook.coordinator();
  const unread = (waited) => ({ pausedBefore: undefined, timedOut: waited?.kind === "timeout" });
  const load = method(coordinator, "loadMessages");
  if (load) {
    const loaded = await hook.driver.wait(attempt(load, coordinator, [threadId]), steer);
    if (loaded.kind !== "ok") return unread(loaded);
  }
  const read = method(coordinator, "readMessages");
  if (!read) return unread();
  const waited = await hook.driver.wait(attempt(read, coordinator, [threadId]), steer);
  try {
    const messages = waited.value;
    if (waited.kind !== "ok" || !Array.isArray(messages)) return unread(waited);
    return { pausedBefore: messages.filter((m) => m?.pauseReason === PAUSE_REASON && comparable(m.id)).map((m) => m.id) };
  } catch (error) {
    report("could not read the follow-up messages", error);
    return unread();
  }
}

/** An id that can be compared (a string or a finite number); any other message is left alone. */
const comparable = (v) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v));

/** Un-pauses follow-ups the stop paused (not those paused before); a failure is logged. */
async function resumeFollowUps(hook, threadId, pausedBefore) {
  const coordinator = hook.coordinator();
  const mutate = method(coordinator, "mutate");
  if (!mutate) return;
  const unpause = (messages) => {
    try {
      if (!Array.isArray(messages)) return messages;
      const resumed = (m) => m?.pauseReason === PAUSE_REASON && comparable(m.id) && !pausedBefore.includes(m.id);
      return messages.map((m) => (resumed(m) ? { ...m, pauseReason: null } : m));
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
    core.call("routedThrew", [steer], undefined, called.threw);
    driver.drain();
    throw called.threw;
  }
  const ended = (failed) => (error) => {
    core.call("plainStartEnded", [steer, failed], undefined, error);
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
  const steer = step.rewrite ? rewritten(params, step.expectedTurnId) : params;
  const called = attempt(hook.originalSend, hook.manager, ["turn/steer", steer, options]);
  if ("threw" in called) {
    const error = core.call("routedThrew", [step.steer], input, called.threw);
    driver.drain();
    throw error;
  }
  const waited = await driver.wait(called, step.steer);
  const text = (v) => (typeof v === "string" && v !== "" ? v : undefined);
  const turnId = text(field(waited.value, "turnId"));
  const delivery = text(field(waited.value, "delivery"));
  const ended = core.call("routedEnded", [step.steer], input, waited.error, waited.kind, turnId, id(delivery));
  driver.drain();
  const answer = verdict(ended, waited);
  if (!step.rewrite) return answer;
  return { turn: { id: turnId, status: "inProgress", items: [], error: null } };
}

/** The newTurn's `turn/start` as the `turn/steer` it becomes. */
function rewritten(params, expectedTurnId) {
  const steer = {};
  for (const key of ["threadId", "input", "clientUserMessageId", "additionalContext", "responsesapiClientMetadata"]) {
    const value = field(params, key);
    if (value !== undefined && value !== null) steer[key] = value;
  }
  steer.expectedTurnId = expectedTurnId;
  steer.codexhostSteerDelivery = "newTurn";
  return steer;
}
