// Benchmark body shared by Node and the browser. It needs only the package's
// API object; it never reads a clock other than performance.now().
//
// Transport: a real asynchronous JSON-RPC transport in memory: JSON text over
// a MessageChannel (the shape of an Electron IPC or WebSocket client), with a
// scripted host on the far port.

const UNKNOWN = (m) => ({ code: -32600, message: `Invalid request: unknown variant \`${m}\`, expected one of \`thread/read\`, \`turn/steer\`` });
const MISSING = () => ({ code: -32601, message: "Method not found" });

export const HOSTS = {
  "new host": (owner) => ({
    "codexhost/thread/steering/inspect": () => ({ delivery: owner === "codex" ? "official" : "activeTurn" }),
    "turn/steer": () => ({ turnId: "turn-1" }),
  }),
  "old host (no inspect)": (owner) => ({
    "codexhost/thread/ownership/list": (p) => ({ threads: [{ threadId: p.threadIds[0], owner, harnessId: "claude" }] }),
    "turn/steer": () => ({ turnId: "turn-1", delivery: owner === "codex" ? undefined : "newTurn" }),
  }),
  "stock app-server": (owner) => ({
    "thread/read": (p) => ({ thread: { id: p.threadId, modelProvider: owner === "codex" ? "openai" : "codexhost", cliVersion: "0.50.0" } }),
    "turn/steer": () => ({ turnId: "turn-1" }),
  }),
};

function channelTransport(methods, unknown) {
  const { port1, port2 } = new MessageChannel();
  port2.onmessage = (event) => {
    const req = JSON.parse(event.data);
    const handler = methods[req.method];
    const reply = handler ? { jsonrpc: "2.0", id: req.id, result: handler(req.params) } : { jsonrpc: "2.0", id: req.id, error: unknown(req.method) };
    port2.postMessage(JSON.stringify(reply));
  };
  const pending = new Map();
  let next = 0;
  port1.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    const waiter = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error) waiter.reject(msg.error);
    else waiter.resolve(msg.result);
  };
  const request = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      port1.postMessage(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    });
  return { request, close: () => { port1.close(); port2.close(); } };
}

function steerArgs(threadId, n) {
  return { threadId, expectedTurnId: "turn-1", input: [{ type: "text", text: `use pnpm, step ${n}` }], clientUserMessageId: `m-${threadId}-${n}` };
}

async function roundTrips(api, host, owner) {
  const t = channelTransport(HOSTS[host](owner), host === "stock app-server" ? UNKNOWN : MISSING);
  const steering = new api.CodexhostSteering({ request: t.request });
  const trips = [];
  for (const n of [1, 2]) {
    try {
      const r = await steering.steer(steerArgs("thread-a", n));
      trips.push({ rt: r.trace.roundTripsBeforeSteer, path: r.trace.path, ok: true });
    } catch (e) {
      trips.push({ rt: e.trace.roundTripsBeforeSteer, path: e.kind, ok: false });
    }
  }
  t.close();
  return trips;
}

/**
 * Prepares `count` full steers on fresh threads through the engine, and the
 * same request sequence sent bare over the same transport.
 */
export async function prepare(api, host, owner, count) {
  const t = channelTransport(HOSTS[host](owner), host === "stock app-server" ? UNKNOWN : MISSING);
  // The request sequence is recorded while preparing only: a recorder that
  // kept every request of every timed round would make the engine path (and
  // not the bare one) hold all its params objects and pay for it in GC.
  const sequence = [];
  let recording = true;
  const steering = new api.CodexhostSteering({
    request: (method, params) => {
      if (recording) sequence.push({ method, params });
      return t.request(method, params);
    },
  });
  const settle = (p) => p.then(() => {}, () => {});
  await settle(steering.steer(steerArgs("warm", 0)));
  const perSteer = [];
  for (let i = 0; i < count; i++) {
    const before = sequence.length;
    await settle(steering.steer(steerArgs(`thread-${i}`, i)));
    perSteer.push(sequence.slice(before));
  }
  recording = false;
  let round = 1;
  return {
    requestsPerSteer: perSteer[0].length,
    engineRun: async () => {
      round += 1;
      const start = performance.now();
      for (let i = 0; i < count; i++) await settle(steering.steer(steerArgs(`thread-${round}-${i}`, i)));
      return performance.now() - start;
    },
    bareRun: async () => {
      const start = performance.now();
      for (const calls of perSteer) for (const c of calls) await settle(t.request(c.method, c.params));
      return performance.now() - start;
    },
    close: () => {
      t.close();
      steering.free();
    },
  };
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runBench(api, { count = 200, rounds = 9 } = {}) {
  const combos = [];
  for (const host of Object.keys(HOSTS)) {
    for (const owner of ["external", "codex"]) {
      const [first, second] = await roundTrips(api, host, owner);
      combos.push({ host, owner, first, second, bench: await prepare(api, host, owner, count), engine: [], bare: [] });
    }
  }
  // Rounds interleave every combination, so JIT tiers and GC pauses spread
  // evenly; the first round is a warm-up and is dropped.
  for (let round = 0; round <= rounds; round++) {
    for (const c of combos) {
      const bare = await c.bench.bareRun();
      const engine = await c.bench.engineRun();
      if (round > 0) {
        c.bare.push(bare);
        c.engine.push(engine);
      }
    }
  }
  return combos.map((c) => {
    c.bench.close();
    const e = median(c.engine);
    const b = median(c.bare);
    return {
      host: c.host, thread: c.owner === "codex" ? "codex-owned" : "external", first: c.first, second: c.second,
      requestsPerSteer: c.bench.requestsPerSteer, engineMsPerSteer: e / count, bareMsPerSteer: b / count, ratio: e / b, overheadRatio: (e - b) / b,
    };
  });
}
