//! The journal behind the boundary, the same for both dialects: `recover()`
//! in two steps (`recoverRead`: the records the app's storage holds, read and
//! checked, answering the threads they name so the driver can ask their
//! stream role; `recover`: the engine reads each thread and settles).

use serde::Serialize;

use super::input::Input;
use super::output::{Output, Step};
use crate::core::journal::{load, JournalRecord};

/// The records `recoverRead` found, kept for `recover`.
#[derive(Debug, Default)]
pub(super) struct Pending {
    records: Vec<(String, JournalRecord)>,
}

#[derive(Serialize)]
struct Threads {
    threads: Vec<String>,
}

impl Pending {
    /// `recoverRead`: the payload is `[[key, text], ...]`, every key under
    /// `prefix` the storage holds. Keeps the good records; removes the rest
    /// (garbage, other versions, too old, past the count bound); answers the
    /// threads or sessions they name.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn read(&mut self, prefix: &str, input: &Input, payload: &str) -> Output {
        let entries: Vec<(String, String)> = serde_json::from_str(payload).unwrap_or_default();
        let loaded = load(prefix, entries, input.wall());
        let mut threads: Vec<String> = loaded.records.iter().map(|(_, record)| record.key.clone()).collect();
        threads.sort_unstable();
        threads.dedup();
        self.records = loaded.records;
        let mut out = Output::value(&Threads { threads });
        out.steps = loaded.drop.into_iter().map(|key| Step::Journal { key, record: None }).collect();
        out
    }

    /// The records `recover` hands the engine.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn take(&mut self) -> Vec<(String, JournalRecord)> {
        std::mem::take(&mut self.records)
    }
}
