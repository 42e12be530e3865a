// The value classes (cycles, depth, getters, proxies, exotic, wrongTypes,
// huge): each value goes into every entry-point slot its roles allow, with
// the contract checked on every call.
import * as V from "./values.mjs";
import { CALLER_KINDS, cap, launch, settleAll, sync } from "./contract.mjs";
import { freeAll } from "./good-hosts.mjs";
import { sleep } from "./timer-watch.mjs";
import { quiesce } from "./wasm-readings.mjs";
import { STRICT, asyncSlots, syncSlots } from "./entry-points.mjs";

/**
 * An oversized input must be refused in time proportional to the limit
 * (256 KiB), not to the input: generous for a loaded 2-core machine, far
 * below what reading 1,000,000 items or copying 100 MB costs.
 */
const HUGE_MS = 500;

/** The value classes: each value goes into every slot its roles allow. */
export const VALUE_CLASSES = {
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

/** Runs one value class on `h` (see `runClass`). */
export async function runValueClass(h, t, cls, scale, progress) {
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
