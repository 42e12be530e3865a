// The desktop hook's engine (src/core/desktop/, behind the bridge), called
// one way like every engine: what the hook read of the desktop goes in as
// data, the step to take comes out. A refusal's `SteeringError` is built
// here, its `draft` the hook's own array by identity.
import { readRejection } from "../driver/host.js";
import { fieldOf, own } from "../driver/fields.js";
import { describedId, draftText } from "../driver/front-door.js";
import { isStopped, step } from "../driver/module.js";
import { steeringError } from "../driver/steering-error.js";
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

/** The rejection a wait ended with (`{ kind, error }`), for the engine; undefined unless it rejected. */
export function waitedError(waited) {
  return waited?.kind === "error" ? rejection(waited.error) : undefined;
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
   * One call (`bridge::DesktopCall`): `op` and the facts the hook read of
   * the desktop, by name; `draft` is the hook's input (a refusal's
   * `draft`). Answers `[step, error]` for a step, the error of a
   * `routedThrew`, else the call's plain value.
   */
  call(op, facts, draft) {
    return this.answer(op, draft, { do: "call", call: { op, ...facts } });
  }

  /** Which of the follow-ups read (`readQueue`) to resume: their positions. */
  unpause(followUps, pausedBefore) {
    const value = own(step(this.handle, { do: "unpause", followUps, pausedBefore: pausedBefore.map(describedId) }), "value");
    return Array.isArray(value) ? value : [];
  }

  /** Steps the core with `input` (and `payload`, JSON text) and reads its answer as `call` does. */
  answer(op, draft, input, payload = "") {
    const out = step(this.handle, input, payload);
    // A call the engine cannot read is a bug of this package: loud, never guessed.
    if (own(out, "thrown") !== undefined) throw new Error(out.thrown);
    if (op === "dispose") this.disposed = true;
    const report = own(out, "error");
    const failed = report === undefined ? undefined : steeringError(report, draft);
    if (op === "routedThrew") return failed;
    const value = own(out, "value");
    if (own(value, "do") !== undefined) return [value, failed];
    return value ?? undefined; // JSON's null: no value (no open route)
  }

  /** `{ effects, next }`: what to carry out now, and the next deadline (or null). */
  effects() {
    const out = step(this.handle, { do: "effects" });
    this.disposed = out.value.disposed;
    return { effects: out.value.effects, next: own(out, "timer") ?? null };
  }

  /** The text a desktop steer's draft carries, when it is text only (else undefined). */
  steerText(input) {
    const [refused, payload] = draftText(input);
    return own(step(this.handle, { do: "steerText", refused }, payload), "value") ?? undefined;
  }

  /** Drops the record of a message the hook wrote. */
  forget(messageId) {
    step(this.handle, { do: "forget", messageId: describedId(messageId) });
  }

}
