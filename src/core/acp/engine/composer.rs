//! The composer's view of a session, and change notifications.

use super::{AcpEngine, MAX_QUIET_TOLD};
use crate::core::acp::capabilities::SteerPath;
use crate::core::acp::session::{ComposerState, InputMode, Session};
use crate::core::action::Action;
use crate::core::sorted_map::SortedSet;

impl AcpEngine {
    /// The composer state for a session.
    ///
    /// ```
    /// # use renderer_steering::core::acp::{AcpEngine, InputMode};
    /// let e = AcpEngine::new(Default::default(), false);
    /// assert_eq!(e.composer("s").hint, InputMode::Unavailable.hint());
    /// ```
    pub fn composer(&self, session_id: &str) -> ComposerState {
        let session = self.dialect.sessions.get(session_id);
        let queued_ops = self.lanes.queued_ops(session_id);
        let busy = self.lanes.in_flight(session_id).is_some() || !queued_ops.is_empty();
        let running = session.is_some_and(Session::turn_running);
        let mode = if self.dialect.caps.is_none() && !self.dialect.initializing || self.is_disposed() || session.is_some_and(|s| s.closed) {
            InputMode::Unavailable
        } else if self.dialect.caps.is_none() {
            InputMode::Queue // sends wait for `initialize`
        } else if !running {
            if busy {
                InputMode::Queue
            } else {
                InputMode::Idle
            }
        } else if busy || self.waits_while_running(session) {
            InputMode::Queue
        } else {
            InputMode::Direct
        };
        ComposerState {
            mode,
            hint: mode.hint(),
            queued: queued_ops.iter().filter_map(|op| self.ops.get(op).map(|o| o.content.clone())).collect(),
            pending_injects: session.map(|s| s.pending_injects.ids()).unwrap_or_default(),
        }
    }

    /// Emits `Changed` for sessions whose composer state changed; drops quiet sessions.
    pub(super) fn flush_changes(&mut self) {
        for session_id in std::mem::take(&mut self.dialect.touched) {
            let state = self.composer(&session_id);
            if self.dialect.shown.get(&session_id) != Some(&state) {
                self.dialect.shown.insert(session_id.clone(), state.clone());
                self.push(Action::Changed { key: session_id.clone(), state });
            }
            let quiet = self.dialect.sessions.get(&session_id).is_none_or(Session::is_quiet)
                && self.lanes.in_flight(&session_id).is_none()
                && self.lanes.queued_ops(&session_id).is_empty();
            if quiet {
                self.dialect.sessions.remove(&session_id);
                let told = self.dialect.shown.remove(&session_id);
                if told.is_some_and(|t| t.mode != InputMode::Unavailable) && !self.dialect.quiet_told.contains(&session_id) {
                    self.dialect.quiet_told.push_back(session_id);
                    if self.dialect.quiet_told.len() > MAX_QUIET_TOLD {
                        self.dialect.quiet_told.pop_front();
                    }
                }
            }
        }
    }

    /// While a turn runs, whether a new message waits (for the turn's end
    /// on the queue path; for the open handoff's fold-or-defer to settle on
    /// the handoff path: one handoff per turn at a time) instead of going out.
    /// The one rule `send`, the queue's pump and the composer all follow.
    pub(super) fn waits_while_running(&self, session: Option<&Session>) -> bool {
        match self.path() {
            SteerPath::Queue => true,
            SteerPath::PromptHandoff => session.is_some_and(|s| s.handoff.is_some()),
            _ => false,
        }
    }

    /// A path answered `-32601`: it is gone for the connection, so every
    /// composer shown may change (`direct` -> `queue`).
    pub(super) fn path_refused(&mut self, path: SteerPath) {
        self.dialect.refused.push(path);
        self.dialect.touched.extend(self.dialect.shown.keys().cloned());
    }

    /// Every session whose composer was told an open state (shown now, or
    /// forgotten as quiet since), marked to be told again; input is closing.
    pub(super) fn touch_every_told(&mut self) -> SortedSet<String> {
        let mut told = SortedSet::new();
        told.extend(self.dialect.shown.keys().cloned());
        told.extend(self.dialect.quiet_told.drain(..));
        self.dialect.touched.extend(told.iter().cloned());
        told
    }
}
