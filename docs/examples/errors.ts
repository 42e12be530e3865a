import { CodexhostSteering, SteeringError, isSteeringError } from "renderer-steering";

const steering = new CodexhostSteering({ request: (method, params, options) => rpc.request(method, params, options) });

try {
  await steering.steer({ threadId, expectedTurnId, input: [{ type: "text", text: "use pnpm instead" }] });
} catch (error) {
  if (isSteeringError(error, "outcomeUnknown")) {
    ui.offerRetry(error.clientUserMessageId); // narrowed: error.kind is "outcomeUnknown"
  } else if (error instanceof SteeringError) {
    ui.showError(error.kind, error.message); // error.code and error.data: the host's, when it answered with an error
    composer.restore(error.draft); // the very array passed in
  } else {
    throw error; // not the package's: a bug elsewhere
  }
}
