// The entries' facade (js/facade.js) over a fake glue module shaped like
// wasm-bindgen's: the init gate, fail-fast after a trap (thrown or reported by
// the panic listener), the CSP message, retry after a failed load, one shared
// load for concurrent calls, and the error class handed to the module.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createFacade } from "../../js/facade.js";
import { SteeringError } from "../../js/steering-error.js";

function fakeGlue({ loadFails = [] } = {}) {
  const state = { loads: 0, panicListener: undefined, errorClass: undefined, freed: 0 };
  let nextPtr = 8;
  // Like wasm-bindgen's classes: a pointer the glue zeroes when freed.
  class Engine {
    constructor(options) { this.options = options; this.__wbg_ptr = (nextPtr += 8); }
    ping() { return "pong"; }
    later() { return new Promise(() => {}); } // an answer the module never gives
    trap() { throw new WebAssembly.RuntimeError("unreachable"); }
    overflow() { throw new RangeError("Maximum call stack size exceeded"); }
    fails() { throw new TypeError("bad argument"); }
    get size() { return 3; }
    free() { state.freed += 1; this.__wbg_ptr = 0; }
    [Symbol.dispose]() { this.free(); }
  }
  const glue = {
    Engine,
    version: () => "1.2.3",
    initSync: () => {},
    async default({ module_or_path }) {
      state.loads += 1;
      state.source = module_or_path;
      await new Promise((r) => setTimeout(r, 5));
      const failure = loadFails.shift();
      if (failure) throw failure;
    },
    __setPanicListener: (fn) => { state.panicListener = fn; },
    __setErrorClass: (cls) => { state.errorClass = cls; },
    __hookFailure: (kind, method, detail) => Object.assign(new Error(detail ?? kind), { name: "SteeringError", kind }),
  };
  return { glue, state };
}

const BEFORE = "renderer-steering: call `await init()` first";

test("before init() every class and function throws 'call `await init()` first'", () => {
  const { glue } = fakeGlue();
  const api = createFacade(glue);
  assert.throws(() => new api.Engine({}), { message: BEFORE });
  assert.throws(() => api.version(), { message: BEFORE });
});

test("internal exports stay out of the API; classes keep instanceof and getters", async () => {
  const { glue, state } = fakeGlue();
  const api = createFacade(glue);
  assert.deepEqual(Object.keys(api).sort(), ["Engine", "__hookFailure", "init", "ready", "version"]);
  assert.throws(() => api.ready(), /call `await init\(\)` first/, "ready() throws what any call would");
  await api.init(undefined, () => "bytes");
  api.ready();
  assert.equal(state.source, "bytes", "the entry's default source is used when init() has none");
  const engine = new api.Engine({ a: 1 });
  assert.ok(engine instanceof api.Engine);
  assert.equal(engine.ping(), "pong");
  assert.equal(engine.size, 3);
  assert.equal(api.version(), "1.2.3");
  assert.equal(state.errorClass, SteeringError, "the module builds its rejections from the exported class");
  assert.equal(typeof state.panicListener, "function", "the panic listener is registered at init");
});

test("concurrent init() calls share one load; a later call resolves at once", async () => {
  const { glue, state } = fakeGlue();
  const api = createFacade(glue);
  const a = api.init(undefined, () => "x");
  const b = api.init(undefined, () => "y");
  assert.equal(a, b);
  await Promise.all([a, b]);
  await api.init(undefined, () => "z");
  assert.equal(state.loads, 1);
});

test("a failed init() can be retried", async () => {
  const { glue, state } = fakeGlue({ loadFails: [new TypeError("Failed to fetch")] });
  const api = createFacade(glue);
  await assert.rejects(api.init(undefined, () => "x"), /Failed to fetch/);
  assert.throws(() => api.version(), { message: BEFORE });
  await api.init(undefined, () => "x");
  assert.equal(api.version(), "1.2.3");
  assert.equal(state.loads, 2);
});

test("a CSP block rejects naming 'wasm-unsafe-eval', keeping the original as cause", async () => {
  const csp = new WebAssembly.CompileError(
    "WebAssembly.instantiate(): Refused to compile or instantiate WebAssembly module because 'unsafe-eval' is not an allowed source of script in the following Content Security Policy directive: \"script-src 'self'\"",
  );
  const { glue } = fakeGlue({ loadFails: [csp] });
  const api = createFacade(glue);
  await assert.rejects(api.init(undefined, () => "x"), (e) => {
    assert.match(e.message, /'wasm-unsafe-eval'/);
    assert.equal(e.cause, csp);
    return true;
  });
});

for (const [how, stopIt] of [
  ["a WebAssembly.RuntimeError thrown out of a call", (api, engine) => assert.throws(() => engine.trap(), /stopped/)],
  ["a stack overflow inside a call", (api, engine) => assert.throws(() => engine.overflow(), /stopped/)],
  ["the panic listener (a trap inside an async task)", (api, engine, state) => state.panicListener("panicked at src/x.rs:1")],
]) {
  test(`after ${how}, every call fails fast and owed promises reject`, async () => {
    const { glue, state } = fakeGlue();
    const api = createFacade(glue);
    await api.init(undefined, () => "x");
    const engine = new api.Engine({});
    const owed = engine.later();
    stopIt(api, engine, state);
    const stopped = /renderer-steering: the WebAssembly module stopped .* re-create it by reloading the window/;
    await assert.rejects(owed, stopped);
    assert.throws(() => engine.ping(), stopped);
    assert.throws(() => engine.size, stopped);
    assert.throws(() => new api.Engine({}), stopped);
    assert.throws(() => api.version(), stopped);
    await assert.rejects(api.init(), stopped);
    engine.free();
    engine[Symbol.dispose]();
    assert.equal(state.freed, 0, "free / dispose after a trap are no-ops");
  });
}

test("ordinary errors pass through and do not stop the module", async () => {
  const { glue, state } = fakeGlue();
  const api = createFacade(glue);
  await api.init(undefined, () => "x");
  const engine = new api.Engine({});
  assert.throws(() => engine.fails(), TypeError);
  assert.equal(engine.ping(), "pong");
  engine.free();
  assert.equal(state.freed, 1);
});
