// The app's `streamRole(threadId)` (the desktop's `getStreamRole`), asked
// and read without judging the answer: the engine decides what it means
// (src/core/stream_role.rs).
import { fieldOf } from "./fields.js";
import { described } from "./front-door.js";

/**
 * What `streamRole(key)` answered, described (`value`, and its `role`
 * field), or `{ threw: true }`; `undefined` when there is no callback or
 * `key` is no thread id (the app is only ever asked about one). Never throws.
 */
export function roleOf(streamRole, key) {
  if (typeof streamRole !== "function" || typeof key !== "string") return undefined;
  try {
    const answer = streamRole(key);
    return { value: described(answer), role: described(fieldOf(answer, "role")) };
  } catch {
    return { threw: true };
  }
}
