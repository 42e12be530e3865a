// The activeTurn path of the desktop hook: the desktop's own `steerTurn`
// runs, and the one `turn/steer` it sends for this steer (and no other) is
// tagged `codexhostSteerDelivery: "activeTurn"` by the hook's `sendRequest`.
// `hook` is the installed hook (`desktop.js`).
import { attempt, fail, field, id, isSteeringError } from "./desktop-safety.js";

/**
 * Runs the desktop's own steer for an activeTurn decision, bounded by the
 * steer bound. Once its tagged `turn/steer` has left, a failure that is
 * not the host's JSON-RPC error answer is `outcomeUnknown` (with the id
 * that was sent), never the plain error; before it left, and for the
 * host's own refusal, the desktop's failure comes back unchanged.
 */
export async function activeTurn(hook, self, args, threadId) {
  const input = args[1];
  // What its turn/steer is recognised by: the message id the desktop was
  // given (the argument, else restoreMessage.id) or the input array itself.
  const steer = { threadId, ids: [id(args[5]), id(field(args[2], "id"))].filter((v) => v !== undefined), input, sent: false, sentId: undefined };
  hook.activeSteers.add(steer);
  const forget = () => hook.activeSteers.delete(steer);
  const called = attempt(hook.originalSteer, self, args);
  // Kept until the desktop's own steerTurn settles, not only while we wait:
  // a turn/steer it sends after our bound is still this steer's, still tagged.
  if ("threw" in called) forget();
  else {
    called.value = new Promise((settle) => settle(called.value));
    called.value.then(forget, forget);
  }
  const waited = await hook.wait(called);
  const messageId = steer.sentId ?? id(args[5]);
  if (waited.kind === "ok") return waited.value;
  if (waited.kind === "error") {
    const error = waited.error;
    // Nothing left yet, or a failure this package made: unchanged.
    if (!steer.sent || isSteeringError(error)) throw error;
    // The engine's rule (`isErrorAnswer`): the host's error answer is a
    // definite refusal (the desktop's own failure, unchanged); anything
    // else after the steer left is no answer.
    const failure = fail("answered", "turn/steer", error, input, messageId);
    throw field(failure, "kind") === "outcomeUnknown" ? failure : error;
  }
  // The desktop's own turn/steer may have left: never a plain failure.
  const detail = waited.kind === "timeout" ? "no answer within the steer bound" : "disposed before the answer";
  throw fail("outcomeUnknown", "steerTurn", detail, input, messageId);
}

/**
 * The tag for a `turn/steer` the desktop sends: "activeTurn" only when it
 * carries the id, or the very input, of an activeTurn steer of its thread
 * (then that steer counts as sent); undefined for any other steer.
 */
export function activeTag(hook, threadId, params) {
  if (hook.activeSteers.size === 0) return undefined;
  const sentId = id(field(params, "clientUserMessageId"));
  const input = field(params, "input");
  for (const steer of hook.activeSteers) {
    if (steer.threadId !== threadId) continue;
    if ((sentId !== undefined && steer.ids.includes(sentId)) || (input !== undefined && input === steer.input)) {
      steer.sent = true;
      steer.sentId = sentId ?? steer.sentId;
      return "activeTurn";
    }
  }
  return undefined;
}
