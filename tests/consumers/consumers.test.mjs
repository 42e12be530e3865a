// The consumers layer: the packed tarball built into tiny apps with each
// bundler and target (tools pinned in cache.mjs), each app served with a
// strict CSP header and loaded from file://, running one steer in headless
// Chromium. Prints the consumer table (setup, bundle size, result) into
// target/test-logs/consumers-table.md; docs/bundlers.md lists the setups.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, normalize, extname } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "../browser/flags.mjs";
import { packAndInstall } from "../node/pack.mjs";
import { cacheDir, ensureTools } from "./cache.mjs";
import { SETUPS, STRICT_CSP, bundleSize, integrationOf, scriptText } from "./apps.mjs";

const TYPES = { ".js": "text/javascript", ".html": "text/html", ".wasm": "application/wasm", ".css": "text/css" };
const NO_WASM_CSP = "default-src 'self'; script-src 'self'";
const apps = join(cacheDir, "apps");
const rows = [];
let server, base, browser, fileBrowser;

before(async () => {
  const tools = ensureTools();
  console.log(`tools ${tools.installed ? "installed" : "cached"} in ${cacheDir}`);
  const pkg = packAndInstall();
  const target = join(cacheDir, "node_modules", "renderer-steering");
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync("tar", ["xzf", pkg.tarball, "-C", target, "--strip-components=1"]);
  rmSync(apps, { recursive: true, force: true });
  server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    const file = normalize(join(apps, decodeURIComponent(url.pathname)));
    if (!file.startsWith(apps)) return res.writeHead(403).end();
    const body = await readFile(file).catch(() => null);
    if (body === null) return res.writeHead(404).end();
    const csp = url.searchParams.get("csp") === "nowasm" ? NO_WASM_CSP : STRICT_CSP;
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "content-security-policy": csp }).end(body);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${server.address().port}`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS });
  // For module-script pages from file:// (see SETUPS in apps.mjs).
  fileBrowser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: [...CHROMIUM_FLAGS, "--allow-file-access-from-files"] });
});

after(async () => {
  await browser?.close();
  await fileBrowser?.close();
  server?.close();
  const table = [
    "| setup | bundle raw (B) | gzip -9 (B) | http + strict CSP | file:// | init() ms (http) |",
    "|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.name} | ${r.raw} | ${r.gzip} | ${r.http} | ${r.file} | ${r.initMs} |`),
  ].join("\n");
  mkdirSync(join(cacheDir, "..", "test-logs"), { recursive: true });
  writeFileSync(join(cacheDir, "..", "test-logs", "consumers-table.md"), `${table}\n`);
  console.log(table);
});

async function run(url, using = browser) {
  const page = await using.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__steer && window.__steer.state !== "running", null, { timeout: 15_000 }).catch(() => {});
    return { ...(await page.evaluate(() => window.__steer ?? { state: "no script ran" })), errors };
  } finally {
    await page.close();
  }
}

const slug = (name) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/** What each integration's app reports once its message went through. */
const EXPECTED = {
  codexhost: { delivery: "activeTurn", calls: ["codexhost/thread/steering/inspect", "turn/steer"] },
  acp: { delivery: "prompted", calls: ["session/prompt"] },
  desktop: { delivery: "activeTurn", calls: ["codexhost/thread/steering/inspect", "turn/steer"] },
};

function assertSteered(result, where, specifier) {
  assert.equal(result.state, "done", `${where}: ${result.error ?? ""} ${result.errors.join(" | ")}`);
  const expected = EXPECTED[integrationOf(specifier)];
  assert.equal(result.delivery, expected.delivery);
  assert.deepEqual(result.calls, expected.calls);
  assert.ok(result.errorIsClass && result.errorGuard && result.draftBack, `${where}: SteeringError class, guard, draft`);
}

for (const setup of SETUPS) {
  test(`${setup.name}: builds, steers under the strict CSP header and from file://`, async () => {
    const dir = join(apps, slug(setup.name));
    const out = join(dir, "dist");
    await setup.build(join(dir, "src"), out);
    const size = bundleSize(out);
    const text = scriptText(out);
    assert.ok(!/node:fs|readFile\(/.test(text), "no Node entry in a browser bundle");
    const page = `${slug(setup.name)}/dist/index.html`;
    const http = await run(`${base}/${page}`);
    assertSteered(http, "http", setup.specifier);
    const file = await run(pathToFileURL(join(apps, page)).href, setup.module ? fileBrowser : browser);
    if (setup.fileFetchFails) {
      assert.equal(file.state, "failed", "the URL entry cannot fetch its .wasm from a file:// page");
      assert.match(file.error, /fetch/i);
    } else {
      assertSteered(file, "file://", setup.specifier);
    }
    rows.push({
      name: setup.name, raw: size.raw, gzip: size.gzip, http: "steers",
      file: setup.fileFetchFails ? "fails: fetch of file: refused" : `steers${setup.module ? " (module script: flag)" : ""}`,
      initMs: http.initMs.toFixed(1),
    });
  });
}

test("without 'wasm-unsafe-eval' in the CSP, init() rejects naming it", async () => {
  const page = `${slug(SETUPS[0].name)}/dist/index.html`;
  const result = await run(`${base}/${page}?csp=nowasm`);
  assert.equal(result.state, "failed");
  assert.match(result.error, /Content-Security-Policy blocks WebAssembly; add 'wasm-unsafe-eval'/);
});
