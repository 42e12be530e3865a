// The desktop hook's engine (src/core/desktop/, behind the bridge), called
// one way like every engine: what the hook read of the desktop goes in as
// data; what the wrapped method returns now, and the actions to carry out,
// come out.
import { readRejection } from "../driver/host.js";
import { fieldOf, own } from "../driver/fields.js";
import { describedId, draftText } from "../driver/front-door.js";
import { isStopped, step } from "../driver/module.js";
import { id, isSteeringError } from "./safety.js";

/**
 * What the engine reads of a rejection (`bridge::Rejection`): its raw
 * facts and error data, and, for an error of this package, its `kind` and
 * `clientUserMessageId` (the engine decides where that matters).
 */
export function rejection(error) {
  const { facts, data } = readRejection(error);
  const packaged = isSteeringError(error);
  const kind = packaged ? fieldOf(error, "kind") : undefined;
  return { read: facts, data, packageKind: packaged ? (typeof kind === "string" ? kind : "") : undefined, packageId: packaged ? id(fieldOf(error, "clientUserMessageId")) : undefined };
}

/**
 * Frees a hook's engine in the module once nothing can call it any more
 * (its hook, driver and every pending callback are gone). Never throws.
 */
const collected =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry((handle) => {
        try {
          if (!isStopped()) step(0, { do: "close", handle });
        } catch {
          // The module stopped: nothing is left to free.
        }
      })
    : undefined;

export class DesktopCore {
  /** The hook over the codexhost engine `decider` (its steer bound). */
  constructor(decider) {
    const out = step(0, { do: "open", engine: "desktop", handle: decider.handle });
    if (own(out, "thrown") !== undefined) throw new Error(out.thrown);
    this.handle = out.value.handle;
    this.disposed = false;
    collected?.register(this, this.handle);
  }

  /**
   * One step with `input` (and `payload`, JSON text): the engine's output
   * (`value`, `error`, `steps`, `timer`). An input the engine cannot read
   * is a bug of this package: loud, never guessed.
   */
  run(input, payload = "") {
    const out = step(this.handle, input, payload);
    if (own(out, "thrown") !== undefined) throw new Error(out.thrown);
    return out;
  }

  /** Which of the follow-ups read (`readQueue`) to resume: their positions. */
  unpause(followUps, pausedBefore) {
    const value = own(this.run({ do: "unpause", followUps, pausedBefore: pausedBefore.map(describedId) }), "value");
    return Array.isArray(value) ? value : [];
  }

  /** The text a desktop steer's draft carries, when it is text only (else undefined). */
  steerText(input) {
    const [refused, payload] = draftText(input);
    return own(this.run({ do: "steerText", refused }, payload), "value") ?? undefined;
  }

  /** Which steer has the route of a message open (undefined: none). */
  openRoute(threadId, messageId) {
    return own(this.run({ do: "call", call: { op: "openRoute", threadId, messageId } }), "value") ?? undefined;
  }
}
