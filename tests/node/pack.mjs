// Packs the repository with `npm pack` and installs the tarball into an empty
// temporary project, the way a user would get the package.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repo = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export function packAndInstall() {
  const dir = mkdtempSync(join(tmpdir(), "steering-pkg-"));
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: repo, encoding: "utf8" });
  const [info] = JSON.parse(out);
  const tarball = join(dir, info.filename);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", tarball], { cwd: dir, stdio: "pipe" });
  // Resolve through the package's own `exports`, from inside the consumer project.
  writeFileSync(join(dir, "use.mjs"), 'export * from "renderer-steering";\n');
  const manifest = JSON.parse(readFileSync(join(dir, "node_modules", "renderer-steering", "package.json"), "utf8"));
  return { dir, tarball, files: info.files.map((f) => f.path), manifest, entry: pathToFileURL(join(dir, "use.mjs")).href };
}

/** A scripted codexhost host: answers by method; records every call. */
export function scriptedHost(answers) {
  const calls = [];
  const request = (method, params, options) => {
    calls.push({ method, params, options });
    const answer = answers[method];
    if (answer === undefined) return Promise.reject({ code: -32601, message: "Method not found" });
    return typeof answer === "function" ? answer(params) : Promise.resolve(answer);
  };
  return { request, calls };
}
