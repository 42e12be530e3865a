import { AcpSteering, isSteeringError } from "renderer-steering";

const acp = new AcpSteering({ request: (method, params) => conn.request(method, params), initialize: initializeAnswer });

try {
  const outcome = await acp.send(sessionId, [{ type: "text", text: "use pnpm instead" }], {
    unconfirmed: (path) => ui.markUnconfirmed(path), // it may have reached the agent; no answer came
  });
  switch (outcome.kind) {
    case "injected": // session/inject accepted it (delivered when its user_message echo arrives), or _session/steering joined the turn
      if (outcome.messageId !== undefined) {
        const replaced = await acp.replace(sessionId, outcome.messageId, [{ type: "text", text: "use bun" }]); // pending.replace only
        const { draft } = await acp.revoke(sessionId, replaced.messageId); // not delivered yet: take it back
        composer.restore(draft);
      }
      break;
    case "prompted": // it went out as a session/prompt (queued until the turn ended, or promptRequired)
      log(outcome.stopReason, outcome.superseded);
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
  if (isSteeringError(error, "outcomeUnknown")) ui.markUnconfirmed(); // final: never resent
  else if (isSteeringError(error)) composer.restore(error.draft); // "unavailable", "imagesUnsupported", "host", ...
  else throw error;
}
