//! Rust values out to JavaScript: `serde_json` writes the value as text in
//! wasm and `JSON.parse` builds it in JavaScript, so a whole value crosses
//! once (values coming in are read by the front door, `boundary.rs`).

use serde::Serialize;
use wasm_bindgen::JsValue;

use super::boundary::parse_json;

/// Rust -> plain JS objects (maps as objects, numbers as numbers); `null`
/// if it cannot be written (never for the package's own types).
///
/// ```ignore
/// let v = to_js(&serde_json::json!({"turnId": "t1"})); // { turnId: "t1" }
/// ```
pub(super) fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    serde_json::to_string(value).ok().and_then(|text| parse_json(&text).ok()).unwrap_or(JsValue::NULL)
}
