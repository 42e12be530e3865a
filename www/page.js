// The playground page's shared pieces: its query, the transcript, the wire
// log, the mode line, toasts and the hand-back of a draft; the controllers
// (codexhost.js, acp.js) and app.js use them.
import { Transcript, el } from "./transcript.js";

export const $ = (id) => document.getElementById(id);
export const query = new URLSearchParams(location.search);
const number = (key, fallback) => Number(query.get(key) ?? fallback);
export const timeouts = { decideMs: number("decideMs", 3000), steerMs: number("steerMs", 6000), requestMs: number("requestMs", 4000) };
export const transcript = new Transcript($("transcript"));
export const textOf = (content) => (content ?? []).filter((b) => b && b.type === "text").map((b) => b.text).join("");
export const textInput = (text) => [{ type: "text", text }];

const DECISION_METHOD = { "codexhost-new": "codexhost/thread/steering/inspect", "codexhost-old": "codexhost/thread/ownership/list", stock: "thread/read" };
const STEER_METHOD = { "acp-steering": "_session/steering", "acp-inject": "session/inject", "acp-handoff": "session/prompt" };

function faultQuery(mode, fault) {
  const base = mode.replace(/-(ignore|deferred)$/, "");
  const steer = STEER_METHOD[base] ?? "turn/steer";
  const decision = DECISION_METHOD[base] ?? steer;
  const switches = { latency: fault === "latency" ? "1500" : "", drop: fault === "drop" ? steer : "", hang: fault === "hang" ? decision : "", garble: fault === "garble" ? steer : "", lose: fault === "lose" ? steer : "" };
  return Object.entries(switches).filter(([, v]) => v).map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join("");
}

export function socketUrl(mode, fault) {
  const speed = query.get("speed") ?? "1";
  const extra = { "acp-steering-ignore": "&ignoreOptIn=1", "acp-handoff-deferred": "&deferred=1" }[mode] ?? "";
  const wireMode = mode.replace(/-(ignore|deferred)$/, "");
  return `ws://${location.host}/rpc?mode=${wireMode}&speed=${speed}&world=${world()}${extra}${faultQuery(mode, fault)}`;
}

/**
 * This tab's host world: the host keeps its threads for it across
 * connections, as a real host outlives a renderer that reloads.
 */
let worldName;
function world() {
  try {
    worldName ??= sessionStorage.getItem("playground-world") ?? undefined;
    if (worldName === undefined) {
      worldName = crypto.randomUUID();
      sessionStorage.setItem("playground-world", worldName);
    }
  } catch {
    // A tab whose storage refuses writes: a world for this page only.
  }
  return worldName;
}

export function logWire(direction, text) {
  const item = el("li", direction, text.length > 400 ? `${text.slice(0, 400)}… (${text.length} bytes)` : text);
  item.dataset.dir = direction === "out" ? "→" : "←";
  const wire = $("wire");
  wire.append(item);
  while (wire.children.length > 300) wire.firstChild.remove();
  wire.scrollTop = wire.scrollHeight;
}

export function showTrace(label, trace) {
  $("trace").textContent = `${label}\n\n${JSON.stringify(trace ?? {}, null, 2)}`;
}

export function showMode(mode, hint) {
  const badge = $("mode-badge");
  badge.className = `badge ${mode}`;
  badge.textContent = mode;
  $("hint").textContent = hint;
  document.body.dataset.inputMode = mode;
}

export function toast(message) {
  $("toast").textContent = message;
}

/** Marks a bubble "not confirmed": the host may have the message. */
export function markUnconfirmed(bubble) {
  bubble.classList.remove("pending");
  bubble.classList.add("unconfirmed");
  bubble.querySelector(".delivery").textContent = "not confirmed";
}

/** A retry button on an unconfirmed bubble (removed once used). */
export function offerRetry(bubble, retry) {
  const button = el("button", "retry", "Retry");
  button.type = "button";
  button.addEventListener("click", () => {
    button.remove();
    bubble.classList.remove("unconfirmed");
    bubble.classList.add("pending");
    retry();
  });
  bubble.append(button);
}

export function handBack(error) {
  // The draft comes back to the composer exactly as typed.
  $("draft").value = textOf(error.draft);
  toast(`${error.kind ?? "error"}: ${error.message}`);
  showTrace(`✗ ${error.kind}${error.code !== undefined ? ` (${error.code})` : ""}: ${error.message}`, error.trace);
  document.body.dataset.lastError = error.kind ?? "error";
}

/** What the page does when a controller's socket closes (set by app.js). */
export const events = { disconnected: () => {} };
