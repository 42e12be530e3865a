//! The read limits the JavaScript front door applies, from the one place
//! each is defined, so every entry point bounds the same value the same way.

use serde::Serialize;

use crate::core::content::MAX_DRAFT_BYTES;
use crate::core::given::SHOWN_TEXT_UNITS;
use crate::core::options::MAX_ID_UNITS;

/// Every bound the front door reads within (UTF-16 units of JSON text,
/// except `depth`).
///
/// ```
/// use renderer_steering::bridge::Limits;
/// let limits = Limits::default();
/// assert_eq!(limits.id_units, 4096);
/// assert!(limits.relayed_units < limits.answer_units);
/// ```
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    /// Deepest nesting read from any value (serde_json's own limit is 128).
    pub depth: u32,
    /// Largest host answer.
    pub answer_units: u32,
    /// Largest value the app relays synchronously (`initialize`, a prompt's
    /// answer, an update's read fields).
    pub relayed_units: u32,
    /// Largest caller value other than the draft (context, metadata).
    pub argument_units: u32,
    /// Longest id (thread, session, message, turn), in UTF-16 units, in
    /// every entry point.
    pub id_units: u32,
    /// Largest draft (JSON text of its items).
    pub draft_units: u32,
    /// Longest string shown whole in an error.
    pub shown_units: u32,
    /// Keys of `options.timeouts` listed.
    pub timeout_keys: u32,
    /// The keys `options.timeouts` takes.
    pub timeout_names: &'static [&'static str],
    /// The Web Storage methods the journal calls.
    pub journal_methods: [&'static str; 4],
    /// Longest journal record read (a longer text is dropped unread).
    pub journal_record_units: u32,
    /// Most keys under the journal's prefix read by `recover()`.
    pub journal_keys: u32,
    /// Most queued follow-ups read (a longer queue reads as unreadable:
    /// none is resumed).
    pub follow_ups: u32,
    /// The desktop requests the hook hands its core (every other request
    /// goes out untouched without a step).
    pub routed_methods: [&'static str; 2],
    /// Every error `kind` (what `isSteeringError` accepts of another copy
    /// of the package).
    pub error_kinds: &'static [&'static str],
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            depth: 64,
            answer_units: 16 * 1024 * 1024,
            relayed_units: 1024 * 1024,
            argument_units: 1024 * 1024,
            id_units: MAX_ID_UNITS,
            draft_units: MAX_DRAFT_BYTES as u32,
            shown_units: SHOWN_TEXT_UNITS,
            timeout_keys: super::timeout_keys_read() as u32,
            timeout_names: crate::core::timeouts::TIMEOUT_KEYS,
            journal_methods: super::options::JOURNAL_METHODS,
            journal_record_units: crate::core::journal::MAX_RECORD_BYTES as u32,
            // Every key the prefix holds, up to many times the records kept:
            // the engine drops the oldest past its bound.
            journal_keys: 16 * crate::core::journal::MAX_RECORDS as u32,
            follow_ups: 4096,
            routed_methods: crate::core::codexhost::MESSAGE_METHODS,
            error_kinds: crate::core::Failure::KINDS,
        }
    }
}
