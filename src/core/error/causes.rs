//! The groups of causes a [`Failure`](super::Failure) holds, one type each:
//! [`InputError`], [`StateError`], [`RouteError`], [`HostError`] and
//! [`UnknownOutcome`]. Each has a stable `kind()` and a sentence (its
//! `Display`); the sentence is the whole story, so none has a `source()`.
//!
//! ```
//! use std::error::Error;
//! use renderer_steering::core::error::{HostError, InputError, RouteError, StateError, UnknownOutcome};
//! assert!(InputError::ImagesUnsupported.source().is_none());
//! assert!(StateError::Busy.source().is_none());
//! assert!(RouteError::Follower.source().is_none());
//! assert!(HostError::Timeout { method: "x".into(), after_ms: 1 }.source().is_none());
//! assert!(UnknownOutcome::new("turn/steer", "lost").source().is_none());
//! ```

use std::fmt;

use crate::core::json_rpc::RpcError;
use crate::core::Json;

/// The caller's draft cannot be steered: fix the input, then send again.
///
/// ```
/// use renderer_steering::core::error::InputError;
/// let e = InputError::TooLarge { bytes: 300_000, limit: 262_144 };
/// assert_eq!(e.kind(), "draftTooLarge");
/// assert_eq!(e.to_string(), "the message is too large to steer (300000 bytes or more; the limit is 262144)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputError {
    /// The draft is not steerable (not text, blank, malformed content).
    Invalid {
        /// What is wrong with it.
        reason: String,
    },
    /// The draft is larger than [`crate::core::content::MAX_DRAFT_BYTES`].
    TooLarge {
        /// Size of the draft's JSON.
        bytes: usize,
        /// The limit.
        limit: usize,
    },
    /// The agent does not take image blocks.
    ImagesUnsupported,
}

impl InputError {
    /// A stable machine-readable name (see [`crate::core::Failure::kind`]).
    ///
    /// ```
    /// # use renderer_steering::core::error::InputError;
    /// assert_eq!(InputError::Invalid { reason: "blank".into() }.kind(), "invalidInput");
    /// assert_eq!(InputError::ImagesUnsupported.kind(), "imagesUnsupported");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            InputError::Invalid { .. } => "invalidInput",
            InputError::TooLarge { .. } => "draftTooLarge",
            InputError::ImagesUnsupported => "imagesUnsupported",
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Invalid { reason } => f.write_str(reason),
            InputError::TooLarge { bytes, limit } => {
                write!(f, "the message is too large to steer ({bytes} bytes or more; the limit is {limit})")
            }
            InputError::ImagesUnsupported => f.write_str("this agent does not accept images"),
        }
    }
}

/// The engine, connection or session cannot take a message now; nothing
/// was sent, so sending again later is safe.
///
/// ```
/// use renderer_steering::core::error::StateError;
/// assert_eq!(StateError::Disposed.kind(), "disposed");
/// assert_eq!(StateError::Disposed.to_string(), "disposed");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// Another message is already steering this thread or session.
    Busy,
    /// A turn start has not been confirmed yet.
    PendingTurnStart,
    /// The engine was disposed before the submission finished.
    Disposed,
    /// The connection cannot take input (closed or still initializing).
    Unavailable,
    /// The session was replaced or closed before the message went out.
    SessionReplaced,
}

impl StateError {
    /// A stable machine-readable name (see [`crate::core::Failure::kind`]).
    ///
    /// ```
    /// # use renderer_steering::core::error::StateError;
    /// assert_eq!(StateError::PendingTurnStart.kind(), "pendingTurnStart");
    /// assert_eq!(StateError::SessionReplaced.kind(), "sessionReplaced");
    /// ```
    pub fn kind(&self) -> &'static str {
        self.words().0
    }

    /// The kind and the sentence, side by side.
    fn words(&self) -> (&'static str, &'static str) {
        match self {
            StateError::Busy => ("busy", "this thread is already changing direction"),
            StateError::PendingTurnStart => ("pendingTurnStart", "previous turn submission has not been confirmed yet"),
            StateError::Disposed => ("disposed", "disposed"),
            StateError::Unavailable => ("unavailable", "the connection cannot take input right now"),
            StateError::SessionReplaced => ("sessionReplaced", "the session was replaced before the message was delivered"),
        }
    }
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.words().1)
    }
}

/// No path from here delivers the message: who owns the thread is unknown,
/// or another party (the desktop) must deliver it. Nothing was sent.
///
/// ```
/// use renderer_steering::core::error::RouteError;
/// assert_eq!(RouteError::Follower.kind(), "follower");
/// assert_eq!(RouteError::Follower.to_string(), "this window does not own the thread's stream");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RouteError {
    /// No probe could tell who owns the thread.
    OwnershipUnknown,
    /// A window that is not the stream's owner; the desktop must steer.
    Follower,
    /// The desktop's submission binding is missing (needed for a new turn).
    MissingBinding {
        /// What was missing.
        detail: String,
    },
}

impl RouteError {
    /// A stable machine-readable name (see [`crate::core::Failure::kind`]).
    ///
    /// ```
    /// # use renderer_steering::core::error::RouteError;
    /// assert_eq!(RouteError::OwnershipUnknown.kind(), "ownershipUnknown");
    /// assert_eq!(RouteError::MissingBinding { detail: "no startTurn".into() }.kind(), "missingBinding");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            RouteError::OwnershipUnknown => "ownershipUnknown",
            RouteError::Follower => "follower",
            RouteError::MissingBinding { .. } => "missingBinding",
        }
    }
}

impl fmt::Display for RouteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RouteError::OwnershipUnknown => "cannot establish thread ownership",
            RouteError::Follower => "this window does not own the thread's stream",
            RouteError::MissingBinding { detail } => detail,
        })
    }
}

/// A host call failed, and the message was certainly not delivered by it
/// (a failure after the message's request was written is an
/// [`UnknownOutcome`] instead).
///
/// ```
/// use renderer_steering::core::error::HostError;
/// let e = HostError::Timeout { method: "thread/read".into(), after_ms: 10 };
/// assert_eq!((e.kind(), e.code()), ("timeout", None));
/// assert_eq!(e.to_string(), "thread/read got no answer within 10 ms");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum HostError {
    /// The host answered with a JSON-RPC error; code, message and data intact.
    Rpc {
        /// The method that failed.
        method: String,
        /// The host's error object (boxed: it is large and rare).
        error: Box<RpcError>,
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
}

impl HostError {
    /// A stable machine-readable name (see [`crate::core::Failure::kind`]).
    ///
    /// ```
    /// # use renderer_steering::core::{error::HostError, RpcError};
    /// let e = HostError::Rpc { method: "turn/steer".into(), error: Box::new(RpcError::new(-32074, "no")) };
    /// assert_eq!(e.kind(), "host");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            HostError::Rpc { .. } => "host",
            HostError::Malformed { .. } => "malformedAnswer",
            HostError::Timeout { .. } => "timeout",
            HostError::Transport { .. } => "transport",
        }
    }

    /// The JSON-RPC code, when the host answered with an error.
    ///
    /// ```
    /// # use renderer_steering::core::{error::HostError, RpcError};
    /// let e = HostError::Rpc { method: "turn/steer".into(), error: Box::new(RpcError::new(-32074, "no")) };
    /// assert_eq!(e.code(), Some(-32074));
    /// ```
    pub fn code(&self) -> Option<i64> {
        self.rpc().map(|error| error.code)
    }

    /// The host's error data, when it gave some.
    ///
    /// ```
    /// # use renderer_steering::core::{error::HostError, RpcError};
    /// let error = RpcError { code: -1, message: "no".into(), data: Some(serde_json::json!({"why": 1}).into()) };
    /// let e = HostError::Rpc { method: "turn/steer".into(), error: Box::new(error) };
    /// assert_eq!(e.data().unwrap(), &serde_json::json!({"why": 1}));
    /// ```
    pub fn data(&self) -> Option<&Json> {
        self.rpc().and_then(|error| error.data.as_ref())
    }

    fn rpc(&self) -> Option<&RpcError> {
        match self {
            HostError::Rpc { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for HostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostError::Rpc { error, .. } => f.write_str(&error.message),
            HostError::Malformed { method, detail } => write!(f, "malformed answer to {method}: {detail}"),
            HostError::Timeout { method, after_ms } => write!(f, "{method} got no answer within {after_ms} ms"),
            HostError::Transport { method, detail } => write!(f, "{method} failed in transport: {detail}"),
        }
    }
}

/// The request carrying the message was written and no definite answer
/// came (timeout, lost connection, unreadable answer, dispose): the host
/// may have applied it. Not a refusal: the presentation stays (marked
/// unconfirmed) and the message is never resent by the engine.
///
/// ```
/// use renderer_steering::core::error::UnknownOutcome;
/// let u = UnknownOutcome::new("turn/steer", "lost");
/// assert_eq!(u.method, "turn/steer");
/// assert_eq!(u.to_string(), "turn/steer may have reached the host (lost); it was not resent");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct UnknownOutcome {
    /// The request that carried the message.
    pub method: String,
    /// Why no definite answer is known.
    pub detail: String,
}

impl UnknownOutcome {
    /// The unknown outcome of the request `method`, for the reason `detail`.
    ///
    /// ```
    /// # use renderer_steering::core::error::UnknownOutcome;
    /// assert_eq!(UnknownOutcome::new("session/inject", "lost").detail, "lost");
    /// ```
    pub fn new(method: &str, detail: &str) -> Self {
        UnknownOutcome { method: method.into(), detail: detail.into() }
    }
}

impl fmt::Display for UnknownOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let UnknownOutcome { method, detail } = self;
        write!(f, "{method} may have reached the host ({detail}); it was not resent")
    }
}

impl std::error::Error for InputError {}
impl std::error::Error for StateError {}
impl std::error::Error for RouteError {}
impl std::error::Error for HostError {}
impl std::error::Error for UnknownOutcome {}
