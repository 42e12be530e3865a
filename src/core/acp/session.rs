//! What the engine knows about one ACP session, and the composer's input
//! mode derived from it.

use std::collections::VecDeque;

use serde::Serialize;

use crate::core::acp::engine::TurnEnd;
use crate::core::action::OpId;
use crate::core::json::Json;
use crate::core::sorted_map::SortedMap;

/// The composer's mode for a session.
///
/// ```
/// use renderer_steering::core::acp::InputMode;
/// assert_eq!(InputMode::Direct.hint(), "Send now; delivered to the running turn");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum InputMode {
    /// A turn runs and the message goes to it now.
    Direct,
    /// A turn runs and the message waits for it to end.
    Queue,
    /// No turn runs: a normal prompt.
    Idle,
    /// The connection cannot take input.
    Unavailable,
}

impl InputMode {
    /// Wire name.
    ///
    /// ```
    /// # use renderer_steering::core::acp::InputMode;
    /// assert_eq!(InputMode::Queue.as_str(), "queue");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            InputMode::Direct => "direct",
            InputMode::Queue => "queue",
            InputMode::Idle => "idle",
            InputMode::Unavailable => "unavailable",
        }
    }

    /// The composer's hint. `Direct` promises delivery, never folding.
    ///
    /// ```
    /// # use renderer_steering::core::acp::InputMode;
    /// assert!(InputMode::Queue.hint().starts_with("Queued"));
    /// ```
    pub fn hint(self) -> &'static str {
        match self {
            InputMode::Direct => "Send now; delivered to the running turn",
            InputMode::Queue => "Queued; sent in order as soon as the agent can take it",
            InputMode::Idle => "Send to start a turn",
            InputMode::Unavailable => "Not connected; your message stays here",
        }
    }
}

/// How the first prompt's answer related to a pending handoff steer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Handoff {
    /// The first prompt has not answered yet.
    Waiting,
    /// The first prompt answered early; the steer's answer is the turn's.
    Folded,
    /// The first prompt answered normally; the steer runs as its own turn.
    Deferred,
    /// The steer prompt answered before the app's prompt (folded by answer
    /// order); the app's prompt answer, when it comes, is superseded.
    AnsweredFirst,
}

impl Handoff {
    /// Wire name (a steer answered before the first prompt counts as folded).
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Handoff::Deferred => "deferred",
            Handoff::Waiting | Handoff::Folded | Handoff::AnsweredFirst => "folded",
        }
    }
}

/// Per-session state.
#[derive(Debug, Default, Clone)]
pub(crate) struct Session {
    /// Which life of this session id it is: a prompt token names it, so an
    /// answer to a prompt of a replaced session ends no later prompt.
    pub generation: u64,
    /// `session/prompt` requests of this session not yet answered (the app's and ours).
    pub open_prompts: u32,
    /// A turn started by the agent itself (`startedNewTurn`) that no request owns.
    pub unowned_turn: bool,
    /// Prompts that were open when the unowned turn began (they answer first).
    pub older_prompts: u32,
    /// The session was closed.
    pub closed: bool,
    /// Accepted injects not yet echoed as delivered (bounded).
    pub pending_injects: PendingInjects,
    /// A handoff steer is open and how the first prompt answered.
    pub handoff: Option<Handoff>,
    /// The user cancelled a turn after this op was submitted: a message
    /// submitted until then that comes back unconsumed (`promptRequired`,
    /// `-32601`) is handed back, never sent as a new turn.
    pub cancelled_up_to: Option<OpId>,
    /// v2: the agent's last `state_update` reports foreground work
    /// (`running`, `requires_action`, or a state this engine does not know).
    pub foreground_busy: bool,
    /// v2: `promptRequired` said no turn runs while the last `state_update`
    /// still reported work: that turn's idle is still to come, and it ends
    /// the steers that landed in it.
    pub idle_owed: bool,
    /// Steers landing and the v2 messages known not to be theirs: held
    /// apart, made on first use, so a session that never steers (or one
    /// remembered as closed) carries one pointer for them.
    pub landing: Option<Box<Landing>>,
    /// How the session's last turn ended, for a steer whose `injected`
    /// answer comes after that end (the answers raced on the wire).
    pub last_turn_end: Option<TurnEnd>,
    /// `user_message` echoes that arrived while an inject was in flight, for
    /// ids not yet known: the inject's answer may come after its own echo
    /// (at most [`MAX_EARLY_ECHOES`], cleared when the inject is answered).
    pub early_echoes: Vec<String>,
}

/// How many early echoes a session keeps while an inject is in flight.
pub(crate) const MAX_EARLY_ECHOES: usize = 64;

/// How many accepted, not yet echoed injects a session keeps (for revoke,
/// replace and the composer's list); past that the oldest is forgotten, so
/// an agent that never echoes a `messageId` cannot grow it without bound.
pub(crate) const MAX_PENDING_INJECTS: usize = 256;

/// Accepted injects not yet echoed as delivered: messageId -> content, with
/// the order they were accepted in.
#[derive(Debug, Default, Clone)]
pub(crate) struct PendingInjects {
    entries: SortedMap<String, (u64, Json)>,
    accepted: u64,
}

impl PendingInjects {
    /// Records an accepted inject, forgetting the oldest past the bound.
    pub(crate) fn insert(&mut self, message_id: String, content: Json) {
        self.accepted += 1;
        self.entries.insert(message_id, (self.accepted, content));
        if self.entries.len() > MAX_PENDING_INJECTS {
            let oldest = self.entries.iter().min_by_key(|(_, (order, _))| *order).map(|(id, _)| id.clone());
            if let Some(oldest) = oldest {
                self.entries.remove(&oldest);
            }
        }
    }

    /// The content of a pending inject.
    pub(crate) fn get(&self, message_id: &str) -> Option<&Json> {
        self.entries.get(message_id).map(|(_, content)| content)
    }

    /// Forgets an inject (delivered, revoked or replaced); true if it was pending.
    pub(crate) fn remove(&mut self, message_id: &str) -> bool {
        self.take(message_id).is_some()
    }

    /// Forgets an inject and hands over its content.
    pub(crate) fn take(&mut self, message_id: &str) -> Option<Json> {
        self.entries.remove(message_id).map(|(_, content)| content)
    }

    /// Whether none is pending.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The pending message ids, in id order.
    pub(crate) fn ids(&self) -> Vec<String> {
        self.entries.keys().cloned().collect()
    }
}

impl Session {
    /// A turn runs: a prompt is open (v1), the agent runs an unowned turn,
    /// or it reports foreground work (v2).
    pub(crate) fn turn_running(&self) -> bool {
        self.open_prompts > 0 || self.unowned_turn || self.foreground_busy
    }

    /// The turn the agent started itself (`startedNewTurn`) is over.
    pub(crate) fn unowned_turn_ended(&mut self) {
        self.unowned_turn = false;
        self.older_prompts = 0;
    }

    /// Nothing here is worth keeping.
    pub(crate) fn is_quiet(&self) -> bool {
        !self.turn_running()
            && !self.closed
            && self.pending_injects.is_empty()
            && self.handoff.is_none()
            && self.early_echoes.is_empty()
            && !self.is_landing()
    }

    /// Remembers a user message's id as not a landing steer's echo.
    pub(crate) fn own_message(&mut self, message_id: String) {
        let own = &mut self.landing_mut().own_messages;
        if !own.contains(&message_id) {
            own.push_back(message_id);
            if own.len() > MAX_EARLY_ECHOES {
                own.pop_front();
            }
        }
    }

    /// The session's landing steers, made on first use.
    pub(crate) fn landing_mut(&mut self) -> &mut Landing {
        self.landing.get_or_insert_with(Box::default)
    }

    /// Whether a steer is landing.
    pub(crate) fn is_landing(&self) -> bool {
        self.landing.as_ref().is_some_and(|l| !l.steers.is_empty())
    }

    /// Whether `message_id` is a user message known not to be a landing steer's echo.
    pub(crate) fn owns_message(&self, message_id: &str) -> bool {
        self.landing.as_ref().is_some_and(|l| l.own_messages.iter().any(|m| m == message_id))
    }
}

/// A session's steers that `_session/steering` accepted as pending input
/// of the running turn, not yet shown to have reached it.
#[derive(Debug, Default, Clone)]
pub(crate) struct Landing {
    /// The steers, oldest first.
    pub steers: VecDeque<OpId>,
    /// v2: ids of user messages known not to be a landing steer's echo (the
    /// app's and the engine's prompts, echoes already matched), newest last,
    /// at most [`MAX_EARLY_ECHOES`].
    pub own_messages: VecDeque<String>,
}

/// What a composer shows for a session (compared to decide when to notify).
///
/// ```
/// use renderer_steering::core::acp::ComposerState;
/// use renderer_steering::core::acp::InputMode;
/// let s = ComposerState { mode: InputMode::Idle, hint: InputMode::Idle.hint(), queued: vec![], pending_injects: vec![] };
/// assert_eq!(serde_json::to_value(&s).unwrap()["mode"], "idle");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ComposerState {
    /// The mode.
    pub mode: InputMode,
    /// Its hint text.
    pub hint: &'static str,
    /// Queued messages, oldest first (for chips).
    pub queued: Vec<Json>,
    /// Ids of injects accepted but not yet delivered (revocable).
    pub pending_injects: Vec<String>,
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_folded_handoff_is_named_folded() {
        use crate::core::acp::session::Handoff;
        assert_eq!(Handoff::Folded.as_str(), "folded");
    }

    #[test]
    fn a_waiting_handoff_is_also_named_folded() {
        use crate::core::acp::session::Handoff;
        assert_eq!(Handoff::Waiting.as_str(), "folded");
    }

    #[test]
    fn a_new_session_has_no_running_turn() {
        use crate::core::acp::session::Session;
        let s = Session::default();
        assert!(!s.turn_running());
    }

    #[test]
    fn an_unowned_turn_counts_as_running() {
        use crate::core::acp::session::Session;
        let s = Session { unowned_turn: true, ..Session::default() };
        assert!(s.turn_running());
    }

    #[test]
    fn a_new_session_is_quiet() {
        use crate::core::acp::session::Session;
        assert!(Session::default().is_quiet());
    }
}
