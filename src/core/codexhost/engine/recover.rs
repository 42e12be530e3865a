//! After a reload: what became of the messages the journal kept, read from
//! the threads themselves (`thread/read` with turns, as a retry checks).

use super::CodexhostEngine;
use crate::core::action::OpId;
use crate::core::codexhost::recent::{verify, Remembered, Resubmission, Verified};
use crate::core::codexhost::wire::ThreadParams;
use crate::core::codexhost::{CodexhostOutcome, Delivery, SteerOutcome};
use crate::core::content::steer_text;
use crate::core::journal::{JournalRecord, RecoveredEntry, RecoveredOutcome};
use crate::core::requests::HostAnswer;
use crate::core::sorted_map::SortedMap;

/// One `recover` call in progress.
#[derive(Debug)]
pub(super) struct Recovery {
    entries: Vec<Recovering>,
    /// The thread reads not answered yet: each read's own op, its thread.
    reads: SortedMap<OpId, String>,
}

/// One record being recovered.
#[derive(Debug)]
struct Recovering {
    storage_key: String,
    record: JournalRecord,
    outcome: RecoveredOutcome,
    /// Its thread became followed by this window while it was read: another
    /// window recovers it.
    followed: bool,
}

impl CodexhostEngine {
    /// Finds out what became of each journal record (from
    /// [`load`](crate::core::journal::load)) of this dialect: one bounded
    /// `thread/read { threadId, includeTurns: true }` per thread, then
    /// [`CodexhostOutcome::Recovered`] with one entry per record,
    /// `delivered` (the thread shows it), `notDelivered` (the turn it was
    /// meant for and every later one ended without it) or `unknown`. A
    /// settled record is removed from the journal; an unknown one stays.
    /// Records of threads this window follows are left to the window that
    /// owns them (not read, not removed, not reported). Nothing is ever sent
    /// again: what to do with the draft is the app's choice, and a same-id
    /// steer later follows what recovery learned.
    ///
    /// ```
    /// use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome};
    /// use renderer_steering::core::journal::{storage_key, JournalDialect, JournalRecord, RecoveredOutcome};
    /// use renderer_steering::core::{Action, HostAnswer, Json};
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.enable_journal("rs:".into(), 0.0);
    /// let record = JournalRecord { v: 1, dialect: JournalDialect::Codexhost, key: "t".into(), message_id: "m1".into(),
    ///     expected_turn_id: Some("u1".into()), method: "turn/steer".into(),
    ///     draft: Json::parse(r#"[{"type":"text","text":"use pnpm"}]"#.into()).unwrap(), presented: Some("official".into()), at: 0.0 };
    /// let op = e.recover(vec![(storage_key("rs:", JournalDialect::Codexhost, "t", "m1"), record)], 0);
    /// let read = match e.poll_action() { Some(Action::Send(r)) if r.method == "thread/read" => r.id, other => panic!("{other:?}") };
    /// let thread = serde_json::json!({ "thread": { "id": "t", "turns": [{ "id": "u1", "status": "completed", "items": [] }] } });
    /// e.handle_answer(read, HostAnswer::Result(thread.into()), 1);
    /// assert!(matches!(e.poll_action(), Some(Action::Journal { record: None, .. })), "settled: removed");
    /// match e.poll_action() {
    ///     Some(Action::Complete { op: done, result: Ok(CodexhostOutcome::Recovered(entries)) }) if done == op => {
    ///         assert_eq!(entries[0].outcome, RecoveredOutcome::NotDelivered);
    ///     }
    ///     other => panic!("{other:?}"),
    /// }
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn recover(&mut self, records: Vec<(String, JournalRecord)>, now: u64) -> OpId {
        let op = self.new_op_id();
        let records: Vec<(String, JournalRecord)> = records
            .into_iter()
            .filter(|(_, r)| !self.dialect.followers.contains(&r.key) && !self.steering(&r.key, &r.message_id))
            .collect();
        let entries = self.journal_adopt(records).into_iter().map(|(storage_key, record)| Recovering {
            storage_key,
            record,
            outcome: RecoveredOutcome::Unknown,
            followed: false,
        });
        let mut recovery = Recovery { entries: entries.collect(), reads: SortedMap::new() };
        if !self.is_disposed() {
            for at in 0..recovery.entries.len() {
                let thread_id = &recovery.entries[at].record.key;
                if recovery.reads.values().any(|read| read == thread_id) {
                    continue;
                }
                let read = self.new_op_id();
                let params = ThreadParams::read(thread_id, true);
                recovery.reads.insert(read, thread_id.clone());
                self.dialect.reading.insert(read, op);
                self.request_plain(read, "thread/read", params, Some(self.timeouts.decide_ms), now);
            }
        }
        if recovery.reads.is_empty() {
            self.recovered(op, recovery);
        } else {
            self.dialect.recoveries.insert(op, recovery);
        }
        op
    }

    /// Whether a submission of this engine carries `message_id` on
    /// `thread_id` now: its own end settles the record.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn steering(&self, thread_id: &str, message_id: &str) -> bool {
        self.ops
            .values()
            .any(|o| o.thread_id == thread_id && o.steer.as_ref().and_then(|r| r.client_user_message_id.as_deref()) == Some(message_id))
    }

    /// The answer to one recovery read (`read` is its own op): every record
    /// of its thread gets its outcome.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn on_recovery_read(&mut self, read: OpId, answer: &HostAnswer) {
        let Some(op) = self.dialect.reading.remove(&read) else { return };
        let Some(mut recovery) = self.dialect.recoveries.remove(&op) else { return };
        let Some(thread_id) = recovery.reads.remove(&read) else { return };
        // The window that owns the thread's stream recovers it, never two.
        let followed = self.dialect.followers.contains(&thread_id);
        for entry in recovery.entries.iter_mut().filter(|e| e.record.key == thread_id) {
            if followed {
                entry.followed = true;
                continue;
            }
            let text = steer_text(&entry.record.draft).ok();
            let verified = match (answer, &text) {
                (HostAnswer::Result(value), Some(text)) => {
                    verify(value, &thread_id, &entry.record.message_id, text, entry.record.expected_turn_id.as_deref())
                }
                _ => None,
            };
            entry.outcome = match verified {
                Some(Verified::Applied(_)) => RecoveredOutcome::Delivered,
                Some(Verified::NotApplied) => RecoveredOutcome::NotDelivered,
                Some(Verified::StillRunning) | None => RecoveredOutcome::Unknown,
            };
            if let Some(text) = text {
                let turn_id = match verified {
                    Some(Verified::Applied(turn_id)) => Some(turn_id),
                    _ => None,
                };
                self.learn(&entry.record, &text, entry.outcome, turn_id);
            }
            if entry.outcome.is_settled() {
                self.journal_remove(entry.storage_key.clone());
            }
        }
        if recovery.reads.is_empty() {
            self.recovered(op, recovery);
        } else {
            self.dialect.recoveries.insert(op, recovery);
        }
    }

    /// What a recovered outcome teaches the message-id memory, so a later
    /// steer of the same id follows the rules a retry follows: delivered
    /// resolves with nothing sent; not delivered is sent as new; unknown
    /// reads the thread before anything is sent.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn learn(&mut self, record: &JournalRecord, text: &str, outcome: RecoveredOutcome, turn_id: Option<String>) {
        let (thread_id, message_id) = (record.key.as_str(), record.message_id.as_str());
        let presented = record.presented.as_deref().and_then(Delivery::from_name).unwrap_or(Delivery::Official);
        let recent = &mut self.dialect.recent;
        match outcome {
            RecoveredOutcome::Delivered => {
                let turn_id = turn_id.unwrap_or_default();
                let outcome = SteerOutcome { turn_id, delivery: presented, presented, trace: Default::default() };
                recent.remember(thread_id, message_id, text, Remembered::Delivered(outcome));
            }
            RecoveredOutcome::NotDelivered => {
                if recent.is_unknown(thread_id, message_id) {
                    recent.forget(thread_id, message_id);
                }
            }
            RecoveredOutcome::Unknown => {
                let turn = record.expected_turn_id.as_deref();
                let unseen = recent.resubmission(thread_id, Some(message_id), text, turn) == Resubmission::New;
                if unseen && !recent.is_unknown(thread_id, message_id) {
                    let turn_id = record.expected_turn_id.clone();
                    recent.remember(thread_id, message_id, text, Remembered::Unknown { deduplicated: false, turn_id, presented });
                }
            }
        }
    }

    /// Ends recovery `op` with every record's outcome (those not read are `unknown`).
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn recovered(&mut self, op: OpId, recovery: Recovery) {
        let entries = recovery
            .entries
            .into_iter()
            .filter(|e| !e.followed)
            .map(|e| RecoveredEntry {
                thread_id: e.record.key,
                client_user_message_id: e.record.message_id,
                draft: e.record.draft,
                outcome: e.outcome,
            })
            .collect();
        self.finish(op, "", None, Ok(CodexhostOutcome::Recovered(entries)));
    }

    /// Dispose: every recovery ends with what it learned so far.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn end_recoveries(&mut self) {
        self.dialect.reading.clear();
        for (op, recovery) in std::mem::take(&mut self.dialect.recoveries) {
            self.recovered(op, recovery);
        }
    }
}
