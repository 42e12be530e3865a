//! What the answer to a steer (`session/inject`, `_session/steering`) means
//! for the op that sent it.

use super::AcpEngine;
use crate::core::acp::capabilities::SteerPath;
use crate::core::acp::outcome::{classify_steer, AcpOutcome, SteerVerdict};
use crate::core::action::{Action, OpId};
use crate::core::json::Json;
use crate::core::requests::{HostAnswer, Pending};
use crate::core::trace::Trace;

impl AcpEngine {
    /// Ends, requeues or hands over `op_id` after the agent answered its
    /// steer sent down `path`.
    pub(super) fn on_steer_answer(&mut self, op_id: OpId, path: SteerPath, session_id: &str, pending: Pending, answer: HostAnswer) {
        match classify_steer(pending.method, &answer, pending.timeout_ms) {
            SteerVerdict::Injected(None) => self.accepted(op_id, session_id),
            SteerVerdict::Injected(message_id) => {
                self.push(Action::Accepted { op: op_id, presentation: "inject" });
                let (content, trace) = self
                    .ops
                    .get(&op_id)
                    .map(|o| (o.content.clone(), o.trace.clone()))
                    .unwrap_or_else(|| (Json::no_items(), Trace::default()));
                let session = self.session(session_id);
                let early = std::mem::take(&mut session.early_echoes);
                if let Some(id) = message_id.as_ref().filter(|id| !early.contains(id)) {
                    session.pending_injects.insert(id.clone(), content);
                }
                self.succeed(op_id, AcpOutcome::Injected { message_id, delivered: None, trace });
            }
            SteerVerdict::PromptRequired => {
                let session = self.session(session_id);
                if session.open_prompts == 0 {
                    // The agent says no turn runs and no prompt is open: an
                    // unowned turn it started has ended (v2: its idle
                    // update is on its way).
                    session.unowned_turn_ended();
                    session.idle_owed = session.foreground_busy;
                    session.foreground_busy = false;
                }
                self.requeue(op_id, true)
            }
            SteerVerdict::Unsupported => {
                // This path is gone for the connection; the next advertised
                // one (or the queue) takes the message, which kept its place.
                self.path_refused(path);
                self.requeue(op_id, false);
            }
            SteerVerdict::StartedNewTurn => {
                let session = self.session(session_id);
                session.unowned_turn = true;
                // Prompts open now ended at the agent before it started this
                // turn; an answer beyond theirs proves the unowned turn is over.
                session.older_prompts = session.open_prompts;
                let trace = self.ops.get(&op_id).map(|o| o.trace.clone()).unwrap_or_default();
                self.succeed(op_id, AcpOutcome::StartedNewTurn { trace });
            }
            SteerVerdict::Fail(failure) => self.fail(op_id, failure),
        }
    }
}
