//! The follow-up queue around a newTurn steer: the desktop's stop pauses
//! the thread's queued follow-ups with its own reason before `startTurn`;
//! once the steer is accepted, exactly those the stop paused are resumed,
//! and none that was paused before it (for any reason: by the user, or by
//! an earlier stop) nor any whose id cannot be compared.

use serde::Serialize;

/// The reason the desktop's stop gives the follow-ups it pauses.
///
/// ```
/// use renderer_steering::core::desktop::PAUSE_REASON;
/// assert!(PAUSE_REASON.starts_with("Interrupted"));
/// ```
pub const PAUSE_REASON: &str = "Interrupted before the steer was accepted.";

/// A follow-up's id, when it can be compared: a string or a safe integer
/// (`1` and `"1"` are different ids, as in the desktop's own queue).
///
/// ```
/// use renderer_steering::core::desktop::FollowUpId;
/// assert_eq!(serde_json::to_string(&FollowUpId::Number(7)).unwrap(), "7");
/// assert_ne!(FollowUpId::Number(7), FollowUpId::Text("7".into()));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum FollowUpId {
    /// A string id.
    Text(String),
    /// A number id: an integer within ±(2^53 - 1), which JavaScript holds exactly.
    Number(i64),
}

/// One queued follow-up, as read from the desktop's coordinator.
///
/// ```
/// use renderer_steering::core::desktop::{FollowUp, FollowUpId, PAUSE_REASON};
/// let paused = FollowUp { id: Some(FollowUpId::Text("f-1".into())), pause_reason: Some(PAUSE_REASON.into()) };
/// assert!(paused.paused_by_stop().is_some());
/// assert!(FollowUp::default().paused_by_stop().is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
pub struct FollowUp {
    /// Its id (`None`: missing, or not comparable).
    pub id: Option<FollowUpId>,
    /// Its `pauseReason`, when a string.
    pub pause_reason: Option<String>,
}

impl FollowUp {
    /// Its id, when the stop's reason paused it and the id can be compared.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{FollowUp, FollowUpId, PAUSE_REASON};
    /// let stopped = FollowUp { id: Some(FollowUpId::Number(1)), pause_reason: Some(PAUSE_REASON.into()) };
    /// assert_eq!(stopped.paused_by_stop(), Some(&FollowUpId::Number(1)));
    /// let by_user = FollowUp { pause_reason: Some("Paused by the user".into()), ..stopped.clone() };
    /// assert_eq!(by_user.paused_by_stop(), None, "another reason: left paused");
    /// assert_eq!(FollowUp { id: None, ..stopped }.paused_by_stop(), None, "an id that cannot be compared is never resumed");
    /// ```
    pub fn paused_by_stop(&self) -> Option<&FollowUpId> {
        self.id.as_ref().filter(|_| self.pause_reason.as_deref() == Some(PAUSE_REASON))
    }
}

/// The ids of the follow-ups already paused, for any reason, read before
/// `startTurn` (whose stop pauses the rest): those are left paused, even
/// when the stop gives them its own reason.
///
/// ```
/// use renderer_steering::core::desktop::{already_paused, FollowUp, FollowUpId};
/// let before = [
///     FollowUp { id: Some(FollowUpId::Number(1)), pause_reason: Some("Paused by the user".into()) },
///     FollowUp { id: Some(FollowUpId::Number(2)), pause_reason: None },
/// ];
/// assert_eq!(already_paused(&before), vec![FollowUpId::Number(1)]);
/// ```
pub fn already_paused(follow_ups: &[FollowUp]) -> Vec<FollowUpId> {
    follow_ups.iter().filter(|f| f.pause_reason.is_some()).filter_map(|f| f.id.clone()).collect()
}

/// The positions in `follow_ups` (the queue once the steer was accepted) to
/// resume: paused with the stop's reason, and not in `paused_before`.
///
/// ```
/// use renderer_steering::core::desktop::{to_resume, FollowUp, FollowUpId, PAUSE_REASON};
/// let paused = |id: &str| FollowUp { id: Some(FollowUpId::Text(id.into())), pause_reason: Some(PAUSE_REASON.into()) };
/// let queue = [paused("old"), paused("new"), FollowUp::default()];
/// assert_eq!(to_resume(&queue, &[FollowUpId::Text("old".into())]), vec![1]);
/// ```
pub fn to_resume(follow_ups: &[FollowUp], paused_before: &[FollowUpId]) -> Vec<usize> {
    let resumed = |f: &FollowUp| f.paused_by_stop().is_some_and(|id| !paused_before.contains(id));
    follow_ups.iter().enumerate().filter(|(_, f)| resumed(f)).map(|(at, _)| at).collect()
}
