// Reports a failure of app code (a hook, the desktop, a listener), and the
// clock and random ids the engines are given: none of them ever throws.

/** Logs a hook's or the desktop's failure; never throws, even if `console` does. */
export function report(what, error) {
  try {
    console.error(`renderer-steering: ${what}`, error);
  } catch {
    // Nothing sensible is left to do.
  }
}

// The engines' clock: performance.now() where the page has it (monotonic:
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

/** `crypto.randomUUID()`, else 128 random bits as hex; "" if the page broke both (the engine then makes its own). Never throws. */
export function randomId() {
  try {
    if (typeof crypto?.randomUUID === "function") return crypto.randomUUID();
  } catch {
    // A page without (or with a broken) Web Crypto: Math.random below.
  }
  try {
    let hex = "";
    for (let i = 0; i < 4; i++) hex += Math.floor(Math.random() * 2 ** 32).toString(16).padStart(8, "0");
    return hex;
  } catch {
    return "";
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
