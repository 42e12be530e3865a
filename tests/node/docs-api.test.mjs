// The committed API reference (docs/api/) is what TypeDoc makes of the
// published types now: regenerated into a temporary directory by
// scripts/docs-api.sh and compared file by file. When this fails, run
// `bash scripts/docs-api.sh` and commit docs/api/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { repo } from "./pack.mjs";

function files(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

test("docs/api/ is the API reference generated from the current types", () => {
  const out = join(mkdtempSync(join(tmpdir(), "steering-api-")), "api");
  try {
    execFileSync("bash", [join(repo, "scripts", "docs-api.sh"), out], { cwd: repo, stdio: "pipe" });
    const committed = join(repo, "docs", "api");
    const hint = "docs/api/ is out of date: run `bash scripts/docs-api.sh` and commit docs/api/";
    assert.deepEqual(files(committed), files(out), hint);
    for (const file of files(out)) {
      assert.equal(readFileSync(join(committed, file), "utf8"), readFileSync(join(out, file), "utf8"), `${file}: ${hint}`);
    }
  } finally {
    rmSync(join(out, ".."), { recursive: true, force: true });
  }
});
