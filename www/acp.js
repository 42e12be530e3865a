// The playground against an ACP agent (v1 or v2): one AcpSteering per connection, fed the connection's lifecycle.
import { AcpSteering, version } from "renderer-steering";
import { RpcSocket } from "./rpc.js";
import { el, settleBubble } from "./transcript.js";
import { $, timeouts, transcript, textOf, textInput, logWire, showTrace, showMode, markUnconfirmed, handBack, events } from "./page.js";

export class AcpController {
  constructor(mode) {
    this.mode = mode;
    // One connection speaks one ACP version: v2 for the "acp-v2" mode, v1 otherwise.
    this.version = mode === "acp-v2" ? 2 : 1;
    this.turn = 0;
    this.current = null;
    this.optimistic = new Map();
    this.placeholders = [];
    this.tools = new Set();
    this.echoed = new Set();
  }

  async connect(url) {
    this.rpc = new RpcSocket(url, { onNotification: (m, p) => this.onNote(m, p), onWire: logWire, onClose: () => events.disconnected() });
    await this.rpc.opened;
    const hello = this.version === 2
      ? { protocolVersion: 2, capabilities: {}, info: { name: "renderer-steering-playground", version: version() } }
      : { protocolVersion: 1, clientCapabilities: {} };
    const initialize = this.rpc.request("initialize", hello);
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

  /**
   * The app's own prompt. On v1 its answer ends the turn; on v2 it answers
   * `{ messageId }` when the message is inserted and the turn ends with an
   * idle `state_update`. Either way the engine hears of both ends.
   */
  startTurn(text) {
    const token = this.steering.promptSent(this.sessionId);
    const promptsBefore = this.turn;
    return this.rpc.request("session/prompt", { sessionId: this.sessionId, prompt: textInput(text) }).then(
      (answer) => {
        const verdict = this.steering.promptAnswered(this.sessionId, answer, token);
        if (verdict.superseded) document.body.dataset.superseded = String(promptsBefore + 1);
        return answer;
      },
      (error) => {
        this.steering.promptAnswered(this.sessionId, { error }, token); // no stop reason: proves nothing about a landing steer
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
      const hooks = {
        // The agent took it into the running turn; delivery is confirmed later, on evidence.
        accepted: () => shown && (shown.bubble.querySelector(".delivery").textContent = "accepted; waiting for the agent"),
        unconfirmed: () => shown && markUnconfirmed(shown.bubble),
      };
      const outcome = await this.steering.send(this.sessionId, textInput(text), hooks);
      const injected = { echo: "delivered (the agent echoed it)", turnEnded: "delivered (the turn ended with it)" }[outcome.delivered]
        ?? (outcome.messageId ? "accepted; delivered at the next break point" : "delivered inside the running turn");
      const words = {
        injected,
        prompted: "sent as a prompt",
        startedNewTurn: "the agent started a new turn with it",
        handedOff: `handed off (${outcome.handoff})`,
      }[outcome.kind];
      if (shown) settleBubble(shown.bubble, words);
      if (outcome.kind === "injected" && outcome.messageId) this.optimistic.set(`id:${outcome.messageId}`, shown?.bubble);
      showTrace(`✓ ${outcome.kind}${outcome.handoff ? ` (${outcome.handoff})` : ""}${outcome.delivered ? ` · ${outcome.delivered}` : ""}`, outcome.trace);
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

  /** The turn the stream's updates belong to: a new one if none runs. */
  ensureTurn() {
    if (this.current === null) {
      this.turn += 1;
      this.current = `acp-${this.turn}`;
    }
    return this.current;
  }

  /** A user message of the stream: v1 `user_message`, v2 `user_message_chunk`s (one message per messageId). */
  userMessage(u) {
    if (u.messageId && this.echoed.has(u.messageId)) return;
    if (u.messageId) this.echoed.add(u.messageId);
    const text = textOf(Array.isArray(u.content) ? u.content : [u.content]);
    const byId = u.messageId && this.optimistic.get(`id:${u.messageId}`);
    if (byId) {
      settleBubble(byId, "delivered");
      this.optimistic.delete(`id:${u.messageId}`);
      this.optimistic.delete(text);
    } else if (this.optimistic.delete(text)) {
      // already shown inside the turn
    } else if (this.current === null) {
      const waiting = this.placeholders.find((x) => x.text === text);
      this.ensureTurn();
      if (waiting) {
        transcript.adopt(waiting.turn, this.current);
        this.placeholders = this.placeholders.filter((x) => x !== waiting);
      } else {
        transcript.userMessage(this.current, text, "delivered", "You");
      }
    } else {
      transcript.userMessage(this.current, text, "delivered", "You · steer");
    }
  }

  onNote(method, p) {
    if (method !== "session/update" || p.sessionId !== this.sessionId) return;
    const u = p.update;
    this.steering.update(this.sessionId, u);
    switch (u.sessionUpdate) {
      case "user_message":
      case "user_message_chunk":
        this.userMessage(u);
        break;
      case "agent_message_chunk":
        transcript.appendText(this.ensureTurn(), u.content?.text ?? "");
        break;
      case "tool_call":
      case "tool_call_update": {
        // v2 upserts: a tool's first report may be an update.
        const id = String(u.toolCallId);
        if (!this.tools.has(id)) {
          if (!u.title) break;
          this.tools.add(id);
          transcript.tool(this.ensureTurn(), id, u.title);
        }
        if (u.status === "completed" || u.status === "failed") transcript.toolDone(this.current, id);
        else if (u.sessionUpdate === "tool_call_update") transcript.toolProgress(this.current, id, u._meta?.percent);
        break;
      }
      case "state_update":
        // v2: an idle with a stop reason ends the turn (the engine read it in update()).
        if (u.state === "idle" && u.stopReason) this.endTurn(u.stopReason);
        break;
      case "turn_end":
        this.endTurn(u.stopReason);
        this.steering.sessionIdle(this.sessionId);
        break;
    }
  }

  endTurn(stopReason) {
    transcript.endTurn(this.current, stopReason);
    this.current = null;
  }

  close() {
    this.steering?.dispose();
    this.rpc?.close();
  }
}
