//! Reading the plain option objects JavaScript passes in: fields, callbacks,
//! timeouts and the stream role. One place for all three entry points.
//! Fields are read by `fieldOf` (`js/fields.js`, never throws): a throwing
//! getter or Proxy trap reads as absent, and so does a field only a shared
//! built-in prototype has (`Object.prototype.allowPromptHandoff = true`
//! turns nothing on); values are read through the front door.

use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/js/fields.js")]
extern "C" {
    #[wasm_bindgen(js_name = fieldOf)]
    fn field_of(object: &JsValue, key: &str) -> JsValue;
}

use super::boundary::{read_typed, MAX_ARGUMENT_UNITS};
use crate::core::timeouts::MAX_TIMEOUT_MS;
use crate::core::Timeouts;

/// Reads `key` of a JS object (undefined when absent, not an object, or unreadable).
pub(crate) fn field(object: &JsValue, key: &str) -> JsValue {
    if !object.is_object() && !object.is_function() {
        return JsValue::UNDEFINED;
    }
    field_of(object, key)
}

/// Reads an optional function field (`typeof` check: no `instanceof`, no trap).
pub(crate) fn function_field(object: &JsValue, key: &str) -> Option<Function> {
    let value = field(object, key);
    value.is_function().then(|| value.unchecked_into())
}

/// Reads `options.timeouts` (defaults when absent); refuses bounds a timer
/// cannot hold.
pub(crate) fn read_timeouts(options: &JsValue) -> Result<Timeouts, JsError> {
    let raw = field(options, "timeouts");
    if raw.is_undefined() || raw.is_null() {
        return Ok(Timeouts::default());
    }
    // Every own key is read: an unknown one is refused (a misspelled bound
    // would otherwise be silently ignored).
    let timeouts: Timeouts = read_typed(&raw, MAX_ARGUMENT_UNITS, None)
        .map_err(|e| JsError::new(&format!("options.timeouts: {} (bounds are 0 to {MAX_TIMEOUT_MS} ms)", e.reason)))?;
    timeouts.check().map_err(|e| JsError::new(&format!("options.timeouts: {e}")))
}

/// True when `stream_role(threadId)` (called with `this`) says `follower`;
/// it may answer `"follower"` or `{ role: "follower" }`. A throwing callback
/// reads as "not a follower".
pub(crate) fn is_follower(stream_role: &Function, this: &JsValue, thread_id: &str) -> bool {
    let role = stream_role.call1(this, &JsValue::from_str(thread_id)).unwrap_or(JsValue::UNDEFINED);
    let role = if role.is_object() { field(&role, "role") } else { role };
    role == JsValue::from_str("follower") // compared in JS: a huge string is never copied
}
