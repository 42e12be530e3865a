//! The caller's draft cannot be steered.

use std::fmt;

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

/// The sentence is the whole story: no underlying cause.
///
/// ```
/// use std::error::Error;
/// # use renderer_steering::core::error::InputError;
/// assert!(InputError::ImagesUnsupported.source().is_none());
/// ```
impl std::error::Error for InputError {}
