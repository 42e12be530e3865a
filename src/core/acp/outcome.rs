//! What an ACP submission ends with, and how a steer's answer is classified.

use serde::Serialize;

use super::wire::{InjectAnswer, SteeringOutcome};
use crate::core::error::Failure;
use crate::core::journal::AcpRecoveredEntry;
use crate::core::json::Json;
use crate::core::json_rpc::METHOD_NOT_FOUND;
use crate::core::requests::{FailedAnswer, HostAnswer};
use crate::core::trace::Trace;

/// A successful ACP submission.
///
/// ```
/// use renderer_steering::core::acp::AcpOutcome;
/// let o = AcpOutcome::StartedNewTurn { trace: Default::default() };
/// assert_eq!(serde_json::to_value(&o).unwrap()["kind"], "startedNewTurn");
/// let r = serde_json::to_value(&AcpOutcome::Recovered(vec![])).unwrap();
/// assert_eq!(r, serde_json::json!({ "kind": "recovered", "entries": [] }));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum AcpOutcome {
    /// Joined the running turn: for `session/inject`, accepted (with its
    /// `messageId`; delivered on its echo); for `_session/steering`, taken
    /// in, on the evidence `delivered` names.
    Injected {
        /// The agent's id for the pending inject.
        #[serde(skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        /// The evidence a `_session/steering` steer reached the turn: `echo`
        /// (its v2 user-message echo) or `turnEnded` (the turn ended with a
        /// stop reason other than `cancelled`, having consumed its input).
        #[serde(skip_serializing_if = "Option::is_none")]
        delivered: Option<&'static str>,
        /// Trace.
        trace: Trace,
    },
    /// Went out as a normal `session/prompt`: on v1 that turn ended (its
    /// `stopReason`); on v2 the agent inserted it (its `messageId`).
    Prompted {
        /// The turn's stop reason (v1).
        #[serde(skip_serializing_if = "Option::is_none")]
        stop_reason: Option<String>,
        /// The inserted message's id (v2).
        #[serde(skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        /// This answer was superseded by a folded handoff (not the turn's answer).
        superseded: bool,
        /// Trace.
        trace: Trace,
    },
    /// The agent started a turn with it itself; nothing is resent.
    StartedNewTurn {
        /// Trace.
        trace: Trace,
    },
    /// Concurrent-prompt handoff: `folded` or `deferred`; both are success.
    HandedOff {
        /// `folded` or `deferred`.
        handoff: &'static str,
        /// The steer prompt's stop reason.
        stop_reason: String,
        /// Trace.
        trace: Trace,
    },
    /// Never sent: a prompt of the session ended `cancelled` (the user
    /// stopped the agent) while it waited; its content is handed back.
    HandedBack {
        /// Why (`turnCancelled`).
        reason: &'static str,
        /// Its content, for the composer.
        draft: Json,
        /// Trace.
        trace: Trace,
    },
    /// A pending inject was revoked; its content is handed back.
    Revoked {
        /// The revoked message.
        message_id: String,
        /// Its content, for the composer.
        draft: Json,
    },
    /// A pending inject was replaced.
    Replaced {
        /// The new id.
        message_id: String,
        /// The replaced id.
        previous_message_id: String,
    },
    /// From `recover()`: one entry per journal record (written as
    /// `{ kind: "recovered", entries: [...] }`).
    #[serde(serialize_with = "recovered_entries")]
    Recovered(Vec<AcpRecoveredEntry>),
}

/// Writes [`AcpOutcome::Recovered`]'s entries as the `entries` field beside
/// the `kind` tag (a tagged variant holds fields, not a bare list).
fn recovered_entries<S: serde::Serializer>(entries: &[AcpRecoveredEntry], serializer: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct Entries<'a> {
        entries: &'a [AcpRecoveredEntry],
    }
    Entries { entries }.serialize(serializer)
}

/// How a steer request ended, whatever the path.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum SteerVerdict {
    /// Taken into the running turn (with the inject's id, if any).
    Injected(Option<String>),
    /// Nothing consumed: send it as a normal prompt once the previous prompt answered.
    PromptRequired,
    /// The agent started a turn itself.
    StartedNewTurn,
    /// The method does not exist: that path is off for the connection; the
    /// message keeps its place and takes the next advertised path (or waits).
    Unsupported,
    /// Failed (with the draft handed back); never resent.
    Fail(Failure),
}

/// Classifies the answer to `session/inject` or `_session/steering`.
pub(crate) fn classify_steer(method: &str, answer: &HostAnswer, timeout_ms: Option<u64>) -> SteerVerdict {
    match answer.result() {
        Err(FailedAnswer::Error(e)) if e.code == METHOD_NOT_FOUND => SteerVerdict::Unsupported,
        Err(FailedAnswer::Error(e))
            if method == "session/inject" && e.code == -32010 && e.reason().as_deref() == Some("no_running_turn") =>
        {
            SteerVerdict::PromptRequired
        }
        Ok(value) if method == "session/inject" => match value.read::<InjectAnswer>() {
            Ok(a) if !a.message_id.is_empty() => SteerVerdict::Injected(Some(a.message_id)),
            _ => SteerVerdict::Fail(Failure::outcome_unknown(method, "the inject answer has no messageId")),
        },
        Ok(value) => match value.read::<SteeringOutcome>() {
            Ok(SteeringOutcome::Injected) => SteerVerdict::Injected(None),
            Ok(SteeringOutcome::PromptRequired) => SteerVerdict::PromptRequired,
            Ok(SteeringOutcome::StartedNewTurn) => SteerVerdict::StartedNewTurn,
            Ok(SteeringOutcome::Failed) => SteerVerdict::Fail(Failure::outcome_unknown(method, "the agent answered failed")),
            Ok(SteeringOutcome::Unknown) => SteerVerdict::Fail(Failure::outcome_unknown(method, "unknown outcome")),
            Err(_) => SteerVerdict::Fail(Failure::outcome_unknown(method, "unreadable steering answer")),
        },
        Err(failed) => SteerVerdict::Fail(failed.after_write(method, timeout_ms)),
    }
}

/// True when a prompt answer reports usage and every number in it is zero:
/// the evidence claude-agent-acp gives for a first prompt folded into a
/// handoff steer. An answer without usage is no evidence (read as deferred).
pub(crate) fn folded_usage(answer: &Json) -> bool {
    let usage = answer.field("usage").or_else(|| answer.at(&["_meta", "usage"]));
    let Some(fields) = usage.and_then(|u| u.entries()) else { return false };
    let numbers: Vec<f64> = fields.iter().filter_map(|(_, value)| value.read::<f64>().ok()).collect();
    !numbers.is_empty() && numbers.iter().all(|n| *n == 0.0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn prompt_required_from_the_steering_extension_asks_for_a_prompt() {
        use crate::core::acp::outcome::{classify_steer, SteerVerdict};
        use crate::core::HostAnswer;
        let v = classify_steer(
            "_session/steering",
            &HostAnswer::Result(serde_json::json!({"outcome": "promptRequired", "reason": "noRunningTurn"}).into()),
            None,
        );
        assert_eq!(v, SteerVerdict::PromptRequired);
    }

    #[test]
    fn an_inject_answer_with_a_message_id_is_injected() {
        use crate::core::acp::outcome::{classify_steer, SteerVerdict};
        use crate::core::HostAnswer;
        let v = classify_steer("session/inject", &HostAnswer::Result(serde_json::json!({"messageId": "m"}).into()), None);
        assert_eq!(v, SteerVerdict::Injected(Some("m".into())));
    }

    #[test]
    fn only_an_all_zero_usage_marks_a_folded_prompt() {
        use crate::core::acp::outcome::folded_usage;
        assert!(folded_usage(&serde_json::json!({"stopReason": "end_turn", "usage": {"inputTokens": 0, "outputTokens": 0}}).into()));
        assert!(!folded_usage(&serde_json::json!({"stopReason": "end_turn"}).into()));
        assert!(!folded_usage(&serde_json::json!({"stopReason": "end_turn", "usage": {}}).into()));
        assert!(!folded_usage(&serde_json::json!({"stopReason": "end_turn", "usage": {"outputTokens": 12}}).into()));
    }
}
