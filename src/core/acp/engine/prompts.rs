//! What a `session/prompt` answer means: the app's own or ours (queued or
//! handoff), fold vs defer, unowned turns ending, and a cancelled turn.

use super::landing::TurnEnd;
use super::AcpEngine;
use crate::core::acp::capabilities::{Protocol, SteerPath};
use crate::core::acp::outcome::{folded_usage, AcpOutcome};
use crate::core::acp::session::Handoff;
use crate::core::acp::wire::PromptAnswer;
use crate::core::action::{Action, OpId};
use crate::core::error::Failure;
use crate::core::json::Json;
use crate::core::requests::{FailedAnswer, HostAnswer, Pending};

impl AcpEngine {
    pub(super) fn on_prompt_answer(&mut self, op_id: OpId, handoff: bool, pending: Pending, answer: HostAnswer) {
        if self.protocol() == Protocol::V2 {
            return self.on_inserted(op_id, pending, answer);
        }
        let Some(op) = self.ops.get(&op_id) else { return };
        let (session_id, trace) = (op.session_id.clone(), op.trace.clone());
        let session = self.session(&session_id);
        session.open_prompts = session.open_prompts.saturating_sub(1);
        let fold = if handoff { session.handoff.take() } else { None };
        let failed_in_app_order = !handoff && !matches!(answer, HostAnswer::Result(_));
        if failed_in_app_order {
            // An app-order first prompt that failed still ended: no evidence of folding.
            self.first_prompt_answered(&session_id, &Json::null());
        }
        let value = match answer.result() {
            Ok(value) => value.clone(),
            Err(FailedAnswer::Error(e)) if handoff && e.code == crate::core::json_rpc::METHOD_NOT_FOUND => {
                // Provably undelivered: it falls back to an ordinary queued prompt.
                self.path_refused(SteerPath::PromptHandoff);
                return self.requeue(op_id, true);
            }
            Err(FailedAnswer::Error(e)) if !refused_before_running(e.code) => {
                // A prompt's answer ends the whole turn: an error there (the
                // model failed after tools ran) does not prove the message was
                // never taken in. Unknown, never a plain failure.
                let why = format!("the turn ended with error {}: {}", e.code, e.message);
                self.fail(op_id, Failure::outcome_unknown(pending.method, &why));
                return self.prompt_ended(&session_id, TurnEnd::Failed);
            }
            Err(failed) => {
                self.fail(op_id, failed.after_write(pending.method, pending.timeout_ms));
                // It ended, counted once (a handoff refused before it ran ends nothing).
                if failed_in_app_order {
                    self.prompt_ended(&session_id, TurnEnd::Failed);
                }
                return;
            }
        };
        let superseded = !handoff && self.first_prompt_answered(&session_id, &value);
        let outcome = match value.read::<PromptAnswer>() {
            Err(e) => {
                // The agent answered our prompt, so its turn ended; what became
                // of the message cannot be read: unknown, never a plain failure.
                self.fail(op_id, Failure::outcome_unknown(pending.method, &format!("unreadable answer: {e}")));
                return self.prompt_ended(&session_id, TurnEnd::Failed);
            }
            Ok(a) if handoff => {
                let session = self.session(&session_id);
                let mut fold = fold.unwrap_or(Handoff::Waiting);
                if fold == Handoff::Waiting && session.open_prompts > 0 {
                    if a.stop_reason == "cancelled" {
                        // Ended by the user's cancel, not folded: the app's
                        // (cancelled) answer stays the turn's answer.
                        fold = Handoff::Deferred;
                    } else {
                        // Answered before the app's prompt: folded by answer order;
                        // that prompt's answer, when it comes, is superseded.
                        session.handoff = Some(Handoff::AnsweredFirst);
                    }
                }
                AcpOutcome::HandedOff { handoff: fold.as_str(), stop_reason: a.stop_reason, trace }
            }
            Ok(a) => AcpOutcome::Prompted { stop_reason: Some(a.stop_reason), message_id: None, superseded, trace },
        };
        let stop_reason = match &outcome {
            AcpOutcome::Prompted { stop_reason, .. } => stop_reason.clone(),
            AcpOutcome::HandedOff { stop_reason, .. } => Some(stop_reason.clone()),
            _ => None,
        };
        self.succeed(op_id, outcome);
        self.prompt_ended(&session_id, TurnEnd::of_stop_reason(stop_reason.as_deref()));
    }

    /// A v1 prompt of the session (the app's or ours) answered. It ends an
    /// unowned turn once every prompt older than that turn has answered; a
    /// `cancelled` one hands back every message still waiting in the queue.
    /// Once no turn runs (or the turn was cancelled) the landing steers end
    /// with it.
    pub(super) fn prompt_ended(&mut self, session_id: &str, end: TurnEnd) {
        let cancelled = end == TurnEnd::Cancelled;
        let last = self.last_op_id();
        let session = self.session(session_id);
        if cancelled {
            session.cancelled_up_to = Some(last);
        }
        if session.unowned_turn {
            if session.older_prompts > 0 {
                session.older_prompts -= 1;
            } else {
                session.unowned_turn = false;
            }
        }
        if cancelled || !session.turn_running() {
            self.turn_ended(session_id, end);
        }
        if cancelled {
            self.hand_back_queue(session_id);
        }
    }

    /// The app sent `session/cancel` (the user pressed Stop): every message
    /// sent before it that still waits is handed back now (`handedBack`,
    /// `turnCancelled`), and one in flight that comes back unconsumed is
    /// handed back too, whatever `stopReason` the turn then ends with (an
    /// agent whose turn was already finishing answers `end_turn`; the queued
    /// message would otherwise start a new turn the cancel then ends).
    /// Messages sent after the cancel wait for the turn's end as usual.
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// # use renderer_steering::core::Action;
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.initialized(&serde_json::json!({}).into(), 0);
    /// e.prompt_sent("s");
    /// e.send("s", vec![serde_json::json!({"type": "text", "text": "use pnpm"})], 0).unwrap();
    /// e.cancel_sent("s");
    /// e.prompt_answered("s", &serde_json::json!({"stopReason": "end_turn"}).into(), 0);
    /// let sent = std::iter::from_fn(|| e.poll_action()).filter(|a| matches!(a, Action::Send(_))).count();
    /// assert_eq!(sent, 0, "handed back, not sent as a new turn");
    /// ```
    pub fn cancel_sent(&mut self, session_id: &str) {
        if !self.dialect.sessions.get(session_id).is_some_and(|s| s.turn_running()) {
            return; // no turn to cancel: nothing waits for one
        }
        let last = self.last_op_id();
        self.session(session_id).cancelled_up_to = Some(last);
        self.cancel_landing(session_id);
        self.hand_back_queue(session_id);
        self.dialect.touched.insert(session_id.into());
        self.flush_changes();
    }

    /// The user stopped the agent: nothing waiting starts a turn behind their
    /// back. Each queued message resolves `handedBack` with its content.
    fn hand_back_queue(&mut self, session_id: &str) {
        for op_id in self.lanes.queued_ops(session_id) {
            self.hand_back(op_id, session_id);
        }
        self.dialect.touched.insert(session_id.into());
    }

    /// Resolves `op_id` `handedBack` (turn cancelled) with its content; its
    /// shown chip goes.
    pub(super) fn hand_back(&mut self, op_id: OpId, session_id: &str) {
        let Some(op) = self.ops.remove(&op_id) else { return };
        self.push(Action::Retract { op: op_id });
        let outcome = AcpOutcome::HandedBack { reason: "turnCancelled", draft: op.content, trace: op.trace };
        self.finish(op_id, session_id, None, Ok(outcome));
    }

    /// Whether the user cancelled a turn after `op_id` was submitted.
    pub(super) fn cancelled_since(&self, session_id: &str, op_id: OpId) -> bool {
        self.dialect.sessions.get(session_id).and_then(|s| s.cancelled_up_to).is_some_and(|up_to| op_id <= up_to)
    }

    /// A first prompt answered while a handoff steer is open: folded (early,
    /// with a usage report of only zeros, or after the steer prompt already
    /// answered: superseded, not the turn's answer) or deferred.
    pub(super) fn first_prompt_answered(&mut self, session_id: &str, answer: &Json) -> bool {
        let session = self.session(session_id);
        match session.handoff {
            Some(Handoff::Waiting) => {
                let folded = folded_usage(answer);
                session.handoff = Some(if folded { Handoff::Folded } else { Handoff::Deferred });
                folded
            }
            Some(Handoff::AnsweredFirst) => {
                session.handoff = None;
                true
            }
            _ => false,
        }
    }
}

/// Errors with which an agent refuses a `session/prompt` before running it
/// (so the message was not taken in): parse error, invalid request, method
/// not found, invalid params, authentication required, resource (session)
/// not found. Any other error ends a turn that may have run.
fn refused_before_running(code: i64) -> bool {
    matches!(code, -32700 | -32600 | -32601 | -32602 | -32000 | -32002)
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_errors_that_refuse_the_request_itself_prove_the_prompt_never_ran() {
        for code in [-32700, -32600, -32601, -32602, -32000, -32002] {
            assert!(super::refused_before_running(code), "{code}");
        }
        for code in [-32603, -32001, -32800, 1, -1] {
            assert!(!super::refused_before_running(code), "{code}");
        }
    }
}
