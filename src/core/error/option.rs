//! A value the caller gave that the package does not take: an option of a
//! constructor, a field of a call's arguments, an item of a draft.

use std::fmt;

use super::{Failure, InputError};
use crate::core::given::Given;
use crate::core::options::Accepts;

/// A caller's value refused, in the package's words: which option (or
/// field), what it takes, and what it got. It reaches the caller as a
/// [`Failure`] of kind `invalidInput`, with no JSON-RPC code (no host was
/// asked).
///
/// ```
/// use renderer_steering::core::error::OptionError;
/// use renderer_steering::core::given::Given;
/// use renderer_steering::core::options::Accepts;
/// use renderer_steering::core::Failure;
/// let e = OptionError::refused("options.timeouts.decideMs", Accepts::WholeMilliseconds, Given::Number(-1.0));
/// let failure = Failure::from(e.clone());
/// assert_eq!((failure.kind(), failure.code()), ("invalidInput", None));
/// assert_eq!(e.to_string(), "options.timeouts.decideMs must be a whole number of milliseconds from 0 to 2147483647 (got -1)");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum OptionError {
    /// The option has a value of a type or range it does not take.
    Refused {
        /// The option's name as the caller wrote it (`options.timeouts.decideMs`).
        option: String,
        /// What it takes.
        accepts: Accepts,
        /// What it got.
        given: Given,
    },
    /// An object of options has a key it does not know (a misspelling
    /// would otherwise be silently ignored).
    Unknown {
        /// The object (`options.timeouts`).
        within: String,
        /// The key it got.
        key: String,
        /// The keys it takes.
        known: &'static [&'static str],
    },
    /// The value cannot be read at all (its keys cannot be listed, or a
    /// key appears twice).
    Unreadable {
        /// The option.
        option: String,
        /// Why, in the package's words.
        reason: String,
    },
}

impl OptionError {
    /// [`OptionError::Refused`].
    ///
    /// ```
    /// # use renderer_steering::core::{error::OptionError, given::Given, options::Accepts};
    /// let e = OptionError::refused("options.allowPromptHandoff", Accepts::Boolean, Given::text("yes", 3));
    /// assert_eq!(e.to_string(), "options.allowPromptHandoff must be true or false (got \"yes\")");
    /// ```
    pub fn refused(option: impl Into<String>, accepts: Accepts, given: Given) -> Self {
        OptionError::Refused { option: option.into(), accepts, given }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Refused { option, accepts, given } => write!(f, "{option} must be {accepts} (got {given})"),
            OptionError::Unknown { within, key, known } => {
                write!(f, "{within}.{key} is not an option: {within} takes ")?;
                match known.split_last() {
                    Some((last, [])) => f.write_str(last),
                    Some((last, rest)) => write!(f, "{} and {last}", rest.join(", ")),
                    None => f.write_str("no options"),
                }
            }
            OptionError::Unreadable { option, reason } => write!(f, "{option} cannot be read: {reason}"),
        }
    }
}

/// The sentence is the whole story: no underlying cause.
///
/// ```
/// use std::error::Error;
/// # use renderer_steering::core::error::OptionError;
/// assert!(OptionError::Unreadable { option: "options".into(), reason: "x".into() }.source().is_none());
/// ```
impl std::error::Error for OptionError {}

/// A refused argument of a call fails the call `invalidInput`, in the same words.
///
/// ```
/// # use renderer_steering::core::{error::OptionError, given::Given, options::Accepts, Failure};
/// let f = Failure::from(OptionError::refused("threadId", Accepts::Id, Given::Number(5.0)));
/// assert_eq!(f.kind(), "invalidInput");
/// assert_eq!(f.message(), "threadId must be a string of at most 4096 characters (got 5)");
/// ```
impl From<OptionError> for Failure {
    fn from(e: OptionError) -> Self {
        InputError::Invalid { reason: e.to_string() }.into()
    }
}
