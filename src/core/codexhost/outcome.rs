//! What a codexhost submission ends with.

use serde::Serialize;

use super::wire::Delivery;
use crate::core::action::OpId;
use crate::core::journal::RecoveredEntry;
use crate::core::trace::Trace;

/// The decision alone (`decide()`): no steer is sent.
///
/// ```
/// use renderer_steering::core::codexhost::{Decision, Delivery};
/// let d = Decision { delivery: Delivery::Official, trace: Default::default(), host_deduplicates: false };
/// assert_eq!(d.delivery.as_str(), "official");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// How the draft would be delivered.
    pub delivery: Delivery,
    /// How that was found out.
    pub trace: Trace,
    /// Whether a same-id retry of a `turn/steer` after `outcomeUnknown` is
    /// safe to send: only a codexhost host deduplicates by
    /// `clientUserMessageId`, and only for its external threads (`activeTurn`,
    /// `newTurn`); a Codex-owned thread (`official`) and a stock app-server
    /// apply a repeated id again.
    pub host_deduplicates: bool,
}

/// A delivered steer.
///
/// ```
/// use renderer_steering::core::codexhost::{Delivery, SteerOutcome};
/// let o = SteerOutcome { turn_id: "t".into(), delivery: Delivery::NewTurn, presented: Delivery::NewTurn, trace: Default::default() };
/// assert_eq!(o.turn_id, "t");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SteerOutcome {
    /// The turn that holds the input.
    pub turn_id: String,
    /// How the host delivered it.
    pub delivery: Delivery,
    /// What the UI showed first.
    pub presented: Delivery,
    /// The decision trace.
    pub trace: Trace,
}

/// What a codexhost submission ends with.
///
/// ```
/// use renderer_steering::core::codexhost::{CodexhostOutcome, Decision, Delivery};
/// let o = CodexhostOutcome::Decided(Decision { delivery: Delivery::Official, trace: Default::default(), host_deduplicates: true });
/// assert!(matches!(o, CodexhostOutcome::Decided(_)));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum CodexhostOutcome {
    /// From `decide()`.
    Decided(Decision),
    /// From `steer()`.
    Steered(SteerOutcome),
    /// From `recover()`: one entry per record recovered.
    Recovered(Vec<RecoveredEntry>),
}

/// How a submission was admitted.
///
/// ```
/// use renderer_steering::core::codexhost::Submitted;
/// use renderer_steering::core::OpId;
/// assert_eq!(Submitted::Started(OpId(1)).op(), OpId(1));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Submitted {
    /// A new submission.
    Started(OpId),
    /// The same message as the pending one: wait for that op; nothing is sent.
    Joined(OpId),
}

impl Submitted {
    /// The op to wait for.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::Submitted;
    /// # use renderer_steering::core::OpId;
    /// assert_eq!(Submitted::Joined(OpId(4)).op(), OpId(4));
    /// ```
    pub fn op(self) -> OpId {
        match self {
            Submitted::Started(op) | Submitted::Joined(op) => op,
        }
    }
}
