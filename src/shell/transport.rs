//! Calls the embedding app's `request(method, params, options?)` through the
//! front door (`js/boundary.js`) and turns whatever happens into a
//! [`HostAnswer`]. The transport contract:
//! - resolve with the JSON-RPC `result`;
//! - reject with `{ code, message, data? }` (an integer `code`) only when the
//!   host answered with a JSON-RPC error;
//! - reject with anything else (an `Error`, a disconnect, its own timeout)
//!   when no answer came: the request may have been written;
//! - throw synchronously only when nothing was written.
//!
//! Never panics, and no JS exception reaches wasm.

use js_sys::Function;
use serde_json::Value;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

use super::boundary::{call_host, own_field, settle_answer, MAX_ANSWER_UNITS, MAX_DEPTH, MAX_RELAYED_UNITS};
use super::options::function_field;
use crate::core::requests::HostAnswer;
use crate::core::timeouts::MAX_TIMEOUT_MS;
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
        function_field(options, "request").map(Transport::new).ok_or_else(|| {
            wasm_bindgen::JsError::new("options.request must be a function (method, params, options?) => Promise")
        })
    }

    /// Sends one request and waits for its answer; shortly after `bound_ms`
    /// the wait is given up on the JS side too, so a transport that never
    /// settles holds nothing (the engine's own timer has decided by then).
    pub async fn call(&self, method: &str, params: &Value, options: &JsValue, bound_ms: Option<u64>) -> HostAnswer {
        let params = params.to_string();
        let pass_options = !options.is_undefined();
        let give_up = bound_ms.map(|ms| ms.saturating_add(GIVE_UP_MARGIN_MS).min(MAX_TIMEOUT_MS) as f64).unwrap_or(-1.0);
        let call = call_host(&self.request, method, &params, options, pass_options, MAX_ANSWER_UNITS, MAX_DEPTH, give_up);
        match call {
            Ok(promise) => described(JsFuture::from(promise).await),
            Err(_) => HostAnswer::Transport("the transport could not be called".into()),
        }
    }
}

/// How long after the engine's own bound the JS side stops waiting.
const GIVE_UP_MARGIN_MS: u64 = 100;

/// Waits (at most `bound_ms`) for a value the app hands over, a value or a
/// promise of it, and reads it like a host answer (ACP's `initialize` option).
pub async fn settle(value: &JsValue, bound_ms: u64) -> HostAnswer {
    match settle_answer(value, MAX_RELAYED_UNITS, MAX_DEPTH, bound_ms.min(MAX_TIMEOUT_MS) as f64) {
        Ok(promise) => described(JsFuture::from(promise).await),
        Err(_) => HostAnswer::Unreadable("the value could not be read".into()),
    }
}

/// Reads the plain descriptor `js/boundary.js` resolved with.
fn described(settled: Result<JsValue, JsValue>) -> HostAnswer {
    let Ok(descriptor) = settled else {
        return HostAnswer::Transport("the transport failed".into());
    };
    let text = |key: &str| own_field(&descriptor, key).as_string().unwrap_or_default();
    match text("kind").as_str() {
        "result" => match serde_json::from_str(&text("text")) {
            Ok(value) => HostAnswer::Result(value),
            Err(e) => HostAnswer::Unreadable(e.to_string()),
        },
        "error" => {
            let code = own_field(&descriptor, "code").as_f64().unwrap_or(0.0) as i64;
            let data = own_field(&descriptor, "data").as_string().and_then(|d| serde_json::from_str(&d).ok());
            HostAnswer::Error(RpcError { code, message: text("message"), data })
        }
        "unreadable" => HostAnswer::Unreadable(text("detail")),
        "notSent" => HostAnswer::NotSent(text("detail")),
        "timeout" => HostAnswer::Timeout,
        _ => HostAnswer::Transport(text("detail")),
    }
}
