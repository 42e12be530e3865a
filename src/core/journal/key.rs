//! Where a record is stored: one key per message, so windows sharing one
//! storage never overwrite each other's records.

use super::record::JournalDialect;
use crate::core::json::Json;

/// The storage key of the record of `message_id` on `key` (a thread or
/// session) written by a `dialect` engine: `prefix` followed by the three as
/// a JSON array. JSON escapes every separator, so two distinct triples
/// never share a key.
///
/// ```
/// use renderer_steering::core::journal::{storage_key, JournalDialect};
/// let k = storage_key("rs:", JournalDialect::Codexhost, "thread-1", "m1");
/// assert_eq!(k, r#"rs:["codexhost","thread-1","m1"]"#);
/// assert_ne!(
///     storage_key("rs:", JournalDialect::Codexhost, "a\",\"b", "c"),
///     storage_key("rs:", JournalDialect::Codexhost, "a", "b\",\"c"),
/// );
/// ```
#[cfg_attr(feature = "size-first", optimize(size))]
pub fn storage_key(prefix: &str, dialect: JournalDialect, key: &str, message_id: &str) -> String {
    let triple = Json::of(&(dialect, key, message_id));
    let mut storage_key = String::with_capacity(prefix.len() + triple.text().len());
    storage_key.push_str(prefix);
    storage_key.push_str(triple.text());
    storage_key
}

/// True when `storage_key` is a journal key under `prefix`: the prefix, then
/// a JSON array of three strings. Anything else under the prefix belongs to
/// someone else (a longer prefix of another journal, the app's own keys).
#[cfg_attr(feature = "size-first", optimize(size))]
pub(super) fn is_journal_key(prefix: &str, storage_key: &str) -> bool {
    let Some(rest) = storage_key.strip_prefix(prefix) else { return false };
    rest.starts_with('[') && Json::parse(rest.to_owned()).is_ok_and(|triple| triple.read::<(String, String, String)>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_triple_after_the_prefix_is_a_journal_key() {
        let key = storage_key("rs:", JournalDialect::Acp, "s", "m");
        assert!(is_journal_key("rs:", &key));
        assert!(!is_journal_key("other:", &key));
        assert!(!is_journal_key("rs:", "rs:settings"));
        assert!(!is_journal_key("rs:", r#"rs:["a","b"]"#));
        assert!(!is_journal_key("rs:", r#"rs:["a","b","c"] x"#));
    }
}
