// Writes the figures of docs/performance.md from a run of `npm run bench`:
// everything between the page's `<!-- bench:begin -->` and `<!-- bench:end -->`
// lines is replaced by the run's output and a line saying where and when it
// ran. The rest of the page explains the blocks and quotes no figure.
//
//   node scripts/docs-performance.mjs                  runs scripts/bench.sh (builds pkg/ and the floor; CPU-heavy, minutes)
//   node scripts/docs-performance.mjs --from <file>    takes a saved `npm run bench` output instead
//   node scripts/docs-performance.mjs --size-report <file>   writes the `<!-- size:begin -->` block
//                                                      from a saved `bash scripts/size-report.sh` output
//   node scripts/docs-performance.mjs --init-split <file>    writes the `<!-- init-split:begin -->` block
//                                                      from a saved `node benches/init-split.mjs` output
import { spawn, execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const page = join(repo, "docs", "performance.md");

function runBench() {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [join(repo, "scripts", "bench.sh")], { cwd: repo, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`scripts/bench.sh exited with ${code}`))));
  });
}

function chromiumVersion() {
  try {
    return execFileSync("/usr/bin/chromium", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return "Chromium (version unknown)";
  }
}

/** Replaces the page's block between `<!-- name:begin -->` and `<!-- name:end -->` with `lines`. */
function writeBlock(name, lines) {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const text = readFileSync(page, "utf8");
  const at = text.indexOf(begin);
  const to = text.indexOf(end);
  if (at < 0 || to < at) throw new Error(`${page} has no ${begin} ... ${end} block`);
  writeFileSync(page, text.slice(0, at) + [begin, "", ...lines, "", end].join("\n") + text.slice(to + end.length));
  console.error(`[docs-performance] ${page}: ${name} figures rewritten`);
}

const cpu = cpus();
const version = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")).version;
const when = `renderer-steering ${version}, ${new Date().toISOString().slice(0, 10)}`;

const sizeReport = process.argv.indexOf("--size-report");
if (sizeReport > 0) {
  // `bash scripts/size-report.sh > <file>`: the wasm by part, and the floor.
  const output = readFileSync(process.argv[sizeReport + 1], "utf8");
  const table = output.slice(output.indexOf("part of the wasm")).trimEnd();
  if (!output.includes("part of the wasm") || !output.includes("dependency floor")) {
    throw new Error("that does not look like the output of `bash scripts/size-report.sh`; the page was not changed");
  }
  writeBlock("size", [`Written by \`node scripts/docs-performance.mjs --size-report\` from one run of \`bash scripts/size-report.sh\` (${when}).`, "", "```text", table, "```"]);
  process.exit(0);
}

const initSplit = process.argv.indexOf("--init-split");
if (initSplit > 0) {
  // `node benches/init-split.mjs > <file>`: Chromium's init() by step, and each cut.
  const output = readFileSync(process.argv[initSplit + 1], "utf8");
  if (!output.includes("init() of the embedded entry, split") || !output.includes("V8 flags")) {
    throw new Error("that does not look like the output of `node benches/init-split.mjs`; the page was not changed");
  }
  const where = `${when}: ${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, ${chromiumVersion()}`;
  writeBlock("init-split", [`Written by \`node scripts/docs-performance.mjs --init-split\` from one run of \`node benches/init-split.mjs\` (${where}).`, "", "```text", output.trimEnd(), "```"]);
  process.exit(0);
}

const from = process.argv.indexOf("--from");
const output = from > 0 ? readFileSync(process.argv[from + 1], "utf8") : await runBench();
if (!output.includes("Round trips before the steer") || !output.includes("targets, this run:")) {
  throw new Error("that does not look like the output of `npm run bench`; the page was not changed");
}
const where = `${when}: ${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, Node ${process.version}, ${chromiumVersion()}.`;
writeBlock("bench", [`Written by \`node scripts/docs-performance.mjs\` from one run of \`npm run bench\` (${where})`, "", "```text", output.trimEnd(), "```"]);
