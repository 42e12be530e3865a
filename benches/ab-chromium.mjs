// The paired A/B per steer of benches/ab.mjs in headless Chromium: every
// build's browser entry (browser.js, the wasm embedded) loaded and initialised
// in one page, then the same rounds (benches/ab-core.mjs).
//   node benches/ab-chromium.mjs [A-pkg-dir] [B-pkg-dir]   (default: the base commit against pkg/)
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BASE_DIR } from "./package-entries.mjs";
import { inPage, urlOf } from "./chromium-page.mjs";
import { AB } from "./ab-core.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * `builds`: { name: pkg-dir under the repo }; `pairs`: [[A, B], ...] of those names.
 * Answers what benches/ab.mjs pairedRun() answers, measured in Chromium.
 */
export async function pairedRunChromium(builds, pairs, { count = AB.count, rounds = AB.rounds } = {}) {
  const load = Object.entries(builds).map(([name, dir]) =>
    `apis[${JSON.stringify(name)}] = await import(${JSON.stringify(urlOf(join(dir, "browser.js")))});`);
  return inPage(`
    const { pairedRounds } = await import("/benches/ab-core.mjs");
    const apis = {};
    ${load.join("\n    ")}
    for (const api of Object.values(apis)) await api.init();
    return await pairedRounds(apis, ${JSON.stringify(pairs)}, ${JSON.stringify({ count, rounds })});`, { timeout: 1_800_000 });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const aPkg = resolve(process.argv[2] ?? BASE_DIR);
  const bPkg = resolve(process.argv[3] ?? join(root, "pkg"));
  const rounds = Number(process.env.ROUNDS ?? AB.rounds);
  for (const r of await pairedRunChromium({ A: aPkg, B: bPkg }, [["A", "B"]], { rounds })) {
    console.log(`${r.host.padEnd(24)} ${r.thread.padEnd(12)} B/A ${r.ratios["B/A"].toFixed(3)}`);
  }
}
