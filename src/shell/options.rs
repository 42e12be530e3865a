//! Reading the plain option objects JavaScript passes in: fields, callbacks,
//! timeouts and the stream role. One place for all three entry points.

use js_sys::{Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::typed_from_js;
use crate::core::Timeouts;

/// Reads `key` of a JS object (undefined when absent or not an object).
pub(crate) fn field(object: &JsValue, key: &str) -> JsValue {
    if !object.is_object() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Reads an optional function field.
pub(crate) fn function_field(object: &JsValue, key: &str) -> Option<Function> {
    field(object, key).dyn_into::<Function>().ok()
}

/// Reads `options.timeouts` (defaults when absent).
pub(crate) fn read_timeouts(options: &JsValue) -> Result<Timeouts, JsError> {
    let raw = field(options, "timeouts");
    if raw.is_undefined() || raw.is_null() {
        return Ok(Timeouts::default());
    }
    typed_from_js(raw).map_err(|e| JsError::new(&format!("options.timeouts: {e}")))
}

/// True when `stream_role(threadId)` (called with `this`) says `follower`;
/// it may answer `"follower"` or `{ role: "follower" }`.
pub(crate) fn is_follower(stream_role: &Function, this: &JsValue, thread_id: &str) -> bool {
    let role = stream_role.call1(this, &JsValue::from_str(thread_id)).unwrap_or(JsValue::UNDEFINED);
    let role = if role.is_object() { field(&role, "role") } else { role };
    role.as_string().as_deref() == Some("follower")
}
