//! What the driver read of one `streamRole(threadId)` call (the desktop's
//! `getStreamRole`), described: the value returned and its `role` field,
//! or that the callback threw. The core decides what it means
//! ([`RoleFacts::follows`]).

use serde::Deserialize;

use super::described::Described;
use crate::core::RoleFacts;

/// `{ "threw": true }` or `{ "value": described, "role": described }`.
///
/// ```
/// use renderer_steering::bridge::RoleRead;
/// let read: RoleRead = serde_json::from_str(r#"{"value":{"t":"object"},"role":{"t":"string","s":"follower"}}"#).unwrap();
/// assert!(read.facts().follows());
/// let read: RoleRead = serde_json::from_str(r#"{"value":{"t":"string","s":"owner"}}"#).unwrap();
/// assert!(!read.facts().follows());
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RoleRead {
    /// The callback threw.
    threw: bool,
    /// What it returned.
    value: Described,
    /// The `role` field of what it returned.
    role: Described,
}

impl RoleRead {
    /// The core's facts of the answer: its strings, read whole.
    ///
    /// ```
    /// # use renderer_steering::bridge::RoleRead;
    /// let read: RoleRead = serde_json::from_str(r#"{"threw":true}"#).unwrap();
    /// assert!(read.facts().threw);
    /// ```
    pub fn facts(&self) -> RoleFacts {
        RoleFacts { threw: self.threw, said: self.value.text().map(Into::into), role: self.role.text().map(Into::into) }
    }

    /// True when the answer makes the window a follower.
    ///
    /// ```
    /// # use renderer_steering::bridge::RoleRead;
    /// assert!(!RoleRead::default().follows(), "an undefined answer is the owner's");
    /// ```
    pub fn follows(&self) -> bool {
        self.facts().follows()
    }
}
