import { AcpSteering, isSteeringError } from "renderer-steering";

const acp = new AcpSteering({ request: (method, params) => conn.request(method, params), initialize: initializeAnswer });

try {
  const outcome = await acp.send(sessionId, [{ type: "text", text: "use pnpm instead" }], {
    accepted: (path) => ui.showOptimistic("activeTurn"), // the agent took it as pending input of the turn (log: path)
    unconfirmed: (path) => ui.markUnconfirmed(path), // it may have reached the agent: no answer came, or its turn was cancelled first
  });
  switch (outcome.kind) {
    case "injected": // _session/steering: it reached the turn (outcome.delivered: "echo" | "turnEnded"); session/inject: accepted
      log(outcome.delivered);
      if (outcome.messageId !== undefined) {
        const replaced = await acp.replace(sessionId, outcome.messageId, [{ type: "text", text: "use bun" }]); // pending.replace only
        const { draft } = await acp.revoke(sessionId, replaced.messageId); // not delivered yet: take it back
        composer.restore(draft);
      }
      break;
    case "prompted": // it went out as a session/prompt (queued until the turn ended, or promptRequired)
      log(outcome.stopReason, outcome.messageId, outcome.superseded); // v1: its turn's stopReason; v2: inserted, its messageId
      break;
    case "startedNewTurn": // the agent started a turn of its own with it
      break;
    case "handedOff": // a concurrent session/prompt (allowPromptHandoff): folded into the turn or deferred after it
      log(outcome.handoff, outcome.stopReason);
      break;
    case "handedBack": // the user cancelled the turn before it went out: back into the composer
      composer.restore(outcome.draft);
      break;
  }
} catch (error) {
  if (isSteeringError(error, "outcomeUnknown")) composer.restore(error.draft); // final, never resent: offer the words back, marked "may not have arrived"
  else if (isSteeringError(error)) composer.restore(error.draft); // "unavailable", "imagesUnsupported", "host", ...
  else throw error;
}
