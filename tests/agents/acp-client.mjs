// One ACP agent process for a suite: initialize once (ACP v1 or v2), new
// sessions per scenario, a fresh AcpSteering (the package's) per scenario
// over the same connection, with every `session/update` routed to the one in
// use and kept in `updates` (the app's view of the transcript).
import { before, after } from "node:test";
import { allowOnce } from "./agents.mjs";
import { startMockModel } from "./mock-model.mjs";
import { pkg, within, waitFor, packageRequest, acpApp, sleep, text } from "./harness.mjs";

const CLIENT_INFO = { name: "renderer-steering-agents-test", version: "0" };

/**
 * `version`: the ACP version the client asks for (1 or 2); `protocol`: passed
 * to `start` (claude-agent-acp 0.101.0 pins its served version with it).
 */
export async function connectAcp(start, model, { version = 1, protocol } = {}) {
  let current = null;
  const updates = [];
  // A permission request waits `delayMs` on the client, as a user reading the dialog does.
  const permissions = { delayMs: 0, asked: [] };
  // Updates held back from the package (a notification that is late); null when none are.
  let held = null;
  const rpc = start(model.port, {
    async onRequest(method, params) {
      if (method === "session/request_permission") {
        permissions.asked.push({ at: Date.now(), params });
        await sleep(permissions.delayMs);
      }
      return allowOnce(method, params);
    },
    onNotification(method, params) {
      if (method !== "session/update") return;
      updates.push({ ...params, at: Date.now() });
      // Once one update is held, the ones after it wait too: the package sees them late but in order.
      if (held && (held.buffer.length > 0 || held.pred(params.update))) held.buffer.push(params);
      else current?.update(params.sessionId, params.update);
    },
  }, protocol);
  const hello = version === 2
    ? { protocolVersion: 2, capabilities: {}, info: CLIENT_INFO }
    : { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } };
  const init = await within(30_000, rpc.request("initialize", hello), "initialize");
  const connection = {
    rpc,
    init,
    version,
    updates,
    permissions,
    async session() {
      const { sessionId } = await within(60_000, rpc.request("session/new", { cwd: "/tmp", mcpServers: [] }, { timeoutMs: 60_000 }), "session/new");
      return sessionId;
    },
    /**
     * A fresh AcpSteering on this connection; `log` holds every request it
     * made. `requestMs` bounds each of them (10 s unless given).
     */
    async steering(AcpSteering, allowPromptHandoff = false, { requestMs = 10_000 } = {}) {
      current?.dispose();
      held = null;
      const log = [];
      current = new AcpSteering({ request: packageRequest(rpc, log), initialize: init, allowPromptHandoff, timeouts: { requestMs } });
      await sleep(0);
      const app = version === 2 ? v2App(rpc, current, updates) : acpApp(rpc, current);
      return { steering: current, log, app };
    },
    /**
     * From the first update matching `pred` on, updates reach the package
     * only when the returned `release()` is called. `count()` says how many wait.
     */
    holdUpdates(pred) {
      const hold = { pred, buffer: [] };
      held = hold;
      return {
        count: () => hold.buffer.length,
        release() {
          if (held === hold) held = null;
          for (const p of hold.buffer.splice(0)) current?.update(p.sessionId, p.update);
        },
      };
    },
    /** Whether the agent's answer to the package's `n`-th request of `method` since `mark` has arrived. */
    answered(method, mark, n = 1) {
      return rpc.wire.slice(mark).filter((w) => w.dir === "in" && w.method === method).length >= n;
    },
    async stop() {
      current?.dispose();
      await rpc.stop();
    },
  };
  return connection;
}

/**
 * The app on ACP v2: its `session/prompt` answers `{ messageId }` when the
 * message is inserted, and the turn's end is the idle `state_update` that
 * follows the message's echo. It tells the package about both.
 */
function v2App(rpc, steering, updates) {
  // Its prompt is the v1 app's (promptSent, the request, promptAnswered with
  // the answer): on v2 that answer is `{ messageId }`, at insertion.
  return Object.assign(acpApp(rpc, steering), {
    /** The idle `state_update` (with a stop reason) that ends the turn of message `messageId`. */
    async turnEnd(sessionId, messageId, ms = 60_000) {
      let end;
      await waitFor(() => {
        const echo = updates.findIndex((u) => u.sessionId === sessionId && u.update.messageId === messageId && u.update.sessionUpdate.startsWith("user_message"));
        end = echo >= 0 ? updates.slice(echo + 1).find((u) => u.sessionId === sessionId && isIdle(u.update)) : undefined;
        return end !== undefined;
      }, `idle after ${messageId}`, ms);
      return end;
    },
  });
}

/** A v2 `state_update` that ends a turn: idle, with a stop reason. */
export const isIdle = (u) => u.sessionUpdate === "state_update" && u.state === "idle" && typeof u.stopReason === "string";

/** The user-message echo (v2) whose text carries `words`: `{ messageId, at, index }`, or undefined. */
export function echoOf(updates, sessionId, words) {
  const index = updates.findIndex((u) => u.sessionId === sessionId && u.update.sessionUpdate?.startsWith("user_message") && JSON.stringify(u.update.content ?? "").includes(words));
  return index < 0 ? undefined : { messageId: updates[index].update.messageId, at: updates[index].at, index };
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

/**
 * The suite's agent, in the enclosing `describe`: before it, the package's
 * AcpSteering, a mock model whose tools take 5 s and the agent `start`
 * launches behind it (`connectAcp`'s `options`), in the returned
 * `{ AcpSteering, model, agent }` and handed to `take` as each exists; after
 * it, both stopped.
 */
export function acpAgentSuite(start, options, take = () => {}) {
  const parts = {};
  before(async () => {
    take(Object.assign(parts, { AcpSteering: (await pkg()).AcpSteering, model: await startMockModel({ toolSeconds: 5 }) }));
    take(Object.assign(parts, { agent: await connectAcp(start, parts.model, options) }));
  });
  after(async () => {
    await parts.agent?.stop();
    await parts.model?.close();
  });
  return parts;
}
