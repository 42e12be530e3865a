// The packed package in a real headless Chromium page served on 127.0.0.1:
// the page imports "renderer-steering" through an import map built from the
// package's own `exports.browser`, calls `await init()` with no argument and steers.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join, normalize, extname } from "node:path";
import { chromium } from "playwright-core";
import { packAndInstall } from "../node/pack.mjs";
import { CHROMIUM_FLAGS } from "./flags.mjs";

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html", ".json": "application/json" };

let server, browser, base, pkg;

before(async () => {
  pkg = packAndInstall();
  const entry = pkg.manifest.exports["."].browser.replace(/^\.\//, "");
  const page = `<!doctype html><meta charset="utf-8"><title>package</title>
<script type="importmap">{"imports":{"renderer-steering":"/node_modules/renderer-steering/${entry}"}}</script>
<script type="module">
import { init, CodexhostSteering, version } from "renderer-steering";
await init();
const calls = [];
const request = (method, params) => {
  calls.push(method);
  if (method === "codexhost/thread/steering/inspect") return Promise.resolve({ delivery: params.text.startsWith("/") ? "newTurn" : "activeTurn" });
  if (method === "turn/steer") return Promise.resolve({ turnId: "turn-2", delivery: params.codexhostSteerDelivery });
  return Promise.reject({ code: -32601, message: "Method not found" });
};
const steering = new CodexhostSteering({ request });
const shown = [];
const ok = await steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: [{ type: "text", text: "/review" }] }, { present: (d) => shown.push(d) });
const bad = await steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: [{ type: "image", url: "x" }] }).catch((e) => e);
window.__result = { version: version(), ok, shown, calls, bad: { name: bad.name, kind: bad.kind, draft: bad.draft } };
</script>`;
  server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    if (path === "/") return res.writeHead(200, { "content-type": "text/html" }).end(page);
    const file = normalize(join(pkg.dir, path));
    if (!file.startsWith(pkg.dir)) return res.writeHead(403).end();
    const body = await readFile(file).catch(() => null);
    if (body === null) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS });
});

after(async () => {
  await browser?.close();
  server?.close();
});

test("the packed package loads with init() and steers in a Chromium page", async () => {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(base + "/");
  await page.waitForFunction(() => window.__result, null, { timeout: 20_000 });
  const r = await page.evaluate(() => window.__result);
  assert.deepEqual(errors, []);
  assert.equal(r.version, pkg.manifest.version);
  assert.equal(r.ok.delivery, "newTurn");
  assert.deepEqual(r.shown, ["newTurn"]);
  assert.deepEqual(r.calls, ["codexhost/thread/steering/inspect", "turn/steer"]);
  assert.deepEqual(r.bad, { name: "SteeringError", kind: "invalidInput", draft: [{ type: "image", url: "x" }] });
  await page.close();
});
