//! The pure loader: from a storage's entries to the records to recover and
//! the keys to remove.

use super::fault::RecordFault;
use super::key::{is_journal_key, storage_key};
use super::record::JournalRecord;
use super::{JOURNAL_VERSION, MAX_AGE_MS, MAX_RECORDS, MAX_RECORD_BYTES};
use crate::core::sorted_map::SortedSet;

/// What [`load`] found: the records to hand to `recover`, oldest first, and
/// the keys to remove from the storage.
///
/// ```
/// use renderer_steering::core::journal::{load, Loaded};
/// let loaded = load("rs:", vec![(r#"rs:["acp","s","m"]"#.into(), "garbage".into())], 0.0);
/// assert_eq!(loaded, Loaded { records: vec![], drop: vec![r#"rs:["acp","s","m"]"#.into()] });
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Loaded {
    /// Each record with its storage key, oldest first.
    pub records: Vec<(String, JournalRecord)>,
    /// Storage keys to remove: garbage, other versions, over-size,
    /// misfiled, expired, and the oldest past [`MAX_RECORDS`].
    pub drop: Vec<String>,
}

impl JournalRecord {
    /// Reads the entry `text` stored at `storage_key` under `prefix` at
    /// wall-clock `wall_now_ms`, or says why it is not a record to keep.
    ///
    /// ```
    /// use renderer_steering::core::journal::{JournalRecord, RecordFault};
    /// assert_eq!(JournalRecord::read_entry("rs:", "theme", "dark", 0.0), Err(RecordFault::Foreign));
    /// assert_eq!(JournalRecord::read_entry("rs:", r#"rs:["acp","s","m"]"#, "{}", 0.0), Err(RecordFault::Unreadable));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn read_entry(prefix: &str, storage_key: &str, text: &str, wall_now_ms: f64) -> Result<JournalRecord, RecordFault> {
        if !is_journal_key(prefix, storage_key) {
            return Err(RecordFault::Foreign);
        }
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordFault::TooLarge(text.len()));
        }
        let record = JournalRecord::from_text(text).map_err(|_| RecordFault::Unreadable)?;
        if record.v != JOURNAL_VERSION {
            return Err(RecordFault::OtherVersion(record.v));
        }
        if self::storage_key(prefix, record.dialect, &record.key, &record.message_id) != storage_key {
            return Err(RecordFault::Misfiled);
        }
        if (wall_now_ms - record.at).abs() > MAX_AGE_MS as f64 {
            return Err(RecordFault::Expired);
        }
        Ok(record)
    }
}

/// Sorts a storage's `entries` (key, text) under `prefix` at wall-clock
/// `wall_now_ms`: journal records to keep, and keys to remove. Entries that
/// are not journal keys under the prefix are in neither list. Past
/// [`MAX_RECORDS`] the oldest records are removed too. A key listed twice
/// is read once.
///
/// ```
/// use renderer_steering::core::journal::{load, storage_key, JournalDialect, MAX_AGE_MS};
/// # use renderer_steering::core::journal::JournalRecord;
/// # use renderer_steering::core::Json;
/// # let record = |at: f64| JournalRecord { v: 1, dialect: JournalDialect::Acp, key: "s".into(), message_id: "m".into(),
/// #     expected_turn_id: None, method: "session/prompt".into(), draft: Json::no_items(), presented: None, at };
/// let key = storage_key("rs:", JournalDialect::Acp, "s", "m");
/// let now = 10.0 * MAX_AGE_MS as f64;
/// let fresh = load("rs:", vec![(key.clone(), record(now - 1.0).to_text()), ("theme".into(), "dark".into())], now);
/// assert_eq!((fresh.records.len(), fresh.drop.len()), (1, 0));
/// let stale = load("rs:", vec![(key.clone(), record(0.0).to_text())], now);
/// assert_eq!(stale.drop, [key]);
/// ```
#[cfg_attr(feature = "size-first", optimize(size))]
pub fn load(prefix: &str, entries: Vec<(String, String)>, wall_now_ms: f64) -> Loaded {
    let mut loaded = Loaded::default();
    let mut seen = SortedSet::new();
    for (key, text) in entries {
        if !seen.insert(key.clone()) {
            continue;
        }
        match JournalRecord::read_entry(prefix, &key, &text, wall_now_ms) {
            Ok(record) => loaded.records.push((key, record)),
            Err(fault) if fault.removes() => loaded.drop.push(key),
            Err(_) => {}
        }
    }
    // Oldest first; the key breaks ties, so every window sorts alike.
    loaded.records.sort_by(|(a_key, a), (b_key, b)| a.at.total_cmp(&b.at).then_with(|| a_key.cmp(b_key)));
    let over = loaded.records.len().saturating_sub(MAX_RECORDS);
    loaded.drop.extend(loaded.records.drain(..over).map(|(key, _)| key));
    loaded
}
