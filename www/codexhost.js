// The playground against a codexhost host or a stock app-server: one CodexhostSteering per connection.
import { CodexhostSteering } from "renderer-steering";
import { RpcSocket } from "./rpc.js";
import { settleBubble } from "./transcript.js";
import { $, timeouts, transcript, textOf, textInput, logWire, showTrace, showMode, toast, markUnconfirmed, offerRetry, handBack, events } from "./page.js";

export class CodexController {
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
    this.rpc = new RpcSocket(url, { onNotification: (m, p) => this.onNote(m, p), onWire: logWire, onClose: () => events.disconnected() });
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
