//! The dependency floor: what renderer-steering's wasm would weigh with none
//! of its own logic (see Cargo.toml).

use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

/// Installs the panic hook, as the package's `start` does.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// JS -> `serde_json::Value` -> JS, through serde-wasm-bindgen.
#[wasm_bindgen]
pub fn round_trip(value: JsValue) -> JsValue {
    match serde_wasm_bindgen::from_value::<Value>(value) {
        Ok(value) => value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap_or(JsValue::NULL),
        Err(error) => JsValue::from_str(&error.to_string()),
    }
}

/// One bounded wait: a gloo timer inside a promise.
#[wasm_bindgen]
pub fn after(ms: u32, then: js_sys::Function) -> js_sys::Promise {
    wasm_bindgen_futures::future_to_promise(async move {
        gloo_timers::future::TimeoutFuture::new(ms).await;
        then.call0(&JsValue::NULL)
    })
}
