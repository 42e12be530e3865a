// The packed package in Node >= 20: install the tarball, `await init()` with
// no argument, steer against a scripted host.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packAndInstall, scriptedHost } from "./pack.mjs";

let pkg;
let api;
before(async () => {
  pkg = packAndInstall();
  api = await import(pkg.entry);
  await api.init();
});

test("the tarball holds the wasm, the JS glue, the .d.ts and the README", () => {
  for (const f of ["pkg/renderer_steering_bg.wasm", "pkg/renderer_steering.js", "pkg/index.d.ts", "pkg/renderer_steering.d.ts", "pkg/node.js", "pkg/browser.js", "README.md", "package.json"]) {
    assert.ok(pkg.files.includes(f), `${f} missing from ${pkg.files}`);
  }
  assert.ok(!pkg.files.some((f) => f.startsWith("src/") || f.startsWith("target/")), "no sources in the tarball");
});

test("package.json declares module type, conditional exports, types, files, sideEffects, license", () => {
  const m = pkg.manifest;
  assert.equal(m.name, "renderer-steering");
  assert.equal(m.type, "module");
  assert.equal(m.exports["."].node, "./pkg/node.js");
  assert.equal(m.exports["."].browser, "./pkg/browser.js");
  assert.equal(m.types, "./pkg/index.d.ts");
  assert.equal(m.sideEffects, false);
  assert.ok(m.license && m.version && Array.isArray(m.files));
});

test("init() needs no argument and is idempotent", async () => {
  await api.init();
  assert.equal(api.version(), pkg.manifest.version);
});

test("a steer goes inspect -> tagged turn/steer through the installed package", async () => {
  const host = scriptedHost({
    "codexhost/thread/steering/inspect": { delivery: "activeTurn" },
    "turn/steer": { turnId: "turn-1" },
  });
  const steering = new api.CodexhostSteering({ request: host.request });
  const shown = [];
  const result = await steering.steer(
    { threadId: "t", expectedTurnId: "turn-1", input: [{ type: "text", text: "use pnpm" }], clientUserMessageId: "m1" },
    { present: (d) => shown.push(d) },
  );
  assert.deepEqual(shown, ["activeTurn"]);
  assert.equal(result.delivery, "activeTurn");
  assert.deepEqual(host.calls.map((c) => c.method), ["codexhost/thread/steering/inspect", "turn/steer"]);
  assert.equal(host.calls[1].params.codexhostSteerDelivery, "activeTurn");
});

test("a rejection is a SteeringError with the draft handed back", async () => {
  const steering = new api.CodexhostSteering({ request: () => Promise.reject({ code: -32081, message: "metadata unreadable", data: { id: 1 } }) });
  const input = [{ type: "text", text: "keep my words" }];
  await assert.rejects(steering.steer({ threadId: "t", expectedTurnId: "u", input }), (e) => {
    assert.equal(e.name, "SteeringError");
    assert.equal(e.kind, "host");
    assert.equal(e.code, -32081);
    assert.deepEqual(e.data, { id: 1 });
    assert.equal(e.draft, input, "the very input object comes back");
    return true;
  });
});

test("the .d.ts types the API precisely", () => {
  const dts = readFileSync(join(pkg.dir, "node_modules", "renderer-steering", "pkg", "renderer_steering.d.ts"), "utf8");
  assert.match(dts, /steer\(args: SteerArgs, hooks\?: PresentationHooks \| null\): Promise<SteerResult>;/);
  assert.match(dts, /decide\(args: DecideArgs\): Promise<Decision>;/);
  const index = readFileSync(join(pkg.dir, "node_modules", "renderer-steering", "pkg", "index.d.ts"), "utf8");
  assert.match(index, /export function init\(/);
});
