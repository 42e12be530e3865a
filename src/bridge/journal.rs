//! The journal behind the boundary, the same for both dialects: its options
//! (`journal`, `journalKey`, `onJournalError`), and `recover()` in two
//! steps (`recoverRead`: the records the app's storage holds, read and
//! checked, answering the threads they name so the driver can ask their
//! stream role; `recover`: the engine reads each thread and settles).

use serde::Serialize;

use super::input::Input;
use super::options::OptionsRead;
use super::output::{Output, Step};
use crate::core::error::OptionError;
use crate::core::journal::{load, JournalRecord};
use crate::core::options::{optional, Accepts};

/// The prefix of the records' keys when the app names none.
///
/// ```
/// assert_eq!(renderer_steering::bridge::DEFAULT_JOURNAL_KEY, "renderer-steering:");
/// ```
pub const DEFAULT_JOURNAL_KEY: &str = "renderer-steering:";

/// The methods of Web Storage the journal calls.
pub(super) const JOURNAL_METHODS: [&str; 4] = ["getItem", "setItem", "removeItem", "key"];

const STORAGE: &str = "{ getItem, setItem, removeItem, key, length } (Web Storage, such as localStorage)";

/// The journal's prefix when the options ask for one: `journal` an object
/// with the Web Storage methods, `journalKey` a string, `onJournalError` a
/// function; each optional.
///
/// ```
/// use renderer_steering::bridge::{journal_prefix, OptionsRead};
/// let read: OptionsRead = serde_json::from_str(r#"{"options":{"t":"object"}}"#).unwrap();
/// assert_eq!(journal_prefix(&read).unwrap(), None);
/// ```
#[cfg_attr(feature = "size-first", optimize(size))]
pub fn journal_prefix(read: &OptionsRead) -> Result<Option<String>, OptionError> {
    let given = optional("options.journal", Accepts::Object(STORAGE), &read.field("journal").given())?;
    optional("options.journalKey", Accepts::Text, &read.field("journalKey").given())?;
    read.optional_function("onJournalError", "(error) => void")?;
    if !given {
        return Ok(None);
    }
    for method in JOURNAL_METHODS {
        let described = read.journal_method(method);
        if !described.is_function() {
            let option = format!("options.journal.{method}");
            return Err(OptionError::refused(option, Accepts::Function("of Web Storage"), described.given()));
        }
    }
    Ok(Some(read.field("journalKey").text().unwrap_or(DEFAULT_JOURNAL_KEY).to_string()))
}

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
