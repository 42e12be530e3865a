// Paired A/B of the engine's time per steer in Node: the package at the
// benchmark's base commit (A: target/bench-base/pkg, scripts/bench-base.sh)
// against this one (B: pkg/), both loaded in one process. Every round runs
// each host/thread row once through A and once through B, the order
// alternating, so JIT tiers, GC and the machine's load fall on both alike.
// Prints per row the median of the paired ratios B/A (below 1: B is faster).
//   node benches/ab.mjs [A-pkg-dir] [B-pkg-dir]
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HOSTS, prepare, median } from "./bench-core.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

async function load(pkg) {
  const api = await import(join(pkg, "node.js"));
  await api.init();
  return api;
}

/** Paired ratios B/A per host/thread row, `rounds` timed rounds after one warm-up. */
export async function abRun(aPkg, bPkg, { count = 200, rounds = 15 } = {}) {
  const [a, b] = [await load(aPkg), await load(bPkg)];
  const rows = [];
  for (const host of Object.keys(HOSTS)) {
    for (const owner of ["external", "codex"]) {
      rows.push({ host, thread: owner === "codex" ? "codex-owned" : "external", a: await prepare(a, host, owner, count), b: await prepare(b, host, owner, count), ratios: [] });
    }
  }
  for (let round = 0; round <= rounds; round++) {
    for (const row of rows) {
      const first = round % 2 === 0 ? row.a : row.b;
      const second = first === row.a ? row.b : row.a;
      const t1 = await first.engineRun();
      const t2 = await second.engineRun();
      const [ta, tb] = first === row.a ? [t1, t2] : [t2, t1];
      if (round > 0) row.ratios.push(tb / ta);
    }
  }
  return rows.map((row) => {
    row.a.close();
    row.b.close();
    return { host: row.host, thread: row.thread, ratio: median(row.ratios) };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const aPkg = resolve(process.argv[2] ?? join(root, "target", "bench-base", "pkg"));
  const bPkg = resolve(process.argv[3] ?? join(root, "pkg"));
  for (const r of await abRun(aPkg, bPkg)) console.log(`${r.host.padEnd(24)} ${r.thread.padEnd(12)} B/A ${r.ratio.toFixed(3)}`);
}
