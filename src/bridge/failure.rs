//! Typed errors the driver fails a call with when no engine is asked: a
//! method called after `free()` or on something that is not an instance,
//! and the desktop hook's failures of the app's own calls. Built by the
//! core's `Failure`, the one place every kind, code and message is made.

use serde::Deserialize;

use super::desktop::Rejection;
use crate::core::{Failure, Json, SteeringError, Trace};

/// What went wrong, by kind: `method` the host call it concerns, `detail`
/// words, `ms` a bound, `error` a rejection the driver read.
///
/// ```
/// use renderer_steering::bridge::Refusal;
/// let r: Refusal = serde_json::from_str(r#"{"kind":"disposed"}"#).unwrap();
/// assert_eq!(r.error().failure.kind(), "disposed");
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Refusal {
    kind: String,
    method: String,
    detail: String,
    ms: f64,
    error: Option<Rejection>,
}

impl Refusal {
    /// The typed error.
    pub fn error(&self) -> SteeringError {
        let words = || self.error.as_ref().map_or_else(|| self.detail.clone(), |e| e.facts().words);
        let method = self.method.as_str();
        let failure = match self.kind.as_str() {
            "outcomeUnknown" => Failure::outcome_unknown(method, &self.detail),
            "missingBinding" => Failure::missing_binding(self.detail.clone()),
            "invalidInput" => Failure::invalid_input(self.detail.clone()),
            "pendingTurnStart" => Failure::pending_turn_start(),
            "busy" => Failure::busy(),
            "timeout" => Failure::timeout(method, self.ms as u64),
            "transport" => Failure::transport(method, words()),
            "lost" => Failure::outcome_unknown(method, &words()),
            "answered" => match self.error.as_ref().and_then(|e| e.facts().rpc) {
                Some(error) => Failure::rpc(method, error),
                None => Failure::outcome_unknown(method, &words()),
            },
            _ => Failure::disposed(),
        };
        SteeringError::new(failure, Json::no_items(), Trace::default())
    }
}
