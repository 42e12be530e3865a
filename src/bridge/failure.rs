//! Typed errors the driver fails a call with when no engine is asked: a
//! method called after `free()` or on something that is not an instance.
//! Built by the core's `Failure`, the one place every kind, code and
//! message is made.

use super::input::Input;
use crate::core::{Failure, Json, SteeringError, Trace};

/// The typed error of a `failure` input: `kind` is `disposed`, or
/// `invalidInput` with `detail`, its words; any other kind is none (the
/// driver asked for a kind that does not exist).
///
/// ```
/// use renderer_steering::bridge::{failure, Input};
/// let input: Input = serde_json::from_str(r#"{"do":"failure","kind":"disposed"}"#).unwrap();
/// assert_eq!(failure(&input).unwrap().failure.kind(), "disposed");
/// let input: Input = serde_json::from_str(r#"{"do":"failure","kind":"invalidInput","detail":"not an instance"}"#).unwrap();
/// assert_eq!(failure(&input).unwrap().failure.message(), "not an instance");
/// let input: Input = serde_json::from_str(r#"{"do":"failure","kind":"dispose"}"#).unwrap();
/// assert!(failure(&input).is_none());
/// ```
#[cfg_attr(feature = "size-first", optimize(size))]
pub fn failure(input: &Input) -> Option<SteeringError> {
    let failure = match input.kind.as_str() {
        "invalidInput" => Failure::invalid_input(input.detail.clone()),
        "disposed" => Failure::disposed(),
        _ => return None,
    };
    Some(SteeringError::new(failure, Json::no_items(), Trace::default()))
}
