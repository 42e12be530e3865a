//! What a dialect supplies to the shared [`Engine`]: the meaning of an
//! answer, what dispose does to its ops, and the extra state it holds.

use std::fmt::Debug;

use super::Engine;
use crate::core::journal::JournalDialect;
use crate::core::requests::{HostAnswer, Pending};

/// The per-dialect part of an [`Engine`]. Implemented by the codexhost and
/// ACP dialects only (the trait is not nameable outside the crate).
///
/// ```
/// // The two implementations, as the public engine types name them:
/// use renderer_steering::core::{acp::AcpEngine, codexhost::CodexhostEngine};
/// let _codexhost: CodexhostEngine = CodexhostEngine::new(Default::default());
/// let _acp: AcpEngine = AcpEngine::new(Default::default(), false);
/// ```
pub trait Dialect: Sized + Debug {
    /// What a successful submission ends with.
    type Outcome: Debug;
    /// What the engine keeps per submission while it runs.
    type Op: Debug;
    /// Which dialect its journal records name (and which records it recovers).
    const JOURNAL: JournalDialect;

    /// The answer to one of this dialect's requests (already settled; a
    /// passed deadline arrives as [`HostAnswer::Timeout`]).
    fn on_answer(engine: &mut Engine<Self>, pending: Pending, answer: HostAnswer, now: u64);

    /// Runs once after every `handle_answer` that settled a request and
    /// after every `handle_timeout` (ACP reports composer changes here).
    fn after_input(_engine: &mut Engine<Self>) {}

    /// Ends every op still held; the engine is already marked disposed.
    fn on_dispose(engine: &mut Engine<Self>);

    /// The earliest deadline the driver's timer is armed for (the pending
    /// requests' by default; a dialect with deadlines of its own adds them).
    fn next_deadline(engine: &Engine<Self>) -> Option<u64> {
        engine.requests.next_deadline()
    }

    /// Per-key state the dialect holds beyond ops, lanes and requests
    /// (counted by [`Engine::live_state`]).
    fn held(&self) -> usize;
}
