//! The engine, connection or session cannot take a message now.

use std::fmt;

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
        match self {
            StateError::Busy => "busy",
            StateError::PendingTurnStart => "pendingTurnStart",
            StateError::Disposed => "disposed",
            StateError::Unavailable => "unavailable",
            StateError::SessionReplaced => "sessionReplaced",
        }
    }
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StateError::Busy => "this thread is already changing direction",
            StateError::PendingTurnStart => "previous turn submission has not been confirmed yet",
            StateError::Disposed => "disposed",
            StateError::Unavailable => "the connection cannot take input right now",
            StateError::SessionReplaced => "the session was replaced before the message was delivered",
        })
    }
}

/// The sentence is the whole story: no underlying cause.
///
/// ```
/// use std::error::Error;
/// # use renderer_steering::core::error::StateError;
/// assert!(StateError::Busy.source().is_none());
/// ```
impl std::error::Error for StateError {}
