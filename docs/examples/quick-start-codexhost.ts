import { init, CodexhostSteering, isSteeringError } from "renderer-steering";

await init(); // loads the WebAssembly module once; no argument, no bundler plugin

const steering = new CodexhostSteering({
  request: (method, params, options) => rpc.request(method, params, options), // your JSON-RPC transport
});

try {
  const { delivery } = await steering.steer(
    { threadId, expectedTurnId, input: [{ type: "text", text: "use pnpm instead" }] },
    {
      present: (delivery) => ui.showOptimistic(delivery), // shown at once: inside the turn, or as a new turn
      retract: () => ui.removeOptimistic(),
      unconfirmed: () => ui.markUnconfirmed(), // it may have arrived: keep it shown
    },
  );
  log(`steered (${delivery})`);
} catch (error) {
  if (!isSteeringError(error)) throw error;
  if (error.kind === "outcomeUnknown") ui.offerRetry(error.clientUserMessageId); // retry with this id only
  else composer.restore(error.draft); // not delivered: the user's words, untouched
}
