// The playground: one page, every dialect, against the reference host.
import { init, version, CodexhostSteering, AcpSteering } from "renderer-steering";
import { RpcSocket } from "./rpc.js";
import { Transcript, el, settleBubble } from "./transcript.js";

const $ = (id) => document.getElementById(id);
const query = new URLSearchParams(location.search);
const number = (key, fallback) => Number(query.get(key) ?? fallback);
const timeouts = { decideMs: number("decideMs", 3000), steerMs: number("steerMs", 6000), requestMs: number("requestMs", 4000) };
const transcript = new Transcript($("transcript"));
const textOf = (content) => (content ?? []).filter((b) => b && b.type === "text").map((b) => b.text).join("");
const textInput = (text) => [{ type: "text", text }];

const DECISION_METHOD = { "codexhost-new": "codexhost/thread/steering/inspect", "codexhost-old": "codexhost/thread/ownership/list", stock: "thread/read" };
const STEER_METHOD = { "acp-steering": "_session/steering", "acp-inject": "session/inject", "acp-handoff": "session/prompt" };

function faultQuery(mode, fault) {
  const base = mode.replace(/-(ignore|deferred)$/, "");
  const steer = STEER_METHOD[base] ?? "turn/steer";
  const decision = DECISION_METHOD[base] ?? steer;
  const switches = { latency: fault === "latency" ? "1500" : "", drop: fault === "drop" ? steer : "", hang: fault === "hang" ? decision : "", garble: fault === "garble" ? steer : "", lose: fault === "lose" ? steer : "" };
  return Object.entries(switches).filter(([, v]) => v).map(([k, v]) => `&${k}=${encodeURIComponent(v)}`).join("");
}

function socketUrl(mode, fault) {
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

function logWire(direction, text) {
  const item = el("li", direction, text.length > 400 ? `${text.slice(0, 400)}… (${text.length} bytes)` : text);
  item.dataset.dir = direction === "out" ? "→" : "←";
  const wire = $("wire");
  wire.append(item);
  while (wire.children.length > 300) wire.firstChild.remove();
  wire.scrollTop = wire.scrollHeight;
}

function showTrace(label, trace) {
  $("trace").textContent = `${label}\n\n${JSON.stringify(trace ?? {}, null, 2)}`;
}

function showMode(mode, hint) {
  const badge = $("mode-badge");
  badge.className = `badge ${mode}`;
  badge.textContent = mode;
  $("hint").textContent = hint;
  document.body.dataset.inputMode = mode;
}

function toast(message) {
  $("toast").textContent = message;
}

/** Marks a bubble "not confirmed": the host may have the message. */
function markUnconfirmed(bubble) {
  bubble.classList.remove("pending");
  bubble.classList.add("unconfirmed");
  bubble.querySelector(".delivery").textContent = "not confirmed";
}

/** A retry button on an unconfirmed bubble (removed once used). */
function offerRetry(bubble, retry) {
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

function handBack(error) {
  // The draft comes back to the composer exactly as typed.
  $("draft").value = textOf(error.draft);
  toast(`${error.kind ?? "error"}: ${error.message}`);
  showTrace(`✗ ${error.kind}${error.code !== undefined ? ` (${error.code})` : ""}: ${error.message}`, error.trace);
  document.body.dataset.lastError = error.kind ?? "error";
}

class CodexController {
  constructor(mode, thread) {
    this.mode = mode;
    this.threadId = thread;
    this.turnId = null;
    this.running = false;
    this.placeholders = [];
    this.optimistic = new Map();
    /** Messages the stream showed without this page sending them (text -> bubble). */
    this.streamed = new Map();
  }

  async connect(url, fault) {
    this.rpc = new RpcSocket(url, { onNotification: (m, p) => this.onNote(m, p), onWire: logWire, onClose: () => app.disconnected() });
    await this.rpc.opened;
    // The journal keeps what a reload would lose: localStorage as it is.
    const request = (m, p, o) => (m === "turn/steer" && fault.startsWith("reload") ? this.reloadOn(fault, m, p, o) : this.rpc.request(m, p, o));
    this.steering = new CodexhostSteering({ request, timeouts, journal: localStorage, onJournalError: (e) => toast(`journal: ${e.message}`) });
    this.refreshMode();
    await this.recover();
  }

  /**
   * The reload faults: the page reloads with the steer written and its
   * answer not yet read (`reload`), or just before it is written
   * (`reload-unsent`). Either way the steer never settles in this page.
   */
  reloadOn(fault, method, params, options) {
    if (fault === "reload-unsent") {
      location.reload();
    } else {
      this.rpc.request(method, params, options).catch(() => {});
      setTimeout(() => location.reload(), 300);
    }
    return new Promise(() => {});
  }

  /**
   * After a restart: what became of each message the journal kept. A
   * delivered one is shown delivered, one the host never got hands its
   * words back, and one still unknown (its turn runs) is asked about again.
   */
  async recover(attempt = 0) {
    const entries = await this.steering.recover();
    for (const entry of entries) {
      const text = textOf(entry.draft);
      if (entry.outcome === "delivered") {
        // Shown once: the running turn's own report of it may have come first.
        const bubble = this.streamed.get(text) ?? transcript.userMessage("recovered", text, "pending", "You · before the reload").bubble;
        settleBubble(bubble, "delivered (checked after the reload)");
        this.optimistic.set(text, bubble);
      } else if (entry.outcome === "notDelivered") {
        $("draft").value = text;
        toast("not delivered before the reload: your words are back in the composer");
      }
      document.body.dataset.recovered = entry.outcome;
    }
    if (entries.some((entry) => entry.outcome === "unknown") && attempt < 60) setTimeout(() => this.recover(attempt + 1), 1000);
  }

  refreshMode() {
    if (this.running) showMode("direct", "Send now; delivered to the running turn");
    else showMode("idle", "Send to start a turn");
  }

  startTurn(text) {
    return this.rpc.request("turn/start", { threadId: this.threadId, input: textInput(text) });
  }

  /**
   * Steers `text`. `retry` = { id, shown } re-sends an unconfirmed message with
   * its clientUserMessageId into the bubble already on screen: one id is one
   * delivery, so this never duplicates it.
   */
  async send(text, retry) {
    let shown = retry?.shown ?? null;
    const hooks = {
      present: (delivery) => {
        if (retry) return; // already on screen
        if (delivery === "newTurn") {
          shown = transcript.userMessage("new", text, "pending", "You · new turn");
          this.placeholders.push({ text, turn: shown.turn });
        } else {
          shown = transcript.userMessage(this.turnId, text, "pending", "You · steer");
          this.optimistic.set(text, shown.bubble);
        }
        shown.delivery = delivery;
      },
      retract: () => {
        if (!shown) return;
        if (shown.turn.placeholder) shown.turn.node.remove();
        else shown.bubble.remove();
        this.placeholders = this.placeholders.filter((p) => p.turn !== shown.turn);
        shown = null;
      },
      unconfirmed: () => shown && markUnconfirmed(shown.bubble),
      // The host delivered differently: the one bubble stays (never both shown).
      reconcile: (from, to) => { if (shown) shown.delivery = to; },
    };
    try {
      const args = { threadId: this.threadId, expectedTurnId: this.running ? this.turnId : null, input: textInput(text) };
      if (retry) args.clientUserMessageId = retry.id;
      const result = await this.steering.steer(args, hooks);
      const words = { activeTurn: "delivered inside the running turn", newTurn: "started a new turn", official: "delivered (official steer)" }[result.delivery];
      if (shown) settleBubble(shown.bubble, words);
      showTrace(`✓ ${result.delivery} (presented ${result.presented}) · turn ${result.turnId}`, result.trace);
      document.body.dataset.lastDelivery = result.delivery;
      return result;
    } catch (error) {
      if (error.kind === "outcomeUnknown" && shown) {
        // It may have been delivered: it stays on screen with a retry that cannot duplicate it.
        offerRetry(shown.bubble, () => this.send(text, { id: error.clientUserMessageId, shown }));
        showTrace(`? outcome unknown: ${error.message}`, error.trace);
        document.body.dataset.lastError = error.kind;
        return null;
      }
      handBack(error);
      return null;
    }
  }

  onNote(method, p) {
    if (p.threadId && p.threadId !== this.threadId) return;
    switch (method) {
      case "turn/started": {
        const text = textOf(p.input);
        const waiting = this.placeholders.find((x) => x.text === text);
        if (waiting) {
          transcript.adopt(waiting.turn, p.turn.id);
          this.placeholders = this.placeholders.filter((x) => x !== waiting);
        } else {
          transcript.userMessage(p.turn.id, text, "delivered", "You");
        }
        this.turnId = p.turn.id;
        this.running = true;
        break;
      }
      case "item/agentMessage/delta": transcript.appendText(p.turnId, p.delta); break;
      case "item/toolCall/started": transcript.tool(p.turnId, p.callId, p.title); break;
      case "item/toolCall/progress": transcript.toolProgress(p.turnId, p.callId, p.percent); break;
      case "item/toolCall/completed": transcript.toolDone(p.turnId, p.callId); break;
      case "item/userMessage":
        if (!this.optimistic.delete(p.text)) this.streamed.set(p.text, transcript.userMessage(p.turnId, p.text, "delivered", "You · steer").bubble);
        break;
      case "turn/completed":
        transcript.endTurn(p.turnId, p.status);
        if (p.turnId === this.turnId) this.running = false;
        break;
    }
    this.refreshMode();
  }

  close() {
    this.steering?.dispose();
    this.rpc?.close();
  }
}

class AcpController {
  constructor(mode) {
    this.mode = mode;
    this.turn = 0;
    this.current = null;
    this.optimistic = new Map();
    this.placeholders = [];
  }

  async connect(url) {
    this.rpc = new RpcSocket(url, { onNotification: (m, p) => this.onNote(m, p), onWire: logWire, onClose: () => app.disconnected() });
    await this.rpc.opened;
    const initialize = this.rpc.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    // The handoff is a kill-switch the app turns on; the playground does so for its handoff modes.
    const allowPromptHandoff = this.mode.startsWith("acp-handoff");
    this.steering = new AcpSteering({ request: (m, p) => this.rpc.request(m, p), initialize, timeouts, allowPromptHandoff });
    this.steering.onChange((sessionId, state) => sessionId === this.sessionId && this.render(state));
    await initialize;
    this.sessionId = (await this.rpc.request("session/new", { cwd: "/repo", mcpServers: [] })).sessionId;
    this.steering.initialized(await initialize);
    this.render(this.steering.inputMode(this.sessionId));
  }

  render(state) {
    showMode(state.mode, state.hint);
    $("chips").replaceChildren(...state.queued.map((content) => el("span", "chip", `queued · ${textOf(content)}`)));
  }

  startTurn(text) {
    this.steering.promptSent(this.sessionId);
    const promptsBefore = this.turn;
    return this.rpc.request("session/prompt", { sessionId: this.sessionId, prompt: textInput(text) }).then(
      (answer) => {
        const verdict = this.steering.promptAnswered(this.sessionId, answer);
        if (verdict.superseded) document.body.dataset.superseded = String(promptsBefore + 1);
        return answer;
      },
      (error) => {
        this.steering.promptAnswered(this.sessionId, { stopReason: "refusal" });
        throw error;
      },
    );
  }

  async send(text) {
    const mode = this.steering.inputMode(this.sessionId).mode;
    let shown = null;
    if (mode === "direct") {
      shown = transcript.userMessage(this.current, text, "pending", "You · steer");
      this.optimistic.set(text, shown.bubble);
    } else if (mode === "idle") {
      shown = transcript.userMessage("new", text, "pending", "You");
      this.placeholders.push({ text, turn: shown.turn });
    }
    try {
      const unconfirmed = () => shown && markUnconfirmed(shown.bubble);
      const outcome = await this.steering.send(this.sessionId, textInput(text), { unconfirmed });
      const words = {
        injected: outcome.messageId ? "accepted; delivered at the next break point" : "delivered inside the running turn",
        prompted: "sent as a prompt",
        startedNewTurn: "the agent started a new turn with it",
        handedOff: `handed off (${outcome.handoff})`,
      }[outcome.kind];
      if (shown) settleBubble(shown.bubble, words);
      if (outcome.messageId) this.optimistic.set(`id:${outcome.messageId}`, shown?.bubble);
      showTrace(`✓ ${outcome.kind}${outcome.handoff ? ` (${outcome.handoff})` : ""}`, outcome.trace);
      document.body.dataset.lastDelivery = outcome.kind;
      return outcome;
    } catch (error) {
      if (error.kind === "outcomeUnknown") {
        // It may have reached the agent, and ACP has no id to retry by: it
        // stays on screen, not confirmed, and the draft is not put back (a
        // second send would run it twice).
        showTrace(`? outcome unknown: ${error.message}`, error.trace);
        document.body.dataset.lastError = error.kind;
        return null;
      }
      if (shown) (shown.turn.placeholder ? shown.turn.node : shown.bubble).remove();
      this.optimistic.delete(text);
      handBack(error);
      return null;
    }
  }

  onNote(method, p) {
    if (method !== "session/update" || p.sessionId !== this.sessionId) return;
    const u = p.update;
    this.steering.update(this.sessionId, u);
    switch (u.sessionUpdate) {
      case "user_message": {
        const text = textOf(u.content);
        const byId = u.messageId && this.optimistic.get(`id:${u.messageId}`);
        if (byId) {
          settleBubble(byId, "delivered");
          this.optimistic.delete(`id:${u.messageId}`);
          this.optimistic.delete(text);
        } else if (this.optimistic.delete(text)) {
          // already shown inside the turn
        } else if (this.current === null) {
          const waiting = this.placeholders.find((x) => x.text === text);
          this.turn += 1;
          this.current = `acp-${this.turn}`;
          if (waiting) {
            transcript.adopt(waiting.turn, this.current);
            this.placeholders = this.placeholders.filter((x) => x !== waiting);
          } else {
            transcript.userMessage(this.current, text, "delivered", "You");
          }
        } else {
          transcript.userMessage(this.current, text, "delivered", "You · steer");
        }
        break;
      }
      case "agent_message_chunk":
        if (this.current === null) {
          this.turn += 1;
          this.current = `acp-${this.turn}`;
        }
        transcript.appendText(this.current, u.content?.text ?? "");
        break;
      case "tool_call": transcript.tool(this.current, u.toolCallId, u.title); break;
      case "tool_call_update":
        if (u.status === "completed") transcript.toolDone(this.current, u.toolCallId);
        else transcript.toolProgress(this.current, u.toolCallId, u._meta?.percent);
        break;
      case "turn_end":
        transcript.endTurn(this.current, u.stopReason);
        this.current = null;
        this.steering.sessionIdle(this.sessionId);
        break;
    }
  }

  close() {
    this.steering?.dispose();
    this.rpc?.close();
  }
}

const app = {
  controller: null,
  async connect() {
    this.controller?.close();
    transcript.clear();
    $("wire").replaceChildren();
    $("chips").replaceChildren();
    toast("");
    const mode = $("mode").value;
    $("thread-picker").hidden = mode.startsWith("acp");
    const controller = mode.startsWith("acp") ? new AcpController(mode) : new CodexController(mode, $("thread").value);
    this.controller = controller;
    try {
      await controller.connect(socketUrl(mode, $("fault").value), $("fault").value);
      $("status").textContent = "connected";
      $("status").className = "status on";
      $("send").disabled = $("start").disabled = false;
      document.body.dataset.connected = "yes";
    } catch (error) {
      toast(`cannot connect: ${error.message}`);
    }
  },
  disconnected() {
    $("status").textContent = "disconnected";
    $("status").className = "status off";
    document.body.dataset.connected = "no";
    showMode("unavailable", "Disconnected; your message stays here");
    this.controller?.steering?.connectionClosed?.();
  },
};

await init();
$("version").textContent = `v${version()}`;
$("connect").addEventListener("click", () => app.connect());
$("clear-wire").addEventListener("click", () => $("wire").replaceChildren());
$("start").addEventListener("click", () => {
  app.controller?.startTurn("Set up the project and run the tests").catch((e) => toast(e.message ?? String(e)));
});
$("composer").addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = $("draft").value;
  if (!text.trim() || !app.controller) return;
  $("draft").value = "";
  toast("");
  await app.controller.send(text);
});
$("draft").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && !event.shiftKey) {
    event.preventDefault();
    $("composer").requestSubmit();
  }
});
for (const key of ["mode", "thread", "fault"]) {
  const value = query.get(key);
  if (value !== null) $(key).value = value;
}
$("thread-picker").hidden = $("mode").value.startsWith("acp");
document.body.dataset.ready = "yes";
if (query.get("autoconnect") === "1") app.connect();
