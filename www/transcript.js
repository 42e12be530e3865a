// The transcript: turns, streamed text, tool calls, and user messages in
// their optimistic and final states. Built with createElement/textContent
// only: host and user text is never parsed as HTML.
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class Transcript {
  constructor(root) {
    this.root = root;
    this.turns = new Map();
    this.count = 0;
  }

  clear() {
    this.root.replaceChildren();
    this.turns.clear();
    this.count = 0;
  }

  turn(id) {
    let turn = this.turns.get(id);
    if (!turn) {
      turn = this.newTurnElement();
      turn.node.dataset.turnId = id;
      this.turns.set(id, turn);
    }
    this.current = id;
    return turn;
  }

  newTurnElement() {
    this.count += 1;
    const node = el("section", "turn running");
    const header = el("header", "turn-header");
    header.append(el("span", "turn-title", `Turn ${this.count}`), el("span", "turn-status", "running"));
    const body = el("div", "turn-body");
    node.append(header, body);
    this.root.append(node);
    node.scrollIntoView({ block: "end" });
    return { node, body, header, text: null, tools: new Map() };
  }

  /** A user bubble; `where` is a turn id, or "new" for a new-turn placeholder. */
  userMessage(where, text, state, label) {
    const turn = where === "new" ? { ...this.newTurnElement(), placeholder: true } : this.turn(where);
    if (turn.placeholder) {
      turn.node.classList.add("placeholder");
      turn.header.querySelector(".turn-status").textContent = "starting…";
    }
    const bubble = el("div", `user-message ${state}`);
    bubble.append(el("span", "who", label ?? "You"), el("p", "words", text), el("span", "delivery", state === "pending" ? "sending…" : ""));
    turn.body.append(bubble);
    turn.text = null;
    bubble.scrollIntoView({ block: "end" });
    return { bubble, turn };
  }

  /** Gives a placeholder turn the id the host assigned. */
  adopt(placeholder, id) {
    placeholder.node.classList.remove("placeholder");
    placeholder.node.dataset.turnId = id;
    placeholder.header.querySelector(".turn-status").textContent = "running";
    placeholder.placeholder = false;
    this.turns.set(id, placeholder);
    this.current = id;
  }

  appendText(id, chunk) {
    const turn = this.turn(id);
    if (!turn.text) {
      turn.text = el("p", "assistant");
      turn.body.append(turn.text);
    }
    turn.text.textContent += chunk;
  }

  tool(id, callId, title) {
    const turn = this.turn(id);
    const row = el("div", "tool running");
    const bar = el("div", "bar");
    const fill = el("div", "fill");
    bar.append(fill);
    row.append(el("span", "tool-icon", "⚙"), el("code", "tool-title", title), bar, el("span", "tool-state", "running"));
    turn.body.append(row);
    turn.text = null;
    turn.tools.set(String(callId), { row, fill });
  }

  toolProgress(id, callId, percent) {
    const tool = this.turn(id).tools.get(String(callId));
    if (tool) tool.fill.style.width = `${Math.max(0, Math.min(100, Number(percent) || 0))}%`;
  }

  toolDone(id, callId) {
    const tool = this.turn(id).tools.get(String(callId));
    if (!tool) return;
    tool.row.classList.replace("running", "done");
    tool.fill.style.width = "100%";
    tool.row.querySelector(".tool-state").textContent = "done";
  }

  endTurn(id, status) {
    const turn = this.turns.get(id);
    if (!turn) return;
    turn.node.classList.remove("running");
    turn.node.classList.add(status === "interrupted" || status === "cancelled" ? "interrupted" : "completed");
    turn.header.querySelector(".turn-status").textContent = status;
  }
}

/** Marks a bubble delivered (with how) or removes it. */
export function settleBubble(bubble, delivery) {
  bubble.classList.remove("pending");
  bubble.classList.add("delivered");
  bubble.querySelector(".delivery").textContent = delivery;
}
