//! A host call's settlement as the driver reports it (`how`): a result (its
//! JSON text in the payload), a JSON-RPC error answer, no answer,
//! unreadable, or not sent; and the front door's refusal of a value.

use serde::Deserialize;

use super::input::Input;
use crate::core::{HostAnswer, Json, RpcError};

/// The engine's form of a settled host call; `payload` is the result (or
/// the error's `data`, or empty).
///
/// ```
/// use renderer_steering::bridge::{host_answer, Input};
/// use renderer_steering::core::HostAnswer;
/// let input: Input = serde_json::from_str(r#"{"do":"answer","id":1,"now":5,"how":"result"}"#).unwrap();
/// assert!(matches!(host_answer(&input, r#"{"turnId":"t"}"#.into()), HostAnswer::Result(_)));
/// let input: Input = serde_json::from_str(r#"{"do":"answer","id":1,"how":"lost","words":"socket closed"}"#).unwrap();
/// assert!(matches!(host_answer(&input, String::new()), HostAnswer::Transport(_)));
/// ```
pub fn host_answer(input: &Input, payload: String) -> HostAnswer {
    let words = || input.words.clone();
    match input.how.as_str() {
        "result" => match Json::parse(payload) {
            Ok(value) => HostAnswer::Result(value),
            Err(e) => HostAnswer::Unreadable(e.to_string()),
        },
        "error" => {
            let data = if payload.is_empty() { None } else { Json::parse(payload).ok() };
            HostAnswer::Error(RpcError { code: input.code, message: input.message.clone(), data })
        }
        "unreadable" => HostAnswer::Unreadable(words()),
        "notSent" => HostAnswer::NotSent(words()),
        "timeout" => HostAnswer::Timeout,
        // "lost", and anything else: no answer came; the request may have been written.
        _ => HostAnswer::Transport(words()),
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
#[serde(rename_all = "camelCase", default)]
pub struct Refused {
    /// The argument at fault ("" for the whole value).
    pub field: String,
    /// What is wrong, for a person.
    pub reason: String,
    /// Only its size is at fault.
    pub too_large: bool,
}
