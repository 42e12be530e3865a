//! The sans-IO core: wire types, shared submission machinery and one state
//! machine per dialect. Nothing here touches a clock, a socket or JavaScript;
//! time comes in as a millisecond count supplied by the caller.
//!
//! Shared machinery (one place for each rule):
//! - [`content`]: validating a draft and handing it back untouched;
//! - `flight`: one steer in flight per thread/session, FIFO queue, dedupe;
//! - `requests`: every host call is bounded by a deadline (a call's answer
//!   comes back as a [`HostAnswer`]);
//! - `rejection`: whether a rejected call is the host's error answer or
//!   means no answer came ([`RejectionFacts`]);
//! - `engine`: the engine base both dialects share (`Engine<D: Dialect>`:
//!   the ops, lanes, pending requests and action queue, the one place an op
//!   finishes, and the one [`Driven`] implementation);
//! - `json`: JSON the engine carries as text ([`Json`]: drafts, answers,
//!   params);
//! - `action`: what an engine asks its driver to do ([`Action`]);
//! - [`error`] and `trace`: typed failures that carry the draft and the
//!   decision trace;
//! - [`journal`]: the records that let a reloaded renderer learn what
//!   became of a message whose outcome was unknown;
//! - `stream_role`: what the app's `streamRole` answer means
//!   ([`RoleFacts`]);
//! - [`options`] and [`given`]: what each caller-given value takes, and
//!   the words that refuse the rest.
//!
//! ```
//! use renderer_steering::core::Timeouts;
//! assert_eq!(Timeouts::default().decide_ms, 10_000);
//! ```

pub mod acp;
pub(crate) mod action;
pub mod codexhost;
pub mod content;
#[cfg(feature = "desktop")]
pub mod desktop;
mod driven;
pub(crate) mod engine;
pub mod error;
pub(crate) mod flight;
pub mod given;
pub mod journal;
mod json;
pub(crate) mod json_rpc;
pub mod options;
mod rejection;
mod requests;
pub(crate) mod sorted_map;
mod stream_role;
pub mod timeouts;
pub(crate) mod trace;

pub use action::{Action, OpId, OutgoingRequest};
pub use driven::Driven;
pub use error::{Failure, SteeringError};
pub use json::{Json, ReadError};
pub use json_rpc::{RequestId, RpcError};
pub use rejection::{RejectionFacts, CLIENT_CODES};
pub use requests::HostAnswer;
pub use stream_role::RoleFacts;
pub use timeouts::Timeouts;
pub use trace::{ProbeAnswer, ProbeRecord, Trace};
