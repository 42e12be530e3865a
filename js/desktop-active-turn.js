// The official and activeTurn paths of the desktop hook: the desktop's own
// `steerTurn` runs, and the one `turn/steer` it sends for this steer (and no
// other) is recognised by the hook's `sendRequest`: tagged
// `codexhostSteerDelivery: "activeTurn"` on the activeTurn path, left
// untouched on the official one. Both are bounded and classified alike.
// `hook` is the installed hook (`desktop.js`).
import { attempt, fail, field, id, isSteeringError } from "./desktop-safety.js";

/**
 * Runs the desktop's own steer for an official or activeTurn decision
 * (`tag`: "activeTurn", or undefined for official: sent untouched), bounded
 * by the steer bound. Once its `turn/steer` has left, a failure that is not
 * the host's JSON-RPC error answer is `outcomeUnknown` (with the id that
 * was sent), never the plain error; before it left, and for the host's own
 * refusal, the desktop's failure comes back unchanged.
 */
export async function ownSteer(hook, self, args, threadId, tag) {
  const input = args[1];
  // What its turn/steer is recognised by: the message id the desktop was
  // given (the argument, else restoreMessage.id) or the input array itself.
  const steer = { threadId, tag, ids: [id(args[5]), id(field(args[2], "id"))].filter((v) => v !== undefined), input, sent: false, sentId: undefined };
  hook.activeSteers.add(steer);
  const forget = () => {
    hook.activeSteers.delete(steer);
    hook.restoreWhenIdle(); // a disposed hook's layer goes once no late turn/steer can come
  };
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
 * The tag for a `turn/steer` (or `turn/start`) the desktop sends: the steer
 * it belongs to (by the id, or the very input, of an official or activeTurn
 * steer of its thread) counts as sent, and its tag is returned
 * ("activeTurn", or undefined for official); undefined for any other. Of several
 * matches (a retry with the same id while the first attempt's steerTurn is
 * still out) the newest not yet sent is the one.
 */
export function activeTag(hook, threadId, params) {
  if (hook.activeSteers.size === 0) return undefined;
  const sentId = id(field(params, "clientUserMessageId"));
  const input = field(params, "input");
  let match;
  for (const steer of hook.activeSteers) {
    if (steer.threadId !== threadId) continue;
    if ((sentId !== undefined && steer.ids.includes(sentId)) || (input !== undefined && input === steer.input)) {
      if (match === undefined || !steer.sent || match.sent) match = steer;
    }
  }
  if (match === undefined) return undefined;
  match.sent = true;
  match.sentId = sentId ?? match.sentId;
  return match.tag;
}
