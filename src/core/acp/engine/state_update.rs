//! ACP v2's prompt lifecycle: the turn's state comes as `state_update`
//! session updates, and a `session/prompt` answers `{ messageId }` when the
//! message is inserted, not when its turn ends.

use super::landing::TurnEnd;
use super::AcpEngine;
use crate::core::acp::outcome::AcpOutcome;
use crate::core::acp::wire::{InjectAnswer, UpdateFields};
use crate::core::action::OpId;
use crate::core::error::Failure;
use crate::core::requests::{FailedAnswer, HostAnswer, Pending};

impl AcpEngine {
    /// A v2 `state_update`: `idle` after foreground work (or the idle a
    /// `promptRequired` answer said is owed) ends the turn, its stop reason
    /// says how, and with it a turn the agent started itself; `running`,
    /// `requires_action` and any state this engine does not know are busy,
    /// never idle. A repeated idle (a snapshot) is no completion.
    pub(super) fn state_update(&mut self, session_id: &str, fields: &UpdateFields, now: u64) {
        let idle = fields.state().as_deref() == Some("idle");
        let session = self.session(session_id);
        let ends = idle && (session.foreground_busy || session.idle_owed);
        session.foreground_busy = !idle;
        session.idle_owed = false;
        if ends {
            session.unowned_turn_ended();
            self.turn_ended(session_id, TurnEnd::of_stop_reason(fields.stop_reason().as_deref()));
            self.pump(session_id, now);
        }
        self.dialect.touched.insert(session_id.into());
        self.flush_changes();
    }

    /// The answer to a v2 `session/prompt` of ours: `{ messageId }` means
    /// inserted; an error answer means not inserted (the draft comes
    /// back). A `-32800` rejection after the user's cancel is the agent
    /// ending the held prompt (handed back); without a cancel it may be a
    /// client's own, after the prompt was written (unknown).
    pub(super) fn on_inserted(&mut self, op_id: OpId, pending: Pending, answer: HostAnswer) {
        let Some(op) = self.ops.get(&op_id) else { return };
        let (session_id, trace) = (op.session_id.clone(), op.trace.clone());
        match answer.result() {
            Ok(value) => match value.read::<InjectAnswer>() {
                Ok(InjectAnswer { message_id }) if !message_id.is_empty() => {
                    self.session(&session_id).own_message(message_id.clone());
                    let outcome = AcpOutcome::Prompted { stop_reason: None, message_id: Some(message_id), superseded: false, trace };
                    self.succeed(op_id, outcome);
                }
                _ => self.fail(op_id, Failure::outcome_unknown(pending.method, "the prompt answer has no messageId")),
            },
            Err(FailedAnswer::Cancelled(_)) if self.cancelled_since(&session_id, op_id) => self.hand_back(op_id, &session_id),
            Err(failed) => self.fail(op_id, failed.after_write(pending.method, pending.timeout_ms)),
        }
    }
}
