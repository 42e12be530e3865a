import { CodexhostSteering, isSteeringError } from "renderer-steering";

const steering = new CodexhostSteering({
  request: (method, params, options) => rpc.request(method, params, options), // result, or reject { code, message, data? }
  timeouts: { decideMs: 10_000, steerMs: 30_000 }, // optional; these are the defaults
  streamRole: (threadId) => desktop.roleOf(threadId), // optional: a "follower" window hands steers to the desktop
});

// Optional: ask how a message would go, without sending a steer.
const decision = await steering.decide({ threadId, text: "use pnpm" });
log(decision.delivery, decision.hostDeduplicates, decision.trace.probes.length);

try {
  const result = await steering.steer(
    {
      threadId,
      expectedTurnId, // the running turn; null once it ended (a plain turn/start follows)
      input: [{ type: "text", text: "use pnpm instead" }], // text items only
      clientUserMessageId: "msg-1", // optional; a fresh id is made when absent
      requestOptions: { timeoutMs: 20_000 }, // your client's own options, passed to request() with the steer
    },
    {
      present: (delivery) => ui.showOptimistic(delivery), // "official" | "activeTurn": inside the turn; "newTurn": a new turn
      retract: () => ui.removeOptimistic(), // a definite failure: take it off the screen
      reconcile: (from, to) => ui.moveOptimistic(from, to), // the host delivered differently: never show both
      unconfirmed: (delivery) => ui.markUnconfirmed(delivery), // no answer came: keep it, marked "not confirmed"
    },
  );
  log(result.turnId, result.delivery, result.presented, result.trace.path, result.trace.roundTripsBeforeSteer);
} catch (error) {
  if (!isSteeringError(error)) throw error;
  if (error.kind === "outcomeUnknown") ui.offerRetry(error.clientUserMessageId); // still shown
  else composer.restore(error.draft); // error.kind says why; error.code / error.data are the host's
}

rpc.onReconnect(() => steering.connectionReplaced()); // a new connection: what it lacks is asked again
steering.dispose(); // decisions and steers in progress end "disposed"; nothing more is sent
steering.free(); // or `using steering = new CodexhostSteering(...)`: disposes first, then releases the wasm memory
