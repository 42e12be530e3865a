//! The desktop hook's journal: the engines' own (`engine/journal.rs`), in
//! the same records and keys, so `recover()` of the hook's decider reads
//! them after a restart. A record of each message the desktop's own
//! requests carry is written just before the request leaves and removed
//! once the steer's outcome is settled (kept while it is unknown).

use super::types::SteerId;
use super::DesktopHook;
use crate::core::codexhost::Delivery;
use crate::core::content::text_draft;
use crate::core::engine::Carried;

/// A message leaving in a desktop request, for its record.
#[derive(Debug)]
pub(super) struct Leaving<'a> {
    pub steer: SteerId,
    pub now: u64,
    pub method: &'a str,
    pub message_id: Option<&'a str>,
    pub presented: Delivery,
    pub expected_turn_id: Option<String>,
}

impl DesktopHook {
    /// Writes the record of the message `leaving` carries (a message without
    /// an id cannot be named after a restart: none is written).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// let mut hook = DesktopHook::new(1_000);
    /// hook.enable_journal("rs:".into(), 0.0);
    /// assert!(hook.poll_action().is_none(), "nothing is written until a message leaves");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn journal_leaving(&mut self, leaving: Leaving<'_>) {
        let Some(message_id) = leaving.message_id.filter(|_| self.journal_on()) else { return };
        let Some(steer) = self.ops.get(&leaving.steer) else { return };
        let (thread_id, draft) = (steer.thread_id.clone(), text_draft(&steer.text));
        let carried = Carried {
            key: &thread_id,
            message_id,
            expected_turn_id: leaving.expected_turn_id.as_deref(),
            draft: &draft,
            presented: Some(leaving.presented.as_str()),
        };
        self.journal_write(leaving.steer, leaving.method, carried, leaving.now);
    }
}
