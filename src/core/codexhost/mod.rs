//! The codexhost dialect (`../shared/specs/codexhost-steering.md`).
//!
//! ```
//! use renderer_steering::core::codexhost::{CodexhostEngine, Delivery};
//! let engine = CodexhostEngine::new(Default::default());
//! assert_eq!(Delivery::ActiveTurn.as_str(), "activeTurn");
//! # drop(engine);
//! ```

pub mod decision;
mod engine;
mod outcome;
pub mod recent;
pub(crate) mod request;
pub(crate) mod wire;

pub use engine::CodexhostEngine;
pub use outcome::{CodexhostOutcome, Decision, SteerOutcome, Submitted};
pub use request::SteerRequest;
pub use wire::Delivery;
