// codex-acp 2.6.0 on ACP v1 (`_session/steering`, no prompt queueing) driven
// through the package's AcpSteering, behind the mock Responses API: the
// scenarios of steering-v1.mjs.
import { describe, before, after } from "node:test";
import { startMockModel } from "./mock-model.mjs";
import { startCodexAcpSteering } from "./agents.mjs";
import { connectAcp } from "./acp-client.mjs";
import { pkg } from "./harness.mjs";
import { steeringV1Scenarios, stopScenario } from "./steering-v1.mjs";

const AGENT = "codex-acp 2.6.0 v1";

describe(AGENT, () => {
  let model, agent, AcpSteering;
  before(async () => {
    ({ AcpSteering } = await pkg());
    model = await startMockModel({ toolSeconds: 5 });
    agent = await connectAcp(startCodexAcpSteering, model, { version: 1 });
  });
  after(async () => {
    await agent?.stop();
    await model?.close();
  });

  const env = () => ({ model, agent, AcpSteering });
  steeringV1Scenarios(AGENT, env);
  stopScenario(AGENT, env);
});
