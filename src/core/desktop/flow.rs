//! The order of a desktop steer, as the engine's state: what the hook's
//! driver reports (a `steerTurn` or `sendRequest` call of the desktop, what
//! a call returned, threw, resolved or rejected with, the time) moves each
//! steer on, and what the driver is to do comes out as actions: call this
//! function of the desktop with these values, settle this promise, write
//! the journal, tell the app, take the layer out.
//!
//! - **decide**: the decider's `decide`, then the follower re-check;
//! - **official and activeTurn**: the desktop's own `steerTurn`, within one
//!   steer bound, its `turn/steer` recognised and tagged on the way out;
//! - **newTurn**: the submission host's `hasPendingTurnStart` and
//!   `getActiveTurnId`, an earlier attempt's route (this hook's or a
//!   disposed one's below), the coordinator's `loadMessages` and
//!   `readMessages`, `startTurn`, its route's one request, and the
//!   follow-ups resumed through `mutate` once it was accepted, all within
//!   one steer bound;
//! - **requests**: the one request a route lets leave, rewritten or plain,
//!   and the answers to the desktop's own steers, followed.
//!
//! ```
//! use renderer_steering::core::desktop::{DesktopHook, Reply, SteerCall, Target};
//! use renderer_steering::core::Action;
//! let mut hook = DesktopHook::new(1_000);
//! let reply = hook.steer_turn(0, SteerCall::text("t", "use pnpm", Some("m-1")));
//! assert!(matches!(reply, Reply::Promise(_)));
//! assert!(matches!(hook.poll_action(), Some(Action::Call(call)) if call.target == Target::Decide));
//! ```

use super::call::{text, Build, CallId, Entry, Read, Reply, Returned, Settled, Target, ValueFacts};
use super::route::STEER_FIELDS_OF_START;
use super::types::{Admission, Answer, Ended, ErrorFacts, Outgoing, WaitId};
use super::{DesktopHook, SteerCall, SteerId};
use crate::core::codexhost::Delivery;
use crate::core::{Json, SteeringError, Trace};

/// Where a steer is on its path, and what it waits for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Stage {
    /// Admitted: the decider's `decide` is out.
    Deciding,
    /// A follower's own `steerTurn` is out (its lane held, no wait).
    Follower,
    /// The desktop's own `steerTurn` of an official or activeTurn steer.
    Own(CallId, WaitId),
    /// newTurn: an earlier attempt's route (this hook's `Some(route)`, else
    /// a disposed hook's below, through that call).
    Earlier(WaitId, Option<SteerId>, Option<CallId>),
    /// newTurn: the coordinator's `loadMessages` (false) or `readMessages` (true).
    FollowUps(CallId, WaitId, bool),
    /// newTurn: `startTurn`.
    Starting(CallId, WaitId),
    /// newTurn: `startTurn` resolved; its route's one request is awaited.
    Done(WaitId),
}

/// What a call the engine made is for, until it settles.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Purpose {
    Decide(SteerId),
    Follower(SteerId),
    Own(SteerId),
    PendingStart(SteerId),
    ActiveTurn(SteerId),
    Below(SteerId),
    FollowUps(SteerId),
    Start(SteerId),
    Resume(WaitId),
    /// The desktop's own steer's request, its answer followed.
    Answer {
        presented: Delivery,
        thread_id: String,
        message_id: Option<String>,
    },
    /// An own request whose answer nothing follows.
    Passed,
    PlainStart(SteerId),
    /// A route's `turn/steer`: the request op, the route, whether it was a rewritten `turn/start`, its wait.
    Routed(SteerId, SteerId, bool, WaitId),
}

/// A `sendRequest` call of the desktop, as the driver read it.
///
/// ```
/// use renderer_steering::core::desktop::RequestCall;
/// let call = RequestCall { method: "turn/steer".into(), thread_id: "t".into(), ..Default::default() };
/// assert!(call.message_id.is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RequestCall {
    /// The method.
    pub method: String,
    /// Its `threadId` (empty when unreadable).
    pub thread_id: String,
    /// Its `clientUserMessageId`.
    pub message_id: Option<String>,
    /// Its `expectedTurnId`.
    pub expected_turn_id: Option<String>,
    /// Its input array's identity (0: none).
    pub input: u64,
}

impl DesktopHook {
    /// The wrapped `steerTurn` was called: what it returns now. A steer to
    /// decide asks the decider first ([`Target::Decide`]).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, Reply, SteerCall};
    /// let mut hook = DesktopHook::new(1_000);
    /// let first = hook.steer_turn(0, SteerCall::text("t", "use pnpm", Some("m-1")));
    /// assert_eq!(hook.steer_turn(0, SteerCall::text("t", "use pnpm", Some("m-1"))), first, "the same message joins");
    /// let other = hook.steer_turn(0, SteerCall::text("t", "use bun", Some("m-2")));
    /// assert!(matches!(other, Reply::Refused(r) if r.failure.kind() == "busy"), "another message is refused");
    /// assert_eq!(hook.steer_turn(0, SteerCall::default()), Reply::Desktop, "no thread id: the desktop's own path");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn steer_turn(&mut self, now: u64, call: SteerCall) -> Reply {
        self.dialect.now = now;
        let reply = match self.steer(call) {
            Admission::Desktop => Reply::Desktop,
            Admission::Joined(steer) => Reply::Promise(steer),
            Admission::Busy => Reply::Refused(super::Refusal::new(crate::core::Failure::busy(), None)),
            Admission::Refused(refusal) => Reply::Refused(refusal),
            Admission::Decide(steer) => {
                let (thread_id, words) = self.ops.get(&steer).map(|s| (s.thread_id.clone(), s.text.clone())).unwrap_or_default();
                let decision = Build::Object(vec![entry("threadId", text(&thread_id)), entry("text", text(&words))]);
                self.make(steer, Target::Decide, Some(vec![decision]), Read::Decision(thread_id), true, Purpose::Decide(steer));
                Reply::Promise(steer)
            }
        };
        self.pump();
        reply
    }

    /// The wrapped `sendRequest` was called with a routed method: what it
    /// returns now (`op`: the number the driver keeps this call's
    /// arguments under, when the engine makes a call with them).
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::Delivery;
    /// # use renderer_steering::core::desktop::{Admission, DesktopHook, Reply, RequestCall, SteerCall, Target};
    /// # use renderer_steering::core::Action;
    /// let mut hook = DesktopHook::new(1_000);
    /// let steer_of_t = RequestCall { method: "turn/steer".into(), thread_id: "t".into(), ..Default::default() };
    /// let request = |id: &str| RequestCall { message_id: Some(id.into()), ..steer_of_t.clone() };
    /// assert_eq!(hook.send_request(0, request("m-0")).0, Reply::Desktop, "no steer of this hook's: untouched");
    /// let Admission::Decide(steer) = hook.steer(SteerCall::text("t", "use pnpm", Some("m-1"))) else { panic!("not admitted") };
    /// hook.own_called(steer, Some(Delivery::ActiveTurn));
    /// let (Reply::Returned(call), op) = hook.send_request(0, request("m-1")) else { panic!("not the steer's own request") };
    /// assert!(matches!(hook.poll_action(), Some(Action::Call(c)) if (c.id, c.of, c.target) == (call, op, Target::OwnSend)));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn send_request(&mut self, now: u64, request: RequestCall) -> (Reply, SteerId) {
        self.dialect.now = now;
        let op = self.new_op();
        let RequestCall { method, thread_id, message_id, expected_turn_id, input } = request;
        let reply = match self.request_into(now, &method, &thread_id, message_id.as_deref(), expected_turn_id, input) {
            Outgoing::Pass => Reply::Desktop,
            Outgoing::Refused(refusal) => Reply::Refused(refusal),
            own @ Outgoing::Own(_, tag) => {
                let params = match tag {
                    Some(tag) => Build::With(Box::new(Build::Arg(1)), vec![entry("codexhostSteerDelivery", text(tag.as_str()))]),
                    None => Build::Arg(1),
                };
                let purpose = match own.answer_followed(&method) {
                    Some(presented) => Purpose::Answer { presented, thread_id, message_id },
                    None => Purpose::Passed,
                };
                // Only an answer that is followed is awaited and read.
                let (read, awaited) = if purpose == Purpose::Passed { (Read::Nothing, false) } else { (Read::Answer, true) };
                Reply::Returned(self.make(op, Target::OwnSend, Some(vec![Build::Arg(0), params, Build::Arg(2)]), read, awaited, purpose))
            }
            Outgoing::PlainStart(route) => {
                let args = vec![text("turn/start"), Build::Arg(1), Build::Arg(2)];
                Reply::Returned(self.make(op, Target::OwnSend, Some(args), Read::Nothing, true, Purpose::PlainStart(route)))
            }
            Outgoing::Steer { route, rewrite, expected_turn_id } => {
                let params = if rewrite {
                    let mut kept: Vec<Entry> = STEER_FIELDS_OF_START
                        .iter()
                        .map(|&key| Entry { key, value: Build::field(Build::Arg(1), key), skip_absent: true })
                        .collect();
                    kept.push(entry("expectedTurnId", text(&expected_turn_id.unwrap_or_default())));
                    kept.push(entry("codexhostSteerDelivery", text(Delivery::NewTurn.as_str())));
                    Build::Object(kept)
                } else {
                    Build::Arg(1)
                };
                let deadline = self.route_by_steer(route).map_or(now, |r| r.deadline);
                let wait = self.wait_until(op, deadline);
                let args = vec![text("turn/steer"), params, Build::Arg(2)];
                self.make(op, Target::OwnSend, Some(args), Read::Answer, true, Purpose::Routed(op, route, rewrite, wait));
                Reply::Promise(op)
            }
        };
        self.pump();
        (reply, op)
    }

    /// A call the engine asked for was made: it returned (with the facts
    /// read of a synchronous call's value), threw, or was not there.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, ErrorFacts, Reply, Returned, SteerCall, Settled};
    /// # use renderer_steering::core::Action;
    /// let mut hook = DesktopHook::new(1_000);
    /// let Reply::Promise(steer) = hook.steer_turn(0, SteerCall::text("t", "use pnpm", None)) else { panic!("not a steer") };
    /// let Some(Action::Call(decide)) = hook.poll_action() else { panic!("no decide call") };
    /// hook.called(0, decide.id, Returned::Threw(ErrorFacts::words("decide threw")));
    /// let rethrown = Action::Complete { op: steer, result: Ok(Settled::Rethrow(decide.id, false)) };
    /// assert_eq!(hook.poll_action(), Some(rethrown), "the steer rejects with what decide threw, unchanged");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn called(&mut self, now: u64, call: CallId, returned: Returned) {
        self.dialect.now = now;
        let Some(purpose) = self.dialect.calls.get(&call).cloned() else { return };
        match returned {
            Returned::Value(facts) => self.returned(call, purpose, facts),
            Returned::Threw(facts) => {
                self.dialect.calls.remove(&call);
                self.threw(call, purpose, facts);
            }
            Returned::Missing => {
                self.dialect.calls.remove(&call);
                self.missing(call, purpose);
            }
        }
        self.pump();
    }

    /// An awaited call settled: resolved (with the facts read of its value) or rejected.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, Reply, Returned, SteerCall, Target, ValueFacts};
    /// # use renderer_steering::core::Action;
    /// let mut hook = DesktopHook::new(1_000);
    /// let Reply::Promise(steer) = hook.steer_turn(0, SteerCall::text("t", "use pnpm", Some("m-1"))) else { panic!("not a steer") };
    /// let Some(Action::Call(decide)) = hook.poll_action() else { panic!("no decide call") };
    /// hook.called(0, decide.id, Returned::Value(ValueFacts::default()));
    /// hook.settled(0, decide.id, Ok(ValueFacts { delivery: Some("activeTurn".into()), ..ValueFacts::default() }));
    /// let Some(Action::Call(own)) = hook.poll_action() else { panic!("no call of the desktop's own steerTurn") };
    /// assert_eq!((own.target, own.of, own.args), (Target::OwnSteer, steer, None), "the steer's own arguments");
    /// assert_eq!(hook.next_deadline(), Some(1_000), "within one steer bound");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn settled(&mut self, now: u64, call: CallId, result: Result<ValueFacts, ErrorFacts>) {
        self.dialect.now = now;
        let Some(purpose) = self.dialect.calls.remove(&call) else { return };
        let ended = match &result {
            Ok(_) => Ended::Ok,
            Err(facts) => Ended::Error(facts.clone()),
        };
        match purpose {
            Purpose::Decide(steer) => self.on_decided(steer, call, result),
            Purpose::Follower(steer) => {
                // Its promise settles as the desktop's own steer did, and joins it until then.
                self.follower_settled(steer);
                self.complete(steer, Ok(if result.is_ok() { Settled::Value(call) } else { Settled::Rethrow(call, false) }));
            }
            Purpose::Own(steer) => {
                self.own_settled(steer);
                self.call_ended(steer, call, ended, None);
            }
            Purpose::Start(steer) => {
                self.start_settled(steer, result.is_ok());
                self.call_ended(steer, call, ended, None);
            }
            Purpose::Below(steer) => self.call_ended(steer, call, ended, None),
            Purpose::FollowUps(steer) => self.call_ended(steer, call, ended, result.ok()),
            Purpose::Resume(wait) => {
                if self.requests.settle(wait).is_some() && result.is_err() {
                    self.report("could not resume follow-ups", Some(call));
                }
            }
            Purpose::Answer { presented, thread_id, message_id } => {
                if let Ok(facts) = result {
                    let answer = Answer { turn_id: facts.turn_id, delivery: facts.delivery.as_deref().and_then(Delivery::from_name) };
                    self.answered(presented, &thread_id, message_id.as_deref(), answer);
                }
            }
            Purpose::PlainStart(route) => self.plain_start_ended(route, result.err().as_ref()),
            Purpose::Routed(op, route, rewrite, wait) => {
                if self.requests.settle(wait).is_some() {
                    let ended = match result {
                        Ok(facts) => (Ended::Ok, Some(facts)),
                        Err(facts) => (Ended::Error(facts), None),
                    };
                    self.routed_settled(op, route, rewrite, call, ended);
                }
            }
            Purpose::PendingStart(_) | Purpose::ActiveTurn(_) | Purpose::Passed => {}
        }
        self.pump();
    }

    /// Time passed: ends the waits, lanes and dispose's late window due at `now`.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// let mut hook = DesktopHook::new(100);
    /// hook.tick(1_000);
    /// assert!(hook.poll_action().is_none());
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn tick(&mut self, now: u64) {
        self.dialect.now = now;
        self.expire(now);
        self.pump();
    }

    /// Dispose at `now`: every wait ends (cancelled), steers still to be
    /// decided fail closed, routes whose `startTurn` settled go, and the
    /// layer goes once nothing is left to follow, at most one steer bound
    /// from `now`.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// # use renderer_steering::core::Action;
    /// let mut hook = DesktopHook::new(100);
    /// hook.dispose_at(0);
    /// assert_eq!(hook.poll_action(), Some(Action::Restore));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn dispose_at(&mut self, now: u64) {
        if self.is_disposed() {
            return;
        }
        self.dialect.now = now;
        self.dispose();
    }
}
/// A field of an object the driver builds, set even when absent.
#[cfg_attr(feature = "size-first", optimize(size))]
pub(crate) fn entry(key: &'static str, value: Build) -> Entry {
    Entry { key, value, skip_absent: false }
}

/// The error a steer fails with (its draft is the op's, held by the driver).
#[cfg_attr(feature = "size-first", optimize(size))]
pub(crate) fn failure(refusal: super::Refusal) -> SteeringError {
    SteeringError::new(refusal.failure, Json::no_items(), Trace::default()).with_message_id(refusal.message_id)
}

/// What a routed `turn/steer` of a rewritten `turn/start` resolves with:
/// the shape the desktop's own `turn/start` answers.
#[cfg_attr(feature = "size-first", optimize(size))]
pub(crate) fn started_turn(turn_id: Option<String>) -> Json {
    #[derive(serde::Serialize)]
    struct Turn {
        id: Option<String>,
        status: &'static str,
        items: [(); 0],
        error: (),
    }
    #[derive(serde::Serialize)]
    struct Started {
        turn: Turn,
    }
    Json::of(&Started { turn: Turn { id: turn_id, status: "inProgress", items: [], error: () } })
}
