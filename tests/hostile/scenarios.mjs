// The hostile-input classes, each thrown at every public entry
// point, and `runClass`, which runs one class against an initialised package
// and returns a plain record. The same module runs in a Node child process
// and in a Chromium page (tests/hostile/node.test.mjs, chromium.test.mjs).
import * as V from "./values.mjs";
import {
  BOUND, CALLER_KINDS, FLAT, GOOD_INIT, HOST_KINDS, INJECT_INIT, INSPECT, MAX_TIMER_MS, Manager, TIMEOUTS, Tally,
  acpSteers, cap, codexhostSteers, desktopSteers, freeAll, goodAcp, goodCodexhost, launch, probe, restoreMessage,
  quiesce, settleAll, sleep, switchable, sync, tick, timerWatch, turnsEnd, wasmParts,
} from "./harness.mjs";
import { CHURN_ABOUT, runChurn } from "./churn.mjs";

const TEXT = () => [{ type: "text", text: "use pnpm" }];
const UPDATE = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } };

/**
 * The instances one class works on: built on good scripted hosts, kept for
 * the whole class, and checked to still steer at the end ("same instance").
 */
async function context(api, t) {
  const sw = switchable(goodCodexhost);
  const cx = new api.CodexhostSteering({ request: sw.request, timeouts: { ...TIMEOUTS } });
  const asw = switchable(goodAcp);
  const turns = turnsEnd(asw.request);
  const acp = turns.bind(new api.AcpSteering({ request: turns.request, initialize: GOOD_INIT, timeouts: { ...TIMEOUTS } }));
  const aisw = switchable(goodAcp);
  const initTurns = turnsEnd(aisw.request);
  const acpInit = initTurns.bind(new api.AcpSteering({ request: initTurns.request, initialize: GOOD_INIT, timeouts: { ...TIMEOUTS } }));
  const manager = new Manager();
  let hook = null;
  try {
    hook = api.installDesktopSteering(manager, { timeouts: { ...TIMEOUTS } });
  } catch (e) {
    hook = null;
    t.fail("setup", `installDesktopSteering(a good manager) threw ${V.describe(e)}`);
  }
  await tick();
  acp.promptSent("s1");
  return { api, sw, cx, asw, acp, aisw, acpInit, manager, hook, made: [] };
}

// ---- caller values at every entry point ---------------------------------------

/** Roles whose slot must refuse any hostile value (ids, text, drafts, whole args). */
const STRICT = new Set(["args", "id", "text", "input", "item"]);

/**
 * Every promise-returning entry point, with the hostile value in one slot.
 * Each returns [call, draft]: draft is the caller's input array when it is
 * readable (identity is then required), otherwise undefined.
 */
function asyncSlots(h) {
  const steer = (slot, over, hooks) => {
    const input = TEXT();
    return [() => h.cx.steer({ threadId: slot, expectedTurnId: "turn-1", input, ...over(input) }, hooks), input];
  };
  const c = (name, role, bound, make) => ({ name, role, bound, make });
  return [
    c("decide(args)", "args", BOUND.decide, (v) => [() => h.cx.decide(v)]),
    c("decide({threadId})", "id", BOUND.decide, (v) => [() => h.cx.decide({ threadId: v, text: "x" })]),
    c("decide({text})", "text", BOUND.decide, (v, s) => [() => h.cx.decide({ threadId: s, text: v })]),
    c("steer(args)", "args", BOUND.steer, (v) => [() => h.cx.steer(v)]),
    c("steer({threadId})", "id", BOUND.steer, (v) => steer(undefined, () => ({ threadId: v }))),
    c("steer({expectedTurnId})", "id", BOUND.steer, (v, s) => steer(s, () => ({ expectedTurnId: v }))),
    c("steer({input})", "input", BOUND.steer, (v, s) => [() => h.cx.steer({ threadId: s, expectedTurnId: "turn-1", input: v })]),
    c("steer({input: [v]})", "item", BOUND.steer, (v, s) => { const input = [v]; return [() => h.cx.steer({ threadId: s, expectedTurnId: "turn-1", input }), input]; }),
    c("steer({input: [{text: v}]})", "text", BOUND.steer, (v, s) => { const input = [{ type: "text", text: v }]; return [() => h.cx.steer({ threadId: s, expectedTurnId: "turn-1", input }), input]; }),
    c("steer({clientUserMessageId})", "id", BOUND.steer, (v, s) => steer(s, () => ({ clientUserMessageId: v }))),
    c("steer({additionalContext})", "data", BOUND.steer, (v, s) => steer(s, () => ({ additionalContext: v }))),
    c("steer({responsesapiClientMetadata})", "data", BOUND.steer, (v, s) => steer(s, () => ({ responsesapiClientMetadata: v }))),
    c("steer({requestOptions})", "opaque", BOUND.steer, (v, s) => steer(s, () => ({ requestOptions: v }))),
    c("steer({pendingTurnStart})", "opaque", BOUND.steer, (v, s) => steer(s, () => ({ pendingTurnStart: v }))),
    c("steer(args, hooks)", "opaque", BOUND.steer, (v, s) => steer(s, () => ({}), v)),
    c("steer(args, {present, retract, reconcile})", "opaque", BOUND.steer, (v, s) => steer(s, () => ({}), { present: v, retract: v, reconcile: v })),
    c("AcpSteering.send(sessionId)", "id", BOUND.acp, (v) => { const input = TEXT(); return [() => h.acp.send(v, input), input]; }),
    c("AcpSteering.send(_, content)", "input", BOUND.acp, (v) => [() => h.acp.send("s1", v)]),
    c("AcpSteering.send(_, [v])", "item", BOUND.acp, (v) => { const input = [v]; return [() => h.acp.send("s1", input), input]; }),
    c("AcpSteering.send(_, [{text: v}])", "acptext", BOUND.acp, (v) => { const input = [{ type: "text", text: v }]; return [() => h.acp.send("s1", input), input]; }),
    c("AcpSteering.revoke(sessionId)", "id", BOUND.acp, (v) => [() => h.acp.revoke(v, "m1")]),
    c("AcpSteering.revoke(_, messageId)", "id", BOUND.acp, (v) => [() => h.acp.revoke("s1", v)]),
    c("AcpSteering.replace(sessionId)", "id", BOUND.acp, (v) => { const input = TEXT(); return [() => h.acp.replace(v, "m1", input), input]; }),
    c("AcpSteering.replace(_, messageId)", "id", BOUND.acp, (v) => { const input = TEXT(); return [() => h.acp.replace("s1", v, input), input]; }),
    c("AcpSteering.replace(_, _, content)", "input", BOUND.acp, (v) => [() => h.acp.replace("s1", "m1", v)]),
    c("AcpSteering.replace(_, _, [v])", "item", BOUND.acp, (v) => { const input = [v]; return [() => h.acp.replace("s1", "m1", input), input]; }),
  ];
}

/** Every synchronous entry point, with the hostile value in one slot. */
function syncSlots(h) {
  const { api } = h;
  const request = () => Promise.resolve({});
  const keep = (x) => { if (x && typeof x === "object") h.made.push(x); return x; };
  const c = (name, role, make) => ({ name, role, make });
  return [
    c("new CodexhostSteering(options)", "options", (v) => () => keep(new api.CodexhostSteering(v))),
    c("new CodexhostSteering({request})", "options", (v) => () => keep(new api.CodexhostSteering({ request: v }))),
    c("new CodexhostSteering({timeouts})", "options", (v) => () => keep(new api.CodexhostSteering({ request, timeouts: v }))),
    c("new CodexhostSteering({timeouts: {decideMs}})", "options", (v) => () => keep(new api.CodexhostSteering({ request, timeouts: { decideMs: v, steerMs: v } }))),
    c("new CodexhostSteering({streamRole})", "options", (v) => () => keep(new api.CodexhostSteering({ request, streamRole: v }))),
    c("new AcpSteering(options)", "options", (v) => () => keep(new api.AcpSteering(v))),
    c("new AcpSteering({request})", "options", (v) => () => keep(new api.AcpSteering({ request: v }))),
    c("new AcpSteering({initialize})", "data", (v) => () => keep(new api.AcpSteering({ request, initialize: v }))),
    c("new AcpSteering({timeouts})", "options", (v) => () => keep(new api.AcpSteering({ request, timeouts: v }))),
    c("new AcpSteering({allowPromptHandoff})", "options", (v) => () => keep(new api.AcpSteering({ request, allowPromptHandoff: v }))),
    c("AcpSteering.update(sessionId)", "id", (v) => () => h.acp.update(v, UPDATE)),
    c("AcpSteering.update(_, update)", "data", (v) => () => h.acp.update("z1", v)),
    c("AcpSteering.promptAnswered(sessionId)", "id", (v) => () => h.acp.promptAnswered(v, { stopReason: "end_turn" })),
    c("AcpSteering.promptAnswered(_, answer)", "data", (v) => () => h.acp.promptAnswered("z2", v)),
    c("AcpSteering.promptSent(sessionId)", "id", (v) => () => h.acp.promptSent(v)),
    c("AcpSteering.sessionIdle(sessionId)", "id", (v) => () => h.acp.sessionIdle(v)),
    c("AcpSteering.sessionReplaced(sessionId)", "id", (v) => () => h.acp.sessionReplaced(v)),
    c("AcpSteering.sessionClosed(sessionId)", "id", (v) => () => h.acp.sessionClosed(v)),
    c("AcpSteering.inputMode(sessionId)", "id", (v) => () => h.acp.inputMode(v)),
    c("AcpSteering.queued(sessionId)", "id", (v) => () => h.acp.queued(v)),
    c("AcpSteering.onChange(callback)", "opaque", (v) => () => h.acp.onChange(v)),
    c("AcpSteering.initialized(answer)", "data", (v) => () => h.acpInit.initialized(v)),
    c("installDesktopSteering(manager)", "options", (v) => () => keep(api.installDesktopSteering(v))),
    c("installDesktopSteering(_, options)", "options", (v) => () => keep(api.installDesktopSteering(new Manager(), v))),
  ];
}

/**
 * An oversized input must be refused in time proportional to the limit
 * (256 KiB), not to the input: generous for a loaded 2-core machine, far
 * below what reading 1,000,000 items or copying 100 MB costs.
 */
const HUGE_MS = 500;

/** The value classes: each value goes into every slot its roles allow. */
const VALUE_CLASSES = {
  cycles: {
    about: "self-referencing item, cycle 40 deep inside a value, self-containing array",
    rounds: 34,
    values: () => [
      { label: "self-referencing item", v: V.cyclicItem, unser: true },
      { label: "cycle deep inside", v: V.cyclicDeep, unser: true },
      { label: "self-containing array", v: V.cyclicArray, unser: true },
    ],
  },
  depth: {
    about: "nesting 5,000 (objects) and 100,000 (arrays) deep",
    rounds: 50,
    values: () => {
      const d5k = V.deepObject(5000);
      const d100k = V.deepArray(100000);
      return [
        { label: "5,000 deep", v: () => d5k, unser: true },
        { label: "100,000 deep", v: () => d100k, unser: true },
      ];
    },
  },
  getters: {
    about: "throwing getters (Error, Symbol and Proxy thrown), throwing array index",
    rounds: 34,
    values: () => [
      { label: "throwing getters", v: V.throwingGetters, unser: true },
      { label: "throwing index getter", v: V.throwingIndexArray, unser: true },
      { label: "getters throwing a Symbol / a Proxy", v: V.gettersThrowingOddValues, unser: true },
    ],
  },
  proxies: {
    about: "Proxies whose every trap throws (incl. over an array, throwing a Proxy), revoked Proxies",
    rounds: 25,
    values: () => [
      { label: "all-traps Proxy", v: () => V.trapProxy(), unser: true },
      { label: "all-traps Proxy over an array", v: () => V.trapProxy([]), unser: true },
      { label: "Proxy throwing a Proxy", v: V.trapProxyThrowingProxy, unser: true },
      { label: "revoked Proxy", v: () => V.revokedProxy(), unser: true },
    ],
  },
  exotic: {
    about: "BigInt, Symbol, functions where data is expected",
    rounds: 25,
    values: () => [
      { label: "BigInt", v: () => V.BIG, unser: true },
      { label: "Symbol", v: () => V.SYM, unser: true },
      { label: "function", v: V.hostileFunction, unser: false },
      { label: "object holding a BigInt", v: () => ({ type: "text", text: "x", n: 1n }), unser: true },
    ],
  },
  wrongTypes: {
    about: "numbers, objects, {length: 1e8}, booleans where ids and data are strings / objects",
    rounds: 17,
    values: () => [
      { label: "42", v: () => 42, unser: false },
      { label: "NaN", v: () => NaN, unser: false },
      { label: "{length: 1e8}", v: () => ({ length: 1e8 }), unser: false },
      { label: "{}", v: () => ({}), unser: false },
      { label: "true", v: () => true, unser: false },
      { label: "[[]]", v: () => [[]], unser: false },
    ],
  },
  huge: {
    about: "1,000,000 tiny text items, a 300 KiB text, a 100 MB string as an id",
    rounds: 0, // per value below
    values: () => {
      const million = Array.from({ length: 1_000_000 }, () => ({ type: "text", text: "x" }));
      const text300k = "x".repeat(300 * 1024);
      const id100m = "i".repeat(100 * 1024 * 1024);
      return [
        { label: "1,000,000 items", v: () => million, unser: true, roles: ["input", "data", "options"], rounds: 4, kinds: CALLER_KINDS, maxMs: HUGE_MS },
        { label: "300 KiB text", v: () => text300k, unser: false, oversize: true, roles: ["text", "acptext"], rounds: 700, kinds: CALLER_KINDS, maxMs: HUGE_MS },
        { label: "100 MB id", v: () => id100m, unser: false, roles: ["id"], rounds: 10, kinds: CALLER_KINDS, maxMs: HUGE_MS },
      ];
    },
  },
};

async function runValueClass(h, t, cls, scale, progress) {
  const values = cls.values();
  const aslots = asyncSlots(h);
  const sslots = syncSlots(h);
  const roundsOf = (val) => Math.max(1, Math.round((val.rounds ?? cls.rounds) * scale));
  const maxRounds = Math.max(...values.map(roundsOf));
  const provenSlow = new Set();
  for (let round = 0; round < maxRounds; round++) {
    await h.warmup(round, maxRounds);
    const recs = [];
    const slow = [];
    for (const val of values) {
      // A pair proven slow twice is not tried again (its failure is recorded; it would only eat the wall clock).
      if (round >= roundsOf(val)) continue;
      const allowed = (role) => !val.roles || val.roles.includes(role);
      for (const s of sslots) {
        if (!allowed(s.role)) continue;
        let value;
        try { value = val.v(); } catch { continue; }
        const where = `${s.name} <- ${val.label}`;
        if (provenSlow.has(where)) continue;
        sync(t, where, s.make(value), { maxMs: val.maxMs, onSlow: () => slow.push({ where, maxMs: val.maxMs, again: s.make(val.v()) }) });
      }
      aslots.forEach((s, i) => {
        if (!allowed(s.role)) return;
        const value = val.v();
        // One thread per slot and value: inputs that pass validation never meet each other (busy).
        const [call, draft] = s.make(value, `t${i}-${values.indexOf(val)}`);
        // ACP content blocks are open-ended ({type, ...}): a wrong-typed but
        // serialisable `text` may pass; unserialisable or oversized may not.
        const mustReject = STRICT.has(s.role) || ((s.role === "data" || s.role === "acptext") && (val.unser || val.oversize));
        // Opaque slots (hooks, requestOptions, pendingTurnStart) may also meet a
        // legitimate refusal of another kind (e.g. pendingTurnStart: true).
        const kinds = s.role === "opaque" ? undefined : val.kinds ?? CALLER_KINDS;
        const where = `${s.name} <- ${val.label}`;
        if (provenSlow.has(where)) return;
        const onSlow = () => slow.push({ where, maxMs: val.maxMs, again: s.make(val.v(), `t${i}-${values.indexOf(val)}`)[0] });
        recs.push(launch(t, where, call, { mustReject, kinds, draft, cap: cap(s.bound), maxMs: val.maxMs, onSlow }));
      });
    }
    await settleAll(t, recs);
    // Slow once: time the same call again after a GC; slow twice is a failure.
    for (const { where, maxMs, again } of slow) {
      await quiesce();
      const started = Date.now();
      try { await Promise.race([Promise.resolve().then(again), sleep(maxMs * 4)]); } catch { /* the contract was checked on the first call */ }
      const ms = Date.now() - started;
      if (ms > maxMs) provenSlow.add(where);
      if (ms > maxMs) t.fail(where, `took more than ${maxMs} ms twice, the second time after a GC (${ms} ms): time proportional to the input, not to the limit`);
    }
    freeAll(h.made);
    if (h.checkPoison(t, round)) return;
    progress(round);
  }
}

// ---- timeouts -----------------------------------------------------------------

async function runTimeouts(h, t, scale, progress) {
  const { api } = h;
  const values = [Infinity, 2 ** 31, 2 ** 53 - 1, -1, NaN];
  const never = switchable((m) => (m === INSPECT ? Promise.resolve({ delivery: "activeTurn" }) : new Promise(() => {})));
  const cxNever = new api.CodexhostSteering({ request: never.request, timeouts: { ...TIMEOUTS } });
  const neverAcp = () => new Promise(() => {});
  const rounds = Math.max(1, Math.round(70 * scale));
  for (let round = 0; round < rounds; round++) {
    await h.warmup(round, rounds);
    const recs = [];
    for (const v of values) {
      const tooBig = !(v <= MAX_TIMER_MS) && !Number.isNaN(v);
      // Above 2^31 - 1: an Error naming the limit (Infinity may instead be called not finite).
      const exp = tooBig ? { mustThrow: true, mention: "2147483647", orMention: v === Infinity ? /finite/i : undefined } : {};
      const label = String(v);
      const made = [];
      const build = (name, f) => {
        const r = sync(t, `${name} <- ${label}`, f, exp);
        if (r.ok && r.value) made.push(r.value);
      };
      build("new CodexhostSteering({timeouts: {decideMs}})", () => new api.CodexhostSteering({ request: never.request, timeouts: { decideMs: v } }));
      build("new CodexhostSteering({timeouts: {steerMs}})", () => new api.CodexhostSteering({ request: never.request, timeouts: { decideMs: 50, steerMs: v } }));
      build("new AcpSteering({timeouts: {requestMs}})", () => new api.AcpSteering({ request: neverAcp, initialize: GOOD_INIT, timeouts: { requestMs: v } }));
      build("installDesktopSteering(_, {timeouts: {decideMs}})", () => api.installDesktopSteering(new Manager(() => new Promise(() => {})), { timeouts: { decideMs: v } }));
      build("installDesktopSteering(_, {timeouts: {steerMs}})", () => api.installDesktopSteering(new Manager(() => new Promise(() => {})), { timeouts: { steerMs: v } }));
      // Whatever was accepted arms its timers now (a spinning timer is counted
      // by the timer watch), then is disposed: its promises must settle.
      for (const inst of made) {
        if (typeof inst.steer === "function") {
          const input = TEXT();
          recs.push(launch(t, `steer on an instance built with ${label}`, () => inst.steer({ threadId: "x", expectedTurnId: "turn-1", input }), { draft: input, cap: cap(BOUND.steer) }));
        } else if (typeof inst.send === "function") {
          try { inst.promptSent("x"); } catch { /* reported by sync checks elsewhere */ }
          const input = TEXT();
          recs.push(launch(t, `send on an instance built with ${label}`, () => inst.send("x", input), { draft: input, cap: cap(BOUND.acp) }));
        }
      }
      await tick();
      freeAll(made);
      const input = TEXT();
      recs.push(launch(t, `steer({requestOptions: {timeoutMs}}) <- ${label}`,
        () => cxNever.steer({ threadId: `n${round % 4}-${label}`, expectedTurnId: "turn-1", input, requestOptions: { timeoutMs: v } }),
        { mustReject: true, kinds: tooBig ? ["invalidInput"] : ["invalidInput", "timeout"], draft: input, cap: cap(BOUND.steer) }));
    }
    await settleAll(t, recs);
    if (h.checkPoison(t, round)) break;
    progress(round);
  }
  cxNever.dispose();
  cxNever.free();
}

// ---- host answers -------------------------------------------------------------

function hostBehaviours() {
  const d100k = V.deepArray(100000);
  const d5k = V.deepObject(5000);
  const selfData = () => { const e = { code: -32000, message: "boom" }; e.data = e; return e; };
  const gettersNoThen = () => V.throwingGetters(["then"]);
  return [
    ["resolves a cyclic result", () => Promise.resolve(V.cyclicDeep())],
    ["resolves a self-referencing result", () => Promise.resolve(V.cyclicItem())],
    ["resolves 5,000 deep", () => Promise.resolve(d5k)],
    ["resolves 100,000 deep", () => Promise.resolve(d100k)],
    ["resolves throwing getters", () => Promise.resolve(gettersNoThen())],
    ["returns an all-traps Proxy", () => V.trapProxy()],
    ["returns a revoked Proxy", () => V.revokedProxy()],
    ["resolves a BigInt", () => Promise.resolve(V.BIG)],
    ["resolves a Symbol", () => Promise.resolve(V.SYM)],
    ["resolves a function", () => Promise.resolve(V.hostileFunction())],
    ["rejects {code, message, data} with data containing itself", () => Promise.reject(selfData())],
    ["rejects {code, message, data: 100,000 deep}", () => Promise.reject({ code: -32000, message: "deep", data: d100k })],
    ["rejects an all-traps Proxy", () => Promise.reject(V.trapProxy())],
    ["rejects a revoked Proxy", () => Promise.reject(V.revokedProxy())],
    ["rejects throwing getters", () => Promise.reject(V.throwingGetters())],
    ["rejects {code: BigInt, message: Symbol}", () => Promise.reject({ code: 1n, message: V.SYM })],
    ["rejects 42", () => Promise.reject(42)],
    ["rejects undefined", () => Promise.reject(undefined)],
    ["rejects a Symbol", () => Promise.reject(V.SYM)],
    ["throws synchronously", () => { throw new V.HostileError("sync throw"); }],
    ["throws a Proxy synchronously", () => { throw V.trapProxy(); }],
    ["returns a thenable whose then throws", () => ({ then() { throw new V.HostileError("then"); } })],
    ["returns a thenable whose then getter throws", () => ({ get then() { throw new V.HostileError("then getter"); } })],
    ["never settles", () => new Promise(() => {})],
  ];
}

async function runHostAnswers(h, t, scale, progress) {
  const { api } = h;
  const behaviours = hostBehaviours();
  const pick = (params) => {
    const id = String(V.safeGet(params, "threadId") ?? V.safeGet(params, "sessionId") ?? "");
    const i = Number(id.split("-")[1]);
    return behaviours[i]?.[1];
  };
  // Instance per target; each routes by thread / session id to a behaviour.
  const all = switchable((m, p) => (pick(p) ?? goodCodexhost)(m, p));
  const cxAll = new api.CodexhostSteering({ request: all.request, timeouts: { ...TIMEOUTS } });
  const late = switchable((m, p) => (m === INSPECT || !pick(p) ? goodCodexhost(m, p) : pick(p)(m, p)));
  const cxLate = new api.CodexhostSteering({ request: late.request, timeouts: { ...TIMEOUTS } });
  const ext = switchable((m, p) => (pick(p) ?? goodAcp)(m, p));
  const extTurns = turnsEnd(ext.request);
  const acpExt = extTurns.bind(new api.AcpSteering({ request: extTurns.request, initialize: GOOD_INIT, timeouts: { ...TIMEOUTS } }));
  const inj = switchable((m, p) => (pick(p) ?? goodAcp)(m, p));
  const acpInj = new api.AcpSteering({ request: inj.request, initialize: INJECT_INIT, timeouts: { ...TIMEOUTS } });
  const dmAll = new Manager((m, p) => (pick(p) ?? goodCodexhost)(m, p));
  const hookAll = api.installDesktopSteering(dmAll, { timeouts: { ...TIMEOUTS } });
  const dmNew = new Manager((m, p) => {
    if (m === INSPECT) return Promise.resolve({ delivery: "newTurn" });
    return (pick(p) ?? goodCodexhost)(m, p);
  });
  const hookNew = api.installDesktopSteering(dmNew, { timeouts: { ...TIMEOUTS } });
  await tick();
  const rounds = Math.max(1, Math.round(20 * scale));
  for (let round = 0; round < rounds; round++) {
    await h.warmup(round, rounds);
    const recs = [];
    behaviours.forEach(([label], i) => {
      const id = `h-${i}`;
      const sid = `h-${i}-${round}`;
      const strict = { mustReject: true, kinds: HOST_KINDS };
      recs.push(launch(t, `decide <- host ${label}`, () => cxAll.decide({ threadId: id, text: "x" }), { kinds: HOST_KINDS, cap: cap(BOUND.decide) }));
      let input = TEXT();
      recs.push(launch(t, `steer, every request <- host ${label}`, () => cxAll.steer({ threadId: id, expectedTurnId: "turn-1", input }), { ...strict, draft: input, cap: cap(BOUND.steer) }));
      const input2 = TEXT();
      recs.push(launch(t, `steer, turn/steer <- host ${label}`, () => cxLate.steer({ threadId: id, expectedTurnId: "turn-1", input: input2 }), { ...strict, draft: input2, cap: cap(BOUND.steer) }));
      for (const [name, acp] of [["_session/steering", acpExt], ["session/inject", acpInj]]) {
        try { acp.promptSent(sid); } catch (e) { t.fail(`promptSent before ${name}`, V.describe(e)); }
        input = TEXT();
        const draft = input;
        recs.push(launch(t, `AcpSteering.send, ${name} <- host ${label}`, () => acp.send(sid, draft), { ...strict, draft, cap: cap(BOUND.acp) }));
      }
      const input3 = TEXT();
      recs.push(launch(t, `desktop steerTurn, inspect <- host ${label}`, () => dmAll.steerTurn(id, input3, restoreMessage(), "fast"), { ...strict, draft: input3, cap: cap(BOUND.desktop) }));
      const input4 = TEXT();
      recs.push(launch(t, `desktop newTurn, turn/steer <- host ${label}`, () => dmNew.steerTurn(id, input4, restoreMessage(), "fast"), { ...strict, draft: input4, cap: cap(BOUND.desktop) }));
    });
    await settleAll(t, recs);
    behaviours.forEach((_, i) => {
      for (const acp of [acpExt, acpInj]) {
        try { acp.sessionClosed(`h-${i}-${round}`); } catch (e) { t.fail("sessionClosed after a hostile answer", V.describe(e)); }
      }
    });
    if (h.checkPoison(t, round)) break;
    progress(round);
  }
  // Never-settling answers in bulk: each one must cost nothing once its
  // timeout fired (a leak here is a few externref slots per request).
  const never = behaviours.findIndex(([l]) => l === "never settles");
  for (let batch = 0; batch < Math.max(1, Math.round(5 * scale)); batch++) {
    const recs = [];
    for (let i = 0; i < 100; i++) {
      const input = TEXT();
      recs.push(launch(t, "steer, turn/steer never settles (bulk)", () => cxLate.steer({ threadId: `h-${never}-${i}`, expectedTurnId: "turn-1", input }), { mustReject: true, kinds: HOST_KINDS, draft: input, cap: cap(BOUND.steer) }));
      const sid = `h-${never}-b${batch}-${i}`;
      const content = TEXT();
      try { acpExt.promptSent(sid); } catch (e) { t.fail("promptSent (bulk)", V.describe(e)); }
      recs.push(launch(t, "AcpSteering.send, _session/steering never settles (bulk)", () => acpExt.send(sid, content), { mustReject: true, kinds: HOST_KINDS, draft: content, cap: cap(BOUND.acp) }));
    }
    await settleAll(t, recs);
    for (let i = 0; i < 100; i++) {
      try { acpExt.sessionClosed(`h-${never}-b${batch}-${i}`); } catch (e) { t.fail("sessionClosed (bulk)", V.describe(e)); }
    }
    // The first batch is part of the warm-up: 200 requests at once raise the
    // heap's high-water mark and fill the bounded caches (owners, recent ids)
    // once; the later batches must then be flat.
    if (batch === 0) await h.mark();
    if (h.checkPoison(t, batch)) break;
  }
  // These instances lived through every hostile answer: they must still steer.
  for (const [name, err] of [
    ["codexhost instance (all answers hostile)", await codexhostSteers(cxAll, all)],
    ["codexhost instance (turn/steer hostile)", await codexhostSteers(cxLate, late)],
    ["ACP instance (_session/steering hostile)", await acpSteers(acpExt, ext)],
    ["desktop hook (inspect hostile)", await desktopSteers(api, dmAll)],
  ]) if (err) t.fail(`afterwards, the same ${name}`, err);
  for (const x of [cxAll, cxLate, acpExt, acpInj, hookAll, hookNew]) freeAll([x]);
}

// ---- the `initialize` option --------------------------------------------------

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

async function runInitialize(h, t, scale, progress) {
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

// ---- re-entry from every callback ---------------------------------------------

async function runReentry(h, t, scale, progress) {
  const { api } = h;
  const actions = ["liveState", "steer", "decide", "dispose"];
  const callbacks = ["streamRole", "present", "retract", "reconcile", "request"];
  const cur = { cb: null, action: null, armed: false, inst: null, nested: [] };
  const act = (where) => {
    if (!cur.armed) return;
    cur.armed = false;
    const s = cur.inst;
    const w = `${where} calls ${cur.action}()`;
    if (cur.action === "liveState") sync(t, w, () => s.liveState());
    if (cur.action === "dispose") sync(t, w, () => s.dispose());
    if (cur.action === "steer") {
      const input = TEXT();
      cur.nested.push(launch(t, w, () => s.steer({ threadId: "nested", expectedTurnId: "turn-1", input }), { draft: input, cap: cap(BOUND.steer) }));
    }
    if (cur.action === "decide") cur.nested.push(launch(t, w, () => s.decide({ threadId: "nested", text: "n" }), { cap: cap(BOUND.decide) }));
  };
  const host = (m, p) => {
    if (cur.cb === "request") act("transport request");
    if (m === "turn/steer" && cur.cb === "retract" && V.safeGet(p, "threadId") !== "nested") return Promise.reject({ code: -32000, message: "refused" });
    if (m === "turn/steer" && cur.cb === "reconcile" && V.safeGet(p, "threadId") !== "nested") return Promise.resolve({ turnId: "turn-1", delivery: "newTurn" });
    return goodCodexhost(m, p);
  };
  const options = () => ({
    request: host,
    timeouts: { ...TIMEOUTS },
    streamRole: () => { if (cur.cb === "streamRole") act("streamRole"); return "owner"; },
  });
  const hooks = {
    present: () => { if (cur.cb === "present") act("present"); },
    retract: () => { if (cur.cb === "retract") act("retract"); },
    reconcile: () => { if (cur.cb === "reconcile") act("reconcile"); },
  };
  const shared = new api.CodexhostSteering(options());
  // ACP: onChange and the transport call back into the same instance.
  const acur = { cb: null, action: null, armed: false, inst: null, nested: [] };
  const aact = (where, sid) => {
    if (!acur.armed) return;
    acur.armed = false;
    const s = acur.inst;
    const w = `${where} calls ${acur.action}()`;
    if (acur.action === "liveState") sync(t, w, () => s.liveState());
    if (acur.action === "inputMode") sync(t, w, () => s.inputMode(sid));
    if (acur.action === "dispose") sync(t, w, () => s.dispose());
    if (acur.action === "send") {
      const input = TEXT();
      acur.nested.push(launch(t, w, () => s.send(sid, input), { draft: input, cap: cap(BOUND.acp * 2) }));
    }
  };
  const acpHost = (m, p) => { if (acur.cb === "request") aact("ACP transport request", V.safeGet(p, "sessionId")); return goodAcp(m, p); };
  const acpMade = (turns = turnsEnd(acpHost)) => turns.bind(new api.AcpSteering({ request: turns.request, initialize: GOOD_INIT, timeouts: { ...TIMEOUTS } }));
  const acpShared = acpMade();
  await tick();
  let k = 0;
  const rounds = Math.max(1, Math.round(100 * scale));
  for (let round = 0; round < rounds; round++) {
    await h.warmup(round, rounds);
    for (const cb of callbacks) {
      for (const action of actions) {
        const inst = action === "dispose" ? new api.CodexhostSteering(options()) : shared;
        Object.assign(cur, { cb, action, armed: true, inst, nested: [] });
        const input = TEXT();
        const outer = launch(t, `steer, ${cb} re-enters with ${action}()`, () => inst.steer({ threadId: `outer-${k++ % 8}`, expectedTurnId: "turn-1", input }, hooks), { draft: input, cap: cap(BOUND.steer) });
        await settleAll(t, [outer]);
        await settleAll(t, cur.nested);
        cur.cb = null;
        if (inst !== shared) freeAll([inst]);
      }
    }
    for (const cb of ["onChange", "request"]) {
      for (const action of ["liveState", "send", "inputMode", "dispose"]) {
        const inst = action === "dispose" ? acpMade() : acpShared;
        if (inst !== acpShared) await tick();
        const sid = `r-${k++}`;
        Object.assign(acur, { cb, action, armed: true, inst, nested: [] });
        const onChange = (id) => { if (acur.cb === "onChange") aact("onChange", id); };
        sync(t, "onChange(callback)", () => inst.onChange(onChange));
        sync(t, `promptSent, ${cb} re-enters with ${action}()`, () => inst.promptSent(sid));
        const input = TEXT();
        const outer = launch(t, `AcpSteering.send, ${cb} re-enters with ${action}()`, () => inst.send(sid, input), { draft: input, cap: cap(BOUND.acp * 2) });
        await settleAll(t, [outer]);
        await settleAll(t, acur.nested);
        acur.cb = null;
        sync(t, "sessionClosed after re-entry", () => inst.sessionClosed(sid));
        sync(t, "onChange(null)", () => inst.onChange(null));
        if (inst !== acpShared) freeAll([inst]);
      }
    }
    if (h.checkPoison(t, round)) break;
    progress(round);
  }
  cur.cb = null;
  acur.cb = null;
  const sw = { impl: null };
  const err = await codexhostSteers({ steer: (a, hk) => shared.steer(a, hk), decide: (a) => shared.decide(a) }, sw);
  if (err) t.fail("afterwards, the same re-entered codexhost instance", err);
  const aerr = await acpSteers(acpShared, { impl: null });
  if (aerr) t.fail("afterwards, the same re-entered ACP instance", aerr);
  freeAll([shared, acpShared]);
}

// ---- the desktop hook ---------------------------------------------------------

function desktopInstallVariants() {
  const withGetters = () => {
    const m = new Manager();
    for (const key of ["steerTurn", "sendRequest", "startTurn", "getTurnCoordinator"]) {
      Object.defineProperty(m, key, { configurable: true, get() { throw new V.HostileError(`getter ${key}`); } });
    }
    return m;
  };
  const protoProxy = () => { const m = new Manager(); Object.setPrototypeOf(m, V.trapProxy(Object.create(Manager.prototype))); return m; };
  return [
    ["a frozen manager", () => Object.freeze(new Manager())],
    ["a non-extensible manager", () => Object.preventExtensions(new Manager())],
    ["a Proxy manager whose traps throw", () => V.trapProxy(new Manager())],
    ["a revoked Proxy manager", () => V.revokedProxy(new Manager())],
    ["a manager with throwing getters", withGetters],
    ["a manager whose prototype is an all-traps Proxy", protoProxy],
    ["a manager with a throwing options.timeouts getter", () => new Manager(), () => ({ get timeouts() { throw new V.HostileError("timeouts getter"); } })],
  ];
}

/** Desktop variants on the newTurn path, routed by thread id on one long-lived hook. */
function desktopRuntimeVariants() {
  const throwing = (what) => () => { throw new V.HostileError(what); };
  const never = () => new Promise(() => {});
  return [
    ["coordinator.loadMessages throws", { loadMessages: throwing("loadMessages") }],
    ["coordinator.loadMessages never settles", { loadMessages: never }],
    ["coordinator.loadMessages rejects a Proxy", { loadMessages: () => Promise.reject(V.trapProxy()) }],
    ["coordinator.readMessages throws", { readMessages: throwing("readMessages") }],
    ["coordinator.readMessages returns a Proxy", { readMessages: () => V.trapProxy([]) }],
    ["coordinator.readMessages returns [Proxy, cyclic]", { readMessages: () => [V.trapProxy(), V.cyclicItem()] }],
    ["coordinator.readMessages never settles", { readMessages: never }],
    ["coordinator.mutate throws", { mutate: throwing("mutate") }],
    ["coordinator.mutate never settles", { mutate: never }],
    ["submissionHost.getActiveTurnId throws", { getActiveTurnId: throwing("getActiveTurnId") }],
    ["submissionHost.getActiveTurnId returns a Proxy", { getActiveTurnId: () => V.trapProxy() }],
    ["submissionHost.hasPendingTurnStart throws", { hasPendingTurnStart: throwing("hasPendingTurnStart") }],
    ["getStreamRole throws", { getStreamRole: throwing("getStreamRole") }],
    ["getStreamRole returns a revoked Proxy", { getStreamRole: () => V.revokedProxy() }],
    ["startTurn throws", { startTurn: throwing("startTurn") }],
    ["startTurn never settles", { startTurn: never }],
    ["the rewritten turn/steer rejects {code, message}", { steer: () => Promise.reject({ code: -32000, message: "refused" }) }],
    ["the rewritten turn/steer rejects a Proxy", { steer: () => Promise.reject(V.trapProxy()) }],
    ["the rewritten turn/steer never settles", { steer: never }],
    ["the rewritten turn/steer answers without turnId", { steer: () => Promise.resolve({}) }],
  ];
}

/** A manager whose every dependency dispatches on the thread id `d-<variant>`. */
function routedManager(variants) {
  const of = (threadId) => variants[Number(String(threadId).split("-")[1])]?.[1] ?? {};
  const m = new Manager((method, params) => {
    if (method === INSPECT) return Promise.resolve({ delivery: "newTurn" });
    const v = of(V.safeGet(params, "threadId"));
    if (method === "turn/steer" && v.steer) return v.steer();
    return Promise.resolve({ turnId: "turn-9" });
  });
  const call = (name, fallback) => (threadId, ...rest) => (of(threadId)[name] ?? fallback)(threadId, ...rest);
  const base = m.coordinator;
  m.coordinator = {
    options: {
      submissionHost: {
        getActiveTurnId: call("getActiveTurnId", () => "turn-1"),
        hasPendingTurnStart: call("hasPendingTurnStart", () => false),
      },
    },
    loadMessages: call("loadMessages", base.loadMessages),
    readMessages: call("readMessages", base.readMessages),
    mutate: call("mutate", base.mutate),
  };
  const ownStart = m.startTurn;
  m.getStreamRole = call("getStreamRole", () => ({ role: "owner" }));
  m.startTurn = function (threadId, ...rest) { const f = of(threadId).startTurn; return f ? f() : ownStart.call(this, threadId, ...rest); };
  return m;
}

async function runDesktop(h, t, scale, progress) {
  const { api } = h;
  const installs = desktopInstallVariants();
  const runtime = desktopRuntimeVariants();
  const dm = routedManager(runtime);
  const hook = api.installDesktopSteering(dm, { timeouts: { ...TIMEOUTS } });
  if (!hook) t.fail("installDesktopSteering(routed manager)", "returned null");
  const rounds = Math.max(1, Math.round(80 * scale));
  for (let round = 0; round < rounds; round++) {
    await h.warmup(round, rounds);
    for (const [label, make, options] of installs) {
      const r = sync(t, `installDesktopSteering(${label})`, () => api.installDesktopSteering(make(), options ? options() : undefined));
      if (r.ok && r.value) freeAll([r.value]);
    }
    const recs = [];
    runtime.forEach(([label], i) => {
      const input = TEXT();
      recs.push(launch(t, `desktop newTurn steer: ${label}`, () => dm.steerTurn(`d-${i}`, input, restoreMessage(), "fast"), { draft: input, cap: cap(BOUND.desktop) }));
    });
    // A fresh hook disposed while its newTurn steer is pending: settles.
    const fresh = routedManager(runtime);
    const freshHook = api.installDesktopSteering(fresh, { timeouts: { ...TIMEOUTS } });
    const pendingInput = TEXT();
    const never = runtime.findIndex(([l]) => l === "startTurn never settles");
    recs.push(launch(t, "desktop newTurn steer, hook disposed while pending", () => fresh.steerTurn(`d-${never}`, pendingInput, restoreMessage(), "fast"), { draft: pendingInput, cap: cap(BOUND.desktop) }));
    await tick();
    await tick();
    sync(t, "DesktopSteering.dispose() while a newTurn steer is pending", () => freshHook?.dispose());
    await settleAll(t, recs);
    freeAll([freshHook].filter(Boolean));
    if (h.checkPoison(t, round)) break;
    progress(round);
  }
  const err = await desktopSteers(api, (() => { const m = new Manager(); api.installDesktopSteering(m, { timeouts: { ...TIMEOUTS } }); return m; })());
  if (err) t.fail("afterwards, a fresh desktop hook", err);
  // The long-lived hook, with a good host, on the activeTurn path.
  const sameErr = await desktopSteers(api, dm);
  if (sameErr) t.fail("afterwards, the same desktop hook", sameErr);
  freeAll([hook].filter(Boolean));
}

// ---- runner -------------------------------------------------------------------

export const ABOUT = {
  ...Object.fromEntries(Object.entries(VALUE_CLASSES).map(([k, c]) => [k, c.about])),
  timeouts: "Infinity, 2**31, 2**53-1, -1, NaN as timeouts and requestOptions.timeoutMs",
  hostAnswers: "24 hostile transport behaviours x decide/steer/ACP send (2 paths)/desktop (2 paths)",
  initialize: "13 hostile `initialize` options (incl. rejecting promises), cyclic initialized() twice",
  reentry: "streamRole/present/retract/reconcile/request/onChange re-enter liveState/steer/decide/send/inputMode/dispose",
  desktop: "7 hostile managers at install, 20 hostile coordinator/startTurn/turn-steer behaviours, dispose while pending",
  properties: "fast-check: arbitrary JS values (anything + cycles/proxies/getters) in every argument and host answer",
  churn: CHURN_ABOUT,
};

/**
 * Runs one class; returns { name, inputs, failures, poisonings, pages, table, ... }.
 * `opts.properties` is the property-test module (loaded only for that class).
 */
export async function runClass(api, initResult, name, opts = {}) {
  const scale = opts.scale ?? 1;
  const progress = opts.progress ?? (() => {});
  const parts = wasmParts(initResult);
  const t = new Tally(name);
  const started = Date.now();
  const pagesStart = parts.pages();
  const h = await context(api, t);
  const mem = { pages0: parts.pages(), table0: parts.table(), live0: parts.live() };
  h.marks = [];
  // Warm-up: the first third of the rounds (caches fill, tables reach their working size).
  h.warmup = async (round, rounds) => { if (round === Math.max(1, Math.floor(rounds / 3))) await h.mark(); };
  h.mark = async () => { await quiesce(); mem.pages0 = parts.pages(); mem.table0 = parts.table(); mem.live0 = parts.live(); };
  h.checkPoison = (tally, round) => {
    const dead = probe(api);
    if (dead && !tally.poisoned) tally.poisoned = `after round ${round + 1} (${tally.inputs} inputs): ${dead}`;
    return Boolean(dead);
  };
  const badBefore = timerWatch.bad;
  const report = (round) => progress({ name, round, inputs: t.inputs, failures: t.failureCount(), poisoned: t.poisoned, pages: parts.pages(), table: parts.table() });
  try {
    if (VALUE_CLASSES[name]) await runValueClass(h, t, VALUE_CLASSES[name], scale, report);
    else if (name === "timeouts") await runTimeouts(h, t, scale, report);
    else if (name === "hostAnswers") await runHostAnswers(h, t, scale, report);
    else if (name === "initialize") await runInitialize(h, t, scale, report);
    else if (name === "reentry") await runReentry(h, t, scale, report);
    else if (name === "desktop") await runDesktop(h, t, scale, report);
    else if (name === "properties") await opts.properties.runProperties(api, h, t, scale, report);
    else if (name === "churn") await runChurn(h, t, scale, report, parts.pages);
    else throw new Error(`unknown class ${name}`);
  } catch (e) {
    t.fail("harness", `the class stopped early: ${V.describe(e)}`);
  }
  await quiesce();
  if (!t.poisoned) h.checkPoison(t, -1);
  const pages1 = parts.pages();
  const table1 = parts.table();
  const live1 = parts.live();
  // The same instances, then fresh ones, against a good host.
  const after = {};
  if (!t.poisoned) {
    after.sameCodexhost = await codexhostSteers(h.cx, h.sw);
    after.sameAcp = await acpSteers(h.acp, h.asw);
    after.sameDesktop = h.hook ? await desktopSteers(api, h.manager) : "no hook";
    const fsw = switchable(goodCodexhost);
    let fresh;
    try { fresh = new api.CodexhostSteering({ request: fsw.request, timeouts: { ...TIMEOUTS } }); after.freshCodexhost = await codexhostSteers(fresh, fsw); } catch (e) { after.freshCodexhost = V.describe(e); }
    const fasw = switchable(goodAcp);
    let freshAcp;
    try { freshAcp = new api.AcpSteering({ request: fasw.request, timeouts: { ...TIMEOUTS } }); after.freshAcp = await acpSteers(freshAcp, fasw); } catch (e) { after.freshAcp = V.describe(e); }
    try { const m = new Manager(); const hk = api.installDesktopSteering(m, { timeouts: { ...TIMEOUTS } }); after.freshDesktop = await desktopSteers(api, m); freeAll([hk]); } catch (e) { after.freshDesktop = V.describe(e); }
    freeAll([fresh, freshAcp].filter(Boolean));
  } else {
    after.sameCodexhost = after.freshCodexhost = "module poisoned";
  }
  for (const [k, v] of Object.entries(after)) if (v) t.fail(`afterwards (${k})`, v);
  const badTimers = timerWatch.bad - badBefore;
  if (badTimers > 0) t.fail("timers", `${badTimers} timers armed with a delay outside 0..2147483647 ms (e.g. ${timerWatch.samples.join(", ")})`);
  if (!Number.isFinite(pages1) || !Number.isFinite(live1)) t.fail("memory", `cannot read the wasm memory / externref table (${parts.how})`);
  const flat = {
    pages: !(pages1 - mem.pages0 > FLAT.pages),
    live: !(live1 - mem.live0 > FLAT.live),
  };
  if (!flat.pages) t.fail("memory", `wasm memory grew ${mem.pages0} -> ${pages1} pages after the warm-up (allowed +${FLAT.pages})`);
  // Oversized inputs must be refused without allocating them in wasm memory.
  if (name === "huge" && pages1 - pagesStart > 2 * FLAT.pages) t.fail("memory", `oversized inputs were allocated: wasm memory ${pagesStart} -> ${pages1} pages over the class (allowed +${2 * FLAT.pages})`);
  if (!flat.live) t.fail("memory", `live externref slots grew ${mem.live0} -> ${live1} after the warm-up (table length ${mem.table0} -> ${table1}; allowed +${FLAT.live})`);
  const failures = [...t.failures.entries()].sort((a, b) => b[1] - a[1]);
  return {
    name,
    about: ABOUT[name],
    inputs: t.inputs,
    failureCount: t.failureCount(),
    distinctFailures: failures.length,
    firstFailure: t.first ?? null,
    failures: failures.slice(0, 40).map(([what, n]) => `${n}x ${what}`),
    poisonings: t.poisoned ? 1 : 0,
    poisoned: t.poisoned,
    runtimeErrors: t.runtimeErrors,
    pages: [mem.pages0, pages1],
    table: [mem.table0, table1],
    live: [mem.live0, live1],
    badTimers,
    timersSeen: timerWatch.total,
    entries: Object.fromEntries(t.entries),
    outcomes: Object.fromEntries(t.outcomes),
    wasm: parts.how,
    ms: Date.now() - started,
  };
}
