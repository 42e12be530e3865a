//! A host call failed, and certainly did not deliver the message.

use std::fmt;

use crate::core::json_rpc::RpcError;

/// A host call failed, and the message was certainly not delivered by it
/// (a failure after the message's request was written is an
/// [`UnknownOutcome`](super::UnknownOutcome) instead).
///
/// ```
/// use renderer_steering::core::error::HostError;
/// let e = HostError::Timeout { method: "thread/read".into(), after_ms: 10 };
/// assert_eq!(e.kind(), "timeout");
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
    /// # use renderer_steering::core::error::HostError;
    /// # use renderer_steering::core::RpcError;
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

    /// The method of the failed call.
    ///
    /// ```
    /// # use renderer_steering::core::error::HostError;
    /// let e = HostError::Transport { method: "thread/read".into(), detail: "closed".into() };
    /// assert_eq!(e.method(), "thread/read");
    /// ```
    pub fn method(&self) -> &str {
        match self {
            HostError::Rpc { method, .. }
            | HostError::Malformed { method, .. }
            | HostError::Timeout { method, .. }
            | HostError::Transport { method, .. } => method,
        }
    }

    /// The JSON-RPC code, when the host answered with an error.
    ///
    /// ```
    /// # use renderer_steering::core::error::HostError;
    /// # use renderer_steering::core::RpcError;
    /// let e = HostError::Rpc { method: "turn/steer".into(), error: Box::new(RpcError::new(-32074, "no")) };
    /// assert_eq!(e.code(), Some(-32074));
    /// ```
    pub fn code(&self) -> Option<i64> {
        match self {
            HostError::Rpc { error, .. } => Some(error.code),
            _ => None,
        }
    }

    /// The host's error data, when it gave some.
    ///
    /// ```
    /// # use renderer_steering::core::error::HostError;
    /// # use renderer_steering::core::RpcError;
    /// let error = RpcError { code: -1, message: "no".into(), data: Some(serde_json::json!({"why": 1}).into()) };
    /// let e = HostError::Rpc { method: "turn/steer".into(), error: Box::new(error) };
    /// assert_eq!(e.data().unwrap(), &serde_json::json!({"why": 1}));
    /// ```
    pub fn data(&self) -> Option<&crate::core::Json> {
        match self {
            HostError::Rpc { error, .. } => error.data.as_ref(),
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

/// The sentence is the whole story (the host's own words for a JSON-RPC
/// error): no underlying cause.
///
/// ```
/// use std::error::Error;
/// # use renderer_steering::core::error::HostError;
/// assert!(HostError::Timeout { method: "x".into(), after_ms: 1 }.source().is_none());
/// ```
impl std::error::Error for HostError {}
