//! JSON values across the boundary, with serde-wasm-bindgen.

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::JsValue;

/// Rust -> plain JS objects (maps as objects, no BigInt).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> JsValue {
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    value.serialize(&serializer).unwrap_or(JsValue::NULL)
}

/// JS -> a JSON value; `Err` names what could not be read.
pub fn from_js(value: JsValue) -> Result<Value, String> {
    if value.is_undefined() {
        return Err("the answer was undefined".into());
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}

/// JS -> a typed value.
pub fn typed_from_js<T: serde::de::DeserializeOwned>(value: JsValue) -> Result<T, String> {
    serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
}
