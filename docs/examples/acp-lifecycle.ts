import { AcpSteering } from "renderer-steering";
import type { InitializeAnswer } from "renderer-steering";

const acp = new AcpSteering({
  request: (method, params) => conn.request(method, params),
  // The answer itself (applied at once) or a promise of it (sends wait for it, bounded by requestMs):
  initialize: conn.request("initialize", { protocolVersion: 1, clientCapabilities: {} }) as Promise<InitializeAnswer>,
  allowPromptHandoff: false, // the concurrent-prompt handoff is a kill-switch: off unless you turn it on
  timeouts: { requestMs: 10_000 },
});

// The composer: mode, hint, queued messages (chips), pending injects.
acp.onChange((sessionId, state) => composer.render(sessionId, state));
const { mode, hint } = acp.inputMode(sessionId);
log(mode, hint, acp.queued(sessionId).length);

// What the app feeds: the engine owns no connection, so it learns the session's life from the app.
conn.onNotification("session/update", ({ sessionId, update }) => acp.update(sessionId, update));
const token = acp.promptSent(sessionId); // the app sent its own session/prompt: a turn runs
const { superseded } = acp.promptAnswered(sessionId, { stopReason: "end_turn" }, token); // that prompt answered
log(superseded); // true: a folded handoff answered for the turn; this answer is not the turn's
conn.notify("session/cancel", { sessionId });
acp.cancelSent(sessionId); // the user pressed Stop: messages still waiting come back now (handedBack)
acp.sessionIdle(sessionId); // v1: a turn the agent started itself ended (v1 has no turn-end update; on v2 its idle state_update ends it)
acp.sessionReplaced(sessionId); // session/new or session/load replaced it
acp.sessionClosed(sessionId);
acp.connectionClosed(); // pending messages are handed back; the composer says "unavailable"
acp.initialized(initializeAnswer); // a new connection's initialize answer opens input again
acp.dispose();
