//! The ACP dialects (`docs/specs/acp-steering.md`): `session/inject`,
//! `_session/steering`, the concurrent-prompt handoff, and the queue.
//!
//! ```
//! use renderer_steering::core::acp::{AcpEngine, InputMode};
//! let mut e = AcpEngine::new(Default::default(), false);
//! e.initialized(&serde_json::json!({ "_meta": { "steering": { "supported": true } } }).into(), 0);
//! e.prompt_sent("s");
//! assert_eq!(e.composer("s").mode, InputMode::Direct);
//! ```

pub(crate) mod capabilities;
pub(crate) mod engine;
pub(crate) mod outcome;
pub(crate) mod session;
pub(crate) mod wire;

pub use crate::core::journal::AcpRecoveredEntry;
pub use capabilities::{Capabilities, Protocol, SteerPath};
pub use engine::{AcpEngine, PromptToken, PromptVerdict, MAX_CLOSED_SESSIONS, MAX_QUIET_TOLD};
pub use outcome::AcpOutcome;
pub use session::{ComposerState, InputMode};
