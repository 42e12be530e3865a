//! # renderer-steering
//!
//! Decides how a message typed *while an agent turn is running* reaches that
//! turn, for codexhost hosts, ACP agents and the codexhost desktop's hook.
//!
//! Three layers, visible in the folder layout:
//! - [`core`]: a sans-IO engine. Plain Rust state machines that take inputs
//!   (a submission, a host answer, the current time in milliseconds) and
//!   return [`core::Action`]s. No I/O, no clock, no JavaScript.
//! - [`bridge`]: the boundary as data. Each input arrives as JSON (what
//!   happened, with the clock's reading) and the answer is JSON: the call's
//!   value or typed error, the steps to carry out, the next deadline.
//! - `shell` (wasm32 only): exports the bridge's `step` to JavaScript and
//!   nothing else; the package's JavaScript driver carries out the steps.
//!
//! ```
//! use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest};
//! use renderer_steering::core::{Action, Timeouts};
//! use serde_json::json;
//!
//! let mut engine = CodexhostEngine::new(Timeouts::default());
//! let op = engine
//!     .steer(SteerRequest::text("thread-1", Some("turn-1"), "use pnpm"), 0)
//!     .unwrap();
//! // The engine's first action is to ask the host how the draft would be delivered.
//! match engine.poll_action() {
//!     Some(Action::Send(request)) => {
//!         assert_eq!(request.method, "codexhost/thread/steering/inspect");
//!         assert_eq!(request.params, json!({ "threadId": "thread-1", "text": "use pnpm" }));
//!     }
//!     other => panic!("unexpected {other:?}"),
//! }
//! # let _ = op;
//! ```
#![forbid(unsafe_code)]
// The release build (feature `size-first`, the pinned nightly) builds for
// size what runs once per desktop call or per lifecycle call, never per
// steer: the desktop hook's core and its boundary, the constructors' options,
// the module's own inputs.
#![cfg_attr(feature = "size-first", feature(optimize_attribute))]
// An entry's wasm is built with only its integration's dialect features:
// the whole core still compiles, and what its bridge never opens is dead by
// design (dropped by the release build). The default build, which lints
// and tests run, has every dialect and no dead code.
#![cfg_attr(not(all(feature = "codexhost", feature = "acp", feature = "desktop")), allow(dead_code))]
#![warn(missing_docs)]
#![warn(unreachable_pub)]
#![warn(missing_debug_implementations)]

pub mod bridge;
pub mod core;

#[cfg(target_arch = "wasm32")]
pub mod shell;
