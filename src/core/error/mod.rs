//! Typed failures, grouped by cause. A failed submission is a
//! [`SteeringError`]: the [`Failure`] (why), the user's draft handed back
//! untouched, and the decision trace, so a caller can always put the words
//! back.
//!
//! [`Failure`] has one variant per group of causes, each its own type:
//! - [`InputError`]: the caller's draft cannot be steered (fix the input);
//! - [`StateError`]: the engine, connection or session cannot take a message
//!   now (nothing was sent);
//! - [`RouteError`]: no path from here delivers the message;
//! - [`HostError`]: a host call failed and certainly did not deliver it;
//! - [`UnknownOutcome`]: the message may have reached the host.
//!
//! Every failure has a stable [`Failure::kind`] (the JS `SteeringError.kind`,
//! all of them in [`Failure::KINDS`]) and a sentence for a person
//! ([`Failure::message`], also its `Display`).
//!
//! ```
//! use renderer_steering::core::error::{Failure, StateError};
//! let f = Failure::from(StateError::Busy);
//! assert_eq!(f, Failure::busy());
//! assert_eq!(f.kind(), "busy");
//! assert_eq!(f.to_string(), "this thread is already changing direction");
//! ```

mod causes;
mod option;
mod shorthand;
mod steering;

use std::fmt;

pub use causes::{HostError, InputError, RouteError, StateError, UnknownOutcome};
pub use option::OptionError;
pub use steering::{ErrorReport, SteeringError};

/// Why a submission failed, grouped by cause. `kind()` is a stable name,
/// `code()` the JSON-RPC code when the host supplied one, `message()` (and
/// `Display`) a sentence for a person.
///
/// ```
/// use renderer_steering::core::{Failure, RpcError};
/// let f = Failure::rpc("turn/steer", RpcError::new(-32074, "not active"));
/// assert_eq!(f.kind(), "host");
/// assert_eq!(f.code(), Some(-32074));
/// assert_eq!(f.message(), "not active");
/// assert_eq!(f.to_string(), "not active");
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Failure {
    /// The caller's draft cannot be steered.
    Input(InputError),
    /// The engine, connection or session cannot take a message now.
    State(StateError),
    /// No path from here delivers the message.
    Route(RouteError),
    /// A host call failed and certainly did not deliver the message.
    Host(HostError),
    /// The message may have reached the host; it is never resent.
    OutcomeUnknown(UnknownOutcome),
}

impl Failure {
    /// Every [`Failure::kind`], once: the module states it to JavaScript,
    /// and `SteeringErrorKind` in the `.d.ts` is checked against what it states.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::KINDS.len(), 16);
    /// assert!(Failure::KINDS.contains(&Failure::busy().kind()));
    /// ```
    pub const KINDS: &'static [&'static str] = &[
        "invalidInput",
        "draftTooLarge",
        "host",
        "malformedAnswer",
        "timeout",
        "transport",
        "ownershipUnknown",
        "busy",
        "pendingTurnStart",
        "disposed",
        "outcomeUnknown",
        "imagesUnsupported",
        "unavailable",
        "sessionReplaced",
        "follower",
        "missingBinding",
    ];

    /// A stable machine-readable name, one of [`Failure::KINDS`].
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::busy().kind(), "busy");
    /// assert_eq!(Failure::outcome_unknown("turn/steer", "lost").kind(), "outcomeUnknown");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Input(e) => e.kind(),
            Failure::State(e) => e.kind(),
            Failure::Route(e) => e.kind(),
            Failure::Host(e) => e.kind(),
            Failure::OutcomeUnknown(_) => "outcomeUnknown",
        }
    }

    /// The JSON-RPC code, when the host gave one.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::disposed().code(), None);
    /// ```
    pub fn code(&self) -> Option<i64> {
        match self {
            Failure::Host(e) => e.code(),
            _ => None,
        }
    }

    /// The host's error data, when it gave some.
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert!(Failure::busy().data().is_none());
    /// ```
    pub fn data(&self) -> Option<&crate::core::Json> {
        match self {
            Failure::Host(e) => e.data(),
            _ => None,
        }
    }

    /// A sentence for a person (the same as `Display`).
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Failure::busy().message(), "this thread is already changing direction");
    /// ```
    pub fn message(&self) -> String {
        self.to_string()
    }

    /// True when the message may have reached the host ([`Failure::OutcomeUnknown`]).
    ///
    /// ```
    /// # use renderer_steering::core::Failure;
    /// assert!(Failure::outcome_unknown("turn/steer", "lost").is_outcome_unknown());
    /// assert!(!Failure::transport("turn/steer", "closed").is_outcome_unknown());
    /// ```
    pub fn is_outcome_unknown(&self) -> bool {
        matches!(self, Failure::OutcomeUnknown(_))
    }
}

impl Failure {
    /// The group this failure is, as an error.
    fn group(&self) -> &(dyn std::error::Error + 'static) {
        match self {
            Failure::Input(e) => e,
            Failure::State(e) => e,
            Failure::Route(e) => e,
            Failure::Host(e) => e,
            Failure::OutcomeUnknown(e) => e,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.group(), f)
    }
}

/// A `Failure` is its group, transparently: `Display` is the group's
/// sentence, and no group has a cause of its own, so `source()` is none
/// (the group itself as the source would print the sentence twice in an
/// error report). Match on the variant to get the group.
///
/// ```
/// use std::error::Error;
/// # use renderer_steering::core::Failure;
/// let f: Box<dyn Error> = Box::new(Failure::follower());
/// assert_eq!(f.to_string(), "this window does not own the thread's stream");
/// assert!(f.source().is_none());
/// ```
impl std::error::Error for Failure {}

macro_rules! from_group {
    ($($group:ident => $variant:ident),* $(,)?) => {$(
        impl From<$group> for Failure {
            fn from(e: $group) -> Self {
                Failure::$variant(e)
            }
        }
    )*};
}

from_group! {
    InputError => Input,
    StateError => State,
    RouteError => Route,
    HostError => Host,
    UnknownOutcome => OutcomeUnknown,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One failure of every variant. The match below has no wildcard, so a
    /// new variant does not compile until it is listed here (and in KINDS).
    fn one_of_each() -> Vec<Failure> {
        let all = vec![
            Failure::invalid_input("x"),
            Failure::draft_too_large(1),
            Failure::images_unsupported(),
            Failure::busy(),
            Failure::pending_turn_start(),
            Failure::disposed(),
            Failure::unavailable(),
            Failure::session_replaced(),
            Failure::ownership_unknown(),
            Failure::follower(),
            Failure::missing_binding("x"),
            Failure::rpc("m", crate::core::RpcError::new(1, "x")),
            Failure::malformed("m", "x"),
            Failure::timeout("m", 1),
            Failure::transport("m", "x"),
            Failure::outcome_unknown("m", "x"),
        ];
        for failure in &all {
            match failure {
                Failure::Input(InputError::Invalid { .. } | InputError::TooLarge { .. } | InputError::ImagesUnsupported)
                | Failure::State(
                    StateError::Busy
                    | StateError::PendingTurnStart
                    | StateError::Disposed
                    | StateError::Unavailable
                    | StateError::SessionReplaced,
                )
                | Failure::Route(RouteError::OwnershipUnknown | RouteError::Follower | RouteError::MissingBinding { .. })
                | Failure::Host(
                    HostError::Rpc { .. } | HostError::Malformed { .. } | HostError::Timeout { .. } | HostError::Transport { .. },
                )
                | Failure::OutcomeUnknown(_) => {}
            }
        }
        all
    }

    #[test]
    fn every_variant_has_its_own_kind_and_kinds_lists_exactly_them() {
        let kinds: Vec<&str> = one_of_each().iter().map(Failure::kind).collect();
        let mut sorted = kinds.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), kinds.len(), "two variants share a kind: {kinds:?}");
        let mut listed = Failure::KINDS.to_vec();
        listed.sort_unstable();
        assert_eq!(sorted, listed);
    }

    #[test]
    fn display_is_the_message_and_only_host_errors_carry_a_code() {
        for failure in one_of_each() {
            assert_eq!(failure.to_string(), failure.message(), "{failure:?}");
            assert!(!failure.message().is_empty(), "{failure:?}");
            assert_eq!(failure.code().is_some(), failure.kind() == "host", "{failure:?}");
            let error: &dyn std::error::Error = &failure;
            assert!(error.source().is_none(), "the sentence already says it all: {failure:?}");
        }
    }
}
