// codex-acp 2.6.0 on ACP v1 (`_session/steering`, no prompt queueing) driven
// through the package's AcpSteering, behind the mock Responses API: the
// scenarios of steering-v1.mjs.
import { describe } from "node:test";
import { startCodexAcpSteering } from "./agents.mjs";
import { acpAgentSuite } from "./acp-client.mjs";
import { steeringV1Scenarios, stopScenario } from "./steering-v1.mjs";

const AGENT = "codex-acp 2.6.0 v1";

describe(AGENT, () => {
  const suite = acpAgentSuite(startCodexAcpSteering, { version: 1 });
  const env = () => suite;
  steeringV1Scenarios(AGENT, env);
  stopScenario(AGENT, env);
});
