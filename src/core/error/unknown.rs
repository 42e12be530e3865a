//! The message may have reached the host.

use std::fmt;

/// The request carrying the message was written and no definite answer
/// came (timeout, lost connection, unreadable answer, dispose): the host
/// may have applied it. Not a refusal: the presentation stays (marked
/// unconfirmed) and the message is never resent by the engine.
///
/// ```
/// use renderer_steering::core::error::UnknownOutcome;
/// let u = UnknownOutcome::new("turn/steer", "lost");
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
    /// assert_eq!(UnknownOutcome::new("session/inject", "lost").method, "session/inject");
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

/// The sentence carries the reason: no underlying cause.
///
/// ```
/// use std::error::Error;
/// # use renderer_steering::core::error::UnknownOutcome;
/// assert!(UnknownOutcome::new("turn/steer", "lost").source().is_none());
/// ```
impl std::error::Error for UnknownOutcome {}
