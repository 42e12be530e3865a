//! What recovery reports for each record it was handed.

use serde::Serialize;

use crate::core::json::Json;

/// What became of a recorded message, as far as the host can tell.
///
/// ```
/// use renderer_steering::core::journal::RecoveredOutcome;
/// assert_eq!(serde_json::to_string(&RecoveredOutcome::NotDelivered).unwrap(), r#""notDelivered""#);
/// assert!(RecoveredOutcome::Delivered.is_settled() && !RecoveredOutcome::Unknown.is_settled());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RecoveredOutcome {
    /// The thread shows it: it reached the agent (never send it again).
    Delivered,
    /// The turn it was meant for, and every later one, ended without it:
    /// it never reached the agent (the draft is the user's to send again).
    NotDelivered,
    /// Not known: the turn still runs, the host could not be asked, or
    /// (ACP) the agent keeps no history to read. The record stays.
    Unknown,
}

impl RecoveredOutcome {
    /// Whether the outcome is settled (its record leaves the journal).
    ///
    /// ```
    /// # use renderer_steering::core::journal::RecoveredOutcome;
    /// assert!(RecoveredOutcome::NotDelivered.is_settled());
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn is_settled(self) -> bool {
        self != RecoveredOutcome::Unknown
    }
}

/// One recorded codexhost message after recovery.
///
/// ```
/// use renderer_steering::core::journal::{RecoveredEntry, RecoveredOutcome};
/// let e = RecoveredEntry { thread_id: "t".into(), client_user_message_id: "m".into(),
///     draft: renderer_steering::core::Json::no_items(), outcome: RecoveredOutcome::Delivered };
/// assert_eq!(serde_json::to_value(&e).unwrap()["clientUserMessageId"], "m");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecoveredEntry {
    /// The thread.
    pub thread_id: String,
    /// The message's id.
    pub client_user_message_id: String,
    /// The user's words, as submitted.
    pub draft: Json,
    /// What became of it.
    pub outcome: RecoveredOutcome,
}

/// One recorded ACP message after recovery (always
/// [`RecoveredOutcome::Unknown`]: an agent keeps no history to read).
///
/// ```
/// use renderer_steering::core::journal::{AcpRecoveredEntry, RecoveredOutcome};
/// let e = AcpRecoveredEntry { session_id: "s".into(), message_id: "m".into(),
///     draft: renderer_steering::core::Json::no_items(), outcome: RecoveredOutcome::Unknown };
/// assert_eq!(serde_json::to_value(&e).unwrap()["outcome"], "unknown");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AcpRecoveredEntry {
    /// The session.
    pub session_id: String,
    /// The engine's id for the message.
    pub message_id: String,
    /// The user's content, as submitted.
    pub draft: Json,
    /// What became of it.
    pub outcome: RecoveredOutcome,
}
