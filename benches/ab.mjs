// Paired A/B of the engine's time per steer in Node, over two or more builds
// loaded in one process: the entries of this build (pkg/ and pkg/entries/,
// benches/package-entries.mjs) and the package at the benchmark's base commit
// (target/bench-base/pkg, scripts/bench-base.sh). Every round runs each
// host/thread row through each pair [A, B] back to back, A first in one round
// and B first in the next, so JIT tiers, GC and the machine's load fall on
// both alike. A pair prints per row the median of its paired ratios B/A
// (below 1: B is faster).
//   node benches/ab.mjs [A-pkg-dir] [B-pkg-dir]   (default: the base commit against pkg/)
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HOSTS, prepare, median } from "./bench-core.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Steers per timed run, and timed rounds: enough that a row's median repeats
 *  within a few per cent from run to run on a 2-core machine shared with other work. */
export const AB = { count: 400, rounds: 31 };

async function load(pkg) {
  const api = await import(join(pkg, "node.js"));
  await api.init();
  return api;
}

/**
 * `builds`: { name: pkg-dir }; `pairs`: [[A, B], ...] of those names.
 * Answers per host/thread row `{ host, thread, ratios: { "B/A": median } }`,
 * `rounds` timed rounds after one warm-up.
 */
export async function pairedRun(builds, pairs, { count = AB.count, rounds = AB.rounds } = {}) {
  const names = Object.keys(builds);
  const apis = {};
  for (const name of names) apis[name] = await load(builds[name]);
  const rows = [];
  for (const host of Object.keys(HOSTS)) {
    for (const owner of ["external", "codex"]) {
      const runs = {};
      for (const name of names) runs[name] = await prepare(apis[name], host, owner, count);
      rows.push({ host, thread: owner === "codex" ? "codex-owned" : "external", runs, ratios: pairs.map(() => []) });
    }
  }
  // Each pair runs back to back, its order alternating from round to round:
  // a fixed position (first after the row changes, or after another build)
  // would bias the ratio.
  for (let round = 0; round <= rounds; round++) {
    for (const row of rows) {
      for (const [i, [a, b]] of pairs.entries()) {
        const [first, second] = round % 2 === 0 ? [a, b] : [b, a];
        const ms = { [first]: await row.runs[first].engineRun() };
        ms[second] = await row.runs[second].engineRun();
        if (round > 0) row.ratios[i].push(ms[b] / ms[a]);
      }
    }
  }
  return rows.map((row) => {
    for (const run of Object.values(row.runs)) run.close();
    return {
      host: row.host,
      thread: row.thread,
      ratios: Object.fromEntries(pairs.map(([a, b], i) => [`${b}/${a}`, median(row.ratios[i])])),
    };
  });
}

/** Paired ratios B/A per host/thread row: `[{ host, thread, ratio }]`. */
export async function abRun(aPkg, bPkg, options) {
  const rows = await pairedRun({ A: aPkg, B: bPkg }, [["A", "B"]], options);
  return rows.map((r) => ({ host: r.host, thread: r.thread, ratio: r.ratios["B/A"] }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const aPkg = resolve(process.argv[2] ?? join(root, "target", "bench-base", "pkg"));
  const bPkg = resolve(process.argv[3] ?? join(root, "pkg"));
  for (const r of await abRun(aPkg, bPkg)) console.log(`${r.host.padEnd(24)} ${r.thread.padEnd(12)} B/A ${r.ratio.toFixed(3)}`);
}
