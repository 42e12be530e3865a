// The class every rejection of the package is constructed from. The entry
// hands it to the wasm module once at `init()` (`__setErrorClass`), so
// errors built in Rust are `instanceof SteeringError` in every bundler.

/** A failed steer, send, revoke or replace: `kind`, `code`, `data`, `draft`, `trace`. */
export class SteeringError extends Error {
  constructor(message) {
    super(message);
    // Defined, not assigned: with `Error.prototype` frozen (a hardening
    // step) assigning the inherited read-only `name` would throw.
    Object.defineProperty(this, "name", { __proto__: null, value: "SteeringError", writable: true, configurable: true });
  }
}

/** Every `kind` (the `SteeringErrorKind` union; tests/node keep them equal). */
export const KINDS = Object.freeze([
  "invalidInput", "draftTooLarge", "host", "malformedAnswer", "timeout", "transport",
  "ownershipUnknown", "busy", "pendingTurnStart", "disposed", "outcomeUnknown",
  "imagesUnsupported", "unavailable", "sessionReplaced", "follower", "missingBinding",
]);

/**
 * True for a SteeringError (optionally of one `kind`). Also accepts an error
 * from another copy of the package (a second install, another realm): any
 * Error named "SteeringError" whose `kind` is one of `KINDS`.
 */
export function isSteeringError(value, kind) {
  // Never throws (apps call it inside `catch`): a Proxy whose traps throw,
  // or a throwing `name` / `kind` getter, is simply not a SteeringError.
  try {
    const matches =
      value instanceof SteeringError ||
      (value instanceof Error && value.name === "SteeringError" && KINDS.includes(value.kind));
    return matches && (kind === undefined || value.kind === kind);
  } catch {
    return false;
  }
}
