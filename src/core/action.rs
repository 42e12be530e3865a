//! What an engine asks its driver to do. Engines queue actions; the driver
//! drains them with `poll_action()` after every input.

use super::acp::ComposerState;

use super::error::SteeringError;
use super::json::Json;
use super::json_rpc::RequestId;

/// Identifies one user submission inside an engine.
///
/// ```
/// use renderer_steering::core::OpId;
/// assert_ne!(OpId(1), OpId(2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct OpId(pub u64);

/// A host call to make through the embedding app's transport.
///
/// ```
/// use renderer_steering::core::{OpId, OutgoingRequest, RequestId};
/// let r = OutgoingRequest {
///     id: RequestId(1), op: OpId(1), method: "thread/read",
///     params: serde_json::json!({}).into(), timeout_ms: Some(10_000), carries_message: false,
/// };
/// assert!(!r.carries_message);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OutgoingRequest {
    /// Engine-local id; feed the answer back with it.
    pub id: RequestId,
    /// The submission this call serves.
    pub op: OpId,
    /// JSON-RPC method.
    pub method: &'static str,
    /// JSON-RPC params (always an object).
    pub params: Json,
    /// The bound the engine enforces (`None` for an open `session/prompt`).
    pub timeout_ms: Option<u64>,
    /// True for the request that carries the user's message (the steer or
    /// prompt); the driver attaches the caller's request options to it only.
    pub carries_message: bool,
}

/// One instruction to the driver.
///
/// ```
/// use renderer_steering::core::{Action, OpId};
/// let a: Action<()> = Action::Retract { op: OpId(3) };
/// assert!(matches!(a, Action::Retract { .. }));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Action<O> {
    /// Make this host call.
    Send(OutgoingRequest),
    /// Show the message optimistically (`official`, `activeTurn`, `newTurn`, `queued`).
    Present {
        /// The submission.
        op: OpId,
        /// What to show.
        presentation: &'static str,
    },
    /// The agent accepted the message as pending input of the running turn
    /// (ACP): it is not yet shown to have reached the turn.
    Accepted {
        /// The submission.
        op: OpId,
        /// The path that took it (`steeringExtension`, `inject`).
        presentation: &'static str,
    },
    /// The host delivered differently from what was shown: replace, never show both.
    Reconcile {
        /// The submission.
        op: OpId,
        /// What was shown.
        from: &'static str,
        /// What the host did.
        to: &'static str,
    },
    /// The message may have reached the host but no definite answer came:
    /// keep the presentation, mark it "not confirmed" (never retracted).
    Unconfirmed {
        /// The submission.
        op: OpId,
        /// What is shown (`official`, `activeTurn`, `newTurn`, or the ACP path).
        presentation: &'static str,
    },
    /// Remove the optimistic presentation (the draft is in the failure).
    Retract {
        /// The submission.
        op: OpId,
    },
    /// The submission reached its one terminal outcome.
    Complete {
        /// The submission.
        op: OpId,
        /// Outcome or failure (with the draft).
        result: Result<O, SteeringError>,
    },
    /// Write (`Some`: the record's JSON text) or remove (`None`) one entry
    /// of the journal's storage. A write comes immediately before the
    /// `Send` of the request that carries the message it records, so the
    /// driver writes it first; a removal comes once the message's outcome
    /// is settled (see [`journal`](crate::core::journal)).
    Journal {
        /// The storage key ([`storage_key`](crate::core::journal::storage_key)).
        key: String,
        /// The record's JSON text to write at `key`; `None`: remove `key`.
        record: Option<String>,
    },
    #[cfg(feature = "desktop")]
    /// The desktop hook: make this call of the desktop (or of its decider),
    /// and report what it returned, and, when awaited, how it settled.
    Call(super::desktop::Call),
    #[cfg(feature = "desktop")]
    /// The desktop hook: the host delivered otherwise than the desktop
    /// showed (the hook's `onReconcile`).
    Delivered(super::desktop::Reconcile),
    #[cfg(feature = "desktop")]
    /// The desktop hook: nothing is left to follow; take its prototype layer out.
    Restore,
    #[cfg(feature = "desktop")]
    /// The desktop hook: this newTurn route is gone (a hook installed later
    /// on the same manager, waiting for it, goes on).
    Released {
        /// The route's steer.
        op: OpId,
    },
    #[cfg(feature = "desktop")]
    /// Log `what` (a failure nothing else reports), with what `call` threw
    /// or rejected with.
    Report {
        /// What failed.
        what: &'static str,
        /// The call whose error goes with it.
        call: Option<super::desktop::CallId>,
    },
    /// Something a composer shows changed for this thread or session.
    Changed {
        /// Thread or session id.
        key: String,
        /// What the composer shows now (computed once, here in the core).
        state: ComposerState,
    },
}
