// The class every rejection of the package is constructed from, in the one
// driver module every entry shares, so errors are `instanceof SteeringError`
// in every bundler.
import { defineErrorFields } from "./fields.js";
import { LIMITS } from "./limits.js";

/** A failed steer, send, revoke or replace: `kind`, `code`, `data`, `draft`, `trace`. */
export class SteeringError extends Error {
  constructor(message) {
    super(message);
    // Defined, not assigned: with `Error.prototype` frozen (a hardening
    // step) assigning the inherited read-only `name` would throw.
    Object.defineProperty(this, "name", { __proto__: null, value: "SteeringError", writable: true, configurable: true });
  }
}

/** Every `kind`, as the engine lists them (`Failure::KINDS`). */
const KINDS = LIMITS.errorKinds;

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

/**
 * The `SteeringError` of an engine's error report (`bridge`'s ErrorReport:
 * kind, code, message, data, draft, trace, clientUserMessageId); `draft` is
 * the caller's own input (by identity) when the call had one, else the
 * report's. Every field is defined, not assigned (`defineErrorFields`):
 * a frozen Error.prototype or a setter on a shared prototype can neither
 * throw nor drop a field. Never throws.
 */
export function steeringError(report, draft) {
  const error = new SteeringError(report.message);
  defineErrorFields(error, report.kind, report.code, report.data, draft === undefined ? report.draft : draft, report.trace, report.clientUserMessageId);
  return error;
}
