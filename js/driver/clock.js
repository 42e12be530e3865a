// The engines' clocks: the monotonic one their deadlines are read by, and
// the wall clock journal records are dated by. Neither ever throws.

// The monotonic clock: performance.now() where the page has it (monotonic:
// no wall-clock step moves a deadline), else Date.now(); chosen once.
const clock = (() => {
  try {
    if (typeof performance.now() === "number") return () => performance.now();
  } catch {
    // No usable performance clock: the wall clock below.
  }
  return () => Date.now();
})();

/** Milliseconds for the engines' deadlines; NaN if the page broke its clock (never throws). */
export function now() {
  try {
    return clock();
  } catch {
    return NaN;
  }
}

/** The wall clock in milliseconds (journal records are dated by it, to outlive the page); NaN if the page broke it. Never throws. */
export function wallNow() {
  try {
    return Date.now();
  } catch {
    return NaN;
  }
}
