#!/usr/bin/env node
// The playground against a real agent: serves www/ and pkg/, starts the mock
// model, and bridges each WebSocket /rpc connection of the page to a fresh
// agent process over stdio (ws 8.18.3 from target/agents-cache).
//   AGENT=codex|codexhost|codex-acp|claude-acp|codex-acp-steering|claude-acp-steering|codex-acp-v2 \
//     node scripts/agents-bridge.mjs [--port N]
// codex-acp and claude-acp are the agents without steering and with the
// handoff only; the -steering ones ship `_session/steering` (ACP v1), and
// codex-acp-v2 is codex-acp 2.6.0 spoken to in ACP v2 by the page.
// The page speaks the reference host's notification names; real agents'
// notifications are forwarded as they are and, where the page has its own
// name for the same event, also in the page's words (turn/started with its
// input, tool calls, steered user messages, turn/completed; for ACP a
// `turn_end` update after each v1 prompt's answer; a v2 turn ends with the
// agent's own idle `state_update`). Every agent process is ended
// by its process-group id when its socket closes or the bridge exits; a page
// that names a `world` keeps its agent across its own reloads (as a real
// host outlives a renderer), until the bridge exits.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join, normalize, extname, sep } from "node:path";
import { tmpdir } from "node:os";
import { startMockModel } from "../tests/agents/mock-model.mjs";
import {
  startCodex, startCodexhost, startCodexAcp, startClaudeAcp, startCodexAcpSteering, startClaudeAcpSteering, allowOnce, repo, cache, installed, removeHomes,
} from "../tests/agents/agents.mjs";

// `threads`: the page's thread ids and the model each real thread starts with
// (codexhost: a Codex thread and a claude-code harness thread; stock Codex: one
// thread that whichever page thread is picked maps to).
const AGENTS = {
  codex: { start: startCodex, mode: "stock&thread=thr-codex", threads: { "thr-codex": undefined } },
  codexhost: { start: startCodexhost, mode: "codexhost-old&thread=thr-external", threads: { "thr-codex": "mock-model", "thr-external": "codexhost/claude-code-native" } },
  "codex-acp": { start: startCodexAcp, mode: "acp-steering" },
  "claude-acp": { start: startClaudeAcp, mode: "acp-handoff" },
  "codex-acp-steering": { start: startCodexAcpSteering, mode: "acp-steering" },
  "claude-acp-steering": { start: (port, handlers) => startClaudeAcpSteering(port, handlers, "v1"), mode: "acp-steering" },
  "codex-acp-v2": { start: startCodexAcpSteering, mode: "acp-v2", acpVersion: 2 },
};
const name = process.env.AGENT ?? "claude-acp";
const agent = AGENTS[name];
if (!agent) throw new Error(`AGENT must be one of ${Object.keys(AGENTS).join(", ")}`);
if (!installed()) throw new Error(`agents missing in ${cache}: run bash scripts/agents-install.sh`);
const isAcp = !agent.threads;
const { WebSocketServer } = createRequire(join(cache, "package.json"))("ws");
const portArg = process.argv.indexOf("--port");
const port = portArg > 0 ? Number(process.argv[portArg + 1]) : 8080;

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm", ".json": "application/json", ".ts": "text/plain" };
async function serveFile(req, res) {
  const url = new URL(req.url, "http://x");
  const [root, rest] = url.pathname.startsWith("/pkg/") ? [join(repo, "pkg"), url.pathname.slice(5)] : [join(repo, "www"), url.pathname.slice(1) || "index.html"];
  const file = normalize(join(root, rest));
  if (!file.startsWith(root + sep)) return res.writeHead(403).end();
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  } catch {
    res.writeHead(404).end();
  }
}

const model = await startMockModel({ toolSeconds: 8, toolWords: ["[tool]", "run the tests"] });
const live = new Set();

/** The agents kept for named worlds (a page that reloads finds its agent again). */
const worlds = new Map();

/** One page connection <-> one agent process (its world's, when it names one). */
async function bridge(socket, request) {
  const worldName = new URL(request.url, "http://x").searchParams.get("world");
  const world = (worldName && worlds.get(worldName)) || startWorld();
  if (worldName) worlds.set(worldName, world);
  world.socket = socket;
  socket.on("close", () => {
    if (world.socket === socket) world.socket = undefined;
    if (!worldName) stop(world.rpc);
  });
  // Answers go to the socket that asked (gone after a reload: dropped, as a lost answer is).
  const send = (msg) => socket.readyState === 1 && socket.send(JSON.stringify({ jsonrpc: "2.0", ...msg }));

  socket.on("message", (data) => world.receive(data, send));
}

/** A new agent process, with what the bridge keeps of it. */
function startWorld() {
  const world = { socket: undefined };
  // Notifications go to the world's current page.
  const send = (msg) => world.socket?.readyState === 1 && world.socket.send(JSON.stringify({ jsonrpc: "2.0", ...msg }));
  const state = { threads: new Map(), lastInput: [], turnText: new Map() }; // page thread id -> real thread id
  const swap = (value, pairs) => (pairs.length ? JSON.parse(pairs.reduce((json, [from, to]) => json.replaceAll(from, to), JSON.stringify(value))) : value);
  const toPage = (value) => swap(value, [...state.threads].map(([page, real]) => [real, page]));
  const toAgent = (value) => swap(value, [...state.threads]);
  const rpc = agent.start(model.port, { onRequest: allowOnce, onNotification: (method, params) => notify(method, toPage(params)) });
  live.add(rpc);
  const ready = isAcp ? Promise.resolve() : codexSetup();
  Object.assign(world, { rpc, state, ready, toPage, toAgent, receive });
  return world;

  async function codexSetup() {
    await rpc.request("initialize", { clientInfo: { name: "playground-bridge", title: "playground bridge", version: "0" }, capabilities: { experimentalApi: true } });
    rpc.notify("initialized", {});
    for (const [page, model] of Object.entries(agent.threads)) {
      const { thread } = await rpc.request("thread/start", { cwd: tmpdir(), approvalPolicy: "never", sandbox: "danger-full-access", model }, { timeoutMs: 60_000 });
      state.threads.set(page, thread.id);
    }
  }

  function notify(method, params) {
    const { threadId, turnId, item } = params;
    // Same name, more fields: sent once, with the fields the page reads added.
    if (!isAcp && method === "turn/started") {
      state.turnText.set(params.turn.id, JSON.stringify(state.lastInput));
      return send({ method, params: { ...params, input: state.lastInput } });
    }
    if (!isAcp && method === "turn/completed") return send({ method, params: { ...params, turnId: params.turn.id, status: params.turn.status } });
    send({ method, params });
    if (isAcp) return;
    if (method === "item/started" && item?.type === "commandExecution") {
      send({ method: "item/toolCall/started", params: { threadId, turnId, callId: item.id, title: item.command } });
    } else if (method === "item/completed" && item?.type === "commandExecution") {
      send({ method: "item/toolCall/completed", params: { threadId, turnId, callId: item.id } });
    } else if (method === "item/completed" && item?.type === "userMessage" && JSON.stringify(item.content.map(({ type, text }) => ({ type, text }))) !== state.turnText.get(turnId)) {
      send({ method: "item/userMessage", params: { threadId, turnId, text: item.content.map((c) => c.text ?? "").join("") } });
    }
  }

  async function receive(data, answer) {
    let msg;
    try { msg = JSON.parse(String(data)); } catch { return; }
    await ready.catch(() => {});
    let params = msg.params ?? {};
    const page = params.threadId;
    if (state.threads.size === 1 && typeof page === "string" && page.startsWith("thr-") && !state.threads.has(page)) state.threads = new Map([[page, [...state.threads.values()][0]]]);
    params = toAgent(params);
    if (msg.method === "session/new") params = { ...params, cwd: tmpdir() };
    // A steer of an external thread starts a new turn: its turn/started carries the steer's input.
    if (msg.method === "turn/start" || msg.method === "turn/steer") state.lastInput = (params.input ?? []).map(({ type, text }) => ({ type, text }));
    if (msg.id === undefined) return rpc.notify(msg.method, params);
    try {
      const result = toPage(await rpc.request(msg.method, params, { timeoutMs: 600_000 }));
      answer({ id: msg.id, result });
      if (msg.method === "session/prompt" && agent.acpVersion !== 2) answer({ method: "session/update", params: { sessionId: params.sessionId, update: { sessionUpdate: "turn_end", stopReason: result?.stopReason } } });
    } catch (e) {
      answer({ id: msg.id, error: e?.code !== undefined ? { code: e.code, message: e.message, data: e.data } : { code: -32603, message: String(e?.message ?? e) } });
    }
  }
}

async function stop(rpc) {
  live.delete(rpc);
  await rpc.stop();
}

const server = createServer((req, res) => serveFile(req, res));
const wss = new WebSocketServer({ server, path: "/rpc" });
wss.on("connection", (socket, request) => bridge(socket, request).catch((e) => { console.error(e); socket.close(); }));
server.listen(port, "127.0.0.1", () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  console.log(`agent: ${name} (mock model on 127.0.0.1:${model.port})`);
  console.log(`playground: ${base}/?mode=${agent.mode}&autoconnect=1`);
});

async function shutdown() {
  await Promise.all([...live].map(stop));
  removeHomes();
  await model.close();
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
