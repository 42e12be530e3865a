// The TypeScript examples of README.md and docs/: each lives in
// docs/examples/*.ts and is quoted by the pages (scripts/docs-examples.mjs).
// Here every example is compiled against the packed package under strict tsc
// (a Node-only nodenext project without the dom lib, and a bundler project
// with it; no skipLibCheck), every quote must equal its file, and every ```ts
// block of a page must be such a quote. The app objects the examples use
// (rpc, ui, composer, ...) are declared in docs/examples/app.d.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packAndInstall, repo, TS_SETUPS, tsc } from "./pack.mjs";
import { pages, problems, quotes } from "../../scripts/docs-examples.mjs";

const examplesDir = join(repo, "docs", "examples");
const examples = readdirSync(examplesDir).filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts")).sort();

test("the README quotes a quick start per integration and the error example", () => {
  const quoted = quotes(readFileSync(join(repo, "README.md"), "utf8")).map((q) => q.file);
  for (const file of ["quick-start-codexhost.ts", "quick-start-desktop.ts", "quick-start-acp.ts", "errors.ts"]) {
    assert.ok(quoted.includes(`docs/examples/${file}`), `README.md does not quote docs/examples/${file}`);
  }
});

test("every ```ts block of README.md and docs/ quotes an example file, word for word", () => {
  assert.deepEqual(pages().flatMap(problems), []);
});

test("every example file is quoted or linked by a page", () => {
  const text = pages().map((page) => readFileSync(join(repo, page), "utf8")).join("\n");
  for (const file of examples) assert.ok(text.includes(`examples/${file}`), `docs/examples/${file} is neither quoted nor linked`);
});

let pkg;
function consumer() {
  pkg ??= packAndInstall();
  cpSync(examplesDir, join(pkg.dir, "examples"), { recursive: true });
  return pkg.dir;
}

for (const setup of TS_SETUPS) {
  test(`every example compiles under strict tsc against the packed package (${setup.name})`, () => {
    const dir = consumer();
    const output = tsc(dir, ["examples/app.d.ts", ...examples.map((f) => `examples/${f}`)], setup);
    assert.equal(output.trim(), "", output);
  });
}

test("a wrong example fails the compile (the check can fail)", () => {
  const dir = consumer();
  writeFileSync(
    join(dir, "examples", "wrong.ts"),
    [
      'import { CodexhostSteering } from "renderer-steering";',
      "const steering = new CodexhostSteering({ request: (method, params) => rpc.request(method, params) });",
      'await steering.steer({ threadId: 42, input: [{ type: "image", url: "x" }] });',
      "",
    ].join("\n"),
  );
  const output = tsc(dir, ["examples/app.d.ts", "examples/wrong.ts"], TS_SETUPS[0]);
  assert.match(output, /wrong\.ts\(3,\d+\): error TS2322/, output);
});
