// Paired A/B of the engine's time per steer in Node, over two or more builds
// loaded in one process: the entries of this build (pkg/ and pkg/entries/,
// benches/package-entries.mjs) and the package at the benchmark's base commit
// (target/bench-base/pkg, scripts/bench-base.sh). Every round runs each
// host/thread row through each pair [A, B] back to back, A first in one round
// and B first in the next, so JIT tiers, GC and the machine's load fall on
// both alike (benches/ab-core.mjs; benches/ab-chromium.mjs runs the same
// rounds in Chromium). A pair prints per row the median of its paired ratios
// B/A (below 1: B is faster).
//   node benches/ab.mjs [A-pkg-dir] [B-pkg-dir]   (default: the base commit against pkg/)
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BASE_DIR } from "./package-entries.mjs";
import { AB, pairedRounds } from "./ab-core.mjs";

export { AB };

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

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
export async function pairedRun(builds, pairs, options) {
  const apis = {};
  for (const [name, dir] of Object.entries(builds)) apis[name] = await load(dir);
  return pairedRounds(apis, pairs, options);
}

/** Paired ratios B/A per host/thread row: `[{ host, thread, ratio }]`. */
export async function abRun(aPkg, bPkg, options) {
  const rows = await pairedRun({ A: aPkg, B: bPkg }, [["A", "B"]], options);
  return rows.map((r) => ({ host: r.host, thread: r.thread, ratio: r.ratios["B/A"] }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const aPkg = resolve(process.argv[2] ?? BASE_DIR);
  const bPkg = resolve(process.argv[3] ?? join(root, "pkg"));
  for (const r of await abRun(aPkg, bPkg)) console.log(`${r.host.padEnd(24)} ${r.thread.padEnd(12)} B/A ${r.ratio.toFixed(3)}`);
}
