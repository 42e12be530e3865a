// One page of headless Chromium running a script against the repo's files
// (served by a local HTTP server on 127.0.0.1), for the benches that run in
// the browser: the script's return value comes back to Node.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join, normalize, extname, dirname, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "../tests/browser/flags.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

/** The page's URL path of `file`, a file under the repo (the server serves nothing else). */
export function urlOf(file) {
  const path = relative(root, file);
  if (path.startsWith("..")) throw new Error(`${file} is outside ${root}: the page cannot load it`);
  return `/${path.split(sep).join("/")}`;
}

/**
 * Runs `body`, the body of an async function (it imports with `await
 * import(urlOf(...))`), in a fresh page and answers what it returns; a throw
 * in the page throws here.
 */
export async function inPage(body, { timeout = 120_000 } = {}) {
  const html = `<!doctype html><script type="module">
try { window.__result = await (async () => {${body}
})(); } catch (e) { window.__err = String((e && e.stack) || e); }
window.__done = true;</script>`;
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/") return res.writeHead(200, { "content-type": "text/html" }).end(html);
    const file = normalize(join(root, path));
    const body = file.startsWith(root) ? await readFile(file).catch(() => null) : null;
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.__done, null, { timeout });
    const r = await page.evaluate(() => ({ result: window.__result, err: window.__err }));
    if (r.err) throw new Error(`chromium: ${r.err}`);
    return r.result;
  } finally {
    await browser.close();
    server.close();
  }
}
