//! The codexhost dialect (`docs/specs/codexhost-steering.md`).
//!
//! ```
//! use renderer_steering::core::codexhost::{CodexhostEngine, Delivery};
//! let engine = CodexhostEngine::new(Default::default());
//! assert_eq!(Delivery::ActiveTurn.as_str(), "activeTurn");
//! # drop(engine);
//! ```

pub(crate) mod decision;
mod engine;
mod outcome;
pub(crate) mod recent;
pub(crate) mod request;
pub(crate) mod wire;

pub use crate::core::journal::RecoveredEntry;
pub use decision::OWNER_CACHE;
pub use engine::CodexhostEngine;
pub use outcome::{CodexhostOutcome, Decision, SteerOutcome, Submitted};
pub use recent::RECENT_MESSAGES;
pub use request::SteerRequest;
pub use wire::Delivery;

/// The requests that can carry a steer's message (what the desktop hook
/// looks at; every other request of the desktop passes untouched).
///
/// ```
/// use renderer_steering::core::codexhost::MESSAGE_METHODS;
/// assert_eq!(MESSAGE_METHODS, ["turn/start", "turn/steer"]);
/// ```
pub const MESSAGE_METHODS: [&str; 2] = ["turn/start", "turn/steer"];
