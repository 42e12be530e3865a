//! The plain-data view of a failed submission, for JavaScript.

use serde::Serialize;

use crate::core::trace::Trace;
use crate::core::Json;

/// Serializable view of a [`SteeringError`](super::SteeringError): the
/// fields of the JS `SteeringError`.
///
/// ```
/// # use renderer_steering::core::{Failure, SteeringError, Trace};
/// let r = SteeringError::new(Failure::busy(), vec![].into(), Trace::default()).to_report();
/// assert!(serde_json::to_value(&r).unwrap().get("code").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorReport {
    /// [`Failure::kind`](super::Failure::kind).
    pub kind: &'static str,
    /// JSON-RPC code, when the host gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// [`Failure::message`](super::Failure::message).
    pub message: String,
    /// The host's error data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Json>,
    /// The draft handed back.
    pub draft: Json,
    /// The decision trace.
    pub trace: Trace,
    /// The message id to retry with (codexhost).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_user_message_id: Option<String>,
}
