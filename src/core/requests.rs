//! Outstanding host calls and their deadlines. Time is an input: callers pass
//! `now` in milliseconds; nothing here reads a clock.

use super::action::{OpId, OutgoingRequest};
use super::error::Failure;
use super::json::Json;
use super::json_rpc::{RequestId, RpcError};
use super::sorted_map::SortedMap;

/// What came back for a host call.
///
/// ```
/// use renderer_steering::core::HostAnswer;
/// let a = HostAnswer::Result(serde_json::json!({"turnId": "t"}).into());
/// assert!(matches!(a, HostAnswer::Result(_)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum HostAnswer {
    /// JSON-RPC result.
    Result(Json),
    /// JSON-RPC error.
    Error(RpcError),
    /// The transport failed (closed, write error, garbled frame).
    Transport(String),
    /// Rejected with `-32800` (request cancelled): the host's answer that a
    /// cancel ended the request, or a client's own cancel of it. No answer
    /// came, unless the dialect knows it sent the cancel.
    Cancelled(String),
    /// The engine's own bound passed (the engine produces it when a request's
    /// deadline is reached).
    Timeout,
    /// An answer arrived but could not be read as JSON (e.g. `undefined`, a function).
    Unreadable(String),
    /// The transport refused the call before writing anything (it threw
    /// synchronously): certainly not delivered, safe to send again.
    NotSent(String),
}

impl HostAnswer {
    /// The host's result, or the [`FailedAnswer`] this answer is instead
    /// (whose mapping to a [`Failure`] is total: no case left to invent).
    pub(crate) fn result(&self) -> Result<&Json, FailedAnswer<'_>> {
        match self {
            HostAnswer::Result(value) => Ok(value),
            HostAnswer::Error(error) => Err(FailedAnswer::Error(error)),
            HostAnswer::Transport(detail) => Err(FailedAnswer::Transport(detail)),
            HostAnswer::Cancelled(detail) => Err(FailedAnswer::Cancelled(detail)),
            HostAnswer::Timeout => Err(FailedAnswer::Timeout),
            HostAnswer::Unreadable(detail) => Err(FailedAnswer::Unreadable(detail)),
            HostAnswer::NotSent(detail) => Err(FailedAnswer::NotSent(detail)),
        }
    }
}

/// A [`HostAnswer`] that is not a result ([`HostAnswer::result`]): every
/// case is a failure, so both mappings below are total.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum FailedAnswer<'a> {
    /// JSON-RPC error.
    Error(&'a RpcError),
    /// The transport failed (closed, write error, garbled frame).
    Transport(&'a str),
    /// Rejected with `-32800`: a cancel ended it (the host's or the client's).
    Cancelled(&'a str),
    /// The engine's own bound passed.
    Timeout,
    /// An answer arrived but could not be read as JSON.
    Unreadable(&'a str),
    /// The transport refused the call before writing anything.
    NotSent(&'a str),
}

impl FailedAnswer<'_> {
    /// The failure this answer means for `method` (a probe, or any request
    /// that does not carry the message).
    pub(crate) fn failure(self, method: &str, timeout_ms: Option<u64>) -> Failure {
        match self {
            FailedAnswer::Error(error) => Failure::rpc(method, error.clone()),
            FailedAnswer::Transport(detail) | FailedAnswer::Cancelled(detail) | FailedAnswer::NotSent(detail) => {
                Failure::transport(method, detail)
            }
            FailedAnswer::Timeout => Failure::timeout(method, timeout_ms.unwrap_or(0)),
            FailedAnswer::Unreadable(detail) => Failure::malformed(method, detail),
        }
    }

    /// The failure this answer means for the request that **carries the
    /// message**: a JSON-RPC error is a definite refusal, a call that was
    /// never written is a plain transport failure (both safe to send
    /// again); anything else after the write (timeout, lost connection,
    /// unreadable answer) is [`Failure::OutcomeUnknown`].
    pub(crate) fn after_write(self, method: &str, timeout_ms: Option<u64>) -> Failure {
        let failure = self.failure(method, timeout_ms);
        match self {
            FailedAnswer::Error(_) | FailedAnswer::NotSent(_) => failure,
            FailedAnswer::Transport(_) | FailedAnswer::Cancelled(_) | FailedAnswer::Timeout | FailedAnswer::Unreadable(_) => {
                Failure::outcome_unknown(method, &failure.message())
            }
        }
    }
}

/// One call that has not been answered. `pub` only because the engine's
/// dialect hook (a crate-private trait) receives it: not nameable outside
/// the crate.
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    /// The submission it serves.
    pub(crate) op: OpId,
    /// Its method.
    pub(crate) method: &'static str,
    /// When it times out (ms), if bounded.
    pub(crate) deadline: Option<u64>,
    /// Its bound.
    pub(crate) timeout_ms: Option<u64>,
}

/// All outstanding calls of one engine.
#[derive(Debug, Default)]
pub(crate) struct PendingRequests {
    next: u64,
    open: SortedMap<RequestId, Pending>,
}

impl PendingRequests {
    /// Registers a call and returns the request to send.
    pub(crate) fn issue(
        &mut self,
        op: OpId,
        method: &'static str,
        params: Json,
        timeout_ms: Option<u64>,
        carries_message: bool,
        now: u64,
    ) -> OutgoingRequest {
        self.next += 1;
        let id = RequestId(self.next);
        let deadline = timeout_ms.map(|t| now.saturating_add(t));
        self.open.insert(id, Pending { op, method, deadline, timeout_ms });
        OutgoingRequest { id, op, method, params, timeout_ms, carries_message }
    }

    /// Registers a wait on a call the driver makes itself (the desktop's
    /// own), for `op`, ending at `deadline`.
    pub(crate) fn wait_until(&mut self, op: OpId, deadline: u64) -> RequestId {
        self.next += 1;
        let id = RequestId(self.next);
        self.open.insert(id, Pending { op, method: "", deadline: Some(deadline), timeout_ms: None });
        id
    }

    /// The ids of every call outstanding, in order.
    pub(crate) fn ids(&self) -> Vec<RequestId> {
        self.open.keys().copied().collect()
    }

    /// Looks a call up without removing it.
    pub(crate) fn get(&self, id: RequestId) -> Option<&Pending> {
        self.open.get(&id)
    }

    /// Removes an answered call; `None` for unknown or already settled ids
    /// (a second answer, or an answer after the timeout, is ignored).
    pub(crate) fn settle(&mut self, id: RequestId) -> Option<Pending> {
        self.open.remove(&id)
    }

    /// The earliest deadline, for the driver's single timer.
    pub(crate) fn next_deadline(&self) -> Option<u64> {
        self.open.values().filter_map(|p| p.deadline).min()
    }

    /// Removes and returns every call whose deadline is at or before `now`.
    pub(crate) fn expire(&mut self, now: u64) -> Vec<(RequestId, Pending)> {
        let due: Vec<RequestId> = self.open.iter().filter(|(_, p)| p.deadline.is_some_and(|d| d <= now)).map(|(id, _)| *id).collect();
        due.into_iter().filter_map(|id| self.open.remove(&id).map(|p| (id, p))).collect()
    }

    /// Forgets the calls of one submission (it ended); their late answers are ignored.
    pub(crate) fn forget_op(&mut self, op: OpId) {
        self.open.retain(|_, p| p.op != op);
    }

    /// Forgets every call (on dispose); late answers are then ignored.
    pub(crate) fn clear(&mut self) {
        self.open.clear();
    }

    /// True when nothing is outstanding.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// How many calls are outstanding.
    pub(crate) fn len(&self) -> usize {
        self.open.len()
    }
}

#[cfg(test)]
mod tests;
