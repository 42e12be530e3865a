// The `desktop` class: hostile managers handed to installDesktopSteering,
// hostile coordinator / startTurn / turn/steer behaviours on the newTurn path
// of one long-lived hook, and a hook disposed while its steer is pending.
import * as V from "./values.mjs";
import { BOUND, TIMEOUTS, cap, launch, settleAll, sync } from "./contract.mjs";
import { INSPECT, Manager, TEXT, desktopSteers, freeAll, restoreMessage } from "./good-hosts.mjs";
import { tick } from "./timer-watch.mjs";

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

/** Runs the class on `h` (see `runClass`). */
export async function runDesktop(h, t, scale, progress) {
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
