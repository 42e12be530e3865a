import { CodexhostSteering, isSteeringError } from "renderer-steering";
import type { SteerResult, TextItem } from "renderer-steering";

const steering = new CodexhostSteering({ request: (method, params, options) => rpc.request(method, params, options) });

// Retry an unconfirmed steer with the same clientUserMessageId: one id is one delivery.
async function steerWithRetry(threadId: string, expectedTurnId: string, input: TextItem[]): Promise<SteerResult | undefined> {
  let clientUserMessageId: string | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await steering.steer({ threadId, expectedTurnId, input, clientUserMessageId }, { unconfirmed: () => ui.markUnconfirmed() });
    } catch (error) {
      if (!isSteeringError(error, "outcomeUnknown")) throw error;
      clientUserMessageId = error.clientUserMessageId; // the same id: never delivered twice
    }
  }
  return undefined; // still unconfirmed: leave it shown as "not confirmed"
}

const result = await steerWithRetry(threadId, "turn-7", [{ type: "text", text: "use pnpm instead" }]);
log(result?.trace.path); // "alreadyDelivered" / "verifiedDelivered" when a retry found the first attempt
