// Node consumers of the packed tarball: an ESM app and a CommonJS app
// (require() of the ESM package: Node's require(esm), which `engines` states:
// ^20.19.0 || >=22.12.0). Each runs one steer.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { packAndInstall } from "../node/pack.mjs";

const steer = `
  const steering = new CodexhostSteering({ request: async (m) => (m === "turn/steer" ? { turnId: "u" } : { delivery: "activeTurn" }) });
  const r = await steering.steer({ threadId: "t", expectedTurnId: "u", input: [{ type: "text", text: "x" }] });
  const e = await new CodexhostSteering({ request: async () => { throw { code: -32074, message: "no" }; } })
    .steer({ threadId: "t", expectedTurnId: "u", input: [{ type: "text", text: "x" }] }).catch((x) => x);
  console.log(JSON.stringify({ delivery: r.delivery, isClass: e instanceof SteeringError, guard: isSteeringError(e, "host") }));
`;

let pkg;
before(() => {
  pkg = packAndInstall();
});

function run(name, code) {
  writeFileSync(join(pkg.dir, name), code);
  return JSON.parse(execFileSync(process.execPath, [join(pkg.dir, name)], { cwd: pkg.dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
}

test("Node ESM app: import, await init(), one steer", () => {
  const out = run("app.mjs", `import { init, CodexhostSteering, SteeringError, isSteeringError } from "renderer-steering";\nawait init();\n${steer}`);
  assert.deepEqual(out, { delivery: "activeTurn", isClass: true, guard: true });
});

test("Node CommonJS app: require() on this Node, which meets engines ^20.19.0 || >=22.12.0", () => {
  const [major, minor] = process.versions.node.split(".").map(Number);
  assert.ok((major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major > 22, `Node ${process.versions.node} is below the stated minimum`);
  assert.equal(pkg.manifest.engines.node, "^20.19.0 || >=22.12.0");
  const out = run("app.cjs", `const { init, CodexhostSteering, SteeringError, isSteeringError } = require("renderer-steering");\ninit().then(async () => {\n${steer}});\n`);
  assert.deepEqual(out, { delivery: "activeTurn", isClass: true, guard: true });
});

test("Node CommonJS app: require() of each integration entry", () => {
  const out = run("entries.cjs", `
    const codexhost = require("renderer-steering/codexhost");
    const acp = require("renderer-steering/acp");
    const desktop = require("renderer-steering/desktop");
    Promise.all([codexhost.init(), acp.init(), desktop.init()]).then(async () => {
      const CodexhostSteering = codexhost.CodexhostSteering, SteeringError = codexhost.SteeringError, isSteeringError = codexhost.isSteeringError;
      ${steer}
    });
  `);
  assert.deepEqual(out, { delivery: "activeTurn", isClass: true, guard: true });
});
