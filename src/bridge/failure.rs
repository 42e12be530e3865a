//! Typed errors the driver fails a call with when no engine is asked: a
//! method called after `free()` or on something that is not an instance.
//! Built by the core's `Failure`, the one place every kind, code and
//! message is made.

use super::input::Input;
use crate::core::{Failure, Json, SteeringError, Trace};

/// The typed error of a `failure` input: `kind` (`invalidInput` with
/// `detail`, its words; anything else: `disposed`).
///
/// ```
/// use renderer_steering::bridge::{failure, Input};
/// let input: Input = serde_json::from_str(r#"{"do":"failure","kind":"disposed"}"#).unwrap();
/// assert_eq!(failure(&input).failure.kind(), "disposed");
/// let input: Input = serde_json::from_str(r#"{"do":"failure","kind":"invalidInput","detail":"not an instance"}"#).unwrap();
/// assert_eq!(failure(&input).failure.message(), "not an instance");
/// ```
#[cfg_attr(feature = "size-first", optimize(size))]
pub fn failure(input: &Input) -> SteeringError {
    let failure = match input.kind.as_str() {
        "invalidInput" => Failure::invalid_input(input.detail.clone()),
        _ => Failure::disposed(),
    };
    SteeringError::new(failure, Json::no_items(), Trace::default())
}
