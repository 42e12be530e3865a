// The integration entries of the packed package in Node: each exports its
// integration's classes only, loads its own (smaller) wasm, and works; two
// entries in one app are two independent modules.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { RequestManager } from "./fake-manager.mjs";
import { packAndInstall, scriptedHost } from "./pack.mjs";

let pkg;
const load = (specifier) => {
  const file = join(pkg.dir, `use-${specifier.replace(/\W+/g, "-")}.mjs`);
  writeFileSync(file, `export * from "${specifier}";\n`);
  return import(pathToFileURL(file).href);
};
before(() => {
  pkg = packAndInstall();
});

const COMMON = ["SteeringError", "init", "isSteeringError", "version"];
const ENTRIES = {
  "renderer-steering/codexhost": ["CodexhostSteering"],
  "renderer-steering/acp": ["AcpSteering"],
  "renderer-steering/desktop": ["DesktopSteering", "installDesktopSteering"],
};

for (const [specifier, classes] of Object.entries(ENTRIES)) {
  test(`${specifier} (and ${specifier}/url in Node) exports ${classes.join(", ")} and nothing of the other integrations`, async () => {
    for (const s of [specifier, `${specifier}/url`]) {
      const api = await load(s);
      assert.deepEqual(Object.keys(api).sort(), [...COMMON, ...classes].sort(), s);
    }
  });
}

test("each entry's wasm holds only its dialect: smaller than the default entry's", () => {
  const root = pkg.shipped;
  const full = statSync(join(root, "renderer_steering_bg.wasm")).size;
  for (const name of ["codexhost", "acp", "desktop"]) {
    const size = statSync(join(root, "entries", name, "renderer_steering_bg.wasm")).size;
    assert.ok(size < full, `${name}: ${size} B, the default ${full} B`);
  }
});

test("renderer-steering/codexhost steers", async () => {
  const api = await load("renderer-steering/codexhost");
  await api.init();
  const host = scriptedHost({ "codexhost/thread/steering/inspect": { delivery: "activeTurn" }, "turn/steer": { turnId: "turn-1" } });
  const steering = new api.CodexhostSteering({ request: host.request });
  const result = await steering.steer({ threadId: "t", expectedTurnId: "turn-1", input: [{ type: "text", text: "use pnpm" }] });
  assert.equal(result.delivery, "activeTurn");
  const refused = await new api.CodexhostSteering({ request: () => Promise.reject({ code: -32074, message: "no" }) })
    .steer({ threadId: "t", expectedTurnId: "turn-1", input: [{ type: "text", text: "x" }] }).catch((e) => e);
  assert.ok(api.isSteeringError(refused, "host") && refused instanceof api.SteeringError);
});

test("renderer-steering/acp sends", async () => {
  const api = await load("renderer-steering/acp");
  await api.init();
  const acp = new api.AcpSteering({ request: () => Promise.resolve({ stopReason: "end_turn" }), initialize: { agentCapabilities: {} } });
  const outcome = await acp.send("s", [{ type: "text", text: "hello" }]);
  assert.deepEqual([outcome.kind, outcome.stopReason], ["prompted", "end_turn"]);
  acp.free();
});

test("renderer-steering/desktop installs its hook and steers through the desktop's own request", async () => {
  const api = await load("renderer-steering/desktop");
  await api.init();
  const manager = new RequestManager({ "codexhost/thread/steering/inspect": { delivery: "activeTurn" }, "turn/steer": { turnId: "turn-1" } });
  const hook = api.installDesktopSteering(manager);
  assert.ok(hook instanceof api.DesktopSteering);
  await manager.steerTurn("t", [{ type: "text", text: "use pnpm" }]);
  assert.deepEqual(manager.sent.map((s) => s.method), ["codexhost/thread/steering/inspect", "turn/steer"]);
  hook.dispose();
});

test("two entries in one app are independent modules: each loads its own wasm with its own init()", () => {
  const file = join(pkg.dir, "two-entries.mjs");
  writeFileSync(file, `
    import * as codexhost from "renderer-steering/codexhost";
    import * as acp from "renderer-steering/acp";
    await codexhost.init();
    let before;
    try { new acp.AcpSteering({ request: () => new Promise(() => {}) }); before = "constructed"; } catch (e) { before = e.message; }
    await acp.init();
    const made = new acp.AcpSteering({ request: () => new Promise(() => {}), initialize: {} });
    console.log(JSON.stringify({ before, after: made.inputMode("s").mode }));
  `);
  const out = JSON.parse(execFileSync(process.execPath, [file], { cwd: pkg.dir, encoding: "utf8" }));
  assert.match(out.before, /call `await init\(\)` first/);
  assert.equal(out.after, "idle");
});
