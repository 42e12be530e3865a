//! A host call's settlement as the driver reports it: a result (its JSON
//! text in the payload), a JSON-RPC error answer, no answer, unreadable, or
//! not sent.

use serde::Deserialize;

use crate::core::{HostAnswer, Json, RpcError};

/// How a host call settled.
///
/// ```
/// use renderer_steering::bridge::Settled;
/// use renderer_steering::core::HostAnswer;
/// let s: Settled = serde_json::from_str(r#"{"id":1,"now":5,"how":"result"}"#).unwrap();
/// assert!(matches!(s.answer(r#"{"turnId":"t"}"#.into()), HostAnswer::Result(_)));
/// ```
#[derive(Debug, Deserialize)]
pub struct Settled {
    /// The request id the `send` step named.
    pub id: u64,
    /// The clock's reading when it settled.
    #[serde(deserialize_with = "super::reading")]
    pub now: f64,
    /// The window's role for the request's thread (`follower: true`), when asked.
    #[serde(default)]
    pub follower: Option<bool>,
    how: How,
    /// Words for a failure without an answer.
    #[serde(default)]
    words: String,
    /// The JSON-RPC error's code and message.
    #[serde(default)]
    code: i64,
    #[serde(default)]
    message: String,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "camelCase")]
enum How {
    /// Resolved: the payload is the result's JSON text.
    Result,
    /// The host's JSON-RPC error answer: the payload is its `data` (or empty).
    Error,
    /// Resolved with a value that could not be read.
    Unreadable,
    /// Rejected with no answer: the request may have been written.
    Lost,
    /// Threw synchronously: nothing was written.
    NotSent,
    /// The driver gave up waiting.
    Timeout,
}

impl Settled {
    /// The engine's form of it; `payload` is the result (or the error's `data`).
    pub fn answer(self, payload: String) -> HostAnswer {
        match self.how {
            How::Result => match Json::parse(payload) {
                Ok(value) => HostAnswer::Result(value),
                Err(e) => HostAnswer::Unreadable(e.to_string()),
            },
            How::Error => {
                let data = if payload.is_empty() { None } else { Json::parse(payload).ok() };
                HostAnswer::Error(RpcError { code: self.code, message: self.message, data })
            }
            How::Unreadable => HostAnswer::Unreadable(self.words),
            How::Lost => HostAnswer::Transport(self.words),
            How::NotSent => HostAnswer::NotSent(self.words),
            How::Timeout => HostAnswer::Timeout,
        }
    }
}

/// Why the front door could not read a value (`field`: which argument).
///
/// ```
/// use renderer_steering::bridge::Refused;
/// let r: Refused = serde_json::from_str(r#"{"field":"input","reason":"a cycle","tooLarge":false}"#).unwrap();
/// assert_eq!(r.field, "input");
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Refused {
    /// The argument at fault ("" for the whole value).
    #[serde(default)]
    pub field: String,
    /// What is wrong, for a person.
    #[serde(default)]
    pub reason: String,
    /// Only its size is at fault.
    #[serde(default)]
    pub too_large: bool,
}
