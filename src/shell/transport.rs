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
use wasm_bindgen::prelude::*;

use super::boundary::{call_host, own_field, settle_answer, MAX_ANSWER_UNITS, MAX_DEPTH, MAX_RELAYED_UNITS};
use super::options::{field, given};
use crate::core::error::OptionError;
use crate::core::options::{required, Accepts};
use crate::core::timeouts::MAX_TIMEOUT_MS;
use crate::core::HostAnswer;
use crate::core::{Json, RpcError};

/// The app's request function.
#[derive(Debug, Clone)]
pub(super) struct Transport {
    request: Function,
}

impl Transport {
    /// Wraps `request`.
    pub(super) fn new(request: Function) -> Self {
        Transport { request }
    }

    /// Reads `options.request`, the app's transport, or says clearly what is wrong.
    pub(super) fn from_options(options: &JsValue) -> Result<Self, OptionError> {
        let request = field(options, "request");
        required("options.request", Accepts::Function("(method, params, options?) => Promise"), &given(&request))?;
        Ok(Transport::new(wasm_bindgen::JsCast::unchecked_into(request)))
    }

    /// Sends one request; its answer (read by [`described`]) goes to
    /// `deliver(id, described)`, at most once and never synchronously. The
    /// engine bounds the wait with its own timer; nothing is held per call
    /// here, so a transport that never settles costs nothing. Returns the
    /// answer at once only if the transport could not even be called.
    /// `record` is the call record ([`super::hooks::Hooks`]) whose
    /// `requestOptions` go with the request, or `undefined`.
    pub(super) fn send(&self, method: &str, params: &Json, record: &JsValue, deliver: &JsValue, id: u64) -> Option<HostAnswer> {
        let params = params.text();
        let call = call_host(&self.request, method, params, record, MAX_ANSWER_UNITS, MAX_DEPTH, deliver, id as f64);
        call.err().map(|_| HostAnswer::Transport("the transport could not be called".into()))
    }
}

/// Waits (at most `bound_ms`) for a value the app hands over, a value or a
/// promise of it, and hands it to `then`, read like a host answer (ACP's
/// `initialize` option). `then` runs once, never synchronously.
pub(super) fn settle(value: &JsValue, bound_ms: u64, then: impl FnOnce(HostAnswer) + 'static) {
    let done = Closure::once_into_js(move |described: JsValue| then(described_answer(described)));
    let bound_ms = bound_ms.min(MAX_TIMEOUT_MS) as f64;
    if settle_answer(value, MAX_RELAYED_UNITS, MAX_DEPTH, bound_ms, &done).is_err() {
        // Only a page that broke `Promise` itself gets here: the value is never read.
        crate::shell::boundary::report("the initialize answer could not be read", &JsValue::UNDEFINED);
    }
}

/// Reads what `js/boundary.js` described: one string (a one-letter kind,
/// then its text) or, for a JSON-RPC error answer, `{ code, message, data? }`.
pub(crate) fn described_answer(descriptor: JsValue) -> HostAnswer {
    let Some(text) = descriptor.as_string() else {
        let code = own_field(&descriptor, "code").as_f64().unwrap_or(0.0) as i64;
        let message = own_field(&descriptor, "message").as_string().unwrap_or_default();
        let data = own_field(&descriptor, "data").as_string().and_then(|d| Json::parse(d).ok());
        return HostAnswer::Error(RpcError { code, message, data });
    };
    let mut rest = text;
    // The kind letter is dropped in place: an answer's text is never copied.
    let kind = rest.drain(..rest.chars().next().map_or(0, char::len_utf8)).next();
    match kind {
        Some('r') => match Json::parse(rest) {
            Ok(value) => HostAnswer::Result(value),
            Err(e) => HostAnswer::Unreadable(e.to_string()),
        },
        Some('u') => HostAnswer::Unreadable(rest),
        Some('n') => HostAnswer::NotSent(rest),
        Some('t') => HostAnswer::Timeout,
        _ => HostAnswer::Transport(rest),
    }
}
