// The consumer apps' tools, pinned, installed once into target/consumers-cache
// (skipped when that exact set is already there). `node tests/consumers/cache.mjs`
// installs them ahead of a run.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const cacheDir = join(repo, "target", "consumers-cache");

/** Every bundler the consumer apps are built with (docs/bundlers.md), at one pinned version each. */
export const TOOLS = {
  esbuild: "0.28.2",
  vite: "8.4.0",
  webpack: "5.113.0",
  rollup: "4.68.8",
  "@rollup/plugin-node-resolve": "16.0.3",
};

export function ensureTools() {
  const manifest = JSON.stringify({ name: "steering-consumers", private: true, type: "module", dependencies: TOOLS }, null, 2);
  const stamp = join(cacheDir, "node_modules", ".tools-installed");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === manifest) return { installed: false };
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(join(cacheDir, "package.json"), manifest);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--no-save"], { cwd: cacheDir, stdio: "pipe" });
  writeFileSync(stamp, manifest);
  return { installed: true };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const start = Date.now();
  const { installed } = ensureTools();
  console.log(`${installed ? "installed" : "already present"}: ${Object.entries(TOOLS).map(([n, v]) => `${n}@${v}`).join(" ")} (${Date.now() - start} ms)`);
}
