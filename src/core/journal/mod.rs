//! The journal: what an engine keeps of a message whose request is about to
//! be written, so a renderer that reloads with the outcome unknown can still
//! find out what became of it (and hand the user's words back).
//!
//! The core never touches a storage: an engine with the journal enabled
//! queues [`Action::Journal`](crate::core::Action::Journal) (write a record
//! at a key, or remove a key) and the driver carries it out on its storage
//! (`localStorage` or anything with the same methods). After a reload the
//! driver reads the entries under the prefix, sorts them with [`load`], and
//! hands the records to the engine's `recover`.
//!
//! - `record.rs`: one message's record ([`JournalRecord`]), as stored;
//! - `key.rs`: the storage key of a record ([`storage_key`]);
//! - `fault.rs`: why a stored entry is not a record to keep ([`RecordFault`]);
//! - `load.rs`: the pure loader ([`load`]): what to keep, what to remove;
//! - `recovered.rs`: what recovery reports per record.
//!
//! ```
//! use renderer_steering::core::journal::{load, storage_key, JournalDialect, JournalRecord, JOURNAL_VERSION};
//! use renderer_steering::core::Json;
//! let record = JournalRecord {
//!     v: JOURNAL_VERSION,
//!     dialect: JournalDialect::Codexhost,
//!     key: "thread-1".into(),
//!     message_id: "m1".into(),
//!     expected_turn_id: Some("turn-1".into()),
//!     method: "turn/steer".into(),
//!     draft: Json::parse(r#"[{"type":"text","text":"use pnpm"}]"#.into()).unwrap(),
//!     presented: Some("official".into()),
//!     at: 1_000.0,
//! };
//! let key = storage_key("rs:", JournalDialect::Codexhost, "thread-1", "m1");
//! let loaded = load("rs:", vec![(key.clone(), record.to_text())], 2_000.0);
//! assert_eq!(loaded.records, vec![(key, record)]);
//! assert!(loaded.drop.is_empty());
//! ```

mod fault;
mod key;
mod load;
mod record;
mod recovered;

pub use fault::RecordFault;
pub use key::storage_key;
pub use load::{load, Loaded};
pub use record::{JournalDialect, JournalRecord};
pub use recovered::{AcpRecoveredEntry, RecoveredEntry, RecoveredOutcome};

use super::content::MAX_DRAFT_BYTES;
use super::options::MAX_ID_UNITS;

/// The record format's version: a record of any other version is removed
/// when loaded (its fields may mean something else).
///
/// ```
/// assert_eq!(renderer_steering::core::journal::JOURNAL_VERSION, 1);
/// ```
pub const JOURNAL_VERSION: u32 = 1;

/// How many records are kept under one prefix: past it, the oldest go when
/// loaded, and an engine removes the oldest it knows of before keeping more.
/// A record stays only while its message's outcome is unknown, which is
/// rare; 64 is far more than a user leaves behind between two reloads.
///
/// ```
/// assert_eq!(renderer_steering::core::journal::MAX_RECORDS, 64);
/// ```
pub const MAX_RECORDS: usize = 64;

/// The largest record, as JSON text (UTF-8 bytes): the largest draft
/// ([`MAX_DRAFT_BYTES`]) plus three ids at their longest
/// ([`MAX_ID_UNITS`], every unit escaped as six bytes) plus 8 KiB for the
/// other fields. An engine writes no larger record, and a larger entry is
/// removed when loaded.
///
/// ```
/// use renderer_steering::core::journal::MAX_RECORD_BYTES;
/// assert!(MAX_RECORD_BYTES > renderer_steering::core::content::MAX_DRAFT_BYTES);
/// assert_eq!(MAX_RECORD_BYTES, 262_144 + 73_728 + 8_192);
/// ```
pub const MAX_RECORD_BYTES: usize = MAX_DRAFT_BYTES + 3 * 6 * MAX_ID_UNITS as usize + 8 * 1024;

/// How long a record is kept (7 days, in ms): an older one is removed when
/// loaded, whatever became of its message.
///
/// ```
/// assert_eq!(renderer_steering::core::journal::MAX_AGE_MS, 604_800_000);
/// ```
pub const MAX_AGE_MS: u64 = 7 * 24 * 60 * 60 * 1000;
