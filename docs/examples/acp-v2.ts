import { AcpSteering } from "renderer-steering";
import type { InitializeAnswer } from "renderer-steering";

// One engine for both versions: the version is the initialize answer's protocolVersion.
const init = (await conn.request("initialize", { protocolVersion: 2, capabilities: {}, info: { name: "my-app", version: "1.0.0" } })) as InitializeAnswer;
const acp = new AcpSteering({ request: (method, params) => conn.request(method, params), initialize: init });

// v2: the turn's state is a session update (state_update running | requires_action | idle); feed every update.
conn.onNotification("session/update", ({ sessionId, update }) => acp.update(sessionId, update));

// The app's own prompt answers { messageId } at insertion: tell the engine, so its echo is not taken for a steer's.
const token = acp.promptSent(sessionId);
const inserted = await conn.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "run the tests" }] });
acp.promptAnswered(sessionId, inserted as object, token);

// While the agent reports running, a send steers (_session/steering) and resolves on the steer's echo.
const outcome = await acp.send(sessionId, [{ type: "text", text: "use pnpm instead" }]);
log(outcome.kind, outcome.kind === "injected" ? outcome.delivered : undefined);
