// Property-based tests at the JS boundary (fast-check): arbitrary JS values
// in every argument of every entry point and as every host answer. Property:
// the contract of the hostile layer (no sync throw from promise methods, a
// SteeringError with the draft, settled within the bound, clean Errors from
// synchronous methods, no RuntimeError) and the engine still steers after.
import * as fc from "fast-check";
import * as V from "./values.mjs";
import { BOUND, TIMEOUTS, cap, launch, settleAll, sync } from "./contract.mjs";
import { GOOD_INIT, INSPECT, Manager, TEXT, codexhostSteers, freeAll, goodAcp, goodCodexhost, restoreMessage, turnsEnd } from "./good-hosts.mjs";
import { tick } from "./timer-watch.mjs";

const SEED = 0x5eed10;

/** fc.anything with every exotic option on. */
const anything = fc.anything({
  maxDepth: 3,
  maxKeys: 4,
  withObjectString: true,
  withNullPrototype: true,
  withBigInt: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withSparseArray: true,
  withBoxedValues: true,
  withDate: true,
  withUnicodeString: true,
});

/**
 * Our own hostile shapes over arbitrary contents. fast-check inspects the
 * values it generates (e.g. `cloneMethod in value`), so it only ever sees a
 * plain box; the hostile value is built from the box inside the property.
 */
const box = (kind) => (v) => ({ kind, v });
const objectOf = (v) => (typeof v === "object" && v !== null ? v : {});
export function build({ kind, v }) {
  switch (kind) {
    case "cyclic": { const o = { type: "text", text: "x", v }; o.self = o; return o; }
    case "deep": return V.deepArray(v);
    case "proxy": return V.trapProxy(objectOf(v));
    case "revoked": return V.revokedProxy(objectOf(v));
    case "getter": {
      const o = { type: "text", text: "x", v: v[1] };
      Object.defineProperty(o, v[0] || "text", { enumerable: true, configurable: true, get() { throw new V.HostileError("getter"); } });
      return o;
    }
    case "special": return [V.BIG, V.SYM, NaN, Infinity, -0, 2 ** 31, { length: 1e8 }, V.hostileFunction()][v];
    default: return v;
  }
}
/** Mostly-valid values too, so that some inputs pass validation and reach the host. */
const textItem = fc.record({ type: fc.constant("text"), text: fc.string({ maxLength: 20 }) });
const plausible = fc.oneof(fc.string({ maxLength: 12 }), textItem, fc.array(textItem, { maxLength: 3 }), fc.array(anything, { maxLength: 3 }));

export const hostile = fc.oneof(
  { arbitrary: anything.map(box("plain")), weight: 5 },
  { arbitrary: plausible.map(box("plain")), weight: 3 },
  { arbitrary: anything.map(box("cyclic")), weight: 1 },
  { arbitrary: fc.integer({ min: 200, max: 20000 }).map(box("deep")), weight: 1 },
  { arbitrary: anything.map(box("proxy")), weight: 1 },
  { arbitrary: anything.map(box("revoked")), weight: 1 },
  { arbitrary: fc.tuple(fc.string({ maxLength: 8 }), anything).map(box("getter")), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 7 }).map(box("special")), weight: 1 },
);

/** One host answer: resolves, rejects, returns or throws an arbitrary value. */
const answer = fc.tuple(fc.constantFrom("resolve", "reject", "return", "throw", "rejectRpc"), hostile).map(([how, b]) => ({ how, b }));
function play({ how, b }) {
  const v = build(b);
  if (how === "resolve") return Promise.resolve(v);
  if (how === "reject") return Promise.reject(v);
  if (how === "rejectRpc") return Promise.reject({ code: -32000, message: "arbitrary", data: v });
  if (how === "throw") throw v;
  return v;
}

/** The entry points, each taking one arbitrary value. */
function entryPoints(h) {
  const { api } = h;
  const steer = (over, hooks) => (v, s) => { const input = TEXT(); return [() => h.cx.steer({ threadId: s, expectedTurnId: "turn-1", input, ...over(v) }, hooks?.(v)), input]; };
  const withInput = (f) => (v) => { const input = [v]; return [() => f(input), input]; };
  const a = (name, bound, make) => ({ name, bound, make, async: true });
  const s = (name, make) => ({ name, make, async: false });
  const request = () => Promise.resolve({});
  return [
    a("decide(args)", BOUND.decide, (v) => [() => h.cx.decide(v)]),
    a("decide({threadId})", BOUND.decide, (v) => [() => h.cx.decide({ threadId: v, text: "x" })]),
    a("decide({text})", BOUND.decide, (v, s) => [() => h.cx.decide({ threadId: s, text: v })]),
    a("steer(args)", BOUND.steer, (v) => [() => h.cx.steer(v)]),
    a("steer({threadId})", BOUND.steer, steer((v) => ({ threadId: v }))),
    a("steer({expectedTurnId})", BOUND.steer, steer((v) => ({ expectedTurnId: v }))),
    a("steer({input})", BOUND.steer, (v, s) => [() => h.cx.steer({ threadId: s, expectedTurnId: "turn-1", input: v })]),
    a("steer({input: [v]})", BOUND.steer, (v, s) => withInput((input) => h.cx.steer({ threadId: s, expectedTurnId: "turn-1", input }))(v)),
    a("steer({clientUserMessageId})", BOUND.steer, steer((v) => ({ clientUserMessageId: v }))),
    a("steer({additionalContext})", BOUND.steer, steer((v) => ({ additionalContext: v }))),
    a("steer({responsesapiClientMetadata})", BOUND.steer, steer((v) => ({ responsesapiClientMetadata: v }))),
    a("steer({requestOptions})", BOUND.steer, steer((v) => ({ requestOptions: v }))),
    a("steer({requestOptions: {timeoutMs}})", BOUND.steer, steer((v) => ({ requestOptions: { timeoutMs: v } }))),
    a("steer({pendingTurnStart})", BOUND.steer, steer((v) => ({ pendingTurnStart: v }))),
    a("steer(args, hooks)", BOUND.steer, steer(() => ({}), (v) => v)),
    a("steer(args, {present})", BOUND.steer, steer(() => ({}), (v) => ({ present: v, retract: v, reconcile: v }))),
    a("AcpSteering.send(sessionId)", BOUND.acp, (v) => { const input = TEXT(); return [() => h.acp.send(v, input), input]; }),
    a("AcpSteering.send(_, content)", BOUND.acp, (v) => [() => h.acp.send("s1", v)]),
    a("AcpSteering.send(_, [v])", BOUND.acp, withInput((input) => h.acp.send("s1", input))),
    a("AcpSteering.revoke(sessionId)", BOUND.acp, (v) => [() => h.acp.revoke(v, "m1")]),
    a("AcpSteering.revoke(_, messageId)", BOUND.acp, (v) => [() => h.acp.revoke("s1", v)]),
    a("AcpSteering.replace(sessionId)", BOUND.acp, (v) => { const input = TEXT(); return [() => h.acp.replace(v, "m1", input), input]; }),
    a("AcpSteering.replace(_, messageId)", BOUND.acp, (v) => { const input = TEXT(); return [() => h.acp.replace("s1", v, input), input]; }),
    a("AcpSteering.replace(_, _, content)", BOUND.acp, (v) => [() => h.acp.replace("s1", "m1", v)]),
    s("new CodexhostSteering(options)", (v) => () => h.made.push(new api.CodexhostSteering(v))),
    s("new CodexhostSteering({request})", (v) => () => h.made.push(new api.CodexhostSteering({ request: v }))),
    s("new CodexhostSteering({timeouts})", (v) => () => h.made.push(new api.CodexhostSteering({ request, timeouts: v }))),
    s("new CodexhostSteering({timeouts: {decideMs}})", (v) => () => h.made.push(new api.CodexhostSteering({ request, timeouts: { decideMs: v } }))),
    s("new CodexhostSteering({streamRole})", (v) => () => h.made.push(new api.CodexhostSteering({ request, streamRole: v }))),
    s("new AcpSteering(options)", (v) => () => h.made.push(new api.AcpSteering(v))),
    s("new AcpSteering({initialize})", (v) => () => h.made.push(new api.AcpSteering({ request, initialize: v }))),
    s("new AcpSteering({timeouts})", (v) => () => h.made.push(new api.AcpSteering({ request, timeouts: v }))),
    s("new AcpSteering({allowPromptHandoff})", (v) => () => h.made.push(new api.AcpSteering({ request, allowPromptHandoff: v }))),
    s("AcpSteering.update(sessionId)", (v) => () => h.acp.update(v, { sessionUpdate: "agent_message_chunk" })),
    s("AcpSteering.update(_, update)", (v) => () => h.acp.update("z1", v)),
    s("AcpSteering.promptAnswered(sessionId)", (v) => () => h.acp.promptAnswered(v, { stopReason: "end_turn" })),
    s("AcpSteering.promptAnswered(_, answer)", (v) => () => h.acp.promptAnswered("z2", v)),
    s("AcpSteering.promptSent(sessionId)", (v) => () => h.acp.promptSent(v)),
    s("AcpSteering.sessionIdle(sessionId)", (v) => () => h.acp.sessionIdle(v)),
    s("AcpSteering.sessionReplaced(sessionId)", (v) => () => h.acp.sessionReplaced(v)),
    s("AcpSteering.sessionClosed(sessionId)", (v) => () => h.acp.sessionClosed(v)),
    s("AcpSteering.inputMode(sessionId)", (v) => () => h.acp.inputMode(v)),
    s("AcpSteering.queued(sessionId)", (v) => () => h.acp.queued(v)),
    s("AcpSteering.onChange(callback)", (v) => () => h.acp.onChange(v)),
    s("AcpSteering.initialized(answer)", (v) => () => h.acpInit.initialized(v)),
    s("installDesktopSteering(manager)", (v) => () => h.made.push(api.installDesktopSteering(v))),
    s("installDesktopSteering(_, options)", (v) => () => h.made.push(api.installDesktopSteering(new Manager(), v))),
  ];
}

/** Host-answer targets: the arbitrary answer is what every request of that instance gets. */
async function hostTargets(h) {
  const { api } = h;
  const cur = { answer: null };
  const respond = (good) => (m, p) => (cur.answer ? play(cur.answer) : good(m, p));
  const cx = new api.CodexhostSteering({ request: respond(goodCodexhost), timeouts: { ...TIMEOUTS } });
  const late = new api.CodexhostSteering({ request: (m, p) => (m === INSPECT || !cur.answer ? goodCodexhost(m, p) : play(cur.answer)), timeouts: { ...TIMEOUTS } });
  const turns = turnsEnd(respond(goodAcp));
  const acp = turns.bind(new api.AcpSteering({ request: turns.request, initialize: GOOD_INIT, timeouts: { ...TIMEOUTS } }));
  const dm = new Manager(respond(goodCodexhost));
  const hook = api.installDesktopSteering(dm, { timeouts: { ...TIMEOUTS } });
  await tick();
  let n = 0;
  return {
    cur,
    instances: [cx, late, acp, hook],
    targets: [
      ["decide", BOUND.decide, () => [() => cx.decide({ threadId: `p${n++ % 16}`, text: "x" })]],
      ["steer (every request)", BOUND.steer, () => { const input = TEXT(); return [() => cx.steer({ threadId: `p${n++ % 16}`, expectedTurnId: "turn-1", input }), input]; }],
      ["steer (turn/steer)", BOUND.steer, () => { const input = TEXT(); return [() => late.steer({ threadId: `p${n++ % 16}`, expectedTurnId: "turn-1", input }), input]; }],
      ["AcpSteering.send", BOUND.acp, () => { const sid = `p${n++}`; acp.promptSent(sid); const input = TEXT(); return [() => acp.send(sid, input).finally(() => acp.sessionClosed(sid)), input]; }],
      ["desktop steerTurn", BOUND.desktop, () => { const input = TEXT(); return [() => dm.steerTurn(`p${n++ % 16}`, input, restoreMessage(), "fast"), input]; }],
    ],
    check: async (t) => {
      cur.answer = null;
      const err = await codexhostSteers(cx, { impl: null });
      if (err) t.fail("afterwards, the codexhost instance that got arbitrary answers", err);
    },
  };
}

function show(v) {
  try {
    return fc.stringify(v).slice(0, 120);
  } catch {
    return V.describe(v);
  }
}

export async function runProperties(api, h, t, scale, report) {
  const runs = Math.max(5, Math.round(60 * scale));
  const entries = entryPoints(h);
  let round = 0;
  for (const entry of entries) {
    await h.warmup(round, entries.length);
    const before = t.failureCount();
    const where = `property: ${entry.name}`;
    const prop = fc.asyncProperty(hostile, async (b) => {
      const mark = t.failureCount();
      const v = build(b);
      if (entry.async) {
        const [call, draft] = entry.make(v, `q${round % 16}`);
        const rec = launch(t, where, call, { draft, cap: cap(entry.bound) });
        await settleAll(t, [rec]);
      } else {
        sync(t, where, entry.make(v));
        freeAll(h.made);
      }
      return t.failureCount() === mark;
    });
    const out = await fc.check(prop, { numRuns: runs, seed: SEED + round, endOnFailure: true });
    if (out.failed && out.counterexample) t.fail(where, `counterexample: ${show(out.counterexample[0])}`);
    if (t.failureCount() > before || out.failed) {
      // Still steering after the counterexample?
      const err = await codexhostSteers(h.cx, h.sw);
      if (err) t.fail(`${where}, afterwards`, err);
    }
    if (h.checkPoison(t, round)) return;
    report(round++);
  }
  const ht = await hostTargets(h);
  for (const [name, bound, make] of ht.targets) {
    const where = `property: host answer to ${name}`;
    const prop = fc.asyncProperty(answer, async (a) => {
      const mark = t.failureCount();
      ht.cur.answer = a;
      const [call, draft] = make();
      const rec = launch(t, where, call, { draft, cap: cap(bound) });
      await settleAll(t, [rec]);
      ht.cur.answer = null;
      return t.failureCount() === mark;
    });
    const out = await fc.check(prop, { numRuns: runs * 3, seed: SEED + round, endOnFailure: true });
    if (out.failed && out.counterexample) t.fail(where, `counterexample: ${show(out.counterexample[0])}`);
    if (h.checkPoison(t, round)) return;
    report(round++);
  }
  await ht.check(t);
  freeAll(ht.instances.filter(Boolean));
}
