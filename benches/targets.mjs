// The targets of the per-integration entries, each with this run's figure and
// whether it holds: what an app pays for the one integration it imports
// (shipped bytes, Chromium init() beside the floor's), and that paying less
// costs no speed per steer. A paired ratio within 3 % of 1 is within this
// benchmark's run-to-run noise.
const KB = 1000;

/** Size targets: shipped gzip -9 (wasm + JS + hook, benches/package-size.mjs), per entry. */
const SIZE = { codexhost: 90, acp: 90, desktop: 110 };
/** Chromium init() (embedded) of an entry, at most this many times the floor's. */
const INIT = { default: 3, codexhost: 2, acp: 2, desktop: 2 };
const WITHIN = 1.03;

const slash = (name) => (name === "default" ? "the default entry" : `/${name}`);

/**
 * `sizes`: benches/package-size.mjs entrySizes(); `init`: benches/init-time.mjs initTimes();
 * `ab`: benches/ab.mjs pairedRun() rows with a "codexhost/default" ratio.
 * Answers `[{ what, figure, ok }]`.
 */
export function targets({ sizes, init, ab }) {
  const rows = [];
  for (const [name, kb] of Object.entries(SIZE)) {
    const { size } = sizes.find((s) => s.name === name);
    rows.push({ what: `${slash(name)} shipped <= ${kb} KB gzip -9`, figure: `${(size.total / KB).toFixed(1)} KB`, ok: size.total <= kb * KB });
  }
  const chromium = init.rows.find((r) => r.runtime === "Chromium, init() (embedded)");
  for (const [name, times] of Object.entries(INIT)) {
    const ratio = chromium.ratio[name];
    rows.push({ what: `Chromium init() of ${slash(name)} <= ${times}x the floor's`, figure: `${ratio.toFixed(2)}x`, ok: ratio <= times });
  }
  const worst = Math.max(...ab.map((r) => r.ratios["codexhost/default"]));
  rows.push({
    what: `/codexhost not slower per steer than the default entry (paired, worst of ${ab.length} rows <= ${WITHIN})`,
    figure: worst.toFixed(3),
    ok: worst <= WITHIN,
  });
  return rows;
}

export function formatTargets(rows) {
  const width = Math.max(...rows.map((r) => r.what.length));
  return ["targets, this run:", ...rows.map((r) => `  ${r.what.padEnd(width)}  ${r.figure.padStart(8)}  ${r.ok ? "holds" : "out of reach"}`)].join("\n");
}
