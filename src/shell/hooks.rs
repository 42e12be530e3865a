//! A call's UI hooks and the caller's own values, kept as one JS handle: the
//! call record `js/boundary.js` `readCall` builds. The engine never reads the
//! hooks one by one; `callHook` runs the one an action names in JavaScript,
//! under try/catch, so a hook costs one crossing and cannot throw into wasm.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/boundary.js")]
extern "C" {
    #[wasm_bindgen(js_name = callHook, catch)]
    fn call_hook(record: &JsValue, slot: u32, presentation: &str, to: &str) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = unconfirmedRecord, catch)]
    fn unconfirmed_record(hooks: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = recordInput, catch)]
    fn record_input(record: &JsValue) -> Result<JsValue, JsValue>;
}

/// Which hook of a call to run (its slot in the call record).
///
/// ```ignore
/// hooks.run(Hook::Present, "activeTurn", "");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Hook {
    /// `present(where)`: show the message before the host answers.
    Present = 4,
    /// `retract()`: take the optimistic message back.
    Retract = 5,
    /// `reconcile(from, to)`, or `retract()` then `present(to)` without one.
    Reconcile = 6,
    /// `unconfirmed(where)`: the message may have reached the host, no answer came.
    Unconfirmed = 7,
}

/// What the UI gave for one submission (`present`, `retract`, `reconcile`,
/// `unconfirmed`, all optional) and the caller's `input` and
/// `requestOptions`: one call record.
///
/// ```ignore
/// let hooks = Hooks::unconfirmed_only(&js_hooks);
/// hooks.run(Hook::Unconfirmed, "prompt", "");
/// ```
#[derive(Debug, Clone)]
pub(super) struct Hooks {
    record: JsValue,
}

impl Hooks {
    /// The call record `readCall` returned.
    pub(super) fn from_record(record: JsValue) -> Self {
        Hooks { record }
    }

    /// Only `hooks.unconfirmed` (read once, under try/catch).
    pub(super) fn unconfirmed_only(hooks: &JsValue) -> Self {
        Hooks { record: unconfirmed_record(hooks).unwrap_or(JsValue::UNDEFINED) }
    }

    /// The record, for `callHost` (it passes the caller's `requestOptions`
    /// with the request that carries the message).
    pub(super) fn record(&self) -> &JsValue {
        &self.record
    }

    /// The caller's own `input` (handed back by identity on failure).
    pub(super) fn input(&self) -> JsValue {
        record_input(&self.record).unwrap_or(JsValue::UNDEFINED)
    }

    /// Runs `hook` with `presentation` (and `to`, for `reconcile`). Never
    /// throws: a throwing hook is reported in JavaScript.
    pub(super) fn run(&self, hook: Hook, presentation: &str, to: &str) {
        // Declared `catch`: even a record that is not one cannot unwind.
        let _ = call_hook(&self.record, hook as u32, presentation, to);
    }
}
