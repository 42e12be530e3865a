import { init, AcpSteering, isSteeringError } from "renderer-steering";
import type { InitializeAnswer } from "renderer-steering";

await init();

const acp = new AcpSteering({
  request: (method, params) => conn.request(method, params),
  initialize: conn.request("initialize", { protocolVersion: 1, clientCapabilities: {} }) as Promise<InitializeAnswer>,
});
acp.onChange((sessionId, state) => composer.render(sessionId, state)); // "direct" | "queue" | "idle" | "unavailable"
conn.onNotification("session/update", ({ sessionId, update }) => acp.update(sessionId, update));

// The app's own prompts: promptSent, then promptAnswered with its token, so the engine knows when a turn runs
// (on ACP v2 the turn's state comes in the session updates instead: see the ACP guide).
async function prompt(text: string): Promise<void> {
  const token = acp.promptSent(sessionId);
  const answer = await conn.request("session/prompt", { sessionId, prompt: [{ type: "text", text }] }).catch((error: unknown) => {
    acp.promptAnswered(sessionId, { error }, token); // ended without a stop reason: proves nothing about a landing steer
    throw error;
  });
  const { superseded } = acp.promptAnswered(sessionId, answer as object, token); // true: a folded handoff, not the turn's answer
  if (!superseded) ui.showTurnEnd(answer);
}

// A message typed while the turn runs:
try {
  const outcome = await acp.send(sessionId, [{ type: "text", text: "use pnpm instead" }], {
    accepted: () => ui.showOptimistic("activeTurn"), // the agent took it as pending input; send resolves once it reached the turn
  });
  log(outcome.kind); // "injected" | "prompted" | "startedNewTurn" | "handedOff" | "handedBack"
} catch (error) {
  if (!isSteeringError(error)) throw error;
  if (error.kind === "outcomeUnknown") ui.markUnconfirmed(); // it may have arrived (no answer, or its turn was cancelled first): never resent
  composer.restore(error.draft); // the user's words, to send again only if they choose
}
