//! What a rejected host call means: the host's JSON-RPC error answer, or
//! "no answer came" (the request may have been written). The driver reads
//! the rejected value's raw facts; this is the one place that decides.
//!
//! Reading too much as "no answer" is the safe side: it becomes
//! `outcomeUnknown`, which is never resent; the other way invites a
//! duplicate.

use serde::Deserialize;

use super::json::Json;
use super::json_rpc::RpcError;
use super::requests::HostAnswer;

/// Codes JSON-RPC clients make up themselves when no answer came, in the
/// range hosts use: vscode-jsonrpc's message write and read errors, its
/// pending response rejected (connection disposed) and connection inactive
/// (-32099..-32096), and request cancelled (-32800, LSP and ACP: the request
/// may already have run).
///
/// ```
/// use renderer_steering::core::{RejectionFacts, CLIENT_CODES};
/// assert!(CLIENT_CODES.contains(&-32800), "request cancelled");
/// let made_up = RejectionFacts { object: true, code: Some(CLIENT_CODES[0]), ..Default::default() };
/// assert!(made_up.rpc_error(None).is_none(), "a client's own code is no answer from the host");
/// ```
pub const CLIENT_CODES: [i64; 5] = [-32099, -32098, -32097, -32096, -32800];

/// Request cancelled: a host's answer to a cancel, and a client's own.
const REQUEST_CANCELLED: i64 = -32800;

/// Names a failure carries when it is a client's own abort or timeout.
const NO_ANSWER_NAMES: [&str; 2] = ["AbortError", "TimeoutError"];

/// What the driver read of a rejected value, nothing decided.
///
/// ```
/// use renderer_steering::core::RejectionFacts;
/// let answer: RejectionFacts = serde_json::from_str(r#"{"object":true,"code":-32601,"message":"no such method"}"#).unwrap();
/// assert!(answer.rpc_error(None).is_some());
/// let closed: RejectionFacts = serde_json::from_str(r#"{"object":true,"code":1006,"words":"closed"}"#).unwrap();
/// assert!(closed.rpc_error(None).is_none(), "a WebSocket close code is no answer");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RejectionFacts {
    /// The value is an object (a thrown string or number is never an answer).
    pub object: bool,
    /// It is a `DOMException` (`AbortError`, `TimeoutError`, a network error).
    pub dom_exception: bool,
    /// Its `name`, when a string.
    pub name: Option<String>,
    /// Its `code`, when a safe integer.
    pub code: Option<i64>,
    /// Its `message`, when a string (bounded by the driver).
    pub message: String,
    /// A short description of the value.
    pub words: String,
}

impl RejectionFacts {
    /// Facts of a value that carries only a description (a thrown string).
    ///
    /// ```
    /// # use renderer_steering::core::RejectionFacts;
    /// assert_eq!(RejectionFacts::words("socket closed").words, "socket closed");
    /// ```
    pub fn words(words: &str) -> Self {
        RejectionFacts { words: words.into(), ..Default::default() }
    }

    /// The host's JSON-RPC error answer this is (`data` its error data),
    /// or `None` when it means no answer came: not an object, a
    /// `DOMException` or an error named as an abort or timeout, a code that
    /// is not a negative integer (a WebSocket close code such as 1006, a
    /// client's connection-error enum), or a code clients make up
    /// ([`CLIENT_CODES`]).
    ///
    /// ```
    /// # use renderer_steering::core::RejectionFacts;
    /// let mut facts = RejectionFacts { object: true, code: Some(-32800), ..Default::default() };
    /// assert!(facts.rpc_error(None).is_none(), "a client's own cancel");
    /// facts.code = Some(-32074);
    /// assert_eq!(facts.rpc_error(None).unwrap().code, -32074);
    /// facts.dom_exception = true;
    /// assert!(facts.rpc_error(None).is_none());
    /// ```
    pub fn rpc_error(&self, data: Option<Json>) -> Option<RpcError> {
        if !self.looks_like_an_answer() {
            return None;
        }
        let code = self.code.filter(|code| *code < 0 && !CLIENT_CODES.contains(code))?;
        Some(RpcError { code, message: self.message.clone(), data })
    }

    /// The engine's form of the rejection: an error answer; a cancel
    /// ([`HostAnswer::Cancelled`]: `-32800` on an object that is no abort,
    /// which only a dialect that sent the cancel may read as the host's);
    /// else no answer came ([`HostAnswer::Transport`]). `data` is the error
    /// data's JSON text ("" when it had none or it could not be read).
    ///
    /// ```
    /// # use renderer_steering::core::{HostAnswer, RejectionFacts};
    /// assert!(matches!(RejectionFacts::words("closed").host_answer(String::new()), HostAnswer::Transport(_)));
    /// let cancelled = RejectionFacts { object: true, code: Some(-32800), ..RejectionFacts::words("cancelled") };
    /// assert!(matches!(cancelled.host_answer(String::new()), HostAnswer::Cancelled(_)));
    /// ```
    pub fn host_answer(&self, data: String) -> HostAnswer {
        let data = if data.is_empty() { None } else { Json::parse(data).ok() };
        if let Some(error) = self.rpc_error(data) {
            return HostAnswer::Error(error);
        }
        if self.code == Some(REQUEST_CANCELLED) && self.looks_like_an_answer() {
            return HostAnswer::Cancelled(self.description());
        }
        HostAnswer::Transport(self.description())
    }

    /// An object that is no abort, timeout or `DOMException`.
    fn looks_like_an_answer(&self) -> bool {
        let named_no_answer = self.name.as_deref().is_some_and(|name| NO_ANSWER_NAMES.contains(&name));
        self.object && !self.dom_exception && !named_no_answer
    }

    /// What a person reads of it: its description, else its message.
    fn description(&self) -> String {
        if self.words.is_empty() {
            self.message.clone()
        } else {
            self.words.clone()
        }
    }
}
