//! A failed submission as a JS `Error` named `SteeringError`, carrying
//! `kind`, `code` (when the host gave one), `data`, `draft` and `trace`.
//!
//! The package entry hands its exported `SteeringError` class to the module
//! once at `init()` (`__setErrorClass`), and every rejection is constructed
//! from that very class, so `error instanceof SteeringError` holds in every
//! bundler (no extra module path for a bundler to resolve or duplicate).
//! Without a registered class (the wasm-bindgen tests, which bypass the
//! entry) it is a plain `Error` with the same name and fields.

use std::cell::RefCell;

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::to_js;
use crate::core::SteeringError;

#[wasm_bindgen(module = "/js/fields.js")]
extern "C" {
    #[wasm_bindgen(js_name = defineErrorFields)]
    fn define_error_fields(error: &js_sys::Error, kind: &str, code: JsValue, data: JsValue, draft: JsValue, trace: JsValue, id: JsValue);
}

thread_local! {
    static ERROR_CLASS: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Registers the class every rejection is constructed from (called once by
/// the package entry; not part of the public types).
///
/// ```js
/// __setErrorClass(SteeringError); // class SteeringError extends Error { constructor(message) }
/// ```
#[wasm_bindgen(js_name = __setErrorClass, skip_typescript)]
#[allow(unreachable_pub, reason = "exported to JavaScript by wasm_bindgen, not to Rust")]
pub fn set_error_class(class: Function) {
    ERROR_CLASS.with(|slot| *slot.borrow_mut() = Some(class));
}

fn new_error(message: &str) -> js_sys::Error {
    // Taken out of its cell before the constructor (JavaScript) runs.
    let class = ERROR_CLASS.with(|slot| slot.borrow().clone());
    let registered = class.and_then(|class| Reflect::construct(&class, &Array::of1(&JsValue::from_str(message))).ok());
    match registered {
        Some(error) => error.unchecked_into(),
        None => js_sys::Error::new(message),
    }
}

/// Builds the rejection value for a failure. `original` is the caller's own
/// input value: when it is given, `draft` is that very object (identity), so
/// the words come back exactly as they were passed in.
pub(super) fn to_js_error(error: &SteeringError, original: &JsValue) -> JsValue {
    let report = error.to_report();
    let js_error = new_error(&report.message);
    // Every field defined in one crossing (`defineErrorFields`, never
    // throws): a frozen Error.prototype or a setter on a shared prototype
    // can neither unwind into wasm nor drop a field.
    define_error_fields(
        &js_error,
        report.kind,
        report.code.map(|c| JsValue::from_f64(c as f64)).unwrap_or(JsValue::UNDEFINED),
        report.data.as_ref().map(to_js).unwrap_or(JsValue::UNDEFINED),
        if original.is_undefined() { to_js(&report.draft) } else { original.clone() },
        to_js(&report.trace),
        report.client_user_message_id.as_deref().map(JsValue::from_str).unwrap_or(JsValue::UNDEFINED),
    );
    js_error.into()
}
