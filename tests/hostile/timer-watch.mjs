// The harness's own timers (the real setTimeout, taken before any watch is
// installed) and the watch that counts timers the package arms with a delay
// no engine can honour. Runs in Node and in a Chromium page alike.

export const MAX_TIMER_MS = 2147483647;

export const realSetTimeout = globalThis.setTimeout.bind(globalThis);
export const realClearTimeout = globalThis.clearTimeout.bind(globalThis);
export const sleep = (ms) => new Promise((r) => realSetTimeout(r, ms));
export const tick = () => sleep(0);

/**
 * Counts timers armed with a delay no engine can honour (negative, NaN,
 * above 2^31 - 1: browsers and Node fire those at once, which spins).
 * Installed before the package runs any timer; our own timers use the real one.
 */
export const timerWatch = { bad: 0, total: 0, samples: [] };
export function watchTimers() {
  if (globalThis.setTimeout.__hostileWatch) return;
  const wrapped = function (fn, delay, ...rest) {
    timerWatch.total++;
    if (delay !== undefined && !(typeof delay === "number" && delay >= 0 && delay <= MAX_TIMER_MS)) {
      timerWatch.bad++;
      if (timerWatch.samples.length < 3) timerWatch.samples.push(String(delay));
    }
    return realSetTimeout(fn, delay, ...rest);
  };
  wrapped.__hostileWatch = true;
  globalThis.setTimeout = wrapped;
}
