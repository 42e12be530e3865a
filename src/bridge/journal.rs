//! The journal behind the boundary, the same for both dialects: `recover()`
//! in three steps (`recoverList`: the prefix to list the app's storage
//! under, while the journal is on; `recoverRead`: the records listed, read
//! and checked, answering the threads they name so the driver can ask their
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

/// `recoverList`'s answer: the prefix to list, absent while the journal is
/// off (none was given, or the storage failed and is not touched again).
#[derive(Serialize)]
struct Listing<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    prefix: Option<&'a str>,
}

/// `recoverList`: what the driver lists of the app's storage (`prefix`:
/// the journal's, while it is on).
pub(super) fn listing(prefix: Option<&str>) -> Output {
    Output::value(&Listing { prefix })
}

impl Pending {
    /// `recoverRead`: the payload is `[[key, text], ...]`, every key under
    /// `prefix` the storage holds. Keeps the good records; removes the rest
    /// (garbage, other versions, too old, past the count bound); answers the
    /// threads or sessions they name. While the journal is off (`prefix`
    /// `None`) nothing is read and nothing removed.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn read(&mut self, prefix: Option<&str>, input: &Input, payload: &str) -> Output {
        let Some(prefix) = prefix else {
            self.records.clear();
            return Output::value(&Threads { threads: Vec::new() });
        };
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
