//! The engine's lifecycle: a replaced connection, dispose, and what it remembers.

use super::{CodexhostEngine, Stage};
use crate::core::error::Failure;

impl CodexhostEngine {
    /// The host connection was replaced: forget which methods it lacked.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.connection_replaced();
    /// assert_eq!((e.remembered_owners(), e.live_state()), (0, 0));
    /// ```
    pub fn connection_replaced(&mut self) {
        self.dialect.knowledge.connection_replaced();
        // The new connection may not deduplicate: a retry of an unknown
        // outcome reads the thread first.
        self.dialect.recent.connection_replaced();
    }

    /// Dispose: a submission whose steer may have reached the host stays
    /// shown, unconfirmed; every other one fails with `disposed`.
    pub(super) fn dispose_ops(&mut self) {
        for (op_id, op) in self.take_ops() {
            let sent_by = match op.stage {
                Stage::Sending { method, .. } => self.written_by(op_id, Some(method)),
                _ => None,
            };
            match Failure::ended_before_answer(sent_by, Failure::disposed(), "disposed before the answer") {
                unknown @ Failure::OutcomeUnknown(_) => self.unknown_outcome(op_id, &op, unknown),
                // What was presented (a hook that disposed from `present`) is retracted.
                unsent => self.fail(op_id, &op, unsent, op.trace.presented),
            }
        }
    }

    /// Thread owners remembered (bounded by [`OWNER_CACHE`](crate::core::codexhost::OWNER_CACHE)).
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// assert_eq!(CodexhostEngine::new(Default::default()).remembered_owners(), 0);
    /// ```
    pub fn remembered_owners(&self) -> usize {
        self.dialect.knowledge.remembered()
    }
}
