//! One message's record, as it is stored (JSON text, camelCase fields).

use serde::{Deserialize, Serialize};

use crate::core::json::Json;

/// Which engine wrote a record (and which one recovers it).
///
/// ```
/// use renderer_steering::core::journal::JournalDialect;
/// assert_eq!(serde_json::to_string(&JournalDialect::Acp).unwrap(), r#""acp""#);
/// assert_eq!(JournalDialect::Codexhost.as_str(), "codexhost");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JournalDialect {
    /// A codexhost engine: `key` is a thread id, `messageId` a `clientUserMessageId`.
    Codexhost,
    /// An ACP engine: `key` is a session id, `messageId` the engine's name for the message.
    Acp,
}

impl JournalDialect {
    /// The wire name.
    ///
    /// ```
    /// # use renderer_steering::core::journal::JournalDialect;
    /// assert_eq!(JournalDialect::Acp.as_str(), "acp");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn as_str(self) -> &'static str {
        match self {
            JournalDialect::Codexhost => "codexhost",
            JournalDialect::Acp => "acp",
        }
    }
}

/// What the journal keeps of one message while its outcome is not settled:
/// enough to ask the host about it after a reload and to hand the user's
/// words back.
///
/// ```
/// use renderer_steering::core::journal::{JournalDialect, JournalRecord, JOURNAL_VERSION};
/// use renderer_steering::core::Json;
/// let record = JournalRecord {
///     v: JOURNAL_VERSION,
///     dialect: JournalDialect::Codexhost,
///     key: "t".into(),
///     message_id: "m1".into(),
///     expected_turn_id: None,
///     method: "turn/start".into(),
///     draft: Json::parse(r#"[{"type":"text","text":"hi"}]"#.into()).unwrap(),
///     presented: Some("newTurn".into()),
///     at: 1.5,
/// };
/// let text = record.to_text();
/// assert!(text.contains(r#""messageId":"m1""#) && !text.contains("expectedTurnId"));
/// assert_eq!(JournalRecord::from_text(&text).unwrap(), record);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JournalRecord {
    /// The format's version ([`JOURNAL_VERSION`](super::JOURNAL_VERSION)).
    pub v: u32,
    /// The engine that wrote it.
    pub dialect: JournalDialect,
    /// The thread (codexhost) or session (ACP).
    pub key: String,
    /// The message: its `clientUserMessageId` (codexhost) or the ACP engine's id for it.
    pub message_id: String,
    /// The turn the steer was meant for (codexhost; `None` for a `turn/start`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_turn_id: Option<String>,
    /// The method of the request that carried it (`turn/steer`, `turn/start`,
    /// `session/inject`, `_session/steering`, `session/prompt`).
    pub method: String,
    /// The user's content items, as submitted.
    pub draft: Json,
    /// What was shown (`official`, `activeTurn`, `newTurn`; `steer`, `prompt`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presented: Option<String>,
    /// When it was written: wall-clock milliseconds.
    pub at: f64,
}

impl JournalRecord {
    /// The record as the JSON text a storage keeps.
    ///
    /// ```
    /// # use renderer_steering::core::journal::{JournalDialect, JournalRecord};
    /// # use renderer_steering::core::Json;
    /// let r = JournalRecord { v: 1, dialect: JournalDialect::Acp, key: "s".into(), message_id: "m".into(),
    ///     expected_turn_id: None, method: "session/prompt".into(), draft: Json::no_items(), presented: None, at: 0.0 };
    /// assert!(r.to_text().starts_with(r#"{"v":1,"dialect":"acp","key":"s""#));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn to_text(&self) -> String {
        Json::of(self).text().to_owned()
    }

    /// Reads a record from its JSON text (any version; [`load`](super::load)
    /// checks the rest).
    ///
    /// ```
    /// # use renderer_steering::core::journal::JournalRecord;
    /// assert!(JournalRecord::from_text("not json").is_err());
    /// assert!(JournalRecord::from_text(r#"{"v":1}"#).is_err());
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn from_text(text: &str) -> Result<JournalRecord, crate::core::ReadError> {
        Json::parse(text.to_owned())?.read()
    }
}
