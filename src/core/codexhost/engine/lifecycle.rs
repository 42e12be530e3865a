//! The engine's lifecycle: a replaced connection, dispose, and what it holds.

use super::{CodexhostEngine, Stage};
use crate::core::error::Failure;

impl CodexhostEngine {
    /// The host connection was replaced: forget which methods it lacked.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// CodexhostEngine::new(Default::default()).connection_replaced();
    /// ```
    pub fn connection_replaced(&mut self) {
        self.knowledge.connection_replaced();
    }

    /// Rejects every submission in progress with `disposed` (draft handed
    /// back, presentation retracted) and sends nothing more.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.decide("t", "x", 0).unwrap();
    /// e.dispose();
    /// assert!(e.decide("t", "x", 0).is_err());
    /// ```
    pub fn dispose(&mut self) {
        self.disposed = true;
        self.requests.clear();
        for (op_id, op) in std::mem::take(&mut self.ops) {
            match op.stage {
                Stage::Sending { method, .. } => {
                    self.unknown_outcome(op_id, &op, Failure::outcome_unknown(method, "disposed before the answer"));
                }
                _ => self.fail(op_id, &op, Failure::disposed()),
            }
        }
    }

    /// Submissions, lanes and requests still held (0 when all have settled).
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// assert_eq!(CodexhostEngine::new(Default::default()).live_state(), 0);
    /// ```
    pub fn live_state(&self) -> usize {
        self.ops.len() + self.lanes.len() + self.requests.len()
    }

    /// Thread owners remembered (bounded by [`super::decision::OWNER_CACHE`]).
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// assert_eq!(CodexhostEngine::new(Default::default()).remembered_owners(), 0);
    /// ```
    pub fn remembered_owners(&self) -> usize {
        self.knowledge.remembered()
    }
}
