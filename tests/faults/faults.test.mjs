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
  console.log("\nfault                                   outcome              draft back  ms to outcome  bound ms");
  for (const r of rows) console.log(`${r.fault.padEnd(40)}${r.outcome.padEnd(21)}${r.draftBack.padEnd(12)}${String(r.ms).padEnd(15)}${r.bound}`);
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
  c.rpc.close();
  acp.free();
  return { outcome, draftBack, ms, steers };
}

const SLACK = 1_000;

test("disconnect during the decision", async () => {
  const r = await codexRun("disconnect during inspect", "drop=codexhost/thread/steering/inspect", {}, 10_000);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["transport", "yes", 0]);
});

test("disconnect during the steer", async () => {
  const r = await codexRun("disconnect during turn/steer", "drop=turn/steer", {}, 30_000);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["transport", "yes", 1]);
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
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["timeout", "yes", 1]);
  assert.ok(r.ms < 800 + SLACK, `${r.ms} ms`);
});

test("a 10 MiB answer", async () => {
  const r = await codexRun("10 MiB inspect answer", "huge=codexhost/thread/steering/inspect", {}, 10_000);
  assert.deepEqual([r.outcome, r.steers], ["delivered activeTurn", 1]);
});

test("ACP: disconnect during the steer is ambiguous and never resent", async () => {
  const r = await acpRun("ACP disconnect during _session/steering", "drop=_session/steering", 800);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["ambiguous", "yes", 1]);
});

test("ACP: a hung steer is ambiguous after its bound", async () => {
  const r = await acpRun("ACP steer never answered, bound 800 ms", "hang=_session/steering", 800);
  assert.deepEqual([r.outcome, r.draftBack, r.steers], ["ambiguous", "yes", 1]);
  assert.ok(r.ms < 800 + SLACK, `${r.ms} ms`);
});
