//! Accepted injects not yet delivered: revoke and replace them.

use super::{AcpEngine, Op, Stage};
use crate::core::acp::capabilities::SteerPath;
use crate::core::acp::outcome::AcpOutcome;
use crate::core::acp::wire::{InjectAnswer, SessionParams};
use crate::core::action::OpId;
use crate::core::content::check_acp_blocks;
use crate::core::error::{Failure, SteeringError};
use crate::core::json::Json;
use crate::core::requests::{FailedAnswer, HostAnswer, Pending};
use crate::core::trace::Trace;

impl AcpEngine {
    /// Revokes an accepted inject that has not been delivered yet; resolves
    /// with its content handed back.
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// assert_eq!(e.revoke("s", "m1", 0).unwrap_err().failure.kind(), "invalidInput");
    /// ```
    ///
    /// A revoke that fails hands back no draft: the message is still with
    /// the agent (pending, or delivered), so restoring its words would
    /// invite sending them twice.
    pub fn revoke(&mut self, session_id: &str, message_id: &str, now: u64) -> Result<OpId, SteeringError> {
        self.pending_content(session_id, message_id)?;
        let params = Json::of(&SessionParams { session_id, message_id: Some(message_id), ..SessionParams::default() });
        Ok(self.start_pending_op(session_id, message_id, Json::no_items(), Stage::Revoking, "session/revoke_inject", params, now))
    }

    /// Replaces an accepted, undelivered inject (when the agent allows it).
    ///
    /// ```
    /// # use renderer_steering::core::acp::AcpEngine;
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// let err = e.replace("s", "m1", vec![serde_json::json!({"type": "text", "text": "x"})], 0).unwrap_err();
    /// assert_eq!(err.failure.kind(), "invalidInput");
    /// ```
    pub fn replace(&mut self, session_id: &str, message_id: &str, content: impl Into<Json>, now: u64) -> Result<OpId, SteeringError> {
        let content = content.into();
        let refuse = |failure| SteeringError::new(failure, content.clone(), Trace::default());
        if self.path() != (SteerPath::Inject { replace: true }) {
            let reason = "this agent cannot replace a pending message (replace_not_supported)";
            return Err(refuse(Failure::invalid_input(reason)));
        }
        check_acp_blocks(&content, self.dialect.caps.map(|c| c.prompt).unwrap_or_default()).map_err(refuse)?;
        self.pending_content(session_id, message_id).map_err(|e| refuse(e.failure))?;
        let params =
            Json::of(&SessionParams { session_id, message_id: Some(message_id), content: Some(&content), ..SessionParams::default() });
        Ok(self.start_pending_op(session_id, message_id, content, Stage::Replacing, "session/replace_inject", params, now))
    }

    fn pending_content(&self, session_id: &str, message_id: &str) -> Result<Json, SteeringError> {
        let found = self.dialect.sessions.get(session_id).and_then(|s| s.pending_injects.get(message_id));
        found.cloned().ok_or_else(|| {
            let reason = format!("no pending message {message_id} in this session");
            SteeringError::new(Failure::invalid_input(reason), Json::no_items(), Trace::default())
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn start_pending_op(
        &mut self,
        session_id: &str,
        message_id: &str,
        content: Json,
        stage: Stage,
        method: &'static str,
        params: Json,
        now: u64,
    ) -> OpId {
        let op_id = self.new_op_id();
        let trace = Trace { path: Some("inject"), sent: Some(method), ..Trace::default() };
        self.ops.insert(op_id, Op { session_id: session_id.into(), content, message_id: Some(message_id.into()), stage, trace });
        self.request_plain(op_id, method, params, Some(self.timeouts.request_ms), now);
        op_id
    }

    pub(super) fn on_pending_inject_answer(&mut self, op_id: OpId, pending: Pending, answer: HostAnswer) {
        let Some(op) = self.ops.get(&op_id) else { return };
        let (session_id, old_id, content, stage) =
            (op.session_id.clone(), op.message_id.clone().unwrap_or_default(), op.content.clone(), op.stage);
        let value = match answer.result() {
            Ok(value) => value,
            Err(failed @ FailedAnswer::Error(e)) if matches!(e.reason().as_deref(), Some("already_delivered" | "unknown_message_id")) => {
                self.session(&session_id).pending_injects.remove(&old_id);
                return self.fail(op_id, failed.after_write(pending.method, pending.timeout_ms));
            }
            Err(failed) => return self.fail(op_id, failed.after_write(pending.method, pending.timeout_ms)),
        };
        let outcome = if stage == Stage::Revoking {
            // The words come back only now, from the table (the op held none).
            let draft = self.session(&session_id).pending_injects.take(&old_id).unwrap_or_else(Json::no_items);
            AcpOutcome::Revoked { message_id: old_id, draft }
        } else {
            let Ok(InjectAnswer { message_id }) = value.read::<InjectAnswer>() else {
                return self.fail(op_id, Failure::outcome_unknown(pending.method, "the replace answer has no messageId"));
            };
            let injects = &mut self.session(&session_id).pending_injects;
            injects.remove(&old_id);
            injects.insert(message_id.clone(), content);
            AcpOutcome::Replaced { message_id, previous_message_id: old_id }
        };
        self.succeed(op_id, outcome);
    }
}
