// Fault runs against the real reference host over a real WebSocket (Node's
// WebSocket, --experimental-websocket): disconnects, slow, duplicate, stray,
// garbled and 10 MiB answers, and hangs. Prints a table; asserts nothing is
// lost, nothing is sent twice, and nothing outlives its bound.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { startHost, repo } from "../playground/harness.mjs";
import { RpcSocket } from "../../www/rpc.js";

let host;
let api;
const rows = [];
before(async () => {
  host = await startHost();
  api = await import(join(repo, "pkg", "node.js"));
  await api.init();
});
after(() => {
  host?.stop();
  console.log("\nfault                                        outcome                                    draft back  ms to outcome  bound ms  applied");
  for (const r of rows) console.log(`${r.fault.padEnd(45)}${r.outcome.padEnd(43)}${r.draftBack.padEnd(12)}${String(r.ms).padEnd(15)}${String(r.bound).padEnd(10)}${r.applied ?? ""}`);
});

async function connect(query) {
  const wire = [];
  const notes = [];
  const waiters = [];
  const url = host.base.replace("http", "ws") + `/rpc?${query}`;
  const rpc = new RpcSocket(url, {
    onWire: (dir, text) => dir === "out" && wire.push(JSON.parse(text).method),
    onNotification: (method, params) => {
      notes.push(method);
      for (const w of waiters.splice(0)) w(method, params);
    },
  });
  await rpc.opened;
  const until = (pred) => new Promise((resolve) => {
    const check = (m, p) => (pred(m, p) ? resolve() : waiters.push(check));
    waiters.push(check);
  });
  return { rpc, wire, notes, until };
}

async function codexRun(fault, query, timeouts, bound) {
  const c = await connect(`mode=codexhost-new&${query}`);
  await c.rpc.request("turn/start", { threadId: "thr-external", input: [{ type: "text", text: "go" }] });
  await c.until((m, p) => m === "item/toolCall/started" || (m === "item/toolCall/progress" && p.percent > 0));
  const steering = new api.CodexhostSteering({ request: (m, p, o) => c.rpc.request(m, p, o), timeouts });
  const input = [{ type: "text", text: `keep me: ${fault}` }];
  const started = performance.now();
  let outcome;
  let draftBack = "n/a";
  try {
    const r = await steering.steer({ threadId: "thr-external", expectedTurnId: "turn-1", input });
    outcome = `delivered ${r.delivery}`;
  } catch (e) {
    outcome = e.kind;
    draftBack = e.draft === input ? "yes" : "NO";
  }
  const ms = Math.round(performance.now() - started);
  rows.push({ fault, outcome, draftBack, ms, bound });
  const steers = c.wire.filter((m) => m === "turn/steer").length;
  c.rpc.close();
  steering.free();
  return { outcome, draftBack, ms, steers };
}

async function acpRun(fault, query, bound) {
  const c = await connect(`mode=acp-steering&${query}`);
  const initialize = await c.rpc.request("initialize", { protocolVersion: 1 });
  const { sessionId } = await c.rpc.request("session/new", { cwd: "/", mcpServers: [] });
  const acp = new api.AcpSteering({ request: (m, p) => c.rpc.request(m, p), timeouts: { requestMs: 800 } });
  acp.initialized(initialize);
  acp.promptSent(sessionId);
  c.rpc.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] }).catch(() => {});
  await c.until((m, p) => m === "session/update" && p.update.sessionUpdate === "tool_call");
  const content = [{ type: "text", text: `keep me: ${fault}` }];
  const started = performance.now();
  let outcome;
  let draftBack = "n/a";
  try {
    outcome = (await acp.send(sessionId, content)).kind;
  } catch (e) {
    outcome = e.kind;
    draftBack = e.draft === content ? "yes" : "NO";
  }
  const ms = Math.round(performance.now() - started);
  rows.push({ fault, outcome, draftBack, ms, bound });
  const steers = c.wire.filter((m) => m === "_session/steering").length;
  const applied = c.rpc.socket.readyState === 1 ? (await c.rpc.request("debug/deliveries", { text: content[0].text })).count : undefined;
  c.rpc.close();
  acp.free();
  return { outcome, draftBack, ms, steers, applied };
}

const SLACK = 1_000;

test("disconnect during the decision", async () => {
  const r = await codexRun("disconnect during inspect", "drop=codexhost/thread/steering/inspect", {}, 10_000);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["transport", "yes", 0]);
});

test("disconnect during the steer: it may have arrived, so outcome unknown", async () => {
  const r = await codexRun("disconnect during turn/steer", "drop=turn/steer", {}, 30_000);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["outcomeUnknown", "yes", 1]);
});

test("answers slower than the decision bound", async () => {
  const r = await codexRun("answers 1.5 s late, bound 500 ms", "latency=1500", { decideMs: 500 }, 500);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["timeout", "yes", 0]);
  assert.ok(r.ms >= 450 && r.ms < 500 + SLACK, `${r.ms} ms`);
});

test("a request that never gets an answer", async () => {
  const r = await codexRun("inspect never answered, bound 700 ms", "hang=codexhost/thread/steering/inspect", { decideMs: 700 }, 700);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["timeout", "yes", 0]);
  assert.ok(r.ms < 700 + SLACK, `${r.ms} ms`);
});

test("two answers for one request id", async () => {
  const r = await codexRun("inspect answered twice", "dup=codexhost/thread/steering/inspect", {}, 10_000);
  assert.deepEqual([r.outcome, r.steers], ["delivered activeTurn", 1]);
});

test("an answer for an id nobody asked for", async () => {
  const r = await codexRun("stray answer for an unknown id", "unknownId=turn/steer", {}, 30_000);
  assert.deepEqual([r.outcome, r.steers], ["delivered activeTurn", 1]);
});

test("garbled JSON instead of the steer's answer", async () => {
  const r = await codexRun("garbled turn/steer answer, bound 800 ms", "garble=turn/steer", { steerMs: 800 }, 800);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["outcomeUnknown", "yes", 1]);
  assert.ok(r.ms < 800 + SLACK, `${r.ms} ms`);
});

test("a 10 MiB answer", async () => {
  const r = await codexRun("10 MiB inspect answer", "huge=codexhost/thread/steering/inspect", {}, 10_000);
  assert.deepEqual([r.outcome, r.steers], ["delivered activeTurn", 1]);
});

test("ACP: disconnect during the steer is outcome unknown and never resent", async () => {
  const r = await acpRun("ACP disconnect during _session/steering", "drop=_session/steering", 800);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["outcomeUnknown", "yes", 1]);
});

test("ACP: a hung steer is outcome unknown after its bound", async () => {
  const r = await acpRun("ACP steer never answered, bound 800 ms", "hang=_session/steering", 800);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["outcomeUnknown", "yes", 1]);
  assert.ok(r.ms < 800 + SLACK, `${r.ms} ms`);
});

/**
 * The host applies the steer, its answer is lost; the app retries with the
 * error's clientUserMessageId. The presentation is never retracted, the UI is
 * told "unconfirmed", and the host applies the message once.
 */
async function lostAnswerRun(fault, mode, bound) {
  const c = await connect(`mode=${mode}&lose=turn/steer`);
  const thread = mode === "stock" ? "thr-codex" : "thr-external";
  await c.rpc.request("turn/start", { threadId: thread, input: [{ type: "text", text: "go" }] });
  await c.until((m, p) => m === "item/toolCall/started" || (m === "item/toolCall/progress" && p.percent > 0));
  const steering = new api.CodexhostSteering({ request: (m, p, o) => c.rpc.request(m, p, o), timeouts: { steerMs: bound } });
  const input = [{ type: "text", text: `keep me: ${fault}` }];
  const seen = [];
  const hooks = { present: (d) => seen.push(`present ${d}`), retract: () => seen.push("retract"), unconfirmed: (d) => seen.push(`unconfirmed ${d}`) };
  const started = performance.now();
  const error = await steering.steer({ threadId: thread, expectedTurnId: "turn-1", input }, hooks).then(() => null, (e) => e);
  const ms = Math.round(performance.now() - started);
  assert.ok(error, "the lost answer is not a success");
  const retried = await steering.steer({ threadId: thread, expectedTurnId: "turn-1", input, clientUserMessageId: error.clientUserMessageId }, hooks);
  const { count } = await c.rpc.request("debug/deliveries", { clientUserMessageId: error.clientUserMessageId });
  const applied = count === 1 ? "applied once" : `applied ${count}x`;
  rows.push({ fault, outcome: `${error.kind}; retry ${retried.trace.path === "verifiedDelivered" ? "verified, not resent" : "resent, same id"}`, draftBack: error.draft === input ? "yes" : "NO", ms, bound, applied });
  const steers = c.wire.filter((m) => m === "turn/steer").length;
  c.rpc.close();
  steering.free();
  return { error, seen, count, steers, ms, retried };
}

test("the host applies the steer but the answer is lost: unconfirmed, retry applied once (host dedupes)", async () => {
  const r = await lostAnswerRun("steer applied, answer lost, retry (new host)", "codexhost-new", 800);
  assert.equal(r.error.kind, "outcomeUnknown");
  assert.equal(r.error.draft[0].text, "keep me: steer applied, answer lost, retry (new host)");
  assert.deepEqual(r.seen.slice(0, 2), ["present activeTurn", "unconfirmed activeTurn"]);
  assert.ok(!r.seen.includes("retract"), "a possibly delivered message is never retracted");
  assert.equal(r.count, 1);
  assert.equal(r.steers, 2, "the retry went out with the same id; the host deduplicated it");
  assert.ok(r.ms < 800 + SLACK, `${r.ms} ms`);
});

test("the same on a stock host (no dedupe): the retry reads the thread first and sends nothing", async () => {
  const r = await lostAnswerRun("steer applied, answer lost, retry (stock)", "stock", 800);
  assert.equal(r.error.kind, "outcomeUnknown");
  assert.ok(!r.seen.includes("retract"));
  assert.equal(r.retried.trace.path, "verifiedDelivered");
  assert.equal(r.steers, 1, "no second turn/steer");
  assert.equal(r.count, 1);
});

test("ACP: the agent applies the steer but the answer is lost: unknown, applied once, never resent", async () => {
  const r = await acpRun("ACP steer applied, answer lost", "lose=_session/steering", 800);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["outcomeUnknown", "yes", 1]);
  rows.at(-1).applied = r.applied === 1 ? "applied once" : `applied ${r.applied}x`;
  assert.equal(r.applied, 1);
});
