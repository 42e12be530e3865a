// Starts the real reference host and a real headless Chromium for the
// playground scenarios; screenshots go to artifacts/.
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "../browser/flags.mjs";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const artifacts = join(repo, "artifacts");

export async function startHost() {
  const child = spawn(join(repo, "target", "release", "steering-host"), ["--port", "0", "--root", repo], { stdio: ["ignore", "pipe", "inherit"] });
  const base = await new Promise((resolve, reject) => {
    let seen = "";
    child.stdout.on("data", (chunk) => {
      seen += chunk;
      const match = seen.match(/playground: (http:\/\/127\.0\.0\.1:\d+)\//);
      if (match) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`host exited with ${code}`)));
  });
  return { base, stop: () => child.kill("SIGINT") };
}

export async function startBrowser() {
  mkdirSync(artifacts, { recursive: true });
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS });
}

/** Opens the playground connected to `mode`, at double speed. */
export async function open(browser, base, params) {
  const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(`${base}/?speed=2&autoconnect=1&${params}`);
  await page.waitForSelector('body[data-connected="yes"]', { timeout: 15_000 });
  page.errors = errors;
  return page;
}

export async function steer(page, text) {
  await page.fill("#draft", text);
  await page.click("#send");
}

export async function shot(page, name) {
  await page.screenshot({ path: join(artifacts, `playground-${name}.png`) });
}
