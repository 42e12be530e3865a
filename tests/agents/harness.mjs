// Shared pieces of the real-agents layer: the packed package, time caps, the
// table, and an ACP "app" that owns its prompts and feeds the package.
import assert from "node:assert/strict";
import { packAndInstall } from "../node/pack.mjs";

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let api;
/** The package as a user gets it: `npm pack`, installed into an empty project. */
export async function pkg() {
  if (!api) {
    api = await import(packAndInstall().entry);
    await api.init();
  }
  return api;
}

/** `promise`, or a rejection naming the step once `ms` passed. */
export function within(ms, promise, step) {
  let timer;
  const cap = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`step "${step}" exceeded ${ms} ms`)), ms); });
  return Promise.race([promise, cap]).finally(() => clearTimeout(timer));
}

/** Polls `pred` every 50 ms, for at most `ms`. */
export async function waitFor(pred, step, ms = 20_000) {
  const start = Date.now();
  while (!pred()) {
    if (Date.now() - start > ms) throw new Error(`step "${step}" not reached within ${ms} ms`);
    await sleep(50);
  }
}

/** Settles to `{ ok, value }` / `{ ok: false, error }` so a row is recorded before asserting. */
export const settle = (p) => p.then((value) => ({ ok: true, value }), (error) => ({ ok: false, error }));

export const rows = [];
/** One table row: agent, scenario, path taken, round trips, outcome, ms, model saw the message. */
export function record(row) {
  rows.push(row);
}

export function printTable() {
  const cols = [["agent", 21], ["scenario", 44], ["path", 20], ["round trips", 12], ["outcome", 40], ["ms", 7], ["model saw", 9]];
  const line = (cells) => cells.map((c, i) => String(c ?? "-").padEnd(cols[i][1])).join(" ").trimEnd();
  console.log("\n" + line(cols.map((c) => c[0])));
  for (const r of rows) console.log(line([r.agent, r.scenario, r.path, r.roundTrips, r.outcome, r.ms, r.saw]));
}

/** A marker no model request carries unless this message reached the model. */
export const marker = (name) => `STEER-${name}-${Math.random().toString(36).slice(2, 8)}`;
export const text = (t) => [{ type: "text", text: t }];

/**
 * An ACP client the way an app is: it sends its own prompts over `rpc` and
 * tells `steering` (an AcpSteering of the package) about them; every request
 * the package makes goes through `rpc` too and is counted.
 */
export function acpApp(rpc, steering) {
  const app = {
    steering,
    packageSent: [],
    answers: [],
    async prompt(sessionId, words) {
      const token = steering.promptSent(sessionId);
      let answer;
      try {
        answer = await rpc.request("session/prompt", { sessionId, prompt: text(words) }, { timeoutMs: 120_000 });
      } catch (error) {
        steering.promptAnswered(sessionId, { error }, token); // no stop reason: proves nothing about a steer landing in it
        throw error;
      }
      const at = Date.now();
      const verdict = steering.promptAnswered(sessionId, answer, token);
      app.answers.push({ answer, verdict, at });
      return { answer, verdict, at };
    },
  };
  return app;
}

/**
 * `send` with hooks that record what the app is told: `accepted` and
 * `unconfirmed` calls (with their paths and times), the settled result, the
 * time it settled and how long it took.
 */
export function sendWatched(steering, sessionId, content, ms = 60_000) {
  const told = { accepted: [], unconfirmed: [], acceptedAt: undefined };
  const hooks = {
    accepted: (path) => { told.accepted.push(path); told.acceptedAt ??= Date.now(); },
    unconfirmed: (path) => told.unconfirmed.push(path),
  };
  const start = Date.now();
  const promise = settle(within(ms, steering.send(sessionId, content, hooks), "send"))
    .then((r) => ({ ...r, told, start, at: Date.now(), ms: Date.now() - start }));
  return { told, start, result: promise };
}

/** What a settled send says, for the table. */
export function outcomeOf(s) {
  if (!s.ok) return [s.error?.kind ?? String(s.error).slice(0, 30), s.error?.code].filter((x) => x !== undefined).join(" ");
  const { kind, delivered, stopReason, messageId } = s.value;
  return [kind, delivered ?? stopReason, messageId && `messageId ${messageId.slice(0, 8)}`].filter(Boolean).join(" ");
}

/** The `request` function handed to the package: through `rpc`, recorded in `log`. */
export function packageRequest(rpc, log, timeoutMs = 120_000) {
  return (method, params, options) => {
    log.push({ method, params, at: Date.now() });
    return rpc.request(method, params, { timeoutMs: (options?.timeoutMs ?? timeoutMs) + 5_000 });
  };
}

/**
 * A steer the host refused with a JSON-RPC error: kind "host" with its code
 * (and words), the user's draft handed back, and the model never saw it.
 */
export function assertRefused(s, { code, message, input, saw }) {
  assert.equal(s.ok, false);
  assert.equal(s.error.kind, "host");
  assert.equal(s.error.code, code);
  if (message !== undefined) assert.match(s.error.message, message);
  assert.deepEqual(s.error.draft, input);
  assert.equal(saw, 0, "the model never saw a refused message");
}

/**
 * A steer the agent accepted and then dropped (its turn was cancelled first):
 * not reported delivered but `outcomeUnknown` with the draft, `accepted`
 * then `unconfirmed`, nothing resent, and the model saw it at most once.
 */
export function assertDropped(s, told, log, words, model) {
  assert.equal(s.ok, false, "not reported delivered");
  assert.equal(s.error.kind, "outcomeUnknown", s.error.message);
  assert.deepEqual(s.error.draft, text(words), "the draft comes back");
  assert.deepEqual(told.accepted, ["steeringExtension"]);
  assert.deepEqual(told.unconfirmed, ["steeringExtension"]);
  assert.deepEqual(log.map((l) => l.method), ["_session/steering"], "nothing resent");
  assert.ok(model.saw(words) <= 1, `the model saw it ${model.saw(words)} times`);
}
