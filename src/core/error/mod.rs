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

mod failure;
mod host;
mod input;
mod option;
mod report;
mod route;
mod shorthand;
mod state;
mod steering;
mod unknown;

pub use failure::Failure;
pub use host::HostError;
pub use input::InputError;
pub use option::OptionError;
pub use report::ErrorReport;
pub use route::RouteError;
pub use state::StateError;
pub use steering::SteeringError;
pub use unknown::UnknownOutcome;
