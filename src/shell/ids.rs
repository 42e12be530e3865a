//! Random ids for messages that arrive without one.

use js_sys::{Function, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// `crypto.randomUUID()` where available, else a random hex id.
pub(super) fn random_id() -> String {
    let global = js_sys::global();
    let uuid = Reflect::get(&global, &JsValue::from_str("crypto")).ok().filter(|c| c.is_object()).and_then(|crypto| {
        let f = Reflect::get(&crypto, &JsValue::from_str("randomUUID")).ok()?;
        f.dyn_into::<Function>().ok()?.call0(&crypto).ok()?.as_string()
    });
    uuid.unwrap_or_else(|| (0..4).map(|_| format!("{:08x}", (js_sys::Math::random() * 4_294_967_296.0) as u32)).collect())
}

/// Milliseconds since the epoch, as the core's `now`.
pub(super) fn now_ms() -> u64 {
    js_sys::Date::now() as u64
}
