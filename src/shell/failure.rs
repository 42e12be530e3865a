//! A failed submission as a JS `Error` named `SteeringError`, carrying
//! `kind`, `code` (when the host gave one), `data`, `draft` and `trace`.

use js_sys::Reflect;
use wasm_bindgen::JsValue;

use super::convert::to_js;
use crate::core::SteeringError;

/// Builds the rejection value for a failure. `original` is the caller's own
/// input value: when it is given, `draft` is that very object (identity), so
/// the words come back exactly as they were passed in.
pub fn to_js_error(error: &SteeringError, original: &JsValue) -> JsValue {
    let report = error.to_report();
    let js_error = js_sys::Error::new(&report.message);
    js_error.set_name("SteeringError");
    let target: &JsValue = js_error.as_ref();
    let fields = [
        ("kind", JsValue::from_str(report.kind)),
        ("code", report.code.map(|c| JsValue::from_f64(c as f64)).unwrap_or(JsValue::UNDEFINED)),
        ("data", report.data.as_ref().map(to_js).unwrap_or(JsValue::UNDEFINED)),
        ("draft", if original.is_undefined() { to_js(&report.draft) } else { original.clone() }),
        ("trace", to_js(&report.trace)),
        ("clientUserMessageId", report.client_user_message_id.as_deref().map(JsValue::from_str).unwrap_or(JsValue::UNDEFINED)),
    ];
    for (key, value) in fields {
        if !value.is_undefined() {
            let _ = Reflect::set(target, &JsValue::from_str(key), &value);
        }
    }
    js_error.into()
}
