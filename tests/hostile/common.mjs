// Shared by the Node and Chromium runners: waiting for the package build,
// packing it once, and the table both layers print.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { packAndInstall, repo } from "../node/pack.mjs";

export { repo };
export const CLASSES = ["cycles", "depth", "getters", "proxies", "exotic", "wrongTypes", "huge", "timeouts", "hostAnswers", "initialize", "reentry", "desktop", "properties", "churn"];
export const SCALE = Number(process.env.HOSTILE_SCALE ?? 1);
/** Wall-clock limit of one class (a hung or spinning module is killed). */
export const CLASS_WALL_MS = Number(process.env.HOSTILE_CLASS_WALL_MS ?? 90_000);
/** HOSTILE_CLASSES=cycles,depth runs only those. */
export const SELECTED = process.env.HOSTILE_CLASSES ? process.env.HOSTILE_CLASSES.split(",") : CLASSES;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The pkg folder may be briefly missing while a build runs: wait, then pack (retrying). */
export async function packWhenReady(limitMs = 600_000) {
  // Every pkg/ file the manifest ships (a build writes the entries last).
  const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
  const shipped = (manifest.files ?? []).filter((f) => f.startsWith("pkg/") && !f.endsWith("/"));
  const needed = (shipped.length ? shipped : ["pkg/renderer_steering_bg.wasm", "pkg/node.js", "pkg/browser.js"]).map((f) => join(repo, f));
  const start = Date.now();
  let lastError;
  while (Date.now() - start < limitMs) {
    if (needed.every((f) => existsSync(f))) {
      await sleep(1000); // let a build that just wrote the files finish
      try {
        if (needed.every((f) => existsSync(f))) return packAndInstall();
      } catch (e) {
        lastError = e;
      }
    }
    await sleep(2000);
  }
  throw new Error(`pkg/ not ready after ${limitMs} ms${lastError ? `: ${lastError.message}` : ""}`);
}

const pad = (s, n) => String(s).padEnd(n);

/** The printed table: one line per class. */
export function table(title, results) {
  const lines = [
    `hostile inputs in ${title} (scale ${SCALE})`,
    `${pad("class", 12)}${pad("inputs", 9)}${pad("failures", 10)}${pad("poisonings", 12)}${pad("wasm pages", 12)}${pad("externref table (live)", 28)}${pad("bad timers", 12)}${pad("ms", 8)}what`,
  ];
  let inputs = 0, failures = 0, poisonings = 0;
  for (const r of results) {
    if (r.crashed) {
      lines.push(`${pad(r.name, 12)}${pad(r.inputs ?? "?", 9)}${pad("CRASH", 10)}${pad(r.poisonings ?? "?", 12)}${pad("?", 12)}${pad("?", 28)}${pad("?", 12)}${pad(r.ms ?? "?", 8)}${r.crashed}`);
      failures += 1;
      continue;
    }
    inputs += r.inputs;
    failures += r.failureCount;
    poisonings += r.poisonings;
    lines.push(`${pad(r.name, 12)}${pad(r.inputs, 9)}${pad(r.failureCount, 10)}${pad(r.poisonings, 12)}${pad(`${r.pages[0]} -> ${r.pages[1]}`, 12)}${pad(`${r.table[0]} -> ${r.table[1]} (${r.live[0]} -> ${r.live[1]})`, 28)}${pad(r.badTimers, 12)}${pad(r.ms, 8)}${r.about}`);
  }
  lines.push(`${pad("total", 12)}${pad(inputs, 9)}${pad(failures, 10)}${pad(poisonings, 12)}`);
  return lines;
}

/** A readable account of one failed class for the assertion message. */
export function explain(r) {
  if (r.crashed) return `${r.name}: ${r.crashed}\n  last progress: ${JSON.stringify(r.progress ?? null)}\n  ${(r.stderr ?? "").split("\n").slice(-8).join("\n  ")}`;
  return [`${r.name}: ${r.failureCount} failures (first ${r.firstFailure}), poisoned: ${r.poisoned ?? "no"}, pages ${r.pages.join(" -> ")}, table ${r.table.join(" -> ")}, live slots ${r.live.join(" -> ")}`, ...r.failures.map((f) => `  ${f}`)].join("\n");
}
