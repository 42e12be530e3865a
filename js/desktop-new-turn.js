// The newTurn path of the desktop hook: the steer is presented through the
// desktop's own `startTurn`, whose `turn/start` the hook's `sendRequest`
// rewrites into a `turn/steer` tagged `newTurn`; follow-ups the stop paused
// are resumed. `hook` is the installed hook (`desktop.js`).
import { attempt, fail, field, id, isSteeringError, method, randomId, report, routeKey } from "./desktop-safety.js";

const PAUSE_REASON = "Interrupted before the steer was accepted.";

/**
 * newTurn: the steer is presented through the desktop's own `startTurn`,
 * whose `turn/start` leaves as a `turn/steer` tagged `newTurn`; follow-ups
 * the stop paused are resumed. One steer bound covers the whole path, from
 * the decision to the answer: reading the follow-ups and `startTurn` share
 * it, and resuming the follow-ups (on its own bound) does not delay the result.
 */
export async function newTurn(hook, threadId, args) {
  const deadline = performance.now() + hook.steerMs;
  const input = args[1];
  const restore = args[2];
  const host = hook.submissionHost();
  const expectedTurnId = id(hook.askHost(host, "getActiveTurnId", threadId));
  if (expectedTurnId === undefined) {
    const detail = "the desktop's submission binding is missing: a new turn cannot be started";
    throw fail("missingBinding", "", detail, input);
  }
  if (hook.askHost(host, "hasPendingTurnStart", threadId) === true) throw fail("pendingTurnStart", "", undefined, input);
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
  const pausedBefore = await pausedFollowUps(hook, threadId, deadline);
  if (hook.disposed) throw fail("disposed", "", undefined, input);
  // Reading the follow-ups used up the bound: nothing was sent.
  if (performance.now() >= deadline) throw fail("timeout", "startTurn", hook.steerMs, input);
  // The route catches this steer's turn/start until startTurn itself
  // settles, even after our wait ended: a late turn/start is refused, never
  // sent as a plain one (that would deliver a message reported as failed).
  const route = { expectedTurnId, sent: false, abandoned: undefined };
  const key = routeKey(threadId, messageId);
  hook.routes.set(key, route);
  const release = () => {
    if (hook.routes.get(key) === route) hook.routes.delete(key);
    hook.restoreWhenIdle();
  };
  const called = attempt(start, hook.manager, [threadId, submission, args[8]]);
  if ("threw" in called) release();
  else called.value = new Promise((settle) => settle(called.value)).finally(release);
  const waited = await hook.wait(called, deadline);
  if (waited.kind === "timeout" || waited.kind === "cancelled") route.abandoned = waited.kind;
  const error = waited.error;
  switch (waited.kind) {
    case "ok":
      // Started now (the app's mutate runs before the result is returned), not waited for.
      resumeFollowUps(hook, threadId, pausedBefore).catch((e) => report("could not resume follow-ups", e));
      return waited.value;
    case "error":
      if (isSteeringError(error)) throw error;
      // After the rewritten steer left, a failure is never a plain one.
      throw route.sent ? fail("lost", "startTurn", error, input) : fail("transport", "startTurn", error, input);
    case "timeout":
      if (!route.sent) throw fail("timeout", "startTurn", hook.steerMs, input);
      throw fail("outcomeUnknown", "startTurn", "no answer within the steer bound", input);
    default:
      if (!route.sent) throw fail("disposed", "", undefined, input);
      throw fail("outcomeUnknown", "startTurn", "disposed before the answer", input);
  }
}

/** Ids of follow-ups paused with the steer's reason (best effort, until `deadline`). */
async function pausedFollowUps(hook, threadId, deadline) {
  const coordinator = hook.coordinator();
  const load = method(coordinator, "loadMessages");
  if (load) await hook.wait(attempt(load, coordinator, [threadId]), deadline);
  const read = method(coordinator, "readMessages");
  if (!read) return [];
  const waited = await hook.wait(attempt(read, coordinator, [threadId]), deadline);
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
async function resumeFollowUps(hook, threadId, pausedBefore) {
  const coordinator = hook.coordinator();
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
  const waited = await hook.wait(attempt(mutate, coordinator, [threadId, unpause]));
  if (waited.kind === "error") report("could not resume follow-ups", waited.error);
  else if (waited.kind !== "ok") report("resuming follow-ups did not finish", undefined);
}

/**
 * The `turn/start` of a newTurn presentation goes out as a tagged
 * `turn/steer`; its `{ turnId }` answer comes back as `{ turn }`, the
 * shape the desktop's own `turn/start` resolves with.
 */
export async function rewriteStart(hook, params, options, route) {
  const input = field(params, "input");
  // The steer already failed (timeout) or the hook is gone: nothing is sent.
  if (route.abandoned === "timeout") throw fail("timeout", "startTurn", hook.steerMs, input);
  if (hook.disposed || route.abandoned) throw fail("disposed", "", undefined, input);
  const steer = {};
  for (const key of ["threadId", "input", "clientUserMessageId", "additionalContext", "responsesapiClientMetadata"]) {
    const value = field(params, key);
    if (value !== undefined && value !== null) steer[key] = value;
  }
  steer.expectedTurnId = route.expectedTurnId;
  steer.codexhostSteerDelivery = "newTurn";
  route.sent = true;
  const called = attempt(hook.originalSend, hook.manager, ["turn/steer", steer, options]);
  // Thrown synchronously: nothing was written.
  if ("threw" in called) throw fail("transport", "turn/steer", called.threw, input);
  const waited = await hook.wait(called);
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
