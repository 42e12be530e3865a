// Publishing: publint and @arethetypeswrong/cli on the packed tarball, and
// `npm pack` from a clean clone: it fails loudly without the build tools, and
// with them (prepack builds pkg/) produces the complete file list.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packAndInstall, repo, TARBALL_FILES } from "../node/pack.mjs";

const bin = (name) => join(repo, "node_modules", ".bin", name);

test("publint finds nothing to report in the packed package", () => {
  const pkg = packAndInstall();
  const dir = join(pkg.dir, "node_modules", "renderer-steering");
  const out = execFileSync(bin("publint"), ["--strict", "--pack", "false", dir], { encoding: "utf8" });
  assert.match(out, /All good!/, out);
});

test("@arethetypeswrong/cli: types resolve for node16 ESM and CJS and bundlers, for both subpaths", () => {
  const pkg = packAndInstall();
  // cjs-resolves-to-esm is the one rule ignored: the package is ESM only and
  // CommonJS callers use Node's require(esm) (engines ^20.19.0 || >=22.12.0,
  // tested in node.test.mjs); attw reports it for every ESM-only package.
  // Profile node16 leaves out TypeScript's node10 resolution, which predates
  // `exports` and so cannot see the /url subpath (the main entry passes there).
  const run = spawnSync(bin("attw"), [pkg.tarball, "--format", "ascii", "--profile", "node16", "--ignore-rules", "cjs-resolves-to-esm"], { encoding: "utf8" });
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
  assert.match(run.stdout, /"renderer-steering\/url"/, "the /url subpath is checked too");
  for (const entry of ["renderer-steering", "renderer-steering/url"]) {
    const row = run.stdout.split(`"${entry}"`)[1].split("****")[0];
    assert.match(row, /node16 \(from CJS\): 🟢 \(ESM\)\s+node16 \(from ESM\): 🟢 \(ESM\)\s+bundler: 🟢/u, row);
  }
});

const clones = [];
after(() => clones.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function cleanClone() {
  const dir = mkdtempSync(join(tmpdir(), "steering-clone-"));
  clones.push(dir);
  execFileSync("git", ["clone", "--quiet", repo, dir]);
  return dir;
}

test("npm pack from a clean clone without `npm install` fails loudly and makes no tarball", () => {
  const dir = cleanClone();
  const run = spawnSync("npm", ["pack", "--pack-destination", dir], { cwd: dir, encoding: "utf8" });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /prepack: .*npm install/);
  assert.match(run.stderr, /NOT packed/);
  assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith(".tgz")), []);
});

test("npm pack from a clean clone builds pkg/ in prepack and ships the complete file list", () => {
  const dir = cleanClone();
  symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"), "dir");
  mkdirSync(join(dir, "target"));
  if (existsSync(join(repo, "target", "toolchain.ready"))) copyFileSync(join(repo, "target", "toolchain.ready"), join(dir, "target", "toolchain.ready"));
  // A target dir of its own, kept between runs (incremental): sharing the
  // repository's would overwrite its release .wasm with one built from this
  // clone's path, which the repository's next build reuses as fresh (cargo
  // uplifts by file name) and wasm-bindgen then fails on the deleted clone.
  const env = { ...process.env, CARGO_TARGET_DIR: join(repo, "target", "publish-clone") };
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: dir, encoding: "utf8", env, stdio: ["ignore", "pipe", "pipe"] });
  const [info] = JSON.parse(out);
  const files = info.files.map((f) => f.path).sort();
  assert.deepEqual(files, TARBALL_FILES);
  assert.ok(info.files.find((f) => f.path === "pkg/renderer_steering_bg.wasm").size > 100_000);
});
