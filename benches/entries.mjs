// Startup of the embedded entry vs renderer-steering/url in headless
// Chromium: the consumer apps built by the consumers layer
// (target/consumers-cache/apps), served on 127.0.0.1 with the strict CSP.
// Prints the median over ROUNDS loads of init() and of navigation -> ready,
// cold (a new browser context each load) and warm (the same page reloaded,
// so the HTTP cache and V8's wasm code cache can help).
// `node benches/entries.mjs` after `node --test tests/consumers/consumers.test.mjs`.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join, normalize, extname } from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "../tests/browser/flags.mjs";
import { cacheDir } from "../tests/consumers/cache.mjs";
import { STRICT_CSP } from "../tests/consumers/apps.mjs";
import { median } from "./bench-core.mjs";

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const APPS = [
  ["Vite, embedded (default)", "vite"],
  ["Vite, renderer-steering/url", "vite-renderer-steering-url"],
  ["webpack web, embedded (default)", "webpack-5-target-web"],
  ["webpack web, renderer-steering/url", "webpack-5-web-renderer-steering-url"],
];
const TYPES = { ".js": "text/javascript", ".html": "text/html", ".wasm": "application/wasm" };
const apps = join(cacheDir, "apps");
const server = createServer(async (req, res) => {
  const file = normalize(join(apps, decodeURIComponent(new URL(req.url, "http://x").pathname)));
  const body = file.startsWith(apps) ? await readFile(file).catch(() => null) : null;
  if (body === null) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-security-policy": STRICT_CSP, "cache-control": "max-age=3600" }).end(body);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS });

async function measure(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => window.__steer && window.__steer.state !== "running");
  const r = await page.evaluate(() => window.__steer);
  if (r.state !== "done") throw new Error(`${url}: ${r.error}`);
  return r;
}

console.log(`median of ${ROUNDS} loads (ms)            cold init  cold ready  warm init  warm ready`);
for (const [label, dir] of APPS) {
  const url = `${base}/${dir}/dist/index.html`;
  const cold = [];
  for (let i = 0; i < ROUNDS; i++) {
    const context = await browser.newContext();
    cold.push(await measure(await context.newPage(), url));
    await context.close();
  }
  const context = await browser.newContext();
  const page = await context.newPage();
  await measure(page, url);
  const warm = [];
  for (let i = 0; i < ROUNDS; i++) warm.push(await measure(page, url));
  await context.close();
  const f = (rs, k) => median(rs.map((r) => r[k])).toFixed(1).padStart(11);
  console.log(`${label.padEnd(36)}${f(cold, "initMs")}${f(cold, "readyMs")}${f(warm, "initMs")}${f(warm, "readyMs")}`);
}
await browser.close();
server.close();
