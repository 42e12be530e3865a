// The class every rejection of the package is constructed from. The entry
// hands it to the wasm module once at `init()` (`__setErrorClass`), so
// errors built in Rust are `instanceof SteeringError` in every bundler.

/** A failed steer, send, revoke or replace: `kind`, `code`, `data`, `draft`, `trace`. */
export class SteeringError extends Error {
  constructor(message) {
    super(message);
    this.name = "SteeringError";
  }
}

/**
 * True for a SteeringError (optionally of one `kind`). Also accepts an error
 * from another copy of the package (a second install, another realm): any
 * Error named "SteeringError" with a string `kind`.
 */
export function isSteeringError(value, kind) {
  // Never throws (apps call it inside `catch`): a Proxy whose traps throw,
  // or a throwing `name` / `kind` getter, is simply not a SteeringError.
  try {
    const matches =
      value instanceof SteeringError ||
      (value instanceof Error && value.name === "SteeringError" && typeof value.kind === "string");
    return matches && (kind === undefined || value.kind === kind);
  } catch {
    return false;
  }
}
