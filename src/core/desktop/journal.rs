//! The desktop hook's journal: a record of each message the desktop's own
//! requests carry, written just before the request leaves and removed once
//! the steer's outcome is settled (kept while it is unknown), in the same
//! records and keys as the engines write, so `recover()` of the hook's
//! decider reads them after a restart.

use super::types::SteerId;
use super::DesktopHook;
use crate::core::codexhost::Delivery;
use crate::core::content::text_draft;
use crate::core::journal::{storage_key, JournalDialect, JournalRecord, JOURNAL_VERSION, MAX_RECORDS, MAX_RECORD_BYTES};
use crate::core::Action;

/// Where the records go, and the records written: one per key, with the
/// steers whose request carried it (a same-id retry writes the same key).
#[derive(Debug)]
pub(super) struct Journal {
    prefix: String,
    wall_offset_ms: f64,
    written: Vec<Written>,
}

/// One record the hook wrote.
#[derive(Debug)]
struct Written {
    key: String,
    message_id: String,
    /// Steers out with it.
    steers: Vec<SteerId>,
    /// One of them ended with an unknown outcome: the record stays.
    unknown: bool,
}

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
    /// Keeps a journal under `prefix`; `wall_offset_ms` dates records in
    /// wall-clock time (`Date.now() - performance.now()`).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// let mut hook = DesktopHook::new(1_000);
    /// hook.keep_journal("rs:".into(), 0.0);
    /// assert!(hook.poll_action().is_none(), "nothing is written until a message leaves");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn keep_journal(&mut self, prefix: String, wall_offset_ms: f64) {
        self.dialect.journal = Some(Journal { prefix, wall_offset_ms, written: Vec::new() });
    }

    /// Drops the record of `message_id` this hook wrote (the app has dealt with it).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// let mut hook = DesktopHook::new(1_000);
    /// hook.forget_record("m-1");
    /// assert!(hook.poll_action().is_none());
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn forget_record(&mut self, message_id: &str) {
        let Some(journal) = &mut self.dialect.journal else { return };
        let (gone, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut journal.written).into_iter().partition(|w| w.message_id == message_id);
        journal.written = kept;
        for written in gone {
            self.actions.push_back(Action::Journal { key: written.key, record: None });
        }
    }

    /// Writes the record of the message `leaving` carries (a message without
    /// an id cannot be named after a restart: none is written).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn journal_leaving(&mut self, leaving: Leaving<'_>) {
        let (Some(journal), Some(message_id)) = (&mut self.dialect.journal, leaving.message_id) else { return };
        let Some(steer) = self.ops.get(&leaving.steer) else { return };
        let record = JournalRecord {
            v: JOURNAL_VERSION,
            dialect: JournalDialect::Codexhost,
            key: steer.thread_id.clone(),
            message_id: message_id.into(),
            expected_turn_id: leaving.expected_turn_id,
            method: leaving.method.into(),
            draft: text_draft(&steer.text),
            presented: Some(leaving.presented.as_str().into()),
            at: leaving.now as f64 + journal.wall_offset_ms,
        };
        let text = record.to_text();
        if text.len() > MAX_RECORD_BYTES {
            return;
        }
        let key = storage_key(&journal.prefix, JournalDialect::Codexhost, &steer.thread_id, message_id);
        match journal.written.iter_mut().find(|w| w.key == key) {
            // The desktop may send one steer's request more than once: one entry per steer.
            Some(written) if !written.steers.contains(&leaving.steer) => written.steers.push(leaving.steer),
            Some(_) => {}
            None => journal.written.push(Written {
                key: key.clone(),
                message_id: message_id.into(),
                steers: vec![leaving.steer],
                unknown: false,
            }),
        }
        self.actions.push_back(Action::Journal { key, record: Some(text) });
    }

    /// The steer's outcome is given: its record goes once no steer carrying
    /// it is out, unless one of them ended with an unknown outcome.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn journal_steer_settled(&mut self, steer: SteerId, unknown: bool) {
        let Some(journal) = &mut self.dialect.journal else { return };
        let mut gone = Vec::new();
        journal.written.retain_mut(|written| {
            let Some(at) = written.steers.iter().position(|s| *s == steer) else { return true };
            written.steers.remove(at);
            written.unknown |= unknown;
            if written.steers.is_empty() && !written.unknown {
                gone.push(std::mem::take(&mut written.key));
                return false;
            }
            true
        });
        // Kept for `forget`: the newest only (the storage keeps every record).
        let over = journal.written.len().saturating_sub(MAX_RECORDS);
        if over > 0 {
            let mut idle = 0;
            journal.written.retain(|w| {
                !(w.steers.is_empty() && idle < over && {
                    idle += 1;
                    true
                })
            });
        }
        for key in gone {
            self.actions.push_back(Action::Journal { key, record: None });
        }
    }
}
