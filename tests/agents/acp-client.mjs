// One ACP agent process for a suite: initialize once, new sessions per
// scenario, a fresh AcpSteering (the package's) per scenario over the same
// connection, with `session/update` routed to the one in use.
import { allowOnce } from "./agents.mjs";
import { within, packageRequest, acpApp, sleep } from "./harness.mjs";

export async function connectAcp(start, model) {
  let current = null;
  const rpc = start(model.port, {
    onRequest: allowOnce,
    onNotification: (method, params) => method === "session/update" && current?.update(params.sessionId, params.update),
  });
  const init = await within(30_000, rpc.request("initialize", {
    protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
  }), "initialize");
  return {
    rpc,
    init,
    async session() {
      const { sessionId } = await within(30_000, rpc.request("session/new", { cwd: "/tmp", mcpServers: [] }), "session/new");
      return sessionId;
    },
    /** A fresh AcpSteering on this connection; `log` holds every request it made. */
    async steering(AcpSteering, allowPromptHandoff) {
      current?.dispose();
      const log = [];
      current = new AcpSteering({ request: packageRequest(rpc, log), initialize: init, allowPromptHandoff, timeouts: { requestMs: 10_000 } });
      await sleep(0);
      return { steering: current, log, app: acpApp(rpc, current) };
    },
    async stop() {
      current?.dispose();
      await rpc.stop();
    },
  };
}

/** True when a model request carries `words` anywhere in its conversation. */
export const asked = (words) => (r) => JSON.stringify(r.body.input ?? r.body.messages ?? "").includes(words);

/** Starts the app's own prompt and waits until the model is busy with it. */
export async function runningPrompt(model, app, sessionId, words) {
  const first = app.prompt(sessionId, words);
  await within(30_000, model.until(asked(words), words, 30_000), "model asked");
  await sleep(800);
  return { first };
}
