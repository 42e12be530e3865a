// The newTurn path of the desktop hook: the steer is presented through the
// desktop's own `startTurn`, whose `turn/start` the hook's `sendRequest`
// rewrites into a `turn/steer` tagged `newTurn`; follow-ups the stop paused
// are resumed. `hook` is the installed hook (`desktop.js`).
//
// The route: one per (thread, message id), open while that message's
// `turn/start` may still come. It lets exactly one `turn/start` leave (as
// the tagged steer, or plain when the turn had already ended) and refuses
// any other: a second one, or one that comes after the steer was reported
// as failed. It stays until `startTurn` settles, and when `startTurn`
// resolved before any `turn/start` left, until one steer bound after
// dispose (refusing it as `disposed` then, never sending it plain).
import { attempt, define, fail, field, id, isSteeringError, method, randomId, report, routeKey } from "./desktop-safety.js";

const PAUSE_REASON = "Interrupted before the steer was accepted.";

/**
 * newTurn: the steer is presented through the desktop's own `startTurn`,
 * whose `turn/start` leaves as a `turn/steer` tagged `newTurn` (or plain,
 * when no turn runs any more); follow-ups the stop paused are resumed. One
 * steer bound covers the whole path, from the decision to the answer:
 * waiting for an earlier attempt's route, reading the follow-ups and
 * `startTurn` share it, and resuming the follow-ups (on its own bound) does
 * not delay the result.
 */
export async function newTurn(hook, threadId, args) {
  const deadline = performance.now() + hook.steerMs;
  const input = args[1];
  const restore = args[2];
  const expectedTurnId = activeTurnId(hook, threadId, input);
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
  const start = method(hook.manager, "startTurn");
  if (!start) throw fail("missingBinding", "", "startTurn is missing", input);
  const key = routeKey(threadId, messageId);
  await afterEarlierAttempt(hook, key, deadline, input, messageId);
  const { pausedBefore, timedOut } = await pausedFollowUps(hook, threadId, deadline);
  if (hook.disposed) throw fail("disposed", "", undefined, input, messageId);
  // Reading the follow-ups used up the bound: nothing was sent.
  if (timedOut || performance.now() >= deadline) throw fail("timeout", "startTurn", hook.steerMs, input, messageId);
  const route = { key, messageId, expectedTurnId, deadline, sent: false, abandoned: undefined, startOut: true, startResolved: false, finished: false };
  route.done = new Promise((resolve) => (route.finish = resolve));
  route.released = new Promise((resolve) => (route.release = resolve));
  hook.routes.set(key, route);
  hook.starting.add(threadId);
  const called = attempt(start, hook.manager, [threadId, submission, args[8]]);
  hook.starting.delete(threadId);
  const settled = (resolved) => () => {
    route.startOut = false;
    route.startResolved = resolved;
    releaseRoute(hook, route);
  };
  if ("threw" in called) route.startOut = false;
  else {
    called.value = new Promise((settle) => settle(called.value));
    called.value.then(settled(true), settled(false));
  }
  try {
    const value = await outcome(hook, route, called, input);
    // Started now (the app's mutate runs before the result is returned), not waited for.
    if (pausedBefore !== undefined) resumeFollowUps(hook, threadId, pausedBefore).catch((e) => report("could not resume follow-ups", e));
    return value;
  } finally {
    route.finished = true;
    releaseRoute(hook, route);
  }
}

/**
 * The running turn's id, or undefined when the turn has already ended
 * (then, as the engine does, the message goes as a plain `turn/start`).
 * A pending turn start is refused, and so is a missing binding.
 */
function activeTurnId(hook, threadId, input) {
  const host = hook.submissionHost();
  if (hook.askHost(host, "hasPendingTurnStart", threadId) === true) throw fail("pendingTurnStart", "", undefined, input);
  const get = method(host, "getActiveTurnId");
  const active = get ? attempt(get, host, [threadId]) : { threw: undefined };
  const turnId = active.value;
  if ("threw" in active || (turnId !== undefined && turnId !== null && id(turnId) === undefined)) {
    const detail = "the desktop's submission binding is missing: a new turn cannot be started";
    throw fail("missingBinding", "", detail, input);
  }
  return id(turnId);
}

/**
 * An earlier attempt of this very message (same thread and id) whose
 * `startTurn` is still out keeps its route, so its late `turn/start` is
 * refused; this attempt waits (within its bound) until that route is gone.
 */
async function afterEarlierAttempt(hook, key, deadline, input, messageId) {
  const earlier = hook.earlierRoute(key);
  if (earlier === undefined) return;
  const own = hook.routes.get(key);
  // startTurn resolved and its turn/start never came: it may still, so the id stays taken.
  if (own && !own.startOut) throw fail("pendingTurnStart", "", undefined, input, messageId);
  const waited = await hook.wait({ value: earlier }, deadline);
  if (waited.kind === "cancelled" || hook.disposed) throw fail("disposed", "", undefined, input, messageId);
  if (waited.kind !== "ok") throw fail("pendingTurnStart", "", undefined, input, messageId);
}

/** What the steer's result is, once `startTurn` settled or the bound passed. */
async function outcome(hook, route, called, input) {
  const { messageId } = route;
  const waited = await hook.wait(called, route.deadline);
  if (waited.kind === "ok") {
    // startTurn resolved: its turn/start left (or may still leave) through
    // the route; what happened to it decides, within the bound.
    const done = await hook.wait({ value: route.done }, route.deadline);
    if (done.kind === "ok") {
      if (done.value.kind !== "error") return waited.value;
      // Built from the turn/start the desktop sent, whose input it may have
      // rebuilt: the draft handed back is the caller's own array.
      const { error } = done.value;
      if (isSteeringError(error)) define(error, "draft", input);
      throw error;
    }
    route.abandoned = done.kind;
    let detail = done.kind === "timeout" ? "no answer within the steer bound" : "disposed before the answer";
    if (!route.sent) detail = "startTurn resolved before its turn/start was sent";
    throw fail("outcomeUnknown", "startTurn", detail, input, messageId);
  }
  if (waited.kind === "timeout" || waited.kind === "cancelled") route.abandoned = waited.kind;
  const error = waited.error;
  switch (waited.kind) {
    case "error":
      if (isSteeringError(error)) throw error;
      if (!route.sent) throw fail("transport", "startTurn", error, input, messageId);
      // A plain turn/start: the host's error answer is its refusal. After
      // the rewritten steer left, a failure is never a plain one.
      if (route.expectedTurnId === undefined) throw fail("answered", "turn/start", error, input, messageId);
      throw fail("lost", "startTurn", error, input, messageId);
    case "timeout":
      if (!route.sent) throw fail("timeout", "startTurn", hook.steerMs, input, messageId);
      throw fail("outcomeUnknown", "startTurn", "no answer within the steer bound", input, messageId);
    default:
      if (!route.sent) throw fail("disposed", "", undefined, input, messageId);
      throw fail("outcomeUnknown", "startTurn", "disposed before the answer", input, messageId);
  }
}

/**
 * Removes a route once its `turn/start` can no longer come: its startTurn
 * settled and its steer has its result; a startTurn that resolved before
 * any `turn/start` left keeps it (refusing) until one steer bound after
 * dispose.
 */
export function releaseRoute(hook, route) {
  if (route.startOut || !route.finished) return;
  // Its one turn/start has not come (sent or refused): it may still, and is
  // refused until dispose() and one steer bound after it.
  if (route.startResolved && !route.sent && !route.startSeen && !hook.lateWindowOver) return;
  if (hook.routes.get(route.key) === route) hook.routes.delete(route.key);
  route.release();
  hook.restoreWhenIdle();
}

/**
 * `pausedBefore`: ids of follow-ups paused with the steer's reason (read
 * until `deadline`), undefined when they could not be read (then none is
 * resumed); `timedOut` when the read used up the bound.
 */
async function pausedFollowUps(hook, threadId, deadline) {
  const coordinator = hook.coordinator();
  const unread = (waited) => ({ pausedBefore: undefined, timedOut: waited?.kind === "timeout" });
  const load = method(coordinator, "loadMessages");
  if (load) {
    const loaded = await hook.wait(attempt(load, coordinator, [threadId]), deadline);
    if (loaded.kind !== "ok") return unread(loaded);
  }
  const read = method(coordinator, "readMessages");
  if (!read) return unread();
  const waited = await hook.wait(attempt(read, coordinator, [threadId]), deadline);
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
  const waited = await hook.wait(attempt(mutate, coordinator, [threadId, unpause]));
  if (waited.kind === "error") report("could not resume follow-ups", waited.error);
  else if (waited.kind !== "ok") report("resuming follow-ups did not finish", undefined);
}

/**
 * The one request a route lets leave carrying its message (`name`):
 * its `turn/start` as a tagged `turn/steer`, whose `{ turnId }` answer
 * comes back as `{ turn }` (the shape the desktop's own `turn/start`
 * resolves with), or plain when no turn was running (its answer untouched,
 * and it decides the steer's result); or the desktop's own `turn/steer`
 * when its `startTurn` handed the submission to its `steerTurn` (unchanged,
 * its answer untouched). Any other request of the route is
 * refused: a second one, or one that comes after the steer was reported as
 * failed.
 */
export async function startRouted(hook, name, params, options, route) {
  const input = field(params, "input");
  const { messageId } = route;
  if (route.sent) throw fail("outcomeUnknown", "turn/steer", `it already left once; a second ${name} is not sent`, input, messageId);
  // Its one request came: once refused, the route need not wait for it any more.
  route.startSeen = true;
  // Nothing is sent once the hook is gone (the spec: pending replacements
  // fail closed, "disposed") or the steer already failed (timeout, or its
  // bound is used up).
  const timedOut = route.abandoned === "timeout" || (!route.abandoned && performance.now() >= route.deadline);
  if (hook.disposed || timedOut || route.abandoned) {
    releaseRoute(hook, route);
    if (timedOut && !hook.disposed) throw fail("timeout", "startTurn", hook.steerMs, input, messageId);
    throw fail("disposed", "", undefined, input, messageId);
  }
  route.sent = true;
  if (name === "turn/start" && route.expectedTurnId === undefined) {
    // The turn had ended: the desktop's own turn/start, its answer untouched;
    // the answer (or its bound) decides the steer's result.
    const called = attempt(hook.originalSend, hook.manager, ["turn/start", params, options]);
    route.sent = !("threw" in called);
    if ("threw" in called) throw called.threw;
    new Promise((settle) => settle(called.value)).then(
      () => route.finish({ kind: "ok" }),
      (error) => route.finish({ kind: "error", error: fail("answered", "turn/start", error, input, messageId) }),
    );
    return called.value;
  }
  // The desktop's own turn/steer passes unchanged (the spec: every request
  // but the newTurn's turn/start); only its answer is followed.
  const steer = name === "turn/steer" ? params : rewritten(params, route);
  const called = attempt(hook.originalSend, hook.manager, ["turn/steer", steer, options]);
  // Thrown synchronously: nothing was written.
  if ("threw" in called) {
    route.sent = false;
    throw fail("transport", "turn/steer", called.threw, input, messageId);
  }
  const failed = (error) => {
    route.finish({ kind: "error", error });
    return error;
  };
  const waited = await hook.wait(called, route.deadline);
  if (waited.kind === "error") throw failed(fail("answered", "turn/steer", waited.error, input, messageId));
  if (waited.kind !== "ok") {
    const detail = waited.kind === "timeout" ? "no answer within the steer bound" : "disposed before the answer";
    throw failed(fail("outcomeUnknown", "turn/steer", detail, input, messageId));
  }
  const turnId = field(waited.value, "turnId");
  if (typeof turnId !== "string" || turnId === "") {
    throw failed(fail("outcomeUnknown", "turn/steer", "the answer has no turnId", input, messageId));
  }
  route.finish({ kind: "ok" });
  if (name === "turn/steer") return waited.value;
  return { turn: { id: turnId, status: "inProgress", items: [], error: null } };
}

/** The newTurn's `turn/start` as the `turn/steer` it becomes (into the turn that ran at the decision, tagged `newTurn`). */
function rewritten(params, route) {
  const steer = {};
  for (const key of ["threadId", "input", "clientUserMessageId", "additionalContext", "responsesapiClientMetadata"]) {
    const value = field(params, key);
    if (value !== undefined && value !== null) steer[key] = value;
  }
  steer.expectedTurnId = route.expectedTurnId;
  steer.codexhostSteerDelivery = "newTurn";
  return steer;
}
