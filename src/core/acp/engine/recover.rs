//! After a reload: the messages the journal kept, handed back as unknown
//! (an ACP agent keeps no history to read).

use super::AcpEngine;
use crate::core::acp::outcome::AcpOutcome;
use crate::core::action::OpId;
use crate::core::journal::{AcpRecoveredEntry, JournalRecord, RecoveredOutcome};

impl AcpEngine {
    /// Reports each journal record (from [`load`](crate::core::journal::load))
    /// of this dialect as [`AcpOutcome::Recovered`], every one `unknown`: an
    /// ACP agent keeps no history to ask. Nothing is sent and nothing is
    /// removed; a record stays until [`Self::forget`] or the journal's
    /// bounds. A record of a message this engine is sending now is left to
    /// that send.
    ///
    /// ```
    /// use renderer_steering::core::acp::{AcpEngine, AcpOutcome};
    /// use renderer_steering::core::journal::{storage_key, JournalDialect, JournalRecord, RecoveredOutcome};
    /// use renderer_steering::core::{Action, Json};
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// let record = JournalRecord { v: 1, dialect: JournalDialect::Acp, key: "s".into(), message_id: "m".into(),
    ///     expected_turn_id: None, method: "session/prompt".into(), draft: Json::no_items(), presented: None, at: 0.0 };
    /// let op = e.recover(vec![(storage_key("rs:", JournalDialect::Acp, "s", "m"), record)], 0);
    /// match e.poll_action() {
    ///     Some(Action::Complete { op: done, result: Ok(AcpOutcome::Recovered(entries)) }) if done == op => {
    ///         assert_eq!((entries[0].session_id.as_str(), entries[0].outcome), ("s", RecoveredOutcome::Unknown));
    ///     }
    ///     other => panic!("{other:?}"),
    /// }
    /// assert_eq!(e.poll_action(), None, "nothing sent, nothing removed");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn recover(&mut self, records: Vec<(String, JournalRecord)>, _now: u64) -> OpId {
        let op = self.new_op_id();
        let entries = self
            .journal_adopt(records)
            .into_iter()
            .map(|(_, record)| AcpRecoveredEntry {
                session_id: record.key,
                message_id: record.message_id,
                draft: record.draft,
                outcome: RecoveredOutcome::Unknown,
            })
            .collect();
        self.finish(op, "", None, Ok(AcpOutcome::Recovered(entries)));
        op
    }
}
