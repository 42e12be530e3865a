//! Typed failures. Every failure carries the user's draft, untouched, and
//! the decision trace, so a caller can always put the words back.

use serde::Serialize;
use serde_json::Value;

use super::json_rpc::RpcError;
use super::trace::Trace;

/// Why a submission failed. `code()` gives the JSON-RPC code when the host
/// supplied one; `message()` a sentence for a person.
///
/// ```
/// use renderer_steering::core::{Failure, RpcError};
/// let f = Failure::Host { method: "turn/steer".into(), error: RpcError::new(-32074, "not active") };
/// assert_eq!(f.kind(), "host");
/// assert_eq!(f.code(), Some(-32074));
/// assert_eq!(f.message(), "not active");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The draft cannot be steered (not text, blank, malformed content).
    InvalidInput {
        /// What is wrong with it.
        reason: String,
    },
    /// The draft is larger than [`crate::core::content::MAX_DRAFT_BYTES`].
    DraftTooLarge {
        /// Size of the draft's JSON.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The host answered with a JSON-RPC error; code, message and data intact.
    Host {
        /// The method that failed.
        method: String,
        /// The host's error object.
        error: RpcError,
    },
    /// The host answered, but not with the shape the protocol promises.
    Malformed {
        /// The method whose answer was malformed.
        method: String,
        /// What was wrong.
        detail: String,
    },
    /// The host did not answer within the bound.
    Timeout {
        /// The method that timed out.
        method: String,
        /// The bound that passed.
        after_ms: u64,
    },
    /// The transport failed (disconnect, write error) without a JSON-RPC error.
    Transport {
        /// The method in flight.
        method: String,
        /// The transport's own words.
        detail: String,
    },
    /// No probe could tell who owns the thread.
    OwnershipUnknown,
    /// Another message is already steering this thread or session.
    Busy,
    /// A turn start has not been confirmed yet.
    PendingTurnStart,
    /// The engine was disposed before the submission finished.
    Disposed,
    /// The request carrying the message was written and no definite answer
    /// came (timeout, lost connection, unreadable answer, dispose): the host
    /// may have applied it. Not a refusal: the presentation stays (marked
    /// unconfirmed) and the message is never resent by the engine.
    OutcomeUnknown {
        /// The request that carried the message.
        method: String,
        /// Why no definite answer is known.
        detail: String,
    },
    /// The agent does not take image blocks.
    ImagesUnsupported,
    /// The connection cannot take input (closed or still initializing).
    Unavailable,
    /// The session was replaced or closed before the message went out.
    SessionReplaced,
    /// A window that is not the stream's owner; the desktop must steer.
    Follower,
    /// The desktop's submission binding is missing (needed for a new turn).
    MissingBinding {
        /// What was missing.
        detail: String,
    },
}

impl Failure {
    /// [`Failure::OutcomeUnknown`] for the request `method` carried.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::outcome_unknown("turn/steer", "lost").kind(), "outcomeUnknown");
    /// ```
    pub fn outcome_unknown(method: &str, detail: &str) -> Self {
        Failure::OutcomeUnknown { method: method.into(), detail: detail.into() }
    }

    /// A stable machine-readable name.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::Busy.kind(), "busy");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::InvalidInput { .. } => "invalidInput",
            Failure::DraftTooLarge { .. } => "draftTooLarge",
            Failure::Host { .. } => "host",
            Failure::Malformed { .. } => "malformedAnswer",
            Failure::Timeout { .. } => "timeout",
            Failure::Transport { .. } => "transport",
            Failure::OwnershipUnknown => "ownershipUnknown",
            Failure::Busy => "busy",
            Failure::PendingTurnStart => "pendingTurnStart",
            Failure::Disposed => "disposed",
            Failure::OutcomeUnknown { .. } => "outcomeUnknown",
            Failure::ImagesUnsupported => "imagesUnsupported",
            Failure::Unavailable => "unavailable",
            Failure::SessionReplaced => "sessionReplaced",
            Failure::Follower => "follower",
            Failure::MissingBinding { .. } => "missingBinding",
        }
    }

    /// The JSON-RPC code, when the host gave one.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::Disposed.code(), None);
    /// ```
    pub fn code(&self) -> Option<i64> {
        match self {
            Failure::Host { error, .. } => Some(error.code),
            _ => None,
        }
    }

    /// The host's error data, when it gave some.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert!(Failure::Busy.data().is_none());
    /// ```
    pub fn data(&self) -> Option<&Value> {
        match self {
            Failure::Host { error, .. } => error.data.as_ref(),
            _ => None,
        }
    }

    /// A sentence for a person.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::Busy.message(), "this thread is already changing direction");
    /// ```
    pub fn message(&self) -> String {
        match self {
            Failure::InvalidInput { reason } => reason.clone(),
            Failure::DraftTooLarge { bytes, limit } => {
                format!("the message is too large to steer ({bytes} bytes or more; the limit is {limit})")
            }
            Failure::Host { error, .. } => error.message.clone(),
            Failure::Malformed { method, detail } => format!("malformed answer to {method}: {detail}"),
            Failure::Timeout { method, after_ms } => format!("{method} got no answer within {after_ms} ms"),
            Failure::Transport { method, detail } => format!("{method} failed in transport: {detail}"),
            Failure::OwnershipUnknown => "cannot establish thread ownership".into(),
            Failure::Busy => "this thread is already changing direction".into(),
            Failure::PendingTurnStart => "previous turn submission has not been confirmed yet".into(),
            Failure::Disposed => "disposed".into(),
            Failure::OutcomeUnknown { method, detail } => {
                format!("{method} may have reached the host ({detail}); it was not resent")
            }
            Failure::ImagesUnsupported => "this agent does not accept images".into(),
            Failure::Unavailable => "the connection cannot take input right now".into(),
            Failure::SessionReplaced => "the session was replaced before the message was delivered".into(),
            Failure::Follower => "this window does not own the thread's stream".into(),
            Failure::MissingBinding { detail } => detail.clone(),
        }
    }
}

/// A failed submission: why, the draft handed back intact, and the trace.
///
/// ```
/// use renderer_steering::core::{Failure, SteeringError, Trace};
/// let draft = vec![serde_json::json!({"type": "text", "text": "use pnpm"})];
/// let e = SteeringError::new(Failure::Busy, draft.clone(), Trace::default());
/// assert_eq!(e.draft, draft);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SteeringError {
    /// Why it failed.
    pub failure: Failure,
    /// The user's input, exactly as submitted.
    pub draft: Vec<Value>,
    /// What the engine did before failing.
    pub trace: Trace,
    /// The message's `clientUserMessageId` (codexhost), for a retry that
    /// cannot duplicate.
    pub message_id: Option<String>,
}

impl SteeringError {
    /// Bundles a failure with the draft and trace.
    ///
    /// ```
    /// # use renderer_steering::core::{Failure, SteeringError, Trace};
    /// let e = SteeringError::new(Failure::Disposed, vec![], Trace::default());
    /// assert_eq!(e.failure.kind(), "disposed");
    /// ```
    pub fn new(failure: Failure, draft: Vec<Value>, trace: Trace) -> Self {
        SteeringError { failure, draft, trace, message_id: None }
    }

    /// The same error, carrying the message's id.
    ///
    /// ```
    /// # use renderer_steering::core::{Failure, SteeringError, Trace};
    /// let e = SteeringError::new(Failure::Busy, vec![], Trace::default()).with_message_id(Some("m".into()));
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
    /// assert!(!SteeringError::new(Failure::Busy, vec![], Trace::default()).outcome_unknown());
    /// ```
    pub fn outcome_unknown(&self) -> bool {
        matches!(self.failure, Failure::OutcomeUnknown { .. })
    }

    /// The plain-data view the shell hands to JavaScript.
    ///
    /// ```
    /// # use renderer_steering::core::{Failure, SteeringError, Trace};
    /// let v = SteeringError::new(Failure::Busy, vec![], Trace::default()).to_report();
    /// assert_eq!(v.kind, "busy");
    /// ```
    pub fn to_report(&self) -> ErrorReport {
        ErrorReport {
            kind: self.failure.kind(),
            code: self.failure.code(),
            message: self.failure.message(),
            data: self.failure.data().cloned(),
            draft: self.draft.clone(),
            trace: self.trace.clone(),
            client_user_message_id: self.message_id.clone(),
        }
    }
}

/// Serializable view of a [`SteeringError`].
///
/// ```
/// # use renderer_steering::core::{Failure, SteeringError, Trace};
/// let r = SteeringError::new(Failure::Busy, vec![], Trace::default()).to_report();
/// assert!(serde_json::to_value(&r).unwrap().get("code").is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorReport {
    /// [`Failure::kind`].
    pub kind: &'static str,
    /// JSON-RPC code, when the host gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<i64>,
    /// [`Failure::message`].
    pub message: String,
    /// The host's error data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
    /// The draft handed back.
    pub draft: Vec<Value>,
    /// The decision trace.
    pub trace: Trace,
    /// The message id to retry with (codexhost).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_user_message_id: Option<String>,
}
