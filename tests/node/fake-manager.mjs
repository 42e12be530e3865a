// A fake desktop request manager with the shape the spec describes: its
// steerTurn and startTurn build their requests through this.sendRequest, the
// way the desktop's own code does. Records every request that reaches the host.
export class RequestManager {
  constructor(answers, options = {}) {
    this.answers = answers;
    this.sent = [];
    this.started = [];
    this.role = options.role ?? "owner";
    this.binding = options.binding ?? true;
    this.queue = options.queue ?? [];
    this.mutations = 0;
    const self = this;
    this.coordinator = {
      options: {
        submissionHost: self.binding
          ? { getActiveTurnId: () => "turn-1", hasPendingTurnStart: () => false }
          : {},
      },
      loadMessages: async () => undefined,
      readMessages: () => self.queue.map((m) => ({ ...m })),
      mutate: async (_threadId, fn) => {
        self.mutations += 1;
        self.queue = fn(self.queue);
      },
    };
    this.pauseOnSteer = options.pauseOnSteer;
    this.deferStart = options.deferStart ?? 0;
  }
  sendRequest(method, params, options) {
    this.sent.push({ method, params, options });
    if (method === "turn/steer" && this.pauseOnSteer) {
      // Stopping the old turn pauses the queued follow-ups, as the desktop does.
      this.queue = [...this.queue, { id: this.pauseOnSteer, pauseReason: "Interrupted before the steer was accepted." }];
    }
    const answer = this.answers[method];
    if (answer === undefined) return Promise.reject({ code: -32601, message: "Method not found" });
    return Promise.resolve(typeof answer === "function" ? answer(params) : answer);
  }
  steerTurn(threadId, input, restoreMessage, serviceTier, attachments, clientUserMessageId, additionalContext, toolOutput, onMessageAdded) {
    return this.sendRequest("turn/steer", { threadId, expectedTurnId: "turn-1", input, clientUserMessageId }, { caller: "steerTurn" });
  }
  startTurn(threadId, submission, onMessageAdded) {
    this.started.push({ threadId, submission, onMessageAdded });
    if (this.deferStart) {
      return new Promise((r) => setTimeout(r, this.deferStart)).then(() =>
        this.sendRequest("turn/start", submission.request, { caller: "startTurn" }));
    }
    return this.sendRequest("turn/start", submission.request, { caller: "startTurn" });
  }
  getTurnCoordinator() {
    return this.coordinator;
  }
  getStreamRole() {
    return { role: this.role };
  }
}

export function ownNames(o) {
  return Object.getOwnPropertyNames(o).sort().join(",");
}

export function callSteer(manager, threadId, text, extra = {}) {
  const restoreMessage = { id: "restore-1", context: { collaborationMode: "pair", commentAttachments: [] }, cwd: "/repo", ...extra.restore };
  return manager.steerTurn(threadId, [{ type: "text", text }], restoreMessage, "fast", undefined, extra.messageId, { ctx: 1 }, extra.toolOutput ?? null, extra.onMessageAdded);
}

/** A host's answers for the fake manager: the inspect names `delivery`; turn/steer and turn/start succeed. */
export const answers = (delivery) => ({
  "codexhost/thread/steering/inspect": { delivery },
  "turn/steer": { turnId: "turn-2" },
  "turn/start": { turn: { id: "turn-3" } },
});

/** `{ value }` or `{ error }`: how `promise` settled. */
export const settle = (promise) => Promise.resolve(promise).then((value) => ({ value }), (error) => ({ error }));

/** The methods the manager sent, in order. */
export const methods = (manager) => manager.sent.map((s) => s.method);

/** A draft of one text item. */
export const text = (t) => [{ type: "text", text: t }];
