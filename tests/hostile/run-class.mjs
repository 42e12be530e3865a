// `runClass`: runs one hostile-input class against an initialised package
// and returns a plain record (inputs, failures, poisoning, wasm memory and
// externref table before and after). The same module runs in a Node child
// process and in a Chromium page (tests/hostile/node.test.mjs, chromium.test.mjs).
import * as V from "./values.mjs";
import { TIMEOUTS, Tally, probe } from "./contract.mjs";
import { GOOD_INIT, Manager, acpSteers, codexhostSteers, desktopSteers, freeAll, goodAcp, goodCodexhost, switchable, turnsEnd } from "./good-hosts.mjs";
import { tick, timerWatch } from "./timer-watch.mjs";
import { FLAT, quiesce, wasmParts } from "./wasm-readings.mjs";
import { VALUE_CLASSES, runValueClass } from "./value-classes.mjs";
import { runTimeouts } from "./timeouts.mjs";
import { runHostAnswers } from "./host-answers.mjs";
import { runInitialize } from "./initialize.mjs";
import { runReentry } from "./reentry.mjs";
import { runDesktop } from "./desktop.mjs";
import { CHURN_ABOUT, runChurn } from "./churn.mjs";

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
