//! One message id, one delivery: what the engine does once the request
//! carrying a message may have reached the host, and when the same id is
//! submitted again (see `recent.rs`).

use super::{probe_answer, CodexhostEngine, Op, Stage};
use crate::core::action::OpId;
use crate::core::codexhost::recent::{verify, Remembered, Verified};
use crate::core::codexhost::wire::ThreadParams;
use crate::core::codexhost::{CodexhostOutcome, Delivery, SteerOutcome};
use crate::core::error::Failure;
use crate::core::trace::Trace;
use crate::core::HostAnswer;

impl CodexhostEngine {
    /// A retry of an unconfirmed message on a host that does not deduplicate:
    /// reads the thread (`thread/read` with turns) before anything is sent.
    pub(super) fn verify_first(&mut self, op_id: OpId, mut op: Op, turn_id: Option<String>, now: u64) {
        let params = ThreadParams::read(&op.thread_id, true);
        self.ask(op_id, &mut op, "thread/read", params, Some(self.timeouts.decide_ms), now);
        op.stage = Stage::Verifying { turn_id };
        self.ops.insert(op_id, op);
    }

    /// The host confirmed it: remembered, so the same id is never sent
    /// again, and its journal record goes (whichever attempt wrote it).
    pub(super) fn delivered(&mut self, op_id: OpId, op: &Op, outcome: SteerOutcome) {
        if let Some(id) = op.steer.as_ref().and_then(|r| r.client_user_message_id.as_deref()) {
            // Remembered without its trace (probe answers can be large).
            let kept = SteerOutcome { trace: Trace::default(), ..outcome.clone() };
            self.dialect.recent.remember(&op.thread_id, id, &op.text, Remembered::Delivered(kept));
            self.journal_settled(&op.thread_id, id);
        }
        self.finish(op_id, &op.thread_id, None, Ok(CodexhostOutcome::Steered(outcome)));
    }

    /// It may have reached the host: kept on screen (unconfirmed), never
    /// retracted, remembered so a retry cannot duplicate it.
    pub(super) fn unknown_outcome(&mut self, op_id: OpId, op: &Op, failure: Failure) {
        let mut shown = op.trace.presented;
        if let Some(request) = &op.steer {
            if let Some(id) = &request.client_user_message_id {
                // An attempt that wrote nothing (a retry that verified, was
                // refused or disposed first) keeps what the attempt that did
                // write was remembered with: its turn, its host.
                let wrote = matches!(op.stage, Stage::Sending { .. });
                let earlier = if wrote { None } else { self.dialect.recent.unknown(&op.thread_id, id) };
                // Deduplicated only by the connection it was written on, and
                // only as a `turn/steer` of an external thread.
                let same_connection = op.connection == self.dialect.knowledge.connection();
                let (written, as_steer) = match op.stage {
                    Stage::Sending { shown, method } => (shown, method == "turn/steer"),
                    _ => (Delivery::Official, false),
                };
                let what = earlier.unwrap_or_else(|| Remembered::Unknown {
                    deduplicated: same_connection && as_steer && self.dialect.knowledge.deduplicates(written),
                    turn_id: request.expected_turn_id.clone(),
                    presented: written,
                });
                if let Remembered::Unknown { presented, .. } = &what {
                    shown = Some(op.trace.presented.unwrap_or(presented.as_str()));
                }
                self.dialect.recent.remember(&op.thread_id, id, &op.text, what);
            }
        }
        self.fail(op_id, op, failure, Some(shown.unwrap_or("official")));
    }

    /// A retry of an unconfirmed message, after reading the thread.
    pub(super) fn on_verified(&mut self, op_id: OpId, mut op: Op, answer: &HostAnswer, turn_id: Option<String>, now: u64) {
        op.trace.record_probe("thread/read", probe_answer(answer));
        let message_id = op.steer.as_ref().and_then(|r| r.client_user_message_id.clone()).unwrap_or_default();
        let verified = match answer {
            HostAnswer::Result(value) => verify(value, &op.thread_id, &message_id, &op.text, turn_id.as_deref()),
            _ => None,
        };
        let unknown = |detail: &str| Failure::outcome_unknown("turn/steer", detail);
        match verified {
            Some(Verified::Applied(turn_id)) => {
                op.trace.path = Some("verifiedDelivered");
                // Applied as the attempt that wrote it showed it (the thread does not say more).
                let shown = match self.dialect.recent.unknown(&op.thread_id, &message_id) {
                    Some(Remembered::Unknown { presented, .. }) => presented,
                    _ => Delivery::Official,
                };
                let outcome = SteerOutcome { turn_id, delivery: shown, presented: shown, trace: op.trace.clone() };
                self.delivered(op_id, &op, outcome);
            }
            Some(Verified::NotApplied) => {
                op.verified = true;
                self.begin(op_id, op, now)
            }
            Some(Verified::StillRunning) => {
                self.unknown_outcome(op_id, &op, unknown("not confirmed yet: the turn still runs; retry once it has ended"))
            }
            None => self.unknown_outcome(op_id, &op, unknown("the thread could not be read to confirm it")),
        }
    }
}
