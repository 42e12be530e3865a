// One timed sample in a fresh Chromium browser context, for the benches that
// time init(): a new context is a new renderer process with empty caches, so
// no compiled code is reused, and its own start-up (the process, the page's
// load, the browser's work for the new context) runs on the same two cores
// for a while after the page has loaded. A clock that runs in that window
// times the start-up as much as the sample, so the page here only prepares
// at load (imports, fetches), the harness lets the renderer settle, and only
// then asks the page to run its timed part.

/** Headers that make a page cross-origin isolated, which gives `performance.now()` 5 µs resolution instead of 100 µs. */
export const ISOLATED = { "cross-origin-opener-policy": "same-origin", "cross-origin-embedder-policy": "require-corp" };

/**
 * How long a loaded page is left alone before its sample, then one idle
 * callback (`SETTLE_MS=<ms>` in the environment sets it, to compare). On a
 * 2-core machine, samples started within about 0.2 s of the load meet that
 * start-up work: they come out slower and spread several times wider, the
 * floor's less than an entry's (its sample is shorter), so even their ratios
 * move. From about 0.3 s on they are steady.
 */
export const SETTLE_MS = Number(process.env.SETTLE_MS ?? 500);

/**
 * The page of one sample: `head`, a classic script, runs first; `setup` is
 * the module's top level (its imports and whatever the sample needs ready);
 * `body` is the body of the async function that `sample()` runs once the
 * renderer has settled: it answers the sample. A throw anywhere reaches
 * `sample()` as an error.
 *
 * ```js
 * const html = settledPage({ setup: `import init from "/floor.js";`, body: `const t0 = performance.now(); await init(); return performance.now() - t0;` });
 * ```
 */
export function settledPage({ head = "", setup, body }) {
  return `<!doctype html>
<script>addEventListener("error", (e) => { window.__err = String(e.message); });
addEventListener("unhandledrejection", (e) => { window.__err = String((e.reason && e.reason.stack) || e.reason); });
${head}</script>
<script type="module">${setup}
window.__run = async () => {${body}
};
window.__ready = true;</script>`;
}

/**
 * Opens `url` (a `settledPage`) in a new context of `browser`, waits for its
 * load and set-up, lets the renderer settle, runs the sample and answers
 * what it returned; the context is closed after.
 *
 * ```js
 * const ms = await sample(browser, "http://127.0.0.1:8080/floor");
 * ```
 */
export async function sample(browser, url) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(url, { waitUntil: "load" });
    await page.waitForFunction(() => window.__ready === true || window.__err !== undefined, null, { timeout: 60_000 });
    const err = await page.evaluate(() => window.__err);
    if (err !== undefined) throw new Error(`${url}: ${err}`);
    await page.evaluate((ms) => new Promise((r) => setTimeout(() => requestIdleCallback(r), ms)), SETTLE_MS);
    return await page.evaluate(() => window.__run()).catch((e) => {
      throw new Error(`${url}: ${errors.join("; ") || e.message}`);
    });
  } finally {
    await context.close();
  }
}
