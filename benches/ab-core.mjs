// The rounds of the paired A/B per steer, shared by Node (benches/ab.mjs) and
// headless Chromium (benches/ab-chromium.mjs): it needs only the builds' API
// objects, so a page imports it as it is.
import { HOSTS, prepare, median } from "./bench-core.mjs";

/** Steers per timed run, and timed rounds: enough that a row's median repeats
 *  within a few per cent from run to run on a 2-core machine shared with other work. */
export const AB = { count: 400, rounds: 31 };

/**
 * `apis`: { name: initialised package API }; `pairs`: [[A, B], ...] of those names.
 * Answers per host/thread row `{ host, thread, ratios: { "B/A": median } }`,
 * `rounds` timed rounds after one warm-up.
 */
export async function pairedRounds(apis, pairs, { count = AB.count, rounds = AB.rounds } = {}) {
  const names = Object.keys(apis);
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
