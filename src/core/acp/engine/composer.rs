//! The composer's view of a session, and change notifications.

use super::AcpEngine;
use crate::core::acp::capabilities::SteerPath;
use crate::core::acp::session::{ComposerState, InputMode, Session};
use crate::core::action::Action;

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
        } else if busy || self.path() == SteerPath::Queue {
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
                self.dialect.shown.remove(&session_id);
            }
        }
    }
}
