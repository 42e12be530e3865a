//! What the app tells the engine about the connection and its sessions.

use serde::Serialize;

use super::landing::TurnEnd;
use super::{AcpEngine, Stage};
use crate::core::acp::capabilities::{Capabilities, Protocol, SteerPath};
use crate::core::acp::session::MAX_EARLY_ECHOES;
use crate::core::acp::wire::{InjectAnswer, PromptAnswer, UpdateFields};
use crate::core::action::OpId;
use crate::core::content::check_acp_blocks;
use crate::core::error::Failure;
use crate::core::json::Json;
use crate::core::sorted_map::SortedSet;

/// What the app should do with its own prompt's answer.
///
/// ```
/// use renderer_steering::core::acp::PromptVerdict;
/// let v = PromptVerdict { superseded: true };
/// assert!(v.superseded);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct PromptVerdict {
    /// A handoff steer folded this turn: this early answer is not the turn's
    /// answer and is not a completion.
    pub superseded: bool,
}

/// Names one `session/prompt` the app sent ([`AcpEngine::prompt_sent`]'s
/// answer), for [`AcpEngine::prompt_answered_for`].
///
/// ```
/// # use renderer_steering::core::acp::AcpEngine;
/// let mut e = AcpEngine::new(Default::default(), false);
/// assert_eq!(e.prompt_sent("s"), e.prompt_sent("s"), "one life of a session, one token");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptToken(pub u64);

impl AcpEngine {
    /// The `initialize` answer arrived: pick the path, open the composer, and
    /// start the messages that waited for it (each checked against the
    /// advertised prompt capabilities first).
    ///
    /// ```
    /// # use renderer_steering::core::acp::{AcpEngine, SteerPath};
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&serde_json::json!({ "agentCapabilities": { "session": { "inject": { "modes": ["queue", "steer"] } } } }).into(), 0);
    /// assert_eq!(e.path(), SteerPath::Inject { replace: false });
    /// ```
    pub fn initialized(&mut self, answer: &Json, now: u64) {
        let caps = Capabilities::from_initialize(answer, self.dialect.allow_prompt_handoff);
        self.dialect.caps = Some(caps);
        self.dialect.initializing = false;
        self.dialect.refused.clear();
        let waiting: Vec<(OpId, String)> =
            self.ops.iter().filter(|(_, o)| matches!(o.stage, Stage::Queued { .. })).map(|(id, o)| (*id, o.session_id.clone())).collect();
        for (op_id, _) in &waiting {
            let refused = self.ops.get(op_id).and_then(|o| check_acp_blocks(&o.content, caps.prompt).err());
            if let Some(failure) = refused {
                self.fail(*op_id, failure);
            }
        }
        let mut sessions = SortedSet::new();
        sessions.extend(waiting.into_iter().map(|(_, session_id)| session_id));
        for session_id in sessions.iter() {
            self.pump(session_id, now);
        }
        self.dialect.touched.extend(self.dialect.sessions.keys().cloned());
        let told_closed = std::mem::take(&mut self.dialect.told_closed);
        self.dialect.touched.extend(told_closed);
        self.flush_changes();
    }

    /// The app's `initialize` request is on its way: until its answer
    /// ([`Self::initialized`]) or its failure ([`Self::initialize_failed`]),
    /// a send waits in the queue instead of failing `unavailable`.
    ///
    /// ```
    /// # use renderer_steering::core::acp::{AcpEngine, InputMode};
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initializing();
    /// assert_eq!(e.composer("s").mode, InputMode::Queue);
    /// assert!(e.send("s", vec![serde_json::json!({"type": "text", "text": "hi"})], 0).is_ok());
    /// assert!(e.poll_action().is_some_and(|a| matches!(a, renderer_steering::core::Action::Present { presentation: "queued", .. })));
    /// ```
    pub fn initializing(&mut self) {
        if self.dialect.caps.is_none() {
            self.dialect.initializing = true;
            self.dialect.touched.extend(self.dialect.sessions.keys().cloned());
            self.flush_changes();
        }
    }

    /// The `initialize` request failed (refused, unreadable, or no answer
    /// within its bound): the messages that waited for it are handed back
    /// (`unavailable`; none was sent).
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// # use renderer_steering::core::Action;
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initializing();
    /// e.send("s", vec![serde_json::json!({"type": "text", "text": "hi"})], 0).unwrap();
    /// e.initialize_failed();
    /// let failed = std::iter::from_fn(|| e.poll_action())
    ///     .find_map(|a| match a { Action::Complete { result: Err(err), .. } => Some(err), _ => None }).unwrap();
    /// assert_eq!(failed.failure.kind(), "unavailable");
    /// assert_eq!(failed.draft.value()[0]["text"], "hi");
    /// ```
    pub fn initialize_failed(&mut self) {
        if !self.dialect.initializing {
            return;
        }
        self.dialect.initializing = false;
        if self.dialect.caps.is_none() {
            // Composers told `queue` meanwhile are told `unavailable`, and
            // told again when a later `initialize` answer opens input.
            // Added to, not replaced: a session told at an earlier close or
            // failed attempt (now quiet, so no longer shown) is still owed it.
            let told = self.touch_every_told();
            self.dialect.told_closed.extend(told);
            self.close_input(|_| Failure::unavailable());
        }
    }

    /// The app sent its own `session/prompt` for this session: a turn runs.
    ///
    /// ```
    /// # use renderer_steering::core::acp::{AcpEngine, InputMode};
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&serde_json::json!({}).into(), 0);
    /// e.prompt_sent("s");
    /// assert_eq!(e.composer("s").mode, InputMode::Queue);
    /// ```
    pub fn prompt_sent(&mut self, session_id: &str) -> PromptToken {
        // On v2 the turn's state comes from `state_update`, not from prompts.
        let v2 = self.protocol() == Protocol::V2;
        let session = self.session(session_id);
        if !v2 {
            session.open_prompts += 1;
        }
        let token = PromptToken(session.generation);
        self.dialect.touched.insert(session_id.into());
        self.flush_changes();
        token
    }

    /// The app's `session/prompt` was answered (`{ stopReason, usage? }`).
    /// Queued messages start once no prompt is open; after `cancelled` they
    /// are handed back instead (the user stopped the agent).
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&serde_json::json!({}).into(), 0);
    /// e.prompt_sent("s");
    /// assert!(!e.prompt_answered("s", &serde_json::json!({"stopReason": "end_turn"}).into(), 0).superseded);
    /// ```
    pub fn prompt_answered(&mut self, session_id: &str, answer: &Json, now: u64) -> PromptVerdict {
        self.prompt_answered_for(session_id, None, answer, now)
    }

    /// [`Self::prompt_answered`] for the prompt `token` names (what
    /// [`Self::prompt_sent`] returned): the late answer of a prompt sent
    /// before the session was replaced or closed is ignored, so it cannot
    /// end the count of a prompt of the session's next life.
    ///
    /// ```
    /// # use renderer_steering::core::acp::{AcpEngine, InputMode};
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&serde_json::json!({}).into(), 0);
    /// let old = e.prompt_sent("s");
    /// e.session_replaced("s");
    /// let _new = e.prompt_sent("s");
    /// e.prompt_answered_for("s", Some(old), &serde_json::json!({"stopReason": "end_turn"}).into(), 0);
    /// assert_ne!(e.composer("s").mode, InputMode::Idle, "the new prompt still runs");
    /// ```
    pub fn prompt_answered_for(&mut self, session_id: &str, token: Option<PromptToken>, answer: &Json, now: u64) -> PromptVerdict {
        let current = self.dialect.sessions.get(session_id).map(|s| s.generation);
        if token.is_some_and(|token| Some(token.0) != current) {
            return PromptVerdict { superseded: false };
        }
        if self.protocol() == Protocol::V2 {
            // Inserted: its echo is the app's message, not a landing steer's.
            if let Ok(InjectAnswer { message_id }) = answer.read::<InjectAnswer>() {
                self.session(session_id).own_message(message_id);
            }
            return PromptVerdict { superseded: false };
        }
        let session = self.session(session_id);
        session.open_prompts = session.open_prompts.saturating_sub(1);
        let superseded = self.first_prompt_answered(session_id, answer);
        // An answer without a readable stop reason (the app's own failed
        // prompt) proves nothing about a steer's landing.
        let end = match answer.read::<PromptAnswer>() {
            Ok(a) => TurnEnd::of_stop_reason(Some(&a.stop_reason)),
            Err(_) => TurnEnd::Failed,
        };
        self.prompt_ended(session_id, end);
        self.dialect.touched.insert(session_id.into());
        self.pump(session_id, now);
        self.flush_changes();
        PromptVerdict { superseded }
    }

    /// A `session/update` notification's `update` object. A `user_message`
    /// echo with a pending inject's `messageId` marks it delivered; on v2,
    /// an echo of an id no prompt owns marks the oldest landing steer
    /// delivered, and a `state_update` is the turn's state.
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// # use renderer_steering::core::{Action, HostAnswer};
    /// # use serde_json::json;
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } } } }).into(), 0);
    /// e.prompt_sent("s");
    /// e.send("s", vec![json!({"type": "text", "text": "hi"})], 0).unwrap();
    /// let id = std::iter::from_fn(|| e.poll_action())
    ///     .find_map(|a| match a { Action::Send(r) => Some(r.id), _ => None }).unwrap();
    /// e.handle_answer(id, HostAnswer::Result(json!({ "messageId": "m1" }).into()), 1);
    /// assert_eq!(e.composer("s").pending_injects, ["m1"]);
    /// e.update("s", &json!({ "sessionUpdate": "user_message", "messageId": "m1" }).into(), 2);
    /// assert!(e.composer("s").pending_injects.is_empty());
    /// ```
    pub fn update(&mut self, session_id: &str, update: &Json, now: u64) {
        let Ok(fields) = update.read::<UpdateFields>() else { return };
        let v2 = self.protocol() == Protocol::V2;
        match fields.session_update.as_str() {
            "state_update" if v2 => self.state_update(session_id, &fields, now),
            "user_message" | "user_message_chunk" => {
                if let Some(id) = fields.message_id() {
                    self.user_message(session_id, id, v2);
                }
            }
            _ => {}
        }
    }

    fn user_message(&mut self, session_id: &str, id: String, v2: bool) {
        let inject_in_flight = self
            .lanes
            .in_flight(session_id)
            .and_then(|op| self.ops.get(&op))
            .is_some_and(|op| matches!(op.stage, Stage::Steering(SteerPath::Inject { .. })));
        let Some(session) = self.dialect.sessions.get_mut(session_id) else { return };
        if session.pending_injects.remove(&id) {
            self.dialect.touched.insert(session_id.into());
        } else if v2 && !session.owns_message(&id) && session.is_landing() {
            self.echo_landed(session_id, id);
            self.dialect.touched.insert(session_id.into());
        } else if inject_in_flight && session.early_echoes.len() < MAX_EARLY_ECHOES {
            // Its inject's answer may still come: delivered already, it must not be listed pending.
            session.early_echoes.push(id);
        }
        self.flush_changes();
    }

    /// The turn the agent started itself (`startedNewTurn`) has ended. The
    /// engine also ends it on its own when a prompt sent after that turn
    /// began answers; this is for apps that learn it another way.
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.session_idle("s", 0);
    /// assert_eq!(e.live_state(), 0, "an unknown session is not created");
    /// ```
    pub fn session_idle(&mut self, session_id: &str, now: u64) {
        if let Some(session) = self.dialect.sessions.get_mut(session_id) {
            session.unowned_turn_ended();
            if !session.turn_running() {
                self.turn_ended(session_id, TurnEnd::Completed);
            }
            self.dialect.touched.insert(session_id.into());
            self.pump(session_id, now);
            self.flush_changes();
        }
    }

    /// `session/new` or `session/load` replaced the session: its pending
    /// steer and queue are dropped (drafts handed back).
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// # use renderer_steering::core::Action;
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&serde_json::json!({}).into(), 0);
    /// e.prompt_sent("s");
    /// e.send("s", vec![serde_json::json!({"type": "text", "text": "hi"})], 0).unwrap();
    /// e.session_replaced("s");
    /// let failed = std::iter::from_fn(|| e.poll_action())
    ///     .find_map(|a| match a { Action::Complete { result: Err(err), .. } => Some(err), _ => None }).unwrap();
    /// assert_eq!(failed.failure.kind(), "sessionReplaced");
    /// assert_eq!(failed.draft.value()[0]["text"], "hi");
    /// ```
    pub fn session_replaced(&mut self, session_id: &str) {
        self.drop_session(session_id, "the session was replaced before the answer", false);
    }

    /// The session was closed: it takes no more input.
    ///
    /// ```
    /// # use renderer_steering::core::acp::{AcpEngine, InputMode};
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&serde_json::json!({}).into(), 0);
    /// e.session_closed("s");
    /// assert_eq!(e.composer("s").mode, InputMode::Unavailable);
    /// ```
    pub fn session_closed(&mut self, session_id: &str) {
        self.drop_session(session_id, "the session was closed before the answer", true);
    }

    /// The connection closed: everything pending fails (drafts handed back)
    /// and input is unavailable until [`Self::initialized`] again.
    ///
    /// ```
    /// # use renderer_steering::core::acp::{AcpEngine, InputMode};
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&serde_json::json!({}).into(), 0);
    /// e.connection_closed();
    /// assert_eq!(e.composer("s").mode, InputMode::Unavailable);
    /// ```
    pub fn connection_closed(&mut self) {
        self.dialect.caps = None;
        self.dialect.initializing = false;
        let cause = "the connection closed before the answer";
        // Every composer told is told `unavailable`, and told again on
        // reconnect. Added to, not replaced: a composer told at an earlier
        // close (no longer shown) is still owed it after a second close.
        let shown = self.touch_every_told();
        self.close_input(|sent_by| Failure::ended_before_answer(sent_by, Failure::unavailable(), cause));
        self.dialect.told_closed.extend(shown);
    }

    /// Input closes (connection closed, dispose, `initialize` failed): every
    /// op ends, each failing with `failure` for the method that wrote its
    /// message (`None`: not written); sessions are forgotten, and only then
    /// are the composers told (no state is reported that is already gone,
    /// such as an accepted inject's id).
    pub(super) fn close_input(&mut self, failure: impl Fn(Option<&'static str>) -> Failure) {
        // In op order, as `take_ops` hands them over.
        let written: Vec<Option<&'static str>> = self.ops.iter().map(|(id, o)| self.written_by(*id, o.stage.sent_by())).collect();
        for ((op_id, op), sent_by) in self.take_ops().into_iter().zip(written) {
            self.dialect.touched.insert(op.session_id.clone());
            self.fail_op(op_id, op, failure(sent_by));
        }
        self.dialect.sessions.clear();
        self.dialect.closed_order.clear();
        self.flush_changes();
    }

    /// Ends the session's ops: a queued message is handed back
    /// (`sessionReplaced`); one whose request was written may have reached
    /// the agent (outcome unknown, for `cause`).
    fn drop_session(&mut self, session_id: &str, cause: &str, closed: bool) {
        let doomed: Vec<(OpId, Stage)> =
            self.ops.iter().filter(|(_, o)| o.session_id == session_id).map(|(id, o)| (*id, o.stage)).collect();
        for (op_id, stage) in doomed {
            let sent_by = self.written_by(op_id, stage.sent_by());
            self.fail(op_id, Failure::ended_before_answer(sent_by, Failure::session_replaced(), cause));
        }
        self.dialect.sessions.remove(session_id);
        if closed {
            self.remember_closed(session_id);
        }
        self.dialect.touched.insert(session_id.into());
        self.flush_changes();
    }
}
