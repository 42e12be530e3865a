//! The codexhost state machine: validate -> decide -> present -> send ->
//! reconcile, or retract and hand the draft back.

use super::decision::{Knowledge, Probe, Step};
use super::outcome::{CodexhostOutcome, Decision, SteerOutcome, Submitted};
use super::recent::{RecentMessages, Resubmission};
use super::request::{read_answer, SteerRequest};
use super::wire::Delivery;
use crate::core::action::{Action, OpId};
use crate::core::content::{steer_text, text_draft};
use crate::core::engine::{Carried, Dialect, Engine};
use crate::core::error::{Failure, SteeringError};
use crate::core::flight::{Admission, Ticket};
use crate::core::journal::JournalDialect;
use crate::core::json::Json;
use crate::core::json_rpc::RequestId;
use crate::core::requests::{HostAnswer, Pending};
use crate::core::sorted_map::{SortedMap, SortedSet};
use crate::core::timeouts::Timeouts;
use crate::core::trace::{summary, ProbeAnswer, Trace};

mod confirm;
mod lifecycle;
mod recover;

use recover::Recovery;

#[derive(Debug)]
enum Stage {
    /// A retry of an unconfirmed message on a host that does not deduplicate:
    /// reading the thread before anything is sent again.
    Verifying {
        turn_id: Option<String>,
    },
    Deciding(Probe),
    Sending {
        shown: Delivery,
        method: &'static str,
    },
}

/// One submission in progress.
#[derive(Debug)]
pub struct Op {
    thread_id: String,
    text: String,
    steer: Option<SteerRequest>,
    trace: Trace,
    stage: Stage,
    /// The connection its last request left on (see `Knowledge::connection`).
    connection: u32,
    /// The thread was read and showed an earlier attempt was not applied.
    verified: bool,
}

impl Op {
    fn new(thread_id: String, text: String, steer: Option<SteerRequest>) -> Self {
        let stage = Stage::Deciding(Probe::Inspect);
        Op { thread_id, text, steer, trace: Trace::default(), stage, connection: 0, verified: false }
    }
}

/// The codexhost dialect's own state (the shared part is [`Engine`]).
#[derive(Debug, Default)]
pub struct Codexhost {
    knowledge: Knowledge,
    followers: SortedSet<String>,
    recent: RecentMessages,
    /// `recover` calls in progress.
    recoveries: SortedMap<OpId, Recovery>,
    /// Each recovery read's own op, and the recovery it serves.
    reading: SortedMap<OpId, OpId>,
}

/// One codexhost connection's steering engine.
///
/// ```
/// use renderer_steering::core::codexhost::CodexhostEngine;
/// use renderer_steering::core::Timeouts;
/// let engine = CodexhostEngine::new(Timeouts::default());
/// assert_eq!(engine.live_state(), 0);
/// ```
pub type CodexhostEngine = Engine<Codexhost>;

impl CodexhostEngine {
    /// A fresh engine for one connection.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// let e = CodexhostEngine::new(Default::default());
    /// assert_eq!(e.poll_timeout(), None);
    /// ```
    pub fn new(timeouts: Timeouts) -> Self {
        Engine::with_dialect(timeouts, Codexhost::default())
    }

    /// Asks how a draft would be delivered; sends no steer.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// assert!(e.decide("t", "   ", 0).is_err());
    /// assert!(e.decide("t", "use pnpm", 0).is_ok());
    /// ```
    pub fn decide(&mut self, thread_id: &str, text: &str, now: u64) -> Result<OpId, SteeringError> {
        let draft = text_draft(text);
        self.refuse_if_disposed(&draft)?;
        let text = steer_text(&draft).map_err(|f| SteeringError::new(f, draft.clone(), Trace::default()))?;
        let op = self.new_op_id();
        self.begin(op, Op::new(thread_id.into(), text, None), now);
        Ok(op)
    }

    /// Submits a steer. Immediate refusals (invalid input, busy thread,
    /// unconfirmed turn start, follower window, disposed) return `Err` with
    /// the draft; everything later arrives as [`Action::Complete`].
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest};
    /// let mut e = CodexhostEngine::new(Default::default());
    /// let mut r = SteerRequest::text("t", Some("u"), "x");
    /// r.pending_turn_start = true;
    /// assert_eq!(e.steer(r, 0).unwrap_err().failure.kind(), "pendingTurnStart");
    /// ```
    pub fn steer(&mut self, request: SteerRequest, now: u64) -> Result<Submitted, SteeringError> {
        let draft = request.input.clone();
        let message_id = request.client_user_message_id.clone();
        // A retry of a message whose outcome is unknown is refused up front
        // (disposed, pending turn start, busy) as still unknown: the first
        // attempt may have arrived, and a plain failure would invite sending
        // the words again under a new id (only `follower` hands it over).
        let earlier_unknown = message_id.as_deref().is_some_and(|id| self.dialect.recent.is_unknown(&request.thread_id, id));
        let refuse = |failure: Failure| {
            let failure = match failure {
                Failure::State(_) | Failure::Route(_) if earlier_unknown && failure.kind() != "follower" => Failure::outcome_unknown(
                    "turn/steer",
                    &format!("the retry was refused before it was sent ({failure}); the first attempt may have arrived"),
                ),
                failure => failure,
            };
            SteeringError::new(failure, draft.clone(), Trace::default()).with_message_id(message_id.clone())
        };
        if self.is_disposed() {
            return Err(refuse(Failure::disposed()));
        }
        let text = steer_text(&request.input).map_err(|failure| SteeringError::new(failure, draft.clone(), Trace::default()))?;
        let resubmission =
            self.dialect.recent.resubmission(&request.thread_id, message_id.as_deref(), &text, request.expected_turn_id.as_deref());
        if resubmission == Resubmission::ReusedForOtherText {
            let id = message_id.as_deref().unwrap_or_default();
            return Err(refuse(Failure::invalid_input(format!("clientUserMessageId {id} was already used for a different message"))));
        }
        if let Resubmission::AlreadyDelivered(mut outcome) = resubmission {
            // One message id, one delivery: the earlier result, nothing sent.
            let op = self.new_op_id();
            outcome.trace = Trace { path: Some("alreadyDelivered"), ..Trace::default() };
            self.push(Action::Complete { op, result: Ok(CodexhostOutcome::Steered(outcome)) });
            return Ok(Submitted::Started(op));
        }
        if request.pending_turn_start {
            return Err(refuse(Failure::pending_turn_start()));
        }
        if self.dialect.followers.contains(&request.thread_id) {
            return Err(refuse(Failure::follower()));
        }
        let op = self.new_op_id();
        let ticket = Ticket { op, message_id: message_id.clone(), draft: draft.clone() };
        match self.lanes.admit_exclusive(&request.thread_id, ticket) {
            Admission::Start => {}
            Admission::Join(existing) => return Ok(Submitted::Joined(existing)),
            Admission::Refused | Admission::Queued => return Err(refuse(Failure::busy())),
        }
        let thread_id = request.thread_id.clone();
        let op_state = Op::new(thread_id, text, Some(request));
        match resubmission {
            Resubmission::Verify { turn_id } => self.verify_first(op, op_state, turn_id, now),
            _ => self.begin(op, op_state, now),
        }
        Ok(Submitted::Started(op))
    }

    /// Marks a thread as followed by this window (its owner window steers),
    /// or owned again. Drivers refresh it before feeding a decision's answer.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest};
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.set_follower("t", true);
    /// assert_eq!(e.steer(SteerRequest::text("t", Some("u"), "x"), 0).unwrap_err().failure.kind(), "follower");
    /// ```
    pub fn set_follower(&mut self, thread_id: &str, follower: bool) {
        if follower {
            self.dialect.followers.insert(thread_id.into());
        } else {
            self.dialect.followers.remove(thread_id);
        }
    }

    /// The thread a pending request serves (for refreshing the stream role).
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// # use renderer_steering::core::RequestId;
    /// assert_eq!(CodexhostEngine::new(Default::default()).thread_of(RequestId(1)), None);
    /// ```
    pub fn thread_of(&self, id: RequestId) -> Option<&str> {
        let op = self.op_of(id)?;
        self.ops.get(&op).map(|o| o.thread_id.as_str())
    }

    fn on_answer(&mut self, pending: Pending, answer: HostAnswer, now: u64) {
        if self.dialect.reading.contains_key(&pending.op) {
            return self.on_recovery_read(pending.op, &answer);
        }
        let Some(mut op) = self.ops.remove(&pending.op) else { return };
        let op_id = pending.op;
        match std::mem::replace(&mut op.stage, Stage::Deciding(Probe::Inspect)) {
            Stage::Verifying { turn_id } => self.on_verified(op_id, op, &answer, turn_id, now),
            Stage::Deciding(probe) => {
                op.stage = Stage::Deciding(probe);
                op.trace.record_probe(probe.method(), probe_answer(&answer));
                let step = self.dialect.knowledge.learn(probe, &op.thread_id, &answer, pending.timeout_ms, op.connection);
                self.advance(op_id, op, step, now);
            }
            Stage::Sending { shown, method } => {
                op.stage = Stage::Sending { shown, method };
                let unreadable = |f: Failure| Failure::outcome_unknown(method, &f.message());
                let read = match answer.result() {
                    Ok(value) => read_answer(method, value, shown).map_err(unreadable),
                    Err(failed) => Err(failed.after_write(method, pending.timeout_ms)),
                };
                match read {
                    Ok((turn_id, delivery)) => {
                        op.trace.host_delivery = Some(delivery.as_str());
                        if delivery != shown {
                            self.moved(op_id, &op, shown, delivery);
                        }
                        let outcome = SteerOutcome { turn_id, delivery, presented: shown, trace: op.trace.clone() };
                        self.delivered(op_id, &op, outcome);
                    }
                    Err(failure @ Failure::OutcomeUnknown(_)) => self.unknown_outcome(op_id, &op, failure),
                    Err(failure) => self.fail(op_id, &op, failure, Some(shown.as_str())),
                }
            }
        }
    }

    /// The host delivered elsewhere than shown: one presentation, never two
    /// (replaced in place when the caller can, else retracted and shown again).
    fn moved(&mut self, op_id: OpId, op: &Op, shown: Delivery, delivery: Delivery) {
        if op.steer.as_ref().is_some_and(|steer| steer.reconciles) {
            self.push(Action::Reconcile { op: op_id, from: shown.as_str(), to: delivery.as_str() });
        } else {
            self.push(Action::Retract { op: op_id });
            self.push(Action::Present { op: op_id, presentation: delivery.as_str() });
        }
    }

    fn begin(&mut self, op_id: OpId, mut op: Op, now: u64) {
        let step = self.dialect.knowledge.first_step(&op.thread_id);
        if matches!(step, Step::Decided(_)) {
            op.trace.path = Some("cachedOwner");
        }
        self.advance(op_id, op, step, now);
    }

    fn advance(&mut self, op_id: OpId, mut op: Op, step: Step, now: u64) {
        match step {
            Step::Ask(probe) => {
                let params = probe.params(&op.thread_id, &op.text);
                self.ask(op_id, &mut op, probe.method(), params, Some(self.timeouts.decide_ms), now);
                op.stage = Stage::Deciding(probe);
                self.ops.insert(op_id, op);
            }
            Step::Fail(failure) => self.fail(op_id, &op, failure, None),
            Step::Decided(delivery) => {
                if let (Stage::Deciding(probe), None) = (&op.stage, op.trace.path) {
                    // A probe that answered decided; one that was missing left it to the cached owner.
                    let answered = matches!(op.trace.probes.last(), Some(p) if matches!(p.answer, ProbeAnswer::Result(_)));
                    op.trace.path = Some(if answered { probe.path() } else { "cachedOwner" });
                }
                self.send(op_id, op, delivery, now);
            }
        }
    }

    fn send(&mut self, op_id: OpId, mut op: Op, delivery: Delivery, now: u64) {
        let Some(request) = op.steer.take() else {
            let host_deduplicates = self.dialect.knowledge.deduplicates(delivery);
            let decision = Decision { delivery, trace: op.trace.clone(), host_deduplicates };
            return self.finish(op_id, &op.thread_id, None, Ok(CodexhostOutcome::Decided(decision)));
        };
        if self.dialect.followers.contains(&op.thread_id) {
            op.steer = Some(request);
            return self.fail(op_id, &op, Failure::follower(), None);
        }
        // A retry whose earlier attempt lost its deduplication while this
        // one decided (the connection was replaced) reads the thread first.
        if !op.verified {
            let id = request.client_user_message_id.as_deref();
            if let Resubmission::Verify { turn_id } =
                self.dialect.recent.resubmission(&op.thread_id, id, &op.text, request.expected_turn_id.as_deref())
            {
                op.steer = Some(request);
                return self.verify_first(op_id, op, turn_id, now);
            }
        }
        let (method, params, shown) = request.call(delivery);
        let timeout = request.steer_timeout_ms.unwrap_or(self.timeouts.steer_ms);
        op.trace.presented = Some(shown.as_str());
        op.trace.sent = Some(method);
        op.stage = Stage::Sending { shown, method };
        self.push(Action::Present { op: op_id, presentation: shown.as_str() });
        op.connection = self.dialect.knowledge.connection();
        let carried = request.client_user_message_id.as_deref().map(|message_id| Carried {
            key: &op.thread_id,
            message_id,
            expected_turn_id: request.expected_turn_id.as_deref(),
            draft: &request.input,
            presented: Some(shown.as_str()),
        });
        self.request_message(op_id, method, params, Some(timeout), carried, now);
        op.steer = Some(request);
        self.ops.insert(op_id, op);
    }

    /// Sends `op`'s next request that does not carry the message (a probe,
    /// a thread read), noting the connection it leaves on.
    fn ask(&mut self, op_id: OpId, op: &mut Op, method: &'static str, params: Json, timeout: Option<u64>, now: u64) {
        op.connection = self.dialect.knowledge.connection();
        self.request_plain(op_id, method, params, timeout, now);
    }

    /// Ends `op` with `failure` (its draft handed back); `shown` is what
    /// the user sees of it, if anything (see [`Engine::finish`]).
    /// A retry of an id whose earlier attempt may have reached the host stays
    /// unknown whatever this attempt meets (a probe timeout, dispose, a
    /// refusal): never a plain failure that invites sending the words again
    /// under a new id. Only a follower hands it to the desktop as before.
    fn fail(&mut self, op_id: OpId, op: &Op, failure: Failure, shown: Option<&'static str>) {
        let message_id = op.steer.as_ref().and_then(|r| r.client_user_message_id.clone());
        let earlier_unknown = message_id.as_deref().is_some_and(|id| self.dialect.recent.is_unknown(&op.thread_id, id));
        if earlier_unknown && !matches!(failure, Failure::OutcomeUnknown(_)) && failure.kind() != "follower" {
            let detail = format!("an earlier attempt may have reached the host; this retry: {}", failure.message());
            return self.unknown_outcome(op_id, op, Failure::outcome_unknown("turn/steer", &detail));
        }
        let draft = match &op.steer {
            Some(request) => request.input.clone(),
            None => text_draft(&op.text),
        };
        let error = SteeringError::new(failure, draft, op.trace.clone()).with_message_id(message_id);
        self.finish(op_id, &op.thread_id, shown, Err(error));
    }
}

fn probe_answer(answer: &HostAnswer) -> ProbeAnswer {
    match answer {
        HostAnswer::Result(value) => ProbeAnswer::Result(summary(value)),
        HostAnswer::Error(error) => ProbeAnswer::Error(error.clone()),
        HostAnswer::Timeout => ProbeAnswer::Timeout,
        HostAnswer::Transport(detail) | HostAnswer::Cancelled(detail) | HostAnswer::Unreadable(detail) | HostAnswer::NotSent(detail) => {
            ProbeAnswer::Transport(detail.clone())
        }
    }
}

impl Dialect for Codexhost {
    type Outcome = CodexhostOutcome;
    type Op = Op;
    const JOURNAL: JournalDialect = JournalDialect::Codexhost;

    fn on_answer(engine: &mut CodexhostEngine, pending: Pending, answer: HostAnswer, now: u64) {
        engine.on_answer(pending, answer, now);
    }

    fn on_dispose(engine: &mut CodexhostEngine) {
        engine.dispose_ops();
        engine.end_recoveries();
    }

    /// Recoveries and their reads in progress.
    fn held(&self) -> usize {
        self.recoveries.len() + self.reading.len()
    }
}
