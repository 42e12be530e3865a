//! The state both dialects share and the operations on it: op ids,
//! refusing after dispose, issuing a request, and finishing an op.

use std::collections::VecDeque;

use super::journal::Book;
use super::Dialect;
use crate::core::action::{Action, OpId};
use crate::core::error::{Failure, SteeringError};
use crate::core::flight::Lanes;
use crate::core::json::Json;
use crate::core::json_rpc::RequestId;
use crate::core::requests::PendingRequests;
use crate::core::sorted_map::SortedMap;
use crate::core::timeouts::Timeouts;
use crate::core::trace::Trace;

/// One connection's steering engine: the shared state plus the dialect's
/// own (`D`). Use it as [`CodexhostEngine`](crate::core::codexhost::CodexhostEngine)
/// or [`AcpEngine`](crate::core::acp::AcpEngine).
///
/// ```
/// use renderer_steering::core::codexhost::CodexhostEngine;
/// use renderer_steering::core::Driven;
/// let mut engine = CodexhostEngine::new(Default::default());
/// assert_eq!(engine.poll_action(), None, "a new engine has nothing to do");
/// assert_eq!(engine.poll_timeout(), None, "and no deadline");
/// ```
#[derive(Debug)]
pub struct Engine<D: Dialect> {
    pub(crate) timeouts: Timeouts,
    /// One steer in flight per thread or session (see `flight.rs`).
    pub(crate) lanes: Lanes,
    /// Submissions still running.
    pub(crate) ops: SortedMap<OpId, D::Op>,
    pub(crate) dialect: D,
    pub(crate) requests: PendingRequests,
    pub(crate) actions: VecDeque<Action<D::Outcome>>,
    /// The journal, once enabled (see `journal.rs`).
    pub(super) journal: Option<Book>,
    next_op: u64,
    disposed: bool,
}

impl<D: Dialect> Engine<D> {
    pub(crate) fn with_dialect(timeouts: Timeouts, dialect: D) -> Self {
        Engine {
            timeouts,
            lanes: Lanes::default(),
            ops: SortedMap::new(),
            dialect,
            requests: PendingRequests::default(),
            actions: VecDeque::new(),
            journal: None,
            next_op: 0,
            disposed: false,
        }
    }

    pub(crate) fn new_op_id(&mut self) -> OpId {
        self.next_op += 1;
        OpId(self.next_op)
    }

    /// The newest op id issued (ops are numbered in submission order).
    pub(crate) fn last_op_id(&self) -> OpId {
        OpId(self.next_op)
    }

    /// True once disposed.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.dispose();
    /// assert!(e.is_disposed());
    /// ```
    pub fn is_disposed(&self) -> bool {
        self.disposed
    }

    /// `Err(disposed)` with the draft once [`Self::dispose`] ran.
    pub(crate) fn refuse_if_disposed(&self, draft: &Json) -> Result<(), SteeringError> {
        if self.disposed {
            return Err(SteeringError::new(Failure::disposed(), draft.clone(), Trace::default()));
        }
        Ok(())
    }

    /// Queues an action for the driver.
    pub(crate) fn push(&mut self, action: Action<D::Outcome>) {
        self.actions.push_back(action);
    }

    /// Registers a host call for `op` that does not carry the message (a
    /// probe, a read, a revoke) and queues [`Action::Send`] for it; the
    /// request that carries a message goes through `request_message`,
    /// which journals it first.
    pub(crate) fn request_plain(&mut self, op: OpId, method: &'static str, params: Json, timeout_ms: Option<u64>, now: u64) {
        self.issue(op, method, params, timeout_ms, false, now);
    }

    /// Registers a host call and queues [`Action::Send`] for it.
    pub(super) fn issue(&mut self, op: OpId, method: &'static str, params: Json, timeout_ms: Option<u64>, carries_message: bool, now: u64) {
        let outgoing = self.requests.issue(op, method, params, timeout_ms, carries_message, now);
        self.actions.push_back(Action::Send(outgoing));
    }

    /// The op a pending request serves.
    pub(crate) fn op_of(&self, id: RequestId) -> Option<OpId> {
        self.requests.get(id).map(|p| p.op)
    }

    /// `sent_by` (the method that carries `op`'s message, once dispatched),
    /// unless that request still waits in the action queue: an op ended
    /// before the driver took its `Send` (by a hook or listener that ran
    /// meanwhile) was never written, and its `Send` is dropped
    /// ([`Self::poll_action`]).
    pub(crate) fn written_by(&self, op: OpId, sent_by: Option<&'static str>) -> Option<&'static str> {
        let queued = self.actions.iter().any(|a| matches!(a, Action::Send(r) if r.op == op && r.carries_message));
        sent_by.filter(|_| !queued)
    }

    /// The one place an op ends: its lane (`key`) is released, its late
    /// answers are ignored, and its terminal [`Action::Complete`] is queued.
    /// A failed op that was `shown` stays on screen marked unconfirmed when
    /// it may have reached the host ([`Failure::OutcomeUnknown`]), and is
    /// retracted otherwise; the journal's record of its message stays then
    /// too, and goes otherwise. The op must already be out of [`Self::ops`].
    pub(crate) fn finish(&mut self, op: OpId, key: &str, shown: Option<&'static str>, result: Result<D::Outcome, SteeringError>) {
        self.lanes.finish(key, op);
        self.requests.forget_op(op);
        let settled = result.as_ref().err().is_none_or(|error| !error.outcome_unknown());
        self.journal_ended(op, settled);
        if let (Err(error), Some(presentation)) = (&result, shown) {
            self.actions.push_back(match error.failure {
                Failure::OutcomeUnknown(_) => Action::Unconfirmed { op, presentation },
                _ => Action::Retract { op },
            });
        }
        self.actions.push_back(Action::Complete { op, result });
    }

    /// Forgets every pending request and hands over every op still held
    /// (dispose, a closed connection), in op order.
    pub(crate) fn take_ops(&mut self) -> SortedMap<OpId, D::Op> {
        self.requests.clear();
        std::mem::take(&mut self.ops)
    }

    /// Ends every submission in progress (each with its draft handed back)
    /// and refuses new ones with `disposed`; late answers are ignored.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// # use renderer_steering::core::acp::AcpEngine;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.decide("t", "x", 0).unwrap();
    /// e.dispose();
    /// assert_eq!(e.decide("t", "x", 0).unwrap_err().failure.kind(), "disposed");
    /// assert_eq!(e.live_state(), 0);
    /// let mut a = AcpEngine::new(Default::default(), false);
    /// a.dispose();
    /// assert_eq!(a.send("s", vec![], 0).unwrap_err().failure.kind(), "disposed");
    /// ```
    pub fn dispose(&mut self) {
        self.disposed = true;
        D::on_dispose(self);
    }

    /// The bounds this engine was made with.
    ///
    /// ```
    /// # use renderer_steering::core::{codexhost::CodexhostEngine, Timeouts};
    /// let e = CodexhostEngine::new(Timeouts { steer_ms: 5_000, ..Timeouts::default() });
    /// assert_eq!(e.timeouts().steer_ms, 5_000);
    /// ```
    pub fn timeouts(&self) -> Timeouts {
        self.timeouts
    }

    /// Submissions, lanes, requests and per-key dialect state still held
    /// (0 when everything has settled).
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.decide("t", "x", 0).unwrap();
    /// assert_eq!(e.live_state(), 2, "the op and its probe");
    /// ```
    pub fn live_state(&self) -> usize {
        self.ops.len() + self.lanes.len() + self.requests.len() + self.dialect.held()
    }
}
