// A seeded model of the desktop's request manager for desktop-schedules.test.mjs:
// a small PRNG, and a manager whose every behaviour (the host's answers, when
// its steerTurn/startTurn send, throw or hang, the stream role, the follow-up
// queue) the seed picks. It records every request that reaches the host and
// which desktop call sent it, so the test can tell one attempt's requests
// apart from another's.

/** mulberry32: a 32-bit seeded PRNG, uniform floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  constructor(seed) {
    this.float = mulberry32(seed);
  }
  /** An integer in [0, n). */
  int(n) {
    return Math.floor(this.float() * n);
  }
  /** An integer in [lo, hi]. */
  between(lo, hi) {
    return lo + this.int(hi - lo + 1);
  }
  chance(p) {
    return this.float() < p;
  }
  pick(items) {
    return items[this.int(items.length)];
  }
  /** A key of `weights` ({ key: weight }), drawn by weight. */
  weighted(weights) {
    const entries = Object.entries(weights);
    let r = this.float() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [key, w] of entries) {
      if ((r -= w) < 0) return key;
    }
    return entries.at(-1)[0];
  }
}

export const PAUSED = "Interrupted before the steer was accepted.";
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const never = () => new Promise(() => {});

/** The plan of one seed's desktop and host, drawn once. */
export function drawPlan(rng) {
  const steerMs = rng.between(40, 80);
  const threads = ["t0", "t1", "t2"].slice(0, rng.between(1, 3));
  return {
    steerMs,
    threads,
    // A codexhost host answers the inspect; a stock app-server knows no codexhost method.
    host: rng.chance(0.85) ? "codexhost" : "stock",
    binding: rng.chance(0.9),
    // What the inspect answers on an external thread; a Codex-owned thread is always official (an owner never changes).
    deliveries: rng.pick([{ activeTurn: 1, newTurn: 1 }, { newTurn: 1 }, { activeTurn: 1 }, { activeTurn: 1, newTurn: 3 }]),
    owners: Object.fromEntries(threads.map((t) => [t, rng.chance(0.3) ? "codex" : "external"])),
    roles: Object.fromEntries(threads.map((t) => [t, rng.chance(0.15) ? "follower" : "owner"])),
    // A thread whose window turns into a follower partway (the role is read again after the inspect).
    flip: rng.chance(0.15) ? { thread: rng.pick(threads), at: rng.between(0, 3 * steerMs) } : null,
    pauseOnSteer: rng.chance(0.4),
    queue: Array.from({ length: rng.int(3) }, (_, i) => ({ id: `q-${i}`, pauseReason: rng.chance(0.5) ? PAUSED : null })),
    loadMessages: rng.weighted({ resolve: 8, reject: 1, never: 1 }),
  };
}

/**
 * The request manager: steerTurn and startTurn build their requests through
 * this.sendRequest, the way the desktop's own code does. `world` holds the
 * shared logical clock (`tick()`), the attempts the test drives, and the
 * objects the desktop itself threw or rejected with.
 */
export class ScheduledDesktop {
  constructor(plan, rng, world) {
    this.plan = plan;
    this.rng = rng;
    this.world = world;
    this.sent = [];
    this.invocations = [];
    this.role = { ...plan.roles };
    this.queue = plan.queue.map((m) => ({ ...m }));
    this.current = null;
    /** The startTurn call whose submission this.steerTurn is handed, while it runs. */
    this.parent = null;
    const self = this;
    this.coordinator = {
      options: {
        submissionHost: plan.binding
          ? {
              getActiveTurnId: () => (self.rng.chance(0.8) ? "turn-1" : null),
              hasPendingTurnStart: () => self.rng.chance(0.1),
            }
          : {},
      },
      loadMessages: async () => {
        const how = plan.loadMessages === "resolve" ? "resolve" : self.rng.weighted({ resolve: 2, [plan.loadMessages]: 1 });
        if (how === "reject") throw self.own(new Error("store not ready"));
        if (how === "never") return never();
        return undefined;
      },
      readMessages: () => self.queue.map((m) => ({ ...m })),
      mutate: async (_threadId, fn) => {
        self.queue = fn(self.queue);
      },
    };
  }

  /** Remembers `error` as one of the desktop's own (its identity is checked). */
  own(error) {
    this.world.ownErrors.add(error);
    return error;
  }

  /** A host's JSON-RPC error answer, or a lost answer: the desktop rejects with it. */
  failure(kind) {
    if (kind === "error") return this.own(this.rng.pick([{ code: -32074, message: "turn not active" }, { code: -32072, message: "thread busy" }, { code: -32603, message: "internal error" }]));
    return this.own(new Error("socket closed"));
  }

  /** An answer of the host: resolves `value` at once or later, rejects (an error answer or a lost one), or never settles. */
  respond(value, weights) {
    const how = this.rng.weighted(weights);
    const wait = this.rng.between(0, Math.round(this.plan.steerMs * 1.5));
    if (how === "resolve") return Promise.resolve(value);
    if (how === "later") return sleep(wait).then(() => value);
    if (how === "error" || how === "lost") {
      const failure = this.failure(how);
      return this.rng.chance(0.5) ? Promise.reject(failure) : sleep(wait).then(() => Promise.reject(failure));
    }
    return never();
  }

  sendRequest(method, params, options) {
    const record = {
      seq: this.world.tick(),
      method,
      params,
      options,
      inv: this.current,
      cuid: params?.clientUserMessageId,
      tag: params?.codexhostSteerDelivery,
    };
    this.sent.push(record);
    const unknownVariant = () => Promise.reject(this.own({ code: -32600, message: `Invalid request: unknown variant \`${method}\`, expected one of \`thread/read\`, \`turn/steer\`` }));
    switch (method) {
      case "codexhost/thread/steering/inspect": {
        if (this.plan.host === "stock") return unknownVariant();
        const delivery = this.plan.owners[params.threadId] === "codex" ? "official" : this.rng.weighted(this.plan.deliveries);
        record.answered = delivery;
        record.attempt = this.world.calling; // the inspect leaves within the steer's own call
        return this.respond({ delivery }, { resolve: 14, later: 4, error: 1, never: 1 });
      }
      case "codexhost/thread/ownership/list":
        if (this.plan.host === "stock") return unknownVariant();
        return Promise.resolve({ threads: [{ threadId: params.threadIds?.[0], owner: this.plan.owners[params.threadIds?.[0]] === "codex" ? "codex" : "external", harnessId: "claude-code" }] });
      case "thread/read":
        return Promise.resolve({ thread: { id: params.threadId, modelProvider: "openai", cliVersion: "0.50.0" } });
      case "turn/steer":
        return this.respond({ turnId: "turn-2" }, { resolve: 6, later: 3, error: 2, lost: 2, never: 1 });
      case "turn/start":
        return this.respond({ turn: { id: "turn-3" } }, { resolve: 6, later: 3, error: 2, lost: 2, never: 1 });
      default:
        return Promise.reject(this.own({ code: -32601, message: "Method not found" }));
    }
  }

  /** A record of one call of the desktop's own steerTurn/startTurn, tied to the attempt the test has open for it. */
  invoke(kind, threadId, cuid, input) {
    const inv = {
      seq: this.world.tick(),
      kind,
      threadId,
      cuid,
      role: this.role[threadId] ?? "owner",
      // The hook hands the caller's own draft to steerTurn; a startTurn's request is the hook's.
      attempt: this.world.attemptOf(input) ?? this.parent?.attempt ?? this.world.openAttempt(threadId, cuid),
      hookLive: this.world.hookLive,
    };
    this.invocations.push(inv);
    return inv;
  }

  /** Sends through this.sendRequest (the hook's layer when installed), as `inv`. */
  send(inv, method, params, options) {
    const saved = this.current;
    this.current = inv;
    try {
      return this.sendRequest(method, params, options);
    } finally {
      this.current = saved;
    }
  }

  steerTurn(threadId, input, restoreMessage, serviceTier, attachments, clientUserMessageId, additionalContext, toolOutput, onMessageAdded) {
    const inv = this.invoke("steerTurn", threadId, clientUserMessageId, input);
    const request = () => this.send(inv, "turn/steer", { threadId, expectedTurnId: "turn-1", input, clientUserMessageId }, { caller: "steerTurn" });
    const how = this.rng.weighted({ now: 10, later: 4, throw: 1, refuse: 1, never: 1 });
    inv.how = how;
    if (how === "throw") throw this.own(new Error("the desktop's steerTurn threw"));
    const returned =
      how === "refuse"
        ? Promise.reject(this.own(new Error("the desktop refused before sending")))
        : how === "never"
          ? never()
          : how === "later"
            ? sleep(this.rng.between(1, Math.round(this.plan.steerMs * 1.5))).then(request)
            : request();
    this.world.desktopPromises.add(returned);
    return returned;
  }

  startTurn(threadId, submission, onMessageAdded) {
    const r = submission?.request ?? {};
    const inv = this.invoke("startTurn", threadId, r.clientUserMessageId);
    const request = () => this.send(inv, "turn/start", r, { caller: "startTurn" });
    const wait = () => sleep(this.rng.between(1, Math.round(this.plan.steerMs * 1.5)));
    const how = this.rng.weighted({ now: 8, later: 4, optimistic: 3, retrying: 2, catching: 2, handsToSteer: 1, throw: 1, never: 1 });
    inv.how = how;
    if (how === "throw") throw this.own(new Error("the desktop's startTurn threw"));
    if (how === "never") return never();
    if (how === "later") return wait().then(request);
    if (how === "optimistic") {
      // Resolves at once; its turn/start leaves a moment later.
      wait().then(request).catch(() => {});
      return Promise.resolve({ turn: { id: "optimistic", status: "inProgress", items: [] } });
    }
    if (how === "retrying") {
      // Its own retry after a failure: the same request once more.
      return request().catch(() => request());
    }
    if (how === "catching") {
      // Shows a failure itself and resolves.
      return wait().then(request).catch(() => undefined);
    }
    if (how === "handsToSteer") {
      // Hands the submission to its own steerTurn after a moment.
      return sleep(1).then(() => {
        const saved = this.parent;
        this.parent = inv;
        try {
          return this.steerTurn(threadId, r.input, { id: r.clientUserMessageId, context: {} }, r.serviceTier, [], r.clientUserMessageId, r.additionalContext, null, onMessageAdded);
        } finally {
          this.parent = saved;
        }
      });
    }
    return request();
  }

  getTurnCoordinator() {
    return this.coordinator;
  }

  getStreamRole(threadId) {
    return { role: this.role[threadId] ?? "owner" };
  }
}

/** A request that carries a message to the host (not a probe). */
export const carries = (record) => record.method === "turn/steer" || record.method === "turn/start";

/** A carrying request the host does not deduplicate on a same-id resend. */
export function notDeduplicated(record, plan) {
  if (plan.host === "stock") return true;
  if (record.method === "turn/start") return true;
  return record.method === "turn/steer" && record.tag !== "activeTurn" && record.tag !== "newTurn";
}
