//! Why a stored entry is not a record to keep.

use std::fmt;

/// Why [`load`](super::load) does not keep a stored entry. An entry that is
/// not a journal key under the prefix ([`RecordFault::Foreign`]) is left
/// alone; every other fault has it removed.
///
/// ```
/// use renderer_steering::core::journal::RecordFault;
/// assert!(!RecordFault::Foreign.removes());
/// assert!(RecordFault::OtherVersion(2).removes());
/// assert_eq!(RecordFault::Expired.to_string(), "the record is older than the journal keeps");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RecordFault {
    /// Not a journal key under this prefix: someone else's entry.
    Foreign,
    /// The text is not a record (garbage, another shape).
    Unreadable,
    /// A record of another format version.
    OtherVersion(u32),
    /// Larger than [`MAX_RECORD_BYTES`](super::MAX_RECORD_BYTES) (its size in bytes).
    TooLarge(usize),
    /// Its key is not the one its own dialect, key and message id make
    /// (another dialect's key, or a record moved by hand).
    Misfiled,
    /// Written longer ago (or, by a skewed clock, further ahead) than
    /// [`MAX_AGE_MS`](super::MAX_AGE_MS).
    Expired,
}

impl RecordFault {
    /// Whether the entry is removed from the storage (every fault but
    /// [`RecordFault::Foreign`]).
    ///
    /// ```
    /// # use renderer_steering::core::journal::RecordFault;
    /// assert!(RecordFault::Unreadable.removes());
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn removes(&self) -> bool {
        *self != RecordFault::Foreign
    }
}

impl fmt::Display for RecordFault {
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordFault::Foreign => f.write_str("the entry is not a journal record under this prefix"),
            RecordFault::Unreadable => f.write_str("the entry is not a journal record"),
            RecordFault::OtherVersion(v) => write!(f, "the record is of format version {v}"),
            RecordFault::TooLarge(bytes) => write!(f, "the record is {bytes} bytes, over the journal's bound"),
            RecordFault::Misfiled => f.write_str("the record is not stored under its own key"),
            RecordFault::Expired => f.write_str("the record is older than the journal keeps"),
        }
    }
}

/// The sentence says it all: no underlying cause.
///
/// ```
/// use std::error::Error;
/// # use renderer_steering::core::journal::RecordFault;
/// assert!(RecordFault::Misfiled.source().is_none());
/// ```
impl std::error::Error for RecordFault {}
