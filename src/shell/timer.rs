//! The driver's one timer. Its callback is made once per engine (like the
//! `deliver` callback) and armed with `setTimeout` for the engine's earliest
//! deadline. When nothing is due any more the timer stays armed and only
//! stops holding a Node process open (`unref`), so a stream of submissions
//! costs no `setTimeout`/`clearTimeout` pair and no new closure each; when it
//! fires early it finds nothing due and is armed again only if needed.
//!
//! Every call into JavaScript goes through `js/boundary.js` and is declared
//! `catch`: a page that broke `setTimeout` gets a report, never an unwind.

use wasm_bindgen::prelude::*;

use super::boundary::report;

#[wasm_bindgen(module = "/js/boundary.js")]
extern "C" {
    #[wasm_bindgen(js_name = armTimer, catch)]
    fn arm_timer(callback: &JsValue, ms: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = clearTimer, catch)]
    fn clear_timer(handle: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = holdTimer, catch)]
    fn hold_timer(handle: &JsValue, hold: bool) -> Result<(), JsValue>;
}

/// An armed timer: the deadline it fires by and whether it holds a Node
/// process open. Dropping it clears it.
///
/// ```ignore
/// let armed = Armed::for_deadline(None, &tick, Some(now + 10_000), || now);
/// let armed = Armed::for_deadline(armed, &tick, None, || now); // still armed, unref'd
/// ```
#[derive(Debug)]
pub(super) struct Armed {
    at: u64,
    handle: JsValue,
    holds: bool,
}

impl Armed {
    /// The timer to keep for `deadline`, given the `current` one: kept when
    /// it fires no later than the deadline (or when there is none), replaced
    /// otherwise. `now` is read only when a timer is armed (most calls keep
    /// the one they have). No borrow may be held by the caller: this calls
    /// JavaScript.
    pub(super) fn for_deadline(
        current: Option<Armed>,
        callback: &JsValue,
        deadline: Option<u64>,
        now: impl FnOnce() -> u64,
    ) -> Option<Armed> {
        match (current, deadline) {
            (Some(mut armed), None) => {
                armed.hold(false);
                Some(armed)
            }
            (None, None) => None,
            (Some(mut armed), Some(at)) if armed.at <= at => {
                armed.hold(true);
                Some(armed)
            }
            (_replaced, Some(at)) => {
                // setTimeout holds at most 2^31 - 1 ms (longer reads as 1 ms and spins).
                let delay = at.saturating_sub(now()).min(i32::MAX as u64 - 1) as u32;
                match arm_timer(callback, delay.saturating_add(1)) {
                    Ok(handle) => Some(Armed { at, handle, holds: true }),
                    Err(error) => {
                        report("cannot arm the engine's timer", &error);
                        None
                    }
                }
            }
        }
    }

    fn hold(&mut self, hold: bool) {
        if self.holds != hold {
            self.holds = hold;
            let _ = hold_timer(&self.handle, hold);
        }
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        let _ = clear_timer(&self.handle);
    }
}
