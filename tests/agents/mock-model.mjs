// A mock model on 127.0.0.1 for the real agents: the Responses API
// (`POST /v1/responses`, Codex and codex-acp) and the Messages API
// (`POST /v1/messages`, claude-agent-acp and codexhost's claude-code
// harness). What it answers is chosen by the text of the newest user input:
// "[tool]" -> a tool call that sleeps `toolSeconds`, "[ask]" -> a Bash call
// that writes a file (an agent in a mode that asks first asks the client's
// permission for it), "[slow]" -> a text streamed slowly, anything else -> "ok".
// A tool result (or steered text) after a tool call -> a short final text.
import { createServer } from "node:http";

const sse = (res, type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Occurrences of `marker` in a string. */
const occurrences = (text, marker) => text.split(marker).length - 1;

function textOf(value) {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(textOf).join("\n");
  if (value && typeof value === "object") return [value.text, value.content, value.output].map(textOf).join("\n");
  return "";
}

/** What the newest input asks for: "tool" | "ask" | "slow" | "final" | "quick". */
function wanted(last, toolWords) {
  if (!last) return "quick";
  if (last.type === "function_call_output") return "final";
  if (Array.isArray(last.content) && last.content.some((b) => b.type === "tool_result")) return "final";
  const text = textOf(last.content);
  if (toolWords.some((w) => text.includes(w))) return "tool";
  if (text.includes("[ask]")) return "ask";
  if (text.includes("[slow]")) return "slow";
  return "quick";
}

/** `toolWords`: texts that ask for the tool call (the playground adds its "Start a turn" prompt). */
export async function startMockModel({ toolSeconds = 4, slowChunks = 30, slowChunkMs = 150, toolWords = ["[tool]"] } = {}) {
  const requests = [];
  let n = 0;
  // A plain sleep is read-only and runs without asking; writing a file needs the client's permission.
  const command = (want) => (want === "ask" ? `touch steering-permission.txt && sleep ${toolSeconds}` : `sleep ${toolSeconds}`);
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      let json = {};
      try { json = body ? JSON.parse(body) : {}; } catch { json = {}; }
      if (req.method !== "POST") return res.writeHead(404).end();
      requests.push({ path: req.url, body: json, at: Date.now() });
      const id = ++n;
      if (req.url.startsWith("/v1/responses")) return responses(res, json, id).catch(() => res.end());
      if (req.url.startsWith("/v1/messages/count_tokens")) return res.writeHead(200, { "content-type": "application/json" }).end('{"input_tokens":10}');
      if (req.url.startsWith("/v1/messages")) return messages(res, json, id).catch(() => res.end());
      res.writeHead(404).end();
    });
  });

  async function responses(res, body, id) {
    const input = Array.isArray(body.input) ? body.input : [];
    const want = wanted([...input].reverse().find((i) => i.role === "user" || i.type === "function_call_output"), toolWords);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const respId = `resp_${id}`;
    sse(res, "response.created", { response: { id: respId } });
    let item;
    if (want === "tool" || want === "ask") {
      const tools = (body.tools ?? []).map((t) => t.name);
      const exec = tools.includes("exec_command");
      const cmd = command(want);
      const args = exec ? { cmd } : { command: ["bash", "-lc", cmd] };
      item = { type: "function_call", id: `fc_${id}`, call_id: `call_${id}`, name: exec ? "exec_command" : "shell", arguments: JSON.stringify(args) };
      sse(res, "response.output_item.added", { output_index: 0, item });
    } else {
      const words = want === "slow" ? Array.from({ length: slowChunks }, (_, i) => `word${i} `) : [want === "final" ? "done" : "ok"];
      const msg = { type: "message", role: "assistant", id: `msg_${id}`, content: [] };
      sse(res, "response.output_item.added", { output_index: 0, item: msg });
      for (const w of words) {
        if (res.destroyed) return;
        sse(res, "response.output_text.delta", { output_index: 0, content_index: 0, item_id: msg.id, delta: w });
        if (want === "slow") await sleep(slowChunkMs);
      }
      item = { ...msg, content: [{ type: "output_text", text: words.join(""), annotations: [] }] };
    }
    sse(res, "response.output_item.done", { output_index: 0, item });
    sse(res, "response.completed", { response: { id: respId, usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, input_tokens_details: null, output_tokens_details: null } } });
    res.end();
  }

  async function messages(res, body, id) {
    // The newest user message, not the last entry: the Claude Code CLI (2.1.x,
    // as codexhost's claude-code harness runs it) ends the list with role "system" entries.
    const last = [...(body.messages ?? [])].reverse().find((m) => m.role === "user");
    const want = wanted(last, toolWords);
    if (!body.stream) {
      const answer = { id: `msg_${id}`, type: "message", role: "assistant", model: body.model ?? "mock", content: [{ type: "text", text: "ok" }],
        stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } };
      return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    sse(res, "message_start", { message: { id: `msg_${id}`, type: "message", role: "assistant", model: body.model ?? "mock", content: [],
      stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
    let stop = "end_turn";
    if (want === "tool" || want === "ask") {
      stop = "tool_use";
      sse(res, "content_block_start", { index: 0, content_block: { type: "tool_use", id: `toolu_${id}`, name: "Bash", input: {} } });
      sse(res, "content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify({ command: command(want), description: "wait" }) } });
    } else {
      const words = want === "slow" ? Array.from({ length: slowChunks }, (_, i) => `word${i} `) : [want === "final" ? "done" : "ok"];
      sse(res, "content_block_start", { index: 0, content_block: { type: "text", text: "" } });
      for (const w of words) {
        if (res.destroyed) return;
        sse(res, "content_block_delta", { index: 0, delta: { type: "text_delta", text: w } });
        if (want === "slow") await sleep(slowChunkMs);
      }
    }
    sse(res, "content_block_stop", { index: 0 });
    sse(res, "message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } });
    sse(res, "message_stop", {});
    res.end();
  }

  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    requests,
    /** The most times any one model request carried `marker` (a duplicate shows as 2). */
    saw(marker) {
      return requests.reduce((max, r) => Math.max(max, occurrences(JSON.stringify(r.body.input ?? r.body.messages ?? ""), marker)), 0);
    },
    /** The requests whose conversation carries `marker`, oldest first. */
    carrying(marker) {
      return requests.filter((r) => occurrences(JSON.stringify(r.body.input ?? r.body.messages ?? ""), marker) > 0);
    },
    /** Resolves when a request satisfying `pred` has arrived (checked every 50 ms). */
    async until(pred, label, ms = 20_000) {
      const start = Date.now();
      while (!requests.some(pred)) {
        if (Date.now() - start > ms) throw new Error(`mock model: no request ${label} within ${ms} ms`);
        await sleep(50);
      }
    },
    close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(r); }),
  };
}
