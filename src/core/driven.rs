//! The interface every dialect engine offers its driver, so one driver (the
//! wasm shell's, or a test's) runs any dialect.

use super::action::Action;
use super::json_rpc::RequestId;
use super::requests::HostAnswer;

/// A sans-IO engine: feed answers and time in, drain actions out.
///
/// # Polling contract
///
/// After every input (a submission such as `steer`/`send`,
/// [`handle_answer`](Driven::handle_answer), or
/// [`handle_timeout`](Driven::handle_timeout)) the driver:
///
/// 1. drains [`poll_action`](Driven::poll_action) until it returns `None`,
///    performing each action in order (a `Send` may be answered later, in any
///    order, through `handle_answer`);
/// 2. reads [`poll_timeout`](Driven::poll_timeout) and arms one timer for
///    that instant (or none for `None`), replacing the previous one;
/// 3. calls `handle_timeout` with the current time once the timer fires,
///    then starts again at 1.
///
/// Time only ever comes in as the `now` argument (milliseconds, never going
/// backwards); the engine reads no clock.
///
/// ```
/// use renderer_steering::core::codexhost::CodexhostEngine;
/// use renderer_steering::core::Driven;
/// use renderer_steering::core::Action;
/// fn drain<E: Driven>(e: &mut E) -> usize { std::iter::from_fn(|| e.poll_action()).count() }
/// let mut e = CodexhostEngine::new(Default::default());
/// e.decide("t", "x", 0).unwrap();
/// assert_eq!(drain(&mut e), 1, "the probe to send");
/// let deadline = Driven::poll_timeout(&e).unwrap();
/// Driven::handle_timeout(&mut e, deadline);
/// assert!(matches!(Driven::poll_action(&mut e), Some(Action::Complete { result: Err(_), .. })));
/// assert_eq!(Driven::poll_timeout(&e), None);
/// ```
pub trait Driven {
    /// What a successful submission ends with.
    type Outcome;
    /// The next action; `None` once the queue is drained.
    #[must_use]
    fn poll_action(&mut self) -> Option<Action<Self::Outcome>>;
    /// When to call [`Driven::handle_timeout`] next (ms); read after draining.
    #[must_use]
    fn poll_timeout(&self) -> Option<u64>;
    /// The host's answer to request `id` (unknown or settled ids are ignored).
    fn handle_answer(&mut self, id: RequestId, answer: HostAnswer, now: u64);
    /// Time has reached `now`: every request due by then times out.
    fn handle_timeout(&mut self, now: u64);
}
