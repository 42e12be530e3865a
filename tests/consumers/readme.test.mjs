// Every ```ts block of README.md, compiled against the packed package under
// strict tsc, each block as its own module (Node-only nodenext without the
// dom lib, and a bundler project with it). The app objects the examples
// use (rpc, ui, composer, ...) are declared in readme-prelude.d.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packAndInstall, repo, TS_SETUPS, tsc } from "../node/pack.mjs";

const blocks = [...readFileSync(join(repo, "README.md"), "utf8").matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

test("README has TypeScript examples to compile (quick start, codexhost, errors, desktop hook, ACP)", () => {
  assert.ok(blocks.length >= 5, `only ${blocks.length} ts blocks`);
});

let pkg;
for (const setup of TS_SETUPS) {
  test(`every README TypeScript example compiles under strict tsc (${setup.name})`, () => {
    pkg ??= packAndInstall();
    copyFileSync(join(repo, "tests", "consumers", "readme-prelude.d.ts"), join(pkg.dir, "readme-prelude.d.ts"));
    const files = blocks.map((code, i) => {
      const name = `readme-${i + 1}.ts`;
      writeFileSync(join(pkg.dir, name), `${code}\nexport {};\n`);
      return name;
    });
    const output = tsc(pkg.dir, ["readme-prelude.d.ts", ...files], setup);
    assert.equal(output.trim(), "", output);
  });
}
