import { init, installDesktopSteering, isSteeringError } from "renderer-steering";

await init();

const hook = installDesktopSteering(desktop.requestManager, { timeouts: { decideMs: 10_000, steerMs: 30_000 } });
if (hook === null) {
  log("this request manager has no steerTurn / sendRequest: steering stays the desktop's own");
}

// The desktop calls its manager as before; a steer the hook decides rejects with a
// SteeringError, the desktop's own failures come back as the desktop threw them.
export function reportSteerFailure(error: unknown): void {
  if (isSteeringError(error, "outcomeUnknown")) ui.markUnconfirmed(error.clientUserMessageId);
  else if (isSteeringError(error)) composer.restore(error.draft);
}

desktop.onDisconnect(() => hook?.dispose()); // steerTurn restored now, sendRequest once pending replacements settle
