//! No path from here delivers the message.

use std::fmt;

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
        match self {
            RouteError::OwnershipUnknown => f.write_str("cannot establish thread ownership"),
            RouteError::Follower => f.write_str("this window does not own the thread's stream"),
            RouteError::MissingBinding { detail } => f.write_str(detail),
        }
    }
}

/// The sentence is the whole story: no underlying cause.
///
/// ```
/// use std::error::Error;
/// # use renderer_steering::core::error::RouteError;
/// assert!(RouteError::OwnershipUnknown.source().is_none());
/// ```
impl std::error::Error for RouteError {}
