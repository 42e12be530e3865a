//! What each caller-given value accepts, and the checks that refuse the
//! rest in the package's own words ([`OptionError`]): the constructors'
//! options and a call's ids and bounds. A value is checked by its type and
//! range here; the shell only says what it is ([`Given`]).

use std::fmt;

use super::error::OptionError;
use super::given::Given;
use super::timeouts::MAX_TIMEOUT_MS;

/// Longest id (thread, session, message, turn) accepted, in UTF-16 units.
///
/// ```
/// assert_eq!(renderer_steering::core::options::MAX_ID_UNITS, 4096);
/// ```
pub const MAX_ID_UNITS: u32 = 4096;

/// What an option or field takes.
///
/// ```
/// use renderer_steering::core::{given::Given, options::Accepts};
/// assert!(Accepts::WholeMilliseconds.admits(&Given::Number(5000.0)));
/// assert!(!Accepts::WholeMilliseconds.admits(&Given::Number(0.5)));
/// assert_eq!(Accepts::Boolean.to_string(), "true or false");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Accepts {
    /// A whole number of milliseconds a timer can hold (0 to [`MAX_TIMEOUT_MS`]).
    WholeMilliseconds,
    /// A number of milliseconds a timer can hold (fractions are cut off).
    Milliseconds,
    /// A function; its shape, for the reader.
    Function(&'static str),
    /// `true` or `false`.
    Boolean,
    /// An object; its keys, for the reader.
    Object(&'static str),
    /// An ACP agent's `initialize` answer (an object) or a promise of it.
    AnswerOrPromise,
    /// A string of at most [`MAX_ID_UNITS`] characters.
    Id,
    /// A string.
    Text,
    /// What `promptSent` returned (a whole number).
    PromptToken,
}

impl Accepts {
    /// Whether `given` is a value this takes.
    ///
    /// ```
    /// # use renderer_steering::core::{given::Given, options::Accepts};
    /// assert!(Accepts::Id.admits(&Given::text("t", 1)));
    /// assert!(!Accepts::Id.admits(&Given::Null));
    /// ```
    pub fn admits(self, given: &Given) -> bool {
        let short = |units: u32| units <= MAX_ID_UNITS;
        match (self, given) {
            (Accepts::WholeMilliseconds, Given::Number(n)) => in_timer_range(*n) && n.fract() == 0.0,
            (Accepts::Milliseconds, Given::Number(n)) => in_timer_range(*n),
            (Accepts::Function(_), Given::Function) => true,
            (Accepts::Boolean, Given::Bool(_)) => true,
            (Accepts::Object(_) | Accepts::AnswerOrPromise, Given::Object) => true,
            (Accepts::Id, Given::Text { units, .. }) => short(*units),
            (Accepts::Text, Given::Text { .. }) => true,
            (Accepts::PromptToken, Given::Number(n)) => *n >= 0.0 && n.fract() == 0.0 && *n <= 9_007_199_254_740_991.0,
            _ => false,
        }
    }
}

fn in_timer_range(ms: f64) -> bool {
    (0.0..=MAX_TIMEOUT_MS as f64).contains(&ms)
}

/// The words for each, written out: no number is formatted at run time
/// (`tests` checks them against [`MAX_TIMEOUT_MS`] and [`MAX_ID_UNITS`]).
impl fmt::Display for Accepts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (words, shape) = match self {
            Accepts::WholeMilliseconds => ("a whole number of milliseconds from 0 to 2147483647", ""),
            Accepts::Milliseconds => ("a number of milliseconds from 0 to 2147483647", ""),
            Accepts::Function(shape) => ("a function ", *shape),
            Accepts::Boolean => ("true or false", ""),
            Accepts::Object(keys) => ("an object ", *keys),
            Accepts::AnswerOrPromise => ("the agent's initialize answer (an object) or a promise of it", ""),
            Accepts::Id => ("a string of at most 4096 characters", ""),
            Accepts::Text => ("a string", ""),
            Accepts::PromptToken => ("the token promptSent returned", ""),
        };
        f.write_str(words)?;
        f.write_str(shape)
    }
}

/// Checks an optional value: `Ok(false)` when absent (`undefined` or
/// `null`), `Ok(true)` when given and taken.
///
/// ```
/// use renderer_steering::core::{given::Given, options::{optional, Accepts}};
/// assert_eq!(optional("options.streamRole", Accepts::Function("(threadId) => role"), &Given::Undefined), Ok(false));
/// assert!(optional("options.streamRole", Accepts::Function("(threadId) => role"), &Given::Number(1.0)).is_err());
/// ```
pub fn optional(option: &str, accepts: Accepts, given: &Given) -> Result<bool, OptionError> {
    if given.is_absent() {
        return Ok(false);
    }
    required(option, accepts, given).map(|()| true)
}

/// Checks a value that must be given.
///
/// ```
/// use renderer_steering::core::{given::Given, options::{required, Accepts}};
/// let refused = required("options.request", Accepts::Function("(method, params) => Promise"), &Given::Undefined).unwrap_err();
/// assert_eq!(refused.to_string(), "options.request must be a function (method, params) => Promise (got undefined)");
/// ```
pub fn required(option: &str, accepts: Accepts, given: &Given) -> Result<(), OptionError> {
    if accepts.admits(given) {
        return Ok(());
    }
    Err(OptionError::refused(option, accepts, given.clone()))
}

/// What a steer's arguments must be, for the error that refuses them (a
/// field of another type is then named by the text just before the fault).
///
/// ```
/// assert!(renderer_steering::core::options::STEER_ARGUMENTS.contains("threadId: string"));
/// ```
pub const STEER_ARGUMENTS: &str = "the steer arguments must be { threadId: string, input: content items, expectedTurnId?: string | null, clientUserMessageId?: string | null, pendingTurnStart?: boolean }";

#[cfg(test)]
mod tests {
    use super::{Accepts, MAX_ID_UNITS};
    use crate::core::timeouts::MAX_TIMEOUT_MS;

    #[test]
    fn the_written_out_limits_are_the_limits_in_force() {
        assert!(Accepts::WholeMilliseconds.to_string().ends_with(&format!(" to {MAX_TIMEOUT_MS}")));
        assert!(Accepts::Milliseconds.to_string().ends_with(&format!(" to {MAX_TIMEOUT_MS}")));
        assert!(Accepts::Id.to_string().contains(&format!(" {MAX_ID_UNITS} characters")));
    }
}
