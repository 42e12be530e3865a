// The packed package in Node >= 20: install the tarball, `await init()` with
// no argument, steer against a scripted host.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { packAndInstall, scriptedHost, TARBALL_FILES } from "./pack.mjs";
import { wasmLimits } from "../../scripts/write-limits.mjs";

let pkg;
let api;
before(async () => {
  pkg = packAndInstall();
  api = await import(pkg.entry);
  await api.init();
});


test("the tarball holds exactly the entries, the driver, the glue, the wasm, the types, LICENSE and README", () => {
  assert.deepEqual([...pkg.files].sort(), TARBALL_FILES);
});

test("the wasm imports none of the package's JavaScript: only the glue's own functions", async () => {
  const bytes = readFileSync(join(pkg.shipped, "renderer_steering_bg.wasm"));
  const modules = new Set(WebAssembly.Module.imports(new WebAssembly.Module(bytes)).map((i) => i.module));
  assert.deepEqual([...modules], ["./renderer_steering_bg.js"]);
  assert.ok(!pkg.files.some((f) => f.includes("snippets")), "no pkg/snippets/");
  // Besides its memory and wasm-bindgen's own runtime (`__wbindgen_*`, its abort handling): the start function, `step` and `version`.
  const exported = WebAssembly.Module.exports(new WebAssembly.Module(bytes)).map((e) => e.name);
  const ours = exported.filter((name) => !name.startsWith("__") && name !== "memory");
  assert.deepEqual(ours.sort(), ["start", "step", "version"], `the wasm's own exports: ${exported}`);
});

test("package.json: browser before node in every export (webpack's electron-renderer sets both), metadata, engines", () => {
  const m = pkg.manifest;
  assert.equal(m.name, "renderer-steering");
  assert.equal(m.type, "module");
  for (const [subpath, browserEntry] of [[".", "./pkg/browser.js"], ["./url", "./pkg/url.js"]]) {
    const conditions = Object.keys(m.exports[subpath]);
    assert.deepEqual(conditions, ["types", "browser", "node", "default"], subpath);
    assert.equal(m.exports[subpath].browser, browserEntry);
    assert.equal(m.exports[subpath].default, browserEntry);
    assert.equal(m.exports[subpath].node, "./pkg/node.js");
  }
  assert.equal(m.types, "./pkg/index.d.ts");
  assert.equal(m.sideEffects, false);
  assert.equal(m.license, "MIT");
  assert.ok(m.repository?.url && m.homepage && m.bugs?.url && m.keywords?.length >= 5);
  assert.equal(m.engines.node, "^20.19.0 || >=22.12.0");
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

test("a rejection is a SteeringError instance with the draft handed back", async () => {
  const steering = new api.CodexhostSteering({ request: () => Promise.reject({ code: -32081, message: "metadata unreadable", data: { id: 1 } }) });
  const input = [{ type: "text", text: "keep my words" }];
  await assert.rejects(steering.steer({ threadId: "t", expectedTurnId: "u", input }), (e) => {
    assert.ok(e instanceof api.SteeringError, "instanceof the exported class");
    assert.ok(e instanceof Error);
    assert.ok(api.isSteeringError(e) && api.isSteeringError(e, "host") && !api.isSteeringError(e, "timeout"));
    assert.equal(e.name, "SteeringError");
    assert.equal(e.kind, "host");
    assert.equal(e.code, -32081);
    assert.deepEqual(e.data, { id: 1 });
    assert.equal(e.draft, input, "the very input object comes back");
    return true;
  });
  assert.equal(api.isSteeringError(new Error("x")), false);
  const hostile = new Proxy(new Error("x"), { getPrototypeOf() { throw new Error("trap"); }, get() { throw new Error("trap"); } });
  assert.equal(api.isSteeringError(hostile), false, "a Proxy whose traps throw is no SteeringError, and no throw");
  assert.equal(api.isSteeringError({ name: "SteeringError", kind: "host" }), false, "not an Error");
  const lookAlike = (kind) => Object.assign(new Error("x"), { name: "SteeringError", kind });
  assert.equal(api.isSteeringError(lookAlike("outcomeUnknown"), "outcomeUnknown"), true, "another copy's error, a known kind");
  assert.equal(api.isSteeringError(lookAlike("totallyMadeUp")), false, "an unknown kind is not narrowed to the union");
});

test("another copy's error is a SteeringError with every kind the engine fails with, and no other", async () => {
  const { errorKinds } = await wasmLimits(pkg.shipped);
  const lookAlike = (kind) => Object.assign(new Error("x"), { name: "SteeringError", kind });
  for (const kind of errorKinds) assert.equal(api.isSteeringError(lookAlike(kind), kind), true, kind);
  assert.equal(api.isSteeringError(lookAlike(`${errorKinds[0]}s`)), false);
});

test("a SteeringError made by the app is one, named by an own hidden field; an Error of another name is not", () => {
  const made = new api.SteeringError("m");
  assert.deepEqual(Object.getOwnPropertyDescriptor(made, "name"), { value: "SteeringError", writable: true, enumerable: false, configurable: true });
  assert.equal(made.message, "m");
  assert.equal(api.isSteeringError(made), true, "its own class, even without a kind");
  assert.equal(api.isSteeringError(Object.assign(new Error("x"), { kind: "host" })), false, "a known kind under another name");
});

test("an engine's error report hands back the caller's draft by identity, else the report's own", async () => {
  const errors = await import(pathToFileURL(join(pkg.shipped, "driver", "steering-error.js")).href);
  assert.equal(errors.SteeringError, api.SteeringError, "the one class every entry shares");
  const report = { message: "m", kind: "host", code: 1, draft: ["from the report"] };
  assert.deepEqual(errors.steeringError(report).draft, ["from the report"]);
  const draft = ["the caller's"];
  assert.equal(errors.steeringError(report, draft).draft, draft);
});

test("the entry exports the API and nothing internal", () => {
  const names = Object.keys(api).sort();
  assert.deepEqual(names, ["AcpSteering", "CodexhostSteering", "DesktopSteering", "SteeringError", "init", "installDesktopSteering", "isSteeringError", "version"]);
  const dts = readFileSync(join(pkg.shipped, "renderer_steering.d.ts"), "utf8");
  const glueExports = [...dts.matchAll(/^export (?:class|function) (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(glueExports, ["start", "step", "version"], "the wasm is called one way (and `start` runs once at init)");
  const index = readFileSync(join(pkg.shipped, "index.d.ts"), "utf8");
  for (const name of names) assert.match(index, new RegExp(`export (?:class|function) ${name}\\b`), `${name} is declared in index.d.ts`);
});

test("the .d.ts types the API precisely", () => {
  const index = readFileSync(join(pkg.shipped, "index.d.ts"), "utf8");
  assert.match(index, /steer\(args: SteerArgs, hooks\?: PresentationHooks \| null\): Promise<SteerResult>;/);
  assert.match(index, /decide\(args: DecideArgs\): Promise<Decision>;/);
  assert.match(index, /promptSent\(sessionId: string\): PromptToken;/);
  assert.match(index, /export function init\(/);
});

test("the shipped wasm is the size-first build: no source path of any crate in its data (-Zlocation-detail=none)", () => {
  const wasm = readFileSync(join(pkg.shipped, "renderer_steering_bg.wasm")).toString("latin1");
  // A build with locations (rustup's prebuilt std, or without the flag) carries dozens: src/bridge/*.rs, serde_json's, core's.
  const paths = wasm.match(/[\w.-]+\/[\w./-]*\.rs\b/g) ?? [];
  assert.deepEqual(paths, []);
});

test("the shipped wasm's heap is talc, not std's dlmalloc (src/shell/mod.rs)", () => {
  const wasm = readFileSync(join(pkg.shipped, "renderer_steering_bg.wasm")).toString("latin1");
  // dlmalloc's own consistency checks, in every build that links it.
  assert.ok(!wasm.includes("psize >= size + min_overhead"), "dlmalloc is linked");
});

test("the size-first build keeps error text whole: a wrong string value is still quoted, in the package's words", async () => {
  const steering = new api.CodexhostSteering({ request: () => Promise.resolve({}) });
  const input = [{ type: "text", text: "use pnpm" }];
  const error = await steering.steer({ threadId: "t", input, pendingTurnStart: "yes" }).then(() => null, (e) => e);
  assert.equal(error?.kind, "invalidInput");
  assert.match(error.message, /^the steer arguments must be .*\(near `.*"pendingTurnStart":"yes"?`\)$/);
  assert.equal(error.draft, input);
  steering.free();
});
