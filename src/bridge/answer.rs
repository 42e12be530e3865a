//! A host call's settlement as the driver reports it (`how`): a result (its
//! JSON text in the payload), a rejection's raw facts (the core decides
//! whether it is the host's error answer), unreadable, or not sent; and the
//! front door's refusal of a value.

use serde::Deserialize;

use super::input::Input;
use crate::core::content::{not_an_array, MAX_DRAFT_BYTES};
use crate::core::{Failure, HostAnswer, Json};

/// The engine's form of a settled host call; `payload` is the result (or
/// the error's `data`, or empty).
///
/// ```
/// use renderer_steering::bridge::{host_answer, Input};
/// use renderer_steering::core::HostAnswer;
/// let input: Input = serde_json::from_str(r#"{"do":"answer","id":1,"now":5,"how":"result"}"#).unwrap();
/// assert!(matches!(host_answer(&input, r#"{"turnId":"t"}"#.into()), HostAnswer::Result(_)));
/// let closed = r#"{"do":"answer","id":1,"how":"rejected","rejection":{"object":true,"code":1006,"words":"socket closed"}}"#;
/// assert!(matches!(host_answer(&serde_json::from_str(closed).unwrap(), String::new()), HostAnswer::Transport(_)));
/// let refused = r#"{"do":"answer","id":1,"how":"rejected","rejection":{"object":true,"code":-32072,"message":"busy"}}"#;
/// assert!(matches!(host_answer(&serde_json::from_str(refused).unwrap(), String::new()), HostAnswer::Error(_)));
/// ```
pub fn host_answer(input: &Input, payload: String) -> HostAnswer {
    let words = || input.words.clone();
    match input.how.as_str() {
        "result" => match Json::parse(payload) {
            Ok(value) => HostAnswer::Result(value),
            Err(e) => HostAnswer::Unreadable(e.to_string()),
        },
        "rejected" => input.rejection.clone().unwrap_or_default().host_answer(payload),
        "unreadable" => HostAnswer::Unreadable(words()),
        "notSent" => HostAnswer::NotSent(words()),
        "timeout" => HostAnswer::Timeout,
        // Anything else: no answer came; the request may have been written.
        _ => HostAnswer::Transport(words()),
    }
}

/// Why the front door could not read a value (`field`: which argument).
///
/// ```
/// use renderer_steering::bridge::{Refused, RefusedWhat};
/// let r: Refused = serde_json::from_str(r#"{"field":"input","reason":"it contains itself (a cycle)"}"#).unwrap();
/// assert_eq!((r.field.as_str(), r.what), ("input", RefusedWhat::Unreadable));
/// assert_eq!(r.draft_failure().message(), "the draft cannot be read: it contains itself (a cycle)");
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Refused {
    /// The argument at fault ("" for the whole value).
    pub field: String,
    /// What is wrong, for a person (when `what` is `unreadable`).
    pub reason: String,
    /// What kind of refusal it is.
    pub what: RefusedWhat,
}

/// What kind of value the front door refused.
///
/// ```
/// use renderer_steering::bridge::RefusedWhat;
/// let what: RefusedWhat = serde_json::from_str(r#""tooLarge""#).unwrap();
/// assert_eq!(what, RefusedWhat::TooLarge);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RefusedWhat {
    /// It could not be read as JSON (`reason` says why).
    #[default]
    Unreadable,
    /// Only its size is at fault.
    TooLarge,
    /// A draft that is no array of content items.
    NotAnArray,
}

impl Refused {
    /// The failure a refused draft is: too large, not an array, or unreadable.
    ///
    /// ```
    /// # use renderer_steering::bridge::{Refused, RefusedWhat};
    /// let big = Refused { what: RefusedWhat::TooLarge, ..Refused::default() };
    /// assert_eq!(big.draft_failure().kind(), "draftTooLarge");
    /// ```
    pub fn draft_failure(self) -> Failure {
        match self.what {
            RefusedWhat::TooLarge => Failure::draft_too_large(MAX_DRAFT_BYTES + 1),
            RefusedWhat::NotAnArray => not_an_array(),
            RefusedWhat::Unreadable => Failure::invalid_input(format!("the draft cannot be read: {}", self.reason)),
        }
    }
}
