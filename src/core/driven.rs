//! The interface every dialect engine offers its driver, so one driver (the
//! wasm shell's, or a test's) runs any dialect.

use super::action::Action;
use super::json_rpc::RequestId;
use super::requests::HostAnswer;

/// A sans-IO engine: feed answers and time in, drain actions out.
///
/// ```
/// use renderer_steering::core::codexhost::CodexhostEngine;
/// use renderer_steering::core::driven::Driven;
/// fn idle<E: Driven>(e: &mut E) -> bool { e.poll_action().is_none() }
/// assert!(idle(&mut CodexhostEngine::new(Default::default())));
/// ```
pub trait Driven {
    /// What a successful submission ends with.
    type Outcome;
    /// The next action.
    fn poll_action(&mut self) -> Option<Action<Self::Outcome>>;
    /// When to call [`Driven::handle_timeout`] next (ms).
    fn poll_timeout(&self) -> Option<u64>;
    /// The host's answer to request `id`.
    fn handle_answer(&mut self, id: RequestId, answer: HostAnswer, now: u64);
    /// Time has reached `now`.
    fn handle_timeout(&mut self, now: u64);
}
