// JSON-RPC over a child's stdio, one JSON object per line (what Codex
// app-server, codex-acp and claude-agent-acp speak). `request` follows the
// package's transport contract: it rejects with `{ code, message, data? }`
// only when the peer answered with a JSON-RPC error; anything else (the
// process exited, a lost answer, the caller's own timeout) is a plain Error.
// `loseAnswerTo(method)` makes the next answer to `method` vanish after the
// peer sent it: the request is written, the peer acts on it, the caller
// never hears back (a dropped answer, the worst case of a flaky transport).
import { spawn, execFileSync } from "node:child_process";

/** Every process now: pid -> { ppid, pgid, sid, stat, comm }. */
function processes() {
  const table = new Map();
  for (const line of execFileSync("ps", ["-eo", "pid=,ppid=,pgid=,sid=,stat=,comm="], { encoding: "utf8" }).split("\n")) {
    const [pid, ppid, pgid, sid, stat, ...comm] = line.trim().split(/\s+/);
    if (pid) table.set(Number(pid), { ppid: Number(ppid), pgid: Number(pgid), sid: Number(sid), stat, comm: comm.join(" ") });
  }
  return table;
}

/** The processes below `root` (children, theirs, ...) that have not exited (zombies excluded). */
export function descendants(root, table = processes()) {
  const found = new Map();
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, p] of table) {
      if (!found.has(pid) && (p.ppid === root || found.has(p.ppid))) {
        found.set(pid, p);
        grew = true;
      }
    }
  }
  return new Map([...found].filter(([, p]) => !p.stat.startsWith("Z")));
}

/** Which of `snapshot` (from `descendants`) still run as the same process (same group and session). */
export function stillRunning(snapshot) {
  const now = processes();
  return [...snapshot].filter(([pid, p]) => {
    const q = now.get(pid);
    return q && !q.stat.startsWith("Z") && q.pgid === p.pgid && q.sid === p.sid;
  }).map(([pid, p]) => ({ pid, comm: p.comm }));
}

export class StdioRpc {
  constructor(command, args, { env, cwd, onRequest, onNotification } = {}) {
    // Its own process group, so the agent and whatever it starts end together by this id.
    this.child = spawn(command, args, { env, cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
    this.pid = this.child.pid;
    // Should this process end without stop() (a crash, a runner timeout), the group goes with it.
    this.onExit = () => { try { process.kill(-this.pid, "SIGKILL"); } catch { /* gone */ } };
    process.on("exit", this.onExit);
    this.nextId = 1;
    this.pending = new Map();
    this.lose = new Set();
    this.wire = [];
    this.stderr = "";
    this.onRequest = onRequest ?? (() => Promise.reject({ code: -32601, message: "Method not found" }));
    this.onNotification = onNotification ?? (() => {});
    let buffer = "";
    this.child.stdout.on("data", (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, nl).trim();
        buffer = buffer.slice(nl + 1);
        if (line) this.#receive(line);
      }
    });
    this.child.stderr.on("data", (c) => { this.stderr = (this.stderr + c).slice(-20_000); });
    this.exited = new Promise((resolve) => this.child.on("exit", (code, signal) => {
      for (const [, p] of this.pending) p.reject(new Error(`the agent exited (${code ?? signal})`));
      this.pending.clear();
      resolve({ code, signal });
    }));
  }

  #write(message) {
    this.child.stdin.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\n");
  }

  #receive(line) {
    let msg;
    try { msg = JSON.parse(line); } catch { return; }
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      this.wire.push({ dir: "in", id: msg.id, method: p.method, error: msg.error?.code });
      // A lost answer is never heard of, and its timer no longer keeps the process alive.
      if (p.lost) return clearTimeout(p.timer);
      if (msg.error) p.reject({ code: msg.error.code, message: msg.error.message, ...(msg.error.data !== undefined ? { data: msg.error.data } : {}) });
      else p.resolve(msg.result);
    } else if (msg.id !== undefined) {
      Promise.resolve()
        .then(() => this.onRequest(msg.method, msg.params))
        .then((result) => this.#write({ id: msg.id, result }), (e) => this.#write({ id: msg.id, error: { code: e?.code ?? -32603, message: e?.message ?? String(e) } }));
    } else if (msg.method) {
      this.onNotification(msg.method, msg.params);
    }
  }

  /** The next answer to `method` is read off the wire and dropped. */
  loseAnswerTo(method) {
    this.lose.add(method);
  }

  request(method, params, { timeoutMs = 30_000 } = {}) {
    const id = this.nextId++;
    const lost = this.lose.delete(method);
    this.wire.push({ dir: "out", id, method });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(id)) reject(new Error(`no answer to ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      const settle = (f) => (v) => { clearTimeout(timer); f(v); };
      this.pending.set(id, { method, lost, timer, resolve: settle(resolve), reject: settle(reject) });
      this.#write({ id, method, params });
    });
  }

  notify(method, params) {
    this.wire.push({ dir: "out", method });
    this.#write({ method, params });
  }

  /** Methods written since `mark` (an index into `wire`). */
  sentSince(mark) {
    return this.wire.slice(mark).filter((w) => w.dir === "out").map((w) => w.method);
  }

  /**
   * Ends the agent's process group by its id; resolves when it exited. A
   * process it started in a session of its own (Codex runs each command so)
   * is outside that group: it is ended by its pid, as seen before the stop.
   */
  async stop() {
    const tree = this.child.exitCode === null ? descendants(this.pid) : new Map();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      try { process.kill(-this.pid, "SIGTERM"); } catch { /* already gone */ }
      const t = setTimeout(() => { try { process.kill(-this.pid, "SIGKILL"); } catch { /* gone */ } }, 2_000);
      await this.exited;
      clearTimeout(t);
    }
    try { process.kill(-this.pid, "SIGKILL"); } catch { /* the whole group is gone */ }
    for (const { pid } of stillRunning(tree)) {
      try { process.kill(pid, "SIGKILL"); } catch { /* gone meanwhile */ }
    }
    process.off("exit", this.onExit);
  }
}
