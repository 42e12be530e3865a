//! The ACP state machine: admission (FIFO, one steer in flight), dispatch by
//! path, what each answer means, and how an op ends.

mod closed;
mod composer;
mod injects;
mod landing;
mod lifecycle;
mod prompts;
mod recover;
mod state_update;
mod steer_answer;

pub use closed::MAX_CLOSED_SESSIONS;
pub(crate) use landing::TurnEnd;
pub use lifecycle::{PromptToken, PromptVerdict};

use std::collections::VecDeque;

use super::capabilities::{Capabilities, Protocol, SteerPath};
use super::outcome::AcpOutcome;
use super::session::{ComposerState, Handoff, Session};
use super::wire::{IdleBehavior, SessionParams, SteeringMeta};
use crate::core::action::{Action, OpId};
use crate::core::content::check_acp_blocks;
use crate::core::engine::{Carried, Dialect, Engine};
use crate::core::error::{Failure, SteeringError};
use crate::core::flight::{Admission, Ticket};
use crate::core::journal::JournalDialect;
use crate::core::json::Json;
use crate::core::requests::{HostAnswer, Pending};
use crate::core::sorted_map::{SortedMap, SortedSet};
use crate::core::timeouts::Timeouts;
use crate::core::trace::Trace;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Stage {
    Queued {
        must_prompt: bool,
    },
    Steering(SteerPath),
    Prompting {
        handoff: bool,
    },
    /// Accepted by `_session/steering` as pending input of the running
    /// turn; waits for evidence that it reached the turn.
    Landing,
    Revoking,
    Replacing,
}

impl Stage {
    /// The request that carried (or changed) the message once it was
    /// written; `None` while it waits in the queue.
    fn sent_by(self) -> Option<&'static str> {
        match self {
            Stage::Queued { .. } => None,
            Stage::Steering(_) | Stage::Prompting { .. } | Stage::Landing => Some("the steer"),
            Stage::Revoking => Some("session/revoke_inject"),
            Stage::Replacing => Some("session/replace_inject"),
        }
    }
}

/// How many quiet sessions (told `idle`, nothing held) are still told when
/// the connection closes, the engine is disposed or `initialize` fails.
///
/// ```
/// assert_eq!(renderer_steering::core::acp::MAX_QUIET_TOLD, 256);
/// ```
pub const MAX_QUIET_TOLD: usize = 256;

/// One submission in progress.
#[derive(Debug)]
pub struct Op {
    session_id: String,
    content: Json,
    /// The inject a revoke or replace works on.
    message_id: Option<String>,
    stage: Stage,
    trace: Trace,
}

/// The ACP dialect's own state (the shared part is [`Engine`]).
#[derive(Debug)]
pub struct Acp {
    allow_prompt_handoff: bool,
    caps: Option<Capabilities>,
    /// The app's `initialize` is on its way: sends wait for its answer
    /// (queued) instead of failing `unavailable`.
    initializing: bool,
    /// Paths that answered `-32601` on this connection (skipped from then on).
    refused: Vec<SteerPath>,
    sessions: SortedMap<String, Session>,
    /// Closed sessions in the order they closed: past [`MAX_CLOSED_SESSIONS`]
    /// the oldest is forgotten (its id then reads as a session never seen).
    /// A session closed again is listed again; its older place is skipped.
    closed_order: VecDeque<String>,
    /// The composer state last reported per session.
    shown: SortedMap<String, ComposerState>,
    /// Sessions last told `unavailable` because the connection closed: told
    /// again when a new `initialize` answer opens input.
    told_closed: SortedSet<String>,
    /// Sessions forgotten as quiet after being told an open state (the
    /// newest [`MAX_QUIET_TOLD`]): told `unavailable` too when input closes.
    quiet_told: VecDeque<String>,
    /// Sessions whose composer state may have changed since the last report.
    touched: SortedSet<String>,
    /// Sessions made so far: the next one's generation.
    generations: u64,
}

/// One ACP connection's steering engine.
///
/// ```
/// use renderer_steering::core::acp::{AcpEngine, InputMode};
/// let mut e = AcpEngine::new(Default::default(), false);
/// assert_eq!(e.composer("s").mode, InputMode::Unavailable);
/// e.initialized(&serde_json::json!({ "agentCapabilities": {} }).into(), 0);
/// assert_eq!(e.composer("s").mode, InputMode::Idle);
/// ```
pub type AcpEngine = Engine<Acp>;

impl AcpEngine {
    /// A fresh engine; `allow_prompt_handoff` is the app's kill-switch for the
    /// concurrent-prompt path (off by default).
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// let e = AcpEngine::new(Default::default(), false);
    /// assert_eq!(e.live_state(), 0);
    /// ```
    pub fn new(timeouts: Timeouts, allow_prompt_handoff: bool) -> Self {
        let dialect = Acp {
            allow_prompt_handoff,
            caps: None,
            initializing: false,
            refused: Vec::new(),
            sessions: SortedMap::new(),
            closed_order: VecDeque::new(),
            shown: SortedMap::new(),
            told_closed: SortedSet::new(),
            quiet_told: VecDeque::new(),
            touched: SortedSet::new(),
            generations: 0,
        };
        Engine::with_dialect(timeouts, dialect)
    }

    /// The steering path in force: the most preferred advertised path that
    /// has not answered `-32601` on this connection (`queue` when none is left).
    ///
    /// ```
    /// # use renderer_steering::core::acp::{AcpEngine, SteerPath};
    /// assert_eq!(AcpEngine::new(Default::default(), false).path(), SteerPath::Queue);
    /// ```
    pub fn path(&self) -> SteerPath {
        let Some(caps) = self.dialect.caps else { return SteerPath::Queue };
        caps.offered.iter().flatten().find(|p| !self.dialect.refused.contains(p)).copied().unwrap_or(SteerPath::Queue)
    }

    /// The ACP version of the connection (v1 until an `initialize` answer says 2).
    ///
    /// ```
    /// # use renderer_steering::core::acp::{AcpEngine, Protocol};
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&serde_json::json!({ "protocolVersion": 2, "capabilities": {} }).into(), 0);
    /// assert_eq!(e.protocol(), Protocol::V2);
    /// ```
    pub fn protocol(&self) -> Protocol {
        self.dialect.caps.map(|c| c.protocol).unwrap_or_default()
    }

    /// Sends a user's message for `session_id`: steered into the running
    /// turn, queued behind it, or sent as a prompt when idle. Immediate
    /// refusals return `Err` with the draft.
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// let err = e.send("s", vec![serde_json::json!({"type": "text", "text": "hi"})], 0).unwrap_err();
    /// assert_eq!(err.failure.kind(), "unavailable");
    /// ```
    pub fn send(&mut self, session_id: &str, content: impl Into<Json>, now: u64) -> Result<OpId, SteeringError> {
        let content = content.into();
        let refuse = |failure| SteeringError::new(failure, content.clone(), Trace::default());
        self.refuse_if_disposed(&content)?;
        let caps = self.dialect.caps;
        if caps.is_none() && !self.dialect.initializing || self.dialect.sessions.get(session_id).is_some_and(|s| s.closed) {
            return Err(refuse(Failure::unavailable()));
        }
        // While `initialize` is on its way the message waits, and is checked
        // against the capabilities when they arrive.
        if let Some(caps) = caps {
            check_acp_blocks(&content, caps.prompt).map_err(refuse)?;
        }
        let op_id = self.new_op_id();
        let running = self.session(session_id).turn_running();
        let may_start = caps.is_some() && !(running && self.waits_while_running(self.dialect.sessions.get(session_id)));
        let ticket = Ticket { op: op_id, message_id: None, draft: content.clone() };
        let admission = self.lanes.admit_fifo(session_id, ticket, may_start);
        let op = Op {
            session_id: session_id.into(),
            content,
            message_id: None,
            stage: Stage::Queued { must_prompt: false },
            trace: Trace::default(),
        };
        self.ops.insert(op_id, op);
        if admission == Admission::Start {
            self.dispatch(op_id, now);
        } else {
            self.push(Action::Present { op: op_id, presentation: "queued" });
        }
        self.dialect.touched.insert(session_id.into());
        self.flush_changes();
        Ok(op_id)
    }

    fn session(&mut self, session_id: &str) -> &mut Session {
        let generations = &mut self.dialect.generations;
        self.dialect.sessions.get_or_insert_with(session_id.to_string(), || {
            *generations += 1;
            Session { generation: *generations, ..Session::default() }
        })
    }

    /// Sends the op now in flight: a steer when a turn runs, else a prompt.
    fn dispatch(&mut self, op_id: OpId, now: u64) {
        let Some(op) = self.ops.get(&op_id) else { return };
        let session_id = op.session_id.clone();
        let must_prompt = matches!(op.stage, Stage::Queued { must_prompt: true });
        let running = self.session(&session_id).turn_running();
        let path = if running && !must_prompt { self.path() } else { SteerPath::Queue };
        let Some(op) = self.ops.get(&op_id) else { return };
        let content = Some(&op.content);
        let v2 = self.protocol() == Protocol::V2;
        let base = SessionParams { session_id: &session_id, ..SessionParams::default() };
        let (method, params, timeout) = match path {
            SteerPath::Inject { .. } => {
                ("session/inject", SessionParams { mode: Some("steer"), content, ..base }, Some(self.timeouts.request_ms))
            }
            SteerPath::SteeringExtension => (
                "_session/steering",
                SessionParams {
                    prompt: content,
                    meta: Some(SteeringMeta { steering: IdleBehavior { idle_behavior: "promptRequired" } }),
                    ..base
                },
                Some(self.timeouts.request_ms),
            ),
            // A v1 prompt is open for its whole turn; a v2 one answers at
            // insertion, so its wait is bounded like a steer's.
            SteerPath::PromptHandoff | SteerPath::Queue => {
                ("session/prompt", SessionParams { prompt: content, ..base }, v2.then_some(self.timeouts.request_ms))
            }
        };
        let params = Json::of(&params);
        let handoff = path == SteerPath::PromptHandoff;
        let stage = match path {
            SteerPath::Queue | SteerPath::PromptHandoff => Stage::Prompting { handoff },
            steer => Stage::Steering(steer),
        };
        if matches!(stage, Stage::Prompting { .. }) && !v2 {
            let session = self.session(&session_id);
            session.open_prompts += 1;
            if handoff {
                session.handoff = Some(Handoff::Waiting);
            } else {
                // A prompt is not a steer: the next message may steer its turn.
                self.lanes.finish(&session_id, op_id);
            }
        }
        let Some(op) = self.ops.get_mut(&op_id) else { return };
        op.stage = stage;
        op.trace.path = Some(path.as_str());
        op.trace.sent = Some(method);
        let presentation = if matches!(stage, Stage::Prompting { handoff: false }) { "prompt" } else { "steer" };
        op.trace.presented = Some(presentation);
        self.push(Action::Present { op: op_id, presentation });
        // Journaled under the engine's own id for it (an ACP message has
        // none before the agent answers), the same at every dispatch.
        let journaled = self.journal_message_id(op_id).zip(self.ops.get(&op_id)).map(|(id, op)| (id, op.content.clone()));
        let carried = journaled.as_ref().map(|(message_id, draft)| Carried {
            key: &session_id,
            message_id,
            expected_turn_id: None,
            draft,
            presented: Some(presentation),
        });
        self.request_message(op_id, method, params, timeout, carried, now);
    }

    /// Starts what may start in `session_id`, oldest first. Each pass starts
    /// the head or returns; the loop is also bounded by the queue's length
    /// (a defensive bound: no dispatch puts its message back synchronously
    /// today, but one that did must not spin the window).
    fn pump(&mut self, session_id: &str, now: u64) {
        if self.dialect.caps.is_none() {
            return; // waiting for `initialize`
        }
        for _ in 0..self.lanes.queued_len(session_id) {
            if self.lanes.in_flight(session_id).is_some() {
                return;
            }
            let Some(head) = self.lanes.queued_head(session_id) else { return };
            let must_prompt = self.ops.get(&head).is_some_and(|o| o.stage == Stage::Queued { must_prompt: true });
            let running = self.session(session_id).turn_running();
            if running && (must_prompt || self.waits_while_running(self.dialect.sessions.get(session_id))) {
                return;
            }
            if self.lanes.start_next(session_id) != Some(head) {
                return;
            }
            self.dispatch(head, now);
            self.dialect.touched.insert(session_id.into());
        }
    }

    fn on_answer(&mut self, pending: Pending, answer: HostAnswer, now: u64) {
        let Some(op) = self.ops.get(&pending.op) else { return };
        let (op_id, stage, session_id) = (pending.op, op.stage, op.session_id.clone());
        self.dialect.touched.insert(session_id.clone());
        match stage {
            Stage::Steering(path) => self.on_steer_answer(op_id, path, &session_id, pending, answer),
            Stage::Prompting { handoff } => self.on_prompt_answer(op_id, handoff, pending, answer),
            Stage::Revoking | Stage::Replacing => self.on_pending_inject_answer(op_id, pending, answer),
            Stage::Queued { .. } | Stage::Landing => {}
        }
        if matches!(stage, Stage::Steering(_)) {
            // Echoes wait only for the inject in flight, now answered.
            self.session(&session_id).early_echoes.clear();
        }
        self.pump(&session_id, now);
    }

    /// Puts an unconsumed message back at the head of its queue, or hands it
    /// back when the user cancelled a turn after sending it (it must not
    /// start a new turn behind their back).
    fn requeue(&mut self, op_id: OpId, must_prompt: bool) {
        let Some(session_id) = self.ops.get(&op_id).map(|op| op.session_id.clone()) else { return };
        if self.cancelled_since(&session_id, op_id) {
            return self.hand_back(op_id, &session_id);
        }
        let Some(op) = self.ops.get_mut(&op_id) else { return };
        op.stage = Stage::Queued { must_prompt };
        self.lanes.requeue_front(&session_id, op_id);
        self.push(Action::Present { op: op_id, presentation: "queued" });
    }

    /// Ends `op_id` with its outcome.
    fn succeed(&mut self, op_id: OpId, outcome: AcpOutcome) {
        if let Some(op) = self.ops.remove(&op_id) {
            self.finish(op_id, &op.session_id, None, Ok(outcome));
        }
    }

    /// Ends `op_id` with `failure`, its content handed back.
    fn fail(&mut self, op_id: OpId, failure: Failure) {
        if let Some(op) = self.ops.remove(&op_id) {
            self.fail_op(op_id, op, failure);
        }
    }

    /// Ends an op already taken out of the engine: every ACP submission was
    /// shown (queued, or as its path), so it is retracted, or kept
    /// unconfirmed when it may have reached the agent.
    fn fail_op(&mut self, op_id: OpId, op: Op, failure: Failure) {
        let shown = op.trace.path.unwrap_or("queue");
        let error = SteeringError::new(failure, op.content, op.trace);
        self.finish(op_id, &op.session_id, Some(shown), Err(error));
    }
}

impl Dialect for Acp {
    type Outcome = AcpOutcome;
    type Op = Op;
    const JOURNAL: JournalDialect = JournalDialect::Acp;

    fn on_answer(engine: &mut AcpEngine, pending: Pending, answer: HostAnswer, now: u64) {
        engine.on_answer(pending, answer, now);
    }

    fn after_input(engine: &mut AcpEngine) {
        engine.flush_changes();
    }

    fn on_dispose(engine: &mut AcpEngine) {
        // Every composer told is told it is `unavailable` now.
        engine.touch_every_told();
        engine.close_input(|sent_by| Failure::ended_before_answer(sent_by, Failure::disposed(), "disposed before the answer"));
    }

    /// Sessions with state (a closed session's marker is not state held for
    /// a submission, and is bounded on its own).
    fn held(&self) -> usize {
        self.sessions.values().filter(|s| !s.closed).count()
    }
}
