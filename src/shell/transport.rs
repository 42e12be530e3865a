//! Calls the embedding app's `request(method, params, options?)` and turns
//! whatever happens into a [`HostAnswer`]: a result, a JSON-RPC error, an
//! unreadable answer, or a transport failure (a throw, a rejection without
//! a JSON-RPC shape). Never panics.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::convert::{from_js, to_js};
use crate::core::requests::HostAnswer;
use crate::core::RpcError;

/// The app's request function.
#[derive(Debug, Clone)]
pub struct Transport {
    request: Function,
}

impl Transport {
    /// Wraps `request`.
    pub fn new(request: Function) -> Self {
        Transport { request }
    }

    /// Reads `options.request`, the app's transport, or says clearly what is wrong.
    pub fn from_options(options: &JsValue) -> Result<Self, wasm_bindgen::JsError> {
        let request = Reflect::get(options, &"request".into()).ok().and_then(|f| f.dyn_into::<Function>().ok());
        request.map(Transport::new).ok_or_else(|| {
            wasm_bindgen::JsError::new("options.request must be a function (method, params, options?) => Promise")
        })
    }

    /// Sends one request and waits for its answer.
    pub async fn call(&self, method: &str, params: &serde_json::Value, options: &JsValue) -> HostAnswer {
        let args = [JsValue::from_str(method), to_js(params), options.clone()];
        let returned = if options.is_undefined() {
            self.request.call2(&JsValue::NULL, &args[0], &args[1])
        } else {
            self.request.call3(&JsValue::NULL, &args[0], &args[1], &args[2])
        };
        let settled = match returned {
            Ok(value) => JsFuture::from(Promise::resolve(&value)).await,
            Err(thrown) => Err(thrown),
        };
        match settled {
            Ok(value) => match from_js(value) {
                Ok(json) => HostAnswer::Result(json),
                Err(detail) => HostAnswer::Unreadable(detail),
            },
            Err(error) => rpc_error(&error).map(HostAnswer::Error).unwrap_or_else(|| HostAnswer::Transport(describe(&error))),
        }
    }
}

/// Reads `{ code, message, data? }` from a rejection; `None` if it is not one.
pub fn rpc_error(error: &JsValue) -> Option<RpcError> {
    if !error.is_object() {
        return None;
    }
    let code = Reflect::get(error, &"code".into()).ok()?.as_f64()?;
    if code.fract() != 0.0 {
        return None;
    }
    let message = Reflect::get(error, &"message".into()).ok()?.as_string().unwrap_or_default();
    let data = Reflect::get(error, &"data".into()).ok().filter(|d| !d.is_undefined()).and_then(|d| from_js(d).ok());
    Some(RpcError { code: code as i64, message, data })
}

/// A short description of any thrown value.
pub fn describe(error: &JsValue) -> String {
    if let Some(e) = error.dyn_ref::<js_sys::Error>() {
        return String::from(e.message());
    }
    error.as_string().unwrap_or_else(|| "the transport failed".into())
}
