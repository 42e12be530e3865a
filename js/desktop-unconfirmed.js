// Never a duplicate through the desktop hook: the desktop sends the message
// itself, so a same-id retry after `outcomeUnknown` is safe only where the
// host deduplicates by `clientUserMessageId`: a `turn/steer` of an external
// thread of a codexhost host (the engine's decision says so,
// `hostDeduplicates`). Elsewhere (a Codex-owned thread, a stock app-server,
// a plain `turn/start`) the first attempt may already be in the thread and
// the desktop would apply the retry again: the hook remembers such ids and
// refuses their retries (`outcomeUnknown` again, nothing sent).
import { fail, field, id, isSteeringError, routeKey } from "./desktop-safety.js";

/** How many such ids a hook remembers, the oldest forgotten first (the engine's `RECENT_MESSAGES`). */
const MAX_UNCONFIRMED = 256;

/** The message ids whose outcome is unknown where the host does not deduplicate them. */
export class Unconfirmed {
  constructor() {
    /** routeKey(threadId, messageId), oldest first (a Set keeps insertion order). */
    this.keys = new Set();
  }

  /**
   * Follows a steer: when it ends `outcomeUnknown` and `undeduplicated()`
   * says the host would apply a resend again, its id (the one sent, and the
   * one the caller gave) is remembered. Returns the steer's own promise
   * result unchanged.
   */
  follow(threadId, callerId, steer, undeduplicated) {
    return steer.catch((error) => {
      if (isSteeringError(error) && field(error, "kind") === "outcomeUnknown" && undeduplicated()) {
        this.remember(threadId, id(field(error, "clientUserMessageId")));
        this.remember(threadId, callerId);
      }
      throw error;
    });
  }

  remember(threadId, messageId) {
    if (messageId === undefined) return;
    const key = routeKey(threadId, messageId);
    this.keys.delete(key); // re-remembered: now the newest
    this.keys.add(key);
    if (this.keys.size > MAX_UNCONFIRMED) this.keys.delete(this.keys.values().next().value);
  }

  /** The refusal of a retry of a remembered id (undefined when it may be sent). */
  refusal(threadId, messageId, input) {
    if (messageId === undefined || !this.keys.has(routeKey(threadId, messageId))) return undefined;
    const detail = "not sent again: the host does not deduplicate this message by clientUserMessageId, and the first attempt may already be in the thread";
    return fail("outcomeUnknown", "steerTurn", detail, input, messageId);
  }
}
