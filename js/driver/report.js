// Reports a failure of app code (a hook, the desktop, a listener); never throws.

/** Logs a hook's or the desktop's failure; never throws, even if `console` does. */
export function report(what, error) {
  try {
    console.error(`renderer-steering: ${what}`, error);
  } catch {
    // Nothing sensible is left to do.
  }
}
