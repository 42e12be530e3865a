// Scripted good hosts (codexhost, ACP, a desktop request manager of the shape
// the spec describes), a good draft, the checks that an instance still
// steers against them, and `freeAll`, which disposes and frees instances.
// Runs in Node and in a Chromium page alike.
import { describe, isSteeringError, safeGet } from "./values.mjs";
import { realClearTimeout, realSetTimeout, sleep, tick } from "./timer-watch.mjs";

/** A good draft: one text item. */
export const TEXT = () => [{ type: "text", text: "use pnpm" }];

export const INSPECT = "codexhost/thread/steering/inspect";

/** A good codexhost host: inspect says activeTurn, turn/steer answers its turn. */
export function goodCodexhost(method, params) {
  if (method === INSPECT) return Promise.resolve({ delivery: "activeTurn" });
  if (method === "turn/steer") return Promise.resolve({ turnId: safeGet(params, "expectedTurnId") ?? "turn-1" });
  return Promise.reject({ code: -32601, message: "Method not found" });
}

/** A good ACP agent with the steering extension. */
export const GOOD_INIT = { _meta: { steering: { supported: true } } };
export const INJECT_INIT = { agentCapabilities: { session: { inject: { modes: ["steer"], pending: { replace: true } } } } };
let injectIds = 0;
export function goodAcp(method) {
  if (method === "_session/steering") return Promise.resolve({ outcome: "injected" });
  if (method === "session/inject") return Promise.resolve({ messageId: `m${++injectIds}` });
  if (method === "session/prompt") return Promise.resolve({ stopReason: "end_turn" });
  return Promise.resolve({});
}

/**
 * An app whose agent turns end: 30 ms after each `_session/steering`
 * request it reports the turn's prompt answered (`end_turn`) and starts the
 * next turn. A steer the agent accepted lands on its turn's end, so every
 * send settles within its bound; the session keeps a running turn for the
 * next steer. `bind(acp)` names the instance once it is made.
 */
export function turnsEnd(request) {
  const app = { acp: null };
  app.bind = (acp) => (app.acp = acp);
  app.request = (method, params, options) => {
    if (method === "_session/steering") {
      const sessionId = params.sessionId;
      realSetTimeout(() => {
        try {
          app.acp?.promptAnswered(sessionId, { stopReason: "end_turn" });
          app.acp?.promptSent(sessionId);
        } catch {
          // disposed or freed meanwhile: no turn to end
        }
      }, 30);
    }
    return request(method, params, options);
  };
  return app;
}

/** A transport whose behaviour can be switched (hostile during a class, good after). */
export function switchable(impl) {
  const sw = { impl, calls: 0 };
  sw.request = (method, params, options) => {
    sw.calls++;
    return sw.impl(method, params, options);
  };
  return sw;
}

export function freeAll(list) {
  for (const x of list.splice(0)) {
    try { x.dispose?.(); } catch { /* checked elsewhere */ }
    try { x.free?.(); } catch { /* checked elsewhere */ }
  }
}

async function capped(p, ms) {
  let timer;
  try {
    return await Promise.race([p, new Promise((_, reject) => { timer = realSetTimeout(() => reject(new Error(`not settled within ${ms} ms`)), ms); })]);
  } finally {
    realClearTimeout(timer);
  }
}

let goodIds = 0;
/** Does this codexhost instance still steer and decide correctly? null or what went wrong. */
export async function codexhostSteers(steering, sw) {
  sw.impl = goodCodexhost;
  const threadId = `good-${++goodIds}`;
  try {
    const shown = [];
    const r = await capped(steering.steer({ threadId, expectedTurnId: "turn-1", input: [{ type: "text", text: "use pnpm" }] }, { present: (d) => shown.push(d) }), 3000);
    if (r.delivery !== "activeTurn" || r.turnId !== "turn-1" || shown.join() !== "activeTurn") return `steer gave ${JSON.stringify({ d: r.delivery, t: r.turnId, shown })}`;
    const d = await capped(steering.decide({ threadId, text: "and again" }), 3000);
    if (d.delivery !== "activeTurn") return `decide gave ${d.delivery}`;
    const input = [{ type: "image", url: "x" }];
    const e = await capped(steering.steer({ threadId, expectedTurnId: "turn-1", input }).then(() => null, (err) => err), 3000);
    if (!isSteeringError(e) || e.kind !== "invalidInput" || e.draft !== input) return `a refused steer gave ${describe(e)}`;
    return null;
  } catch (e) {
    return `steer failed: ${describe(e)} (${safeGet(e, "kind") ?? ""})`;
  }
}

/** Does this ACP instance still steer? */
export async function acpSteers(acp, sw) {
  sw.impl = goodAcp;
  const sessionId = `good-${++goodIds}`;
  try {
    acp.onChange(null);
    acp.initialized(GOOD_INIT);
    await tick();
    acp.promptSent(sessionId);
    const sending = acp.send(sessionId, [{ type: "text", text: "use pnpm" }]);
    // Accepted as pending input, the steer is delivered when its turn ends.
    await sleep(20);
    acp.promptAnswered(sessionId, { stopReason: "end_turn" });
    const out = await capped(sending, 3000);
    if (out.kind !== "injected") return `send gave ${out.kind}`;
    acp.sessionClosed(sessionId);
    return null;
  } catch (e) {
    return `send failed: ${describe(e)} (${safeGet(e, "kind") ?? ""})`;
  }
}

// ---- a desktop request manager of the shape the spec describes ---------------

export const PAUSE_REASON = "Interrupted before the steer was accepted.";

export class Manager {
  constructor(send = goodCodexhost) {
    this.send = send;
    this.sent = [];
    this.coordinator = {
      options: { submissionHost: { getActiveTurnId: () => "turn-1", hasPendingTurnStart: () => false } },
      loadMessages: async () => undefined,
      readMessages: () => [],
      mutate: async () => undefined,
    };
  }
  sendRequest(method, params, options) {
    this.sent.push({ method, params });
    return this.send(method, params, options);
  }
  steerTurn(threadId, input, restoreMessage, serviceTier, attachments, clientUserMessageId) {
    return this.sendRequest("turn/steer", { threadId, expectedTurnId: "turn-1", input, clientUserMessageId });
  }
  startTurn(threadId, submission) {
    return this.sendRequest("turn/start", submission.request);
  }
  getTurnCoordinator() {
    return this.coordinator;
  }
  getStreamRole() {
    return { role: "owner" };
  }
}

export function restoreMessage() {
  return { id: `restore-${++goodIds}`, context: { collaborationMode: "pair", commentAttachments: [] }, cwd: "/repo" };
}

/** Does a hook on this manager still steer (inspect, then the desktop's turn/steer tagged activeTurn)? */
export async function desktopSteers(api, manager) {
  manager.send = goodCodexhost;
  manager.sent.length = 0;
  try {
    const threadId = `good-${++goodIds}`;
    const r = await capped(manager.steerTurn(threadId, [{ type: "text", text: "use pnpm" }], restoreMessage(), "fast"), 3000);
    const methods = manager.sent.map((s) => s.method).join(",");
    if (methods !== `${INSPECT},turn/steer`) return `requests were ${methods}`;
    if (manager.sent[1].params.codexhostSteerDelivery !== "activeTurn") return "turn/steer not tagged activeTurn";
    if (r?.turnId !== "turn-1") return `steerTurn gave ${describe(r)}`;
    return null;
  } catch (e) {
    return `steerTurn failed: ${describe(e)}`;
  }
}
