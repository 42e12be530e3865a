// Rough per-call cost of the entries' facade (js/facade.js) in Node: the same
// calls through the raw wasm-bindgen glue and through the package entry.
// `node benches/facade-cost.mjs` after scripts/build-pkg.sh.
import { readFile } from "node:fs/promises";
import * as glue from "../pkg/renderer_steering.js";

const raw = {
  inputMode: glue.AcpSteering.prototype.inputMode,
  version: glue.version,
  steer: glue.CodexhostSteering.prototype.steer,
};
const entry = await import("../pkg/node.js"); // wraps the glue's prototypes from here on
await entry.init(await readFile(new URL("../pkg/renderer_steering_bg.wasm", import.meta.url)));

const request = async (m) => (m === "turn/steer" ? { turnId: "u" } : { delivery: "activeTurn" });
const acp = new entry.AcpSteering({ request });
const codex = new entry.CodexhostSteering({ request });
const input = [{ type: "text", text: "x" }];

async function time(label, n, fn, isAsync) {
  for (let i = 0; i < n / 10; i++) isAsync ? await fn(i) : fn(i); // warm-up
  const start = process.hrtime.bigint();
  if (isAsync) for (let i = 0; i < n; i++) await fn(i);
  else for (let i = 0; i < n; i++) fn(i);
  return Number(process.hrtime.bigint() - start) / n;
}

const rows = [
  ["version()", 500_000, () => raw.version(), () => entry.version()],
  ["acp.inputMode(s)", 500_000, () => raw.inputMode.call(acp, "s"), () => acp.inputMode("s")],
  ["codexhost steer (2 requests)", 5_000,
    (i) => raw.steer.call(codex, { threadId: `r${i}`, expectedTurnId: "u", input }),
    (i) => codex.steer({ threadId: `f${i}`, expectedTurnId: "u", input })],
];
console.log("call                          raw ns/call  facade ns/call  added ns");
for (const [label, n, a, b] of rows) {
  const results = [];
  for (let round = 0; round < 5; round++) results.push([await time(label, n, a, n < 100_000), await time(label, n, b, n < 100_000)]);
  const median = (k) => results.map((r) => r[k]).sort((x, y) => x - y)[2]; // of 5 interleaved rounds
  const [r, f] = [median(0), median(1)];
  console.log(`${label.padEnd(30)}${r.toFixed(0).padStart(11)}${f.toFixed(0).padStart(16)}${(f - r).toFixed(0).padStart(10)}`);
}
