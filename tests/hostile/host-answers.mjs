// The `hostAnswers` class: 24 hostile transport behaviours answering
// decide, steer (every request, or only turn/steer), ACP send on both paths
// and the desktop hook on both paths; then never-settling answers in bulk.
import * as V from "./values.mjs";
import { BOUND, HOST_KINDS, TIMEOUTS, cap, launch, settleAll } from "./contract.mjs";
import {
  GOOD_INIT, INJECT_INIT, INSPECT, Manager, TEXT, acpSteers, codexhostSteers, desktopSteers, freeAll, goodAcp,
  goodCodexhost, restoreMessage, switchable, turnsEnd,
} from "./good-hosts.mjs";
import { tick } from "./timer-watch.mjs";

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

/** Runs the class on `h` (see `runClass`). */
export async function runHostAnswers(h, t, scale, progress) {
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
