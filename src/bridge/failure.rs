//! Typed errors the driver fails a call with when no engine is asked: a
//! method called after `free()` or on something that is not an instance,
//! and the desktop hook's failures of the app's own calls. Built by the
//! core's `Failure`, the one place every kind, code and message is made.

use super::input::Input;
use crate::core::{Failure, Json, SteeringError, Trace};

/// The typed error of a `failure` input: `kind`, `method` (the host call it
/// concerns), `detail` (words), `ms` (a bound), `error` (a rejection read).
///
/// ```
/// use renderer_steering::bridge::{failure, Input};
/// let input: Input = serde_json::from_str(r#"{"do":"failure","kind":"disposed"}"#).unwrap();
/// assert_eq!(failure(&input).failure.kind(), "disposed");
/// ```
#[cfg_attr(feature = "size-first", optimize(size))]
pub fn failure(input: &Input) -> SteeringError {
    let detail = input.detail.clone();
    let words = || input.error.as_ref().map_or_else(|| detail.clone(), |e| e.facts().words);
    let method = input.method.as_str();
    let failure = match input.kind.as_str() {
        "outcomeUnknown" => Failure::outcome_unknown(method, &detail),
        "missingBinding" => Failure::missing_binding(detail.clone()),
        "invalidInput" => Failure::invalid_input(detail.clone()),
        "pendingTurnStart" => Failure::pending_turn_start(),
        "busy" => Failure::busy(),
        "timeout" => Failure::timeout(method, input.ms as u64),
        "transport" => Failure::transport(method, words()),
        "lost" => Failure::outcome_unknown(method, &words()),
        "answered" => match input.error.as_ref().and_then(|e| e.facts().rpc) {
            Some(error) => Failure::rpc(method, error),
            None => Failure::outcome_unknown(method, &words()),
        },
        _ => Failure::disposed(),
    };
    SteeringError::new(failure, Json::no_items(), Trace::default())
}
