//! Closed sessions: remembered as closed (refusing input) up to a bound,
//! and forgotten whole past it.

use super::AcpEngine;

/// How many closed sessions an engine remembers as closed (refusing input
/// and reported `unavailable`). The spec asks only that a closed session
/// take no more input; an app that closes sessions for a long time keeps
/// this many markers, and past it the oldest is forgotten with everything
/// kept for it (its id then reads as a session never seen). 1,024 is far
/// more sessions than one window shows, so a session the user can still
/// see is never forgotten, and what is kept for them stays a few hundred
/// kilobytes however long the app runs.
///
/// ```
/// assert_eq!(renderer_steering::core::acp::MAX_CLOSED_SESSIONS, 1024);
/// ```
pub const MAX_CLOSED_SESSIONS: usize = 1024;

impl AcpEngine {
    /// Marks `session_id` closed (its state already dropped), the newest of
    /// the closed sessions remembered; past [`MAX_CLOSED_SESSIONS`] the
    /// oldest is forgotten, its marker and its last reported composer state
    /// both (a state nobody will be told about again).
    pub(super) fn remember_closed(&mut self, session_id: &str) {
        self.session(session_id).closed = true;
        let order = &mut self.dialect.closed_order;
        order.push_back(session_id.into());
        if order.len() <= MAX_CLOSED_SESSIONS {
            return;
        }
        let Some(oldest) = order.pop_front() else { return };
        // Closed again since: its newer place keeps it. Opened again since
        // (replaced, then used): it is a live session now.
        let closed_again = order.contains(&oldest);
        if !closed_again && self.dialect.sessions.get(&oldest).is_some_and(|s| s.closed) {
            self.dialect.sessions.remove(&oldest);
            self.dialect.shown.remove(&oldest);
        }
    }

    /// Per-session entries the engine keeps besides [`Self::live_state`]:
    /// closed markers, composer states last reported, and sessions still
    /// owed a report when input closes or opens. Bounded whatever the number
    /// of sessions an app opens and closes over time.
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&serde_json::json!({}).into(), 0);
    /// e.prompt_sent("s");
    /// e.session_closed("s");
    /// assert_eq!(e.live_state(), 0);
    /// assert_eq!(e.retained(), 3, "its marker, its place among the closed, its `unavailable` report");
    /// ```
    pub fn retained(&self) -> usize {
        let d = &self.dialect;
        d.sessions.len() + d.closed_order.len() + d.shown.len() + d.told_closed.len() + d.quiet_told.len()
    }
}
