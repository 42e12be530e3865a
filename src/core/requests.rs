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
/// use renderer_steering::core::requests::HostAnswer;
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
    /// The engine's own bound passed (produced by [`PendingRequests::expire`]).
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
    ///
    /// ```
    /// use renderer_steering::core::requests::{FailedAnswer, HostAnswer};
    /// let ok = HostAnswer::Result(serde_json::json!({"turnId": "t"}).into());
    /// assert_eq!(ok.result().unwrap().value()["turnId"], "t");
    /// assert_eq!(HostAnswer::Timeout.result(), Err(FailedAnswer::Timeout));
    /// ```
    pub fn result(&self) -> Result<&Json, FailedAnswer<'_>> {
        match self {
            HostAnswer::Result(value) => Ok(value),
            HostAnswer::Error(error) => Err(FailedAnswer::Error(error)),
            HostAnswer::Transport(detail) => Err(FailedAnswer::Transport(detail)),
            HostAnswer::Timeout => Err(FailedAnswer::Timeout),
            HostAnswer::Unreadable(detail) => Err(FailedAnswer::Unreadable(detail)),
            HostAnswer::NotSent(detail) => Err(FailedAnswer::NotSent(detail)),
        }
    }
}

/// A [`HostAnswer`] that is not a result ([`HostAnswer::result`]): every
/// case is a failure, so both mappings below are total.
///
/// ```
/// use renderer_steering::core::requests::{FailedAnswer, HostAnswer};
/// use renderer_steering::core::RpcError;
/// let answer = HostAnswer::Error(RpcError::new(-32074, "not active"));
/// let Err(failed) = answer.result() else { unreachable!() };
/// assert!(matches!(failed, FailedAnswer::Error(e) if e.code == -32074));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FailedAnswer<'a> {
    /// JSON-RPC error.
    Error(&'a RpcError),
    /// The transport failed (closed, write error, garbled frame).
    Transport(&'a str),
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
    ///
    /// ```
    /// use renderer_steering::core::requests::FailedAnswer;
    /// let f = FailedAnswer::Timeout.failure("thread/read", Some(10));
    /// assert_eq!(f.message(), "thread/read got no answer within 10 ms");
    /// assert_eq!(FailedAnswer::Unreadable("undefined").failure("thread/read", None).kind(), "malformedAnswer");
    /// ```
    pub fn failure(self, method: &str, timeout_ms: Option<u64>) -> Failure {
        match self {
            FailedAnswer::Error(error) => Failure::rpc(method, error.clone()),
            FailedAnswer::Transport(detail) | FailedAnswer::NotSent(detail) => Failure::transport(method, detail),
            FailedAnswer::Timeout => Failure::timeout(method, timeout_ms.unwrap_or(0)),
            FailedAnswer::Unreadable(detail) => Failure::malformed(method, detail),
        }
    }

    /// The failure this answer means for the request that **carries the
    /// message**: a JSON-RPC error is a definite refusal, a call that was
    /// never written is a plain transport failure (both safe to send
    /// again); anything else after the write (timeout, lost connection,
    /// unreadable answer) is [`Failure::OutcomeUnknown`].
    ///
    /// ```
    /// use renderer_steering::core::requests::FailedAnswer;
    /// assert_eq!(FailedAnswer::Timeout.after_write("turn/steer", Some(5)).kind(), "outcomeUnknown");
    /// assert_eq!(FailedAnswer::NotSent("closed").after_write("turn/steer", None).kind(), "transport");
    /// ```
    pub fn after_write(self, method: &str, timeout_ms: Option<u64>) -> Failure {
        let failure = self.failure(method, timeout_ms);
        match self {
            FailedAnswer::Error(_) | FailedAnswer::NotSent(_) => failure,
            FailedAnswer::Transport(_) | FailedAnswer::Timeout | FailedAnswer::Unreadable(_) => {
                Failure::outcome_unknown(method, &failure.message())
            }
        }
    }
}

/// One call that has not been answered.
///
/// ```
/// use renderer_steering::core::requests::PendingRequests;
/// use renderer_steering::core::OpId;
/// let mut p = PendingRequests::default();
/// let r = p.issue(OpId(1), "thread/read", serde_json::json!({}).into(), Some(5), false, 100);
/// assert_eq!(p.get(r.id).unwrap().deadline, Some(105));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Pending {
    /// The submission it serves.
    pub op: OpId,
    /// Its method.
    pub method: &'static str,
    /// When it times out (ms), if bounded.
    pub deadline: Option<u64>,
    /// Its bound.
    pub timeout_ms: Option<u64>,
}

/// All outstanding calls of one engine.
///
/// ```
/// use renderer_steering::core::requests::PendingRequests;
/// let p = PendingRequests::default();
/// assert_eq!(p.next_deadline(), None);
/// ```
#[derive(Debug, Default)]
pub struct PendingRequests {
    next: u64,
    open: SortedMap<RequestId, Pending>,
}

impl PendingRequests {
    /// Registers a call and returns the request to send.
    ///
    /// ```
    /// # use renderer_steering::core::requests::PendingRequests;
    /// # use renderer_steering::core::OpId;
    /// let mut p = PendingRequests::default();
    /// let a = p.issue(OpId(1), "x", serde_json::json!({}).into(), None, false, 0);
    /// let b = p.issue(OpId(1), "x", serde_json::json!({}).into(), None, false, 0);
    /// assert_ne!(a.id, b.id);
    /// ```
    pub fn issue(
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

    /// Looks a call up without removing it.
    ///
    /// ```
    /// # use renderer_steering::core::requests::PendingRequests;
    /// # use renderer_steering::core::RequestId;
    /// assert!(PendingRequests::default().get(RequestId(9)).is_none());
    /// ```
    pub fn get(&self, id: RequestId) -> Option<&Pending> {
        self.open.get(&id)
    }

    /// Removes an answered call; `None` for unknown or already settled ids
    /// (a second answer, or an answer after the timeout, is ignored).
    ///
    /// ```
    /// # use renderer_steering::core::requests::PendingRequests;
    /// # use renderer_steering::core::OpId;
    /// let mut p = PendingRequests::default();
    /// let r = p.issue(OpId(1), "x", serde_json::json!({}).into(), None, false, 0);
    /// assert!(p.settle(r.id).is_some());
    /// assert!(p.settle(r.id).is_none());
    /// ```
    pub fn settle(&mut self, id: RequestId) -> Option<Pending> {
        self.open.remove(&id)
    }

    /// The earliest deadline, for the driver's single timer.
    ///
    /// ```
    /// # use renderer_steering::core::requests::PendingRequests;
    /// # use renderer_steering::core::OpId;
    /// let mut p = PendingRequests::default();
    /// p.issue(OpId(1), "x", serde_json::json!({}).into(), Some(50), false, 10);
    /// p.issue(OpId(2), "x", serde_json::json!({}).into(), Some(20), false, 10);
    /// assert_eq!(p.next_deadline(), Some(30));
    /// ```
    pub fn next_deadline(&self) -> Option<u64> {
        self.open.values().filter_map(|p| p.deadline).min()
    }

    /// Removes and returns every call whose deadline is at or before `now`.
    ///
    /// ```
    /// # use renderer_steering::core::requests::PendingRequests;
    /// # use renderer_steering::core::OpId;
    /// let mut p = PendingRequests::default();
    /// let r = p.issue(OpId(1), "x", serde_json::json!({}).into(), Some(5), false, 0);
    /// assert!(p.expire(4).is_empty());
    /// assert_eq!(p.expire(5)[0].0, r.id);
    /// ```
    pub fn expire(&mut self, now: u64) -> Vec<(RequestId, Pending)> {
        let due: Vec<RequestId> = self
            .open
            .iter()
            .filter(|(_, p)| p.deadline.is_some_and(|d| d <= now))
            .map(|(id, _)| *id)
            .collect();
        due.into_iter().filter_map(|id| self.open.remove(&id).map(|p| (id, p))).collect()
    }

    /// Forgets the calls of one submission (it ended); their late answers are ignored.
    ///
    /// ```
    /// # use renderer_steering::core::requests::PendingRequests;
    /// # use renderer_steering::core::OpId;
    /// let mut p = PendingRequests::default();
    /// p.issue(OpId(1), "x", serde_json::json!({}).into(), None, false, 0);
    /// p.forget_op(OpId(1));
    /// assert!(p.is_empty());
    /// ```
    pub fn forget_op(&mut self, op: OpId) {
        self.open.retain(|_, p| p.op != op);
    }

    /// Forgets every call (on dispose); late answers are then ignored.
    ///
    /// ```
    /// # use renderer_steering::core::requests::PendingRequests;
    /// # use renderer_steering::core::OpId;
    /// let mut p = PendingRequests::default();
    /// p.issue(OpId(1), "x", serde_json::json!({}).into(), None, false, 0);
    /// p.clear();
    /// assert!(p.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.open.clear();
    }

    /// True when nothing is outstanding.
    ///
    /// ```
    /// # use renderer_steering::core::requests::PendingRequests;
    /// assert!(PendingRequests::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// How many calls are outstanding.
    ///
    /// ```
    /// # use renderer_steering::core::requests::PendingRequests;
    /// assert_eq!(PendingRequests::default().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.open.len()
    }
}
