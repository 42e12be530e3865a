// The `initialize` class: hostile `initialize` options of AcpSteering
// (answers, rejecting and never-settling promises, hostile thenables) and a
// cyclic `initialized()` answer twice; each instance still steers after a
// good `initialized()`.
import * as V from "./values.mjs";
import { BOUND, TIMEOUTS, cap, launch, settleAll, sync } from "./contract.mjs";
import { GOOD_INIT, TEXT, freeAll } from "./good-hosts.mjs";
import { sleep, tick } from "./timer-watch.mjs";

function initVariants() {
  const cyclicAnswer = () => { const a = { agentCapabilities: { session: {} }, _meta: { steering: { supported: true } } }; a.agentCapabilities.self = a; return a; };
  const d5k = V.deepObject(5000);
  return [
    ["a cyclic answer", cyclicAnswer],
    ["a 5,000-deep answer", () => ({ _meta: d5k })],
    ["an all-traps Proxy answer", () => V.trapProxy()],
    ["a revoked Proxy answer", () => V.revokedProxy()],
    ["an answer with throwing getters", () => V.throwingGetters(["then"])],
    ["a BigInt", () => V.BIG],
    ["a promise of a cyclic answer", () => Promise.resolve(cyclicAnswer())],
    ["a promise rejecting an all-traps Proxy", () => Promise.reject(V.trapProxy())],
    ["a promise rejecting a cyclic error", () => { const e = { code: -32000, message: "no" }; e.data = e; return Promise.reject(e); }],
    ["a promise rejecting a Symbol", () => Promise.reject(V.SYM)],
    ["a thenable whose then throws", () => ({ then() { throw new V.HostileError("then"); } })],
    ["a thenable whose then getter throws", () => ({ get then() { throw new V.HostileError("then getter"); } })],
    ["a promise that never settles", () => new Promise(() => {})],
  ];
}

/** Runs the class on `h` (see `runClass`). */
export async function runInitialize(h, t, scale, progress) {
  const { api } = h;
  const variants = initVariants();
  const rounds = Math.max(1, Math.round(40 * scale));
  for (let round = 0; round < rounds; round++) {
    await h.warmup(round, rounds);
    const made = [];
    for (const [label, make] of variants) {
      const r = sync(t, `new AcpSteering({initialize: ${label}})`, () => new api.AcpSteering({ request: h.asw.request, initialize: make(), timeouts: { ...TIMEOUTS } }));
      if (r.ok) made.push([label, r.value]);
      const c1 = variants[0][1]();
      sync(t, "initialized(cyclic answer) #1", () => h.acpInit.initialized(c1));
      sync(t, "initialized(cyclic answer) #2", () => h.acpInit.initialized(variants[0][1]()));
    }
    await tick();
    const recs = [];
    for (const [label, inst] of made) {
      sync(t, `inputMode after initialize: ${label}`, () => inst.inputMode("s"));
      sync(t, `initialized(good) after initialize: ${label}`, () => inst.initialized(GOOD_INIT));
      await tick();
      sync(t, `promptSent after initialize: ${label}`, () => inst.promptSent("s"));
      const input = TEXT();
      recs.push(launch(t, `send after initialize: ${label}, then initialized(good)`, () => inst.send("s", input), {
        mustReject: false, draft: input, kinds: [], cap: cap(BOUND.acp),
        onResolve: (out) => { if (V.safeGet(out, "kind") !== "injected") t.fail(`send after initialize: ${label}`, `resolved ${V.describe(V.safeGet(out, "kind"))}`); },
      }));
    }
    // Each steer is accepted as pending input; its turn's end delivers it.
    await sleep(20);
    for (const [label, inst] of made) sync(t, `promptAnswered after initialize: ${label}`, () => inst.promptAnswered("s", { stopReason: "end_turn" }));
    await settleAll(t, recs);
    freeAll(made.map(([, x]) => x));
    if (h.checkPoison(t, round)) break;
    progress(round);
  }
}
