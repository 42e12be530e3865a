// The hostile-input layer in Node: each class in a fresh child process
// against the packed package, two at a time; prints the class table.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { CLASS_WALL_MS, SCALE, SELECTED, explain, packWhenReady, table } from "./common.mjs";

const child = fileURLToPath(new URL("./child.mjs", import.meta.url));
const results = new Map();
let pkg;
let queue;

function runChild(name) {
  return new Promise((resolve) => {
    const started = Date.now();
    const p = spawn(process.execPath, ["--max-old-space-size=4096", "--expose-gc", child, pkg.entry, name, String(SCALE)], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "", err = "", progress = null, result = null;
    p.stdout.on("data", (d) => {
      out += d;
      let i;
      while ((i = out.indexOf("\n")) >= 0) {
        const line = out.slice(0, i);
        out = out.slice(i + 1);
        if (line.startsWith("PROGRESS ")) progress = JSON.parse(line.slice(9));
        else if (line.startsWith("RESULT ")) result = JSON.parse(line.slice(7));
      }
    });
    p.stderr.on("data", (d) => { err = (err + d).slice(-4000); });
    const timer = setTimeout(() => p.kill("SIGKILL"), CLASS_WALL_MS);
    p.on("close", (code, signal) => {
      clearTimeout(timer);
      if (result) return resolve(result);
      const why = signal === "SIGKILL" ? `killed after ${CLASS_WALL_MS} ms (hung or spinning)` : `child exited with ${signal ?? code} before its result`;
      resolve({ name, crashed: why, progress, inputs: progress?.inputs, poisonings: progress?.poisoned ? 1 : undefined, ms: Date.now() - started, stderr: err });
    });
  });
}

before(async () => {
  pkg = await packWhenReady();
  // Two classes at a time (2 cores shared); each test awaits its own class.
  const pending = [...SELECTED];
  const running = new Map();
  const next = () => {
    const name = pending.shift();
    if (!name) return;
    running.set(name, runChild(name).then((r) => { results.set(name, r); next(); return r; }));
  };
  queue = (name) => running.get(name) ?? new Promise((resolve) => {
    const poll = setInterval(() => { if (running.has(name)) { clearInterval(poll); resolve(running.get(name)); } }, 50);
  });
  next();
  next();
});

after(() => {
  const lines = table("Node", SELECTED.map((n) => results.get(n)).filter(Boolean));
  console.log(`\n${lines.join("\n")}`);
});

for (const name of SELECTED) {
  test(`hostile class ${name} (Node, fresh process)`, { timeout: CLASS_WALL_MS * SELECTED.length }, async () => {
    const r = await queue(name);
    assert.ok(!r.crashed, explain(r));
    assert.equal(r.poisonings, 0, explain(r));
    assert.equal(r.failureCount, 0, explain(r));
  });
}
