//! A failed submission: why, the draft handed back intact, and the trace;
//! and [`ErrorReport`], its plain-data view for JavaScript.

use std::fmt;

use serde::Serialize;

use super::Failure;
use crate::core::trace::Trace;
use crate::core::Json;

/// A failed submission: why, the draft handed back intact, and the trace.
/// Small enough to return by value (the trace is boxed).
///
/// ```
/// use renderer_steering::core::{Failure, Json, SteeringError, Trace};
/// let draft = Json::from(vec![serde_json::json!({"type": "text", "text": "use pnpm"})]);
/// let e = SteeringError::new(Failure::busy(), draft.clone(), Trace::default());
/// assert_eq!(e.draft, draft);
/// assert!(std::mem::size_of::<SteeringError>() <= 128);
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SteeringError {
    /// Why it failed.
    pub failure: Failure,
    /// The user's input, exactly as submitted.
    pub draft: Json,
    /// What the engine did before failing.
    pub trace: Box<Trace>,
    /// The message's `clientUserMessageId` (codexhost), for a retry that
    /// cannot duplicate.
    pub message_id: Option<String>,
}

// Returned by value everywhere: keep it under clippy's `result_large_err`
// bound (128 bytes) on every target.
const _: () = assert!(std::mem::size_of::<SteeringError>() <= 128);

impl SteeringError {
    /// Bundles a failure with the draft and trace.
    ///
    /// ```
    /// # use renderer_steering::core::{Failure, SteeringError, Trace};
    /// let e = SteeringError::new(Failure::disposed(), vec![].into(), Trace::default());
    /// assert_eq!(e.failure.kind(), "disposed");
    /// ```
    pub fn new(failure: Failure, draft: Json, trace: Trace) -> Self {
        SteeringError { failure, draft, trace: Box::new(trace), message_id: None }
    }

    /// The same error, carrying the message's id.
    ///
    /// ```
    /// # use renderer_steering::core::{Failure, SteeringError, Trace};
    /// let e = SteeringError::new(Failure::busy(), vec![].into(), Trace::default()).with_message_id(Some("m".into()));
    /// assert_eq!(e.to_report().client_user_message_id.as_deref(), Some("m"));
    /// ```
    pub fn with_message_id(mut self, message_id: Option<String>) -> Self {
        self.message_id = message_id;
        self
    }

    /// True when the message may have reached the host ([`Failure::OutcomeUnknown`]).
    ///
    /// ```
    /// # use renderer_steering::core::{Failure, SteeringError, Trace};
    /// assert!(!SteeringError::new(Failure::busy(), vec![].into(), Trace::default()).outcome_unknown());
    /// ```
    pub fn outcome_unknown(&self) -> bool {
        self.failure.is_outcome_unknown()
    }

    /// The plain-data view the shell hands to JavaScript.
    ///
    /// ```
    /// # use renderer_steering::core::{Failure, SteeringError, Trace};
    /// let v = SteeringError::new(Failure::busy(), vec![].into(), Trace::default()).to_report();
    /// assert_eq!(v.kind, "busy");
    /// ```
    pub fn to_report(&self) -> ErrorReport {
        ErrorReport {
            kind: self.failure.kind(),
            code: self.failure.code(),
            message: self.failure.message(),
            data: self.failure.data().cloned(),
            draft: self.draft.clone(),
            trace: (*self.trace).clone(),
            client_user_message_id: self.message_id.clone(),
        }
    }
}

/// The failure's sentence.
///
/// ```
/// # use renderer_steering::core::{Failure, SteeringError, Trace};
/// let e = SteeringError::new(Failure::timeout("thread/read", 10), vec![].into(), Trace::default());
/// assert_eq!(e.to_string(), "thread/read got no answer within 10 ms");
/// ```
impl fmt::Display for SteeringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.failure.fmt(f)
    }
}

/// Transparent over its [`Failure`] (same sentence, no `source()`), so
/// `?` into `Box<dyn Error>` keeps the whole story; downcast to read the
/// draft back.
///
/// ```
/// use std::error::Error;
/// # use renderer_steering::core::{Failure, SteeringError, Trace};
/// let e: Box<dyn Error> = Box::new(SteeringError::new(Failure::busy(), vec![].into(), Trace::default()));
/// assert!(e.source().is_none());
/// assert_eq!(e.downcast_ref::<SteeringError>().unwrap().failure, Failure::busy());
/// ```
impl std::error::Error for SteeringError {}

/// Serializable view of a [`SteeringError`]: the
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
    /// [`Failure::kind`](Failure::kind).
    pub kind: &'static str,
    /// JSON-RPC code, when the host gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// [`Failure::message`](Failure::message).
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
