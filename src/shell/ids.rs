//! The engine's clock and random ids, read through the front door
//! (`js/boundary.js`): neither can throw into wasm, and both are called
//! while no engine borrow is held (a page's clock runs JavaScript).

use std::cell::Cell;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/boundary.js")]
extern "C" {
    #[wasm_bindgen(js_name = now, catch)]
    fn now_js() -> Result<f64, JsValue>;
    #[wasm_bindgen(js_name = randomId, catch)]
    fn random_id_js() -> Result<String, JsValue>;
}

thread_local! {
    /// The last clock reading (what `now` falls back to) and a counter for
    /// ids made without the page's randomness.
    static LAST: (Cell<u64>, Cell<u64>) = const { (Cell::new(0), Cell::new(0)) };
}

/// `crypto.randomUUID()` where available, else a random hex id (never
/// throws; if the page broke every source, a per-module counter).
pub(super) fn random_id() -> String {
    random_id_js().ok().filter(|id| !id.is_empty()).unwrap_or_else(|| {
        let n = LAST.with(|(_, counter)| {
            counter.set(counter.get() + 1);
            counter.get()
        });
        format!("local-{}-{n}", now_ms())
    })
}

/// Milliseconds on a monotonic clock (`performance.now()`: a wall-clock
/// step can neither stretch nor cut a bound); the core's `now`. Each
/// reading is taken as it is (a page clock that jumped once must not hold
/// the engine's time at its highest reading); only a broken reading (it
/// threw, or is not a finite number >= 0) repeats the last good one.
pub(super) fn now_ms() -> u64 {
    reading_ms(now_js().unwrap_or(f64::NAN))
}

/// A clock reading taken in JavaScript (`boundary.js` `now()`, handed over
/// with an answer), checked as [`now_ms`] checks its own.
pub(super) fn reading_ms(ms: f64) -> u64 {
    LAST.with(|(last, _)| {
        if ms.is_finite() && ms >= 0.0 {
            last.set(ms as u64);
        }
        last.get()
    })
}
