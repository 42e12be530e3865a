//! The driver's four calls, implemented once for every dialect.

use super::{Dialect, Engine};
use crate::core::action::Action;
use crate::core::json_rpc::RequestId;
use crate::core::Driven;
use crate::core::HostAnswer;

impl<D: Dialect> Engine<D> {
    /// The next action for the driver (see [`Driven`] for the call order).
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// # use renderer_steering::core::Action;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.decide("t", "x", 0).unwrap();
    /// assert!(matches!(e.poll_action(), Some(Action::Send(_))));
    /// assert!(e.poll_action().is_none());
    /// ```
    #[must_use]
    pub fn poll_action(&mut self) -> Option<Action<D::Outcome>> {
        loop {
            let action = self.actions.pop_front()?;
            // A request whose op ended before the driver took it (a hook or
            // listener run meanwhile disposed the engine or dropped the
            // session) is never written.
            if let Action::Send(request) = &action {
                if self.op_of(request.id).is_none() {
                    continue;
                }
            }
            return Some(action);
        }
    }

    /// When the driver must call [`Self::handle_timeout`] next (ms).
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// assert_eq!(e.poll_timeout(), None);
    /// e.decide("t", "x", 5).unwrap();
    /// assert_eq!(e.poll_timeout(), Some(10_005));
    /// ```
    #[must_use]
    pub fn poll_timeout(&self) -> Option<u64> {
        D::next_deadline(self)
    }

    /// Feeds the host's answer to request `id`. Unknown or settled ids
    /// (duplicates, answers after a timeout or dispose) are ignored.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// # use renderer_steering::core::HostAnswer;
    /// # use renderer_steering::core::RequestId;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.handle_answer(RequestId(42), HostAnswer::Timeout, 0);
    /// assert!(e.poll_action().is_none());
    /// ```
    pub fn handle_answer(&mut self, id: RequestId, answer: HostAnswer, now: u64) {
        if let Some(pending) = self.requests.settle(id) {
            D::on_answer(self, pending, answer, now);
            D::after_input(self);
        }
    }

    /// Times out every request whose deadline is at or before `now`.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// # use renderer_steering::core::Action;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.decide("t", "x", 0).unwrap();
    /// assert!(matches!(e.poll_action(), Some(Action::Send(_))));
    /// e.handle_timeout(9_999);
    /// assert!(e.poll_action().is_none());
    /// e.handle_timeout(10_000);
    /// assert!(matches!(e.poll_action(), Some(Action::Complete { result: Err(_), .. })));
    /// ```
    pub fn handle_timeout(&mut self, now: u64) {
        for (_, pending) in self.requests.expire(now) {
            D::on_answer(self, pending, HostAnswer::Timeout, now);
        }
        D::after_input(self);
    }
}

impl<D: Dialect> Driven for Engine<D> {
    type Outcome = D::Outcome;
    fn poll_action(&mut self) -> Option<Action<D::Outcome>> {
        Engine::poll_action(self)
    }
    fn poll_timeout(&self) -> Option<u64> {
        Engine::poll_timeout(self)
    }
    fn handle_answer(&mut self, id: RequestId, answer: HostAnswer, now: u64) {
        Engine::handle_answer(self, id, answer, now)
    }
    fn handle_timeout(&mut self, now: u64) {
        Engine::handle_timeout(self, now)
    }
}
