//! Steers `_session/steering` accepted as pending input of the running
//! turn, until there is evidence they reached it. `injected` promises only
//! that the agent queued the text: both agents checked drop pending input
//! when the turn is cancelled before the model takes it in. So a steer is
//! delivered on evidence (its v2 echo, or the turn ending other than
//! `cancelled`), and one whose turn is cancelled first is an unknown
//! outcome with its draft, never reported delivered and never resent.

use super::{AcpEngine, Stage};
use crate::core::acp::outcome::AcpOutcome;
use crate::core::action::{Action, OpId};
use crate::core::error::Failure;

/// How a turn with landing steers ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TurnEnd {
    /// A stop reason other than `cancelled`: the turn consumed its pending input.
    Completed,
    /// `cancelled`: pending input may have been dropped.
    Cancelled,
    /// An error, or an answer that cannot be read: no evidence either way.
    Failed,
}

impl TurnEnd {
    /// The end a stop reason names.
    pub(crate) fn of_stop_reason(stop_reason: Option<&str>) -> TurnEnd {
        match stop_reason {
            Some("cancelled") => TurnEnd::Cancelled,
            Some("error") => TurnEnd::Failed,
            _ => TurnEnd::Completed,
        }
    }
}

impl AcpEngine {
    /// `_session/steering` answered `injected`: the steer waits for
    /// evidence, and the lane opens for the next message. Accepted into a
    /// turn the user already cancelled, it is not going to land.
    pub(super) fn accepted(&mut self, op_id: OpId, session_id: &str) {
        if self.cancelled_since(session_id, op_id) {
            return self.fail(op_id, Failure::outcome_unknown("the steer", CANCELLED));
        }
        let session = self.session(session_id);
        if !session.turn_running() {
            // The turn ended while the answer was on its way: its end says
            // whether it consumed the steer.
            if let Some(end) = session.last_turn_end {
                return self.end_landing(op_id, end);
            }
        }
        let Some(op) = self.ops.get_mut(&op_id) else { return };
        op.stage = Stage::Landing;
        self.lanes.finish(session_id, op_id);
        self.session(session_id).landing_mut().steers.push_back(op_id);
        self.push(Action::Accepted { op: op_id, presentation: "steeringExtension" });
    }

    /// The session's turn ended: every landing steer is delivered, or
    /// unknown when the turn was cancelled or failed.
    pub(super) fn turn_ended(&mut self, session_id: &str, end: TurnEnd) {
        let Some(session) = self.dialect.sessions.get_mut(session_id) else { return };
        session.last_turn_end = Some(end);
        let landing = session.landing.as_mut().map(|l| std::mem::take(&mut l.steers)).unwrap_or_default();
        for op_id in landing {
            self.end_landing(op_id, end);
        }
    }

    fn end_landing(&mut self, op_id: OpId, end: TurnEnd) {
        match end {
            TurnEnd::Completed => self.landed(op_id, "turnEnded"),
            TurnEnd::Cancelled => self.fail(op_id, Failure::outcome_unknown("the steer", CANCELLED)),
            TurnEnd::Failed => self.fail(op_id, Failure::outcome_unknown("the steer", FAILED)),
        }
    }

    /// The user cancelled the turn: both agents drop pending input, so the
    /// landing steers end now, unknown, with their drafts.
    pub(super) fn cancel_landing(&mut self, session_id: &str) {
        self.turn_ended(session_id, TurnEnd::Cancelled);
    }

    /// A v2 user-message echo of an id no prompt owns: the oldest landing
    /// steer reached the turn (the `_session/steering` answer names no id,
    /// so echoes are matched in order).
    pub(super) fn echo_landed(&mut self, session_id: &str, message_id: String) {
        let Some(session) = self.dialect.sessions.get_mut(session_id) else { return };
        let Some(op_id) = session.landing.as_mut().and_then(|l| l.steers.pop_front()) else { return };
        session.own_message(message_id);
        self.landed(op_id, "echo");
    }

    fn landed(&mut self, op_id: OpId, evidence: &'static str) {
        let trace = self.ops.get(&op_id).map(|o| o.trace.clone()).unwrap_or_default();
        self.succeed(op_id, AcpOutcome::Injected { message_id: None, delivered: Some(evidence), trace });
    }
}

const CANCELLED: &str = "the agent accepted it as pending input and the turn was cancelled before it showed the steer reached the model";
const FAILED: &str = "the agent accepted it as pending input and the turn ended in an error before it showed the steer reached the model";

#[cfg(test)]
mod tests {
    #[test]
    fn only_cancelled_and_error_stop_reasons_leave_pending_input_unproven() {
        use super::TurnEnd;
        assert_eq!(TurnEnd::of_stop_reason(Some("cancelled")), TurnEnd::Cancelled);
        assert_eq!(TurnEnd::of_stop_reason(Some("error")), TurnEnd::Failed);
        for reason in [Some("end_turn"), Some("max_tokens"), Some("refusal"), None] {
            assert_eq!(TurnEnd::of_stop_reason(reason), TurnEnd::Completed, "{reason:?}");
        }
    }
}
