// The `timeouts` class: Infinity, 2**31, 2**53-1, -1 and NaN as every
// timeout option and as `requestOptions.timeoutMs`; above 2147483647 ms an
// Error naming the limit, and whatever is accepted arms no spinning timer.
import { BOUND, TIMEOUTS, cap, launch, settleAll, sync } from "./contract.mjs";
import { GOOD_INIT, INSPECT, Manager, TEXT, freeAll, switchable } from "./good-hosts.mjs";
import { MAX_TIMER_MS, tick } from "./timer-watch.mjs";

/** Runs the class on `h` (see `runClass`). */
export async function runTimeouts(h, t, scale, progress) {
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
