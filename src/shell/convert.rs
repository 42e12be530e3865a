//! Rust values out to JavaScript, with serde-wasm-bindgen (values coming
//! in are read by the front door, `boundary.rs`).

use serde::Serialize;
use wasm_bindgen::JsValue;

/// Rust -> plain JS objects (maps as objects, no BigInt).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).unwrap_or(JsValue::NULL)
}
