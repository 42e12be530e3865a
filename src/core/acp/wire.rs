//! ACP answers the engine reads (serde).

use serde::{Deserialize, Serialize};

use crate::core::json::Json;

/// `_session/steering` outcomes. Anything else is read as [`SteeringOutcome::Unknown`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "SteeringOutcomeField")]
pub(crate) enum SteeringOutcome {
    /// Joined the running turn.
    Injected,
    /// Nothing consumed; no turn runs.
    PromptRequired,
    /// The agent ignored the opt-in and started a turn itself.
    StartedNewTurn,
    /// The agent says it failed (outcome unknown).
    Failed,
    /// An outcome this engine does not know (outcome unknown).
    Unknown,
}

/// The `outcome` field as sent; read as a string and mapped rather than as an
/// internally tagged enum, whose buffering machinery costs wasm for one field.
#[derive(Deserialize)]
struct SteeringOutcomeField {
    outcome: String,
}

impl From<SteeringOutcomeField> for SteeringOutcome {
    fn from(field: SteeringOutcomeField) -> Self {
        match field.outcome.as_str() {
            "injected" => SteeringOutcome::Injected,
            "promptRequired" => SteeringOutcome::PromptRequired,
            "startedNewTurn" => SteeringOutcome::StartedNewTurn,
            "failed" => SteeringOutcome::Failed,
            _ => SteeringOutcome::Unknown,
        }
    }
}

/// `session/inject` and `session/replace_inject` answers, and a v2
/// `session/prompt` answer (the message was inserted).
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct InjectAnswer {
    /// The agent's id for the message.
    #[serde(rename = "messageId")]
    pub message_id: String,
}

/// `session/prompt` answer.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub(crate) struct PromptAnswer {
    /// Why the turn stopped.
    #[serde(rename = "stopReason")]
    pub stop_reason: String,
}

/// The fields of a `session/update` the engine reads: a user-message echo
/// (`messageId`) or a v2 `state_update` (`state`, `stopReason`). Optional
/// fields are read leniently (a malformed one is absent), as the v2 schema
/// asks of `stopReason`.
#[derive(Debug, Clone, Deserialize)]
pub(crate) struct UpdateFields {
    /// `user_message`, `user_message_chunk`, `state_update`, ...
    #[serde(rename = "sessionUpdate")]
    pub session_update: String,
    #[serde(default, rename = "messageId")]
    message_id: Option<Json>,
    #[serde(default)]
    state: Option<Json>,
    #[serde(default, rename = "stopReason")]
    stop_reason: Option<Json>,
}

fn text_of(value: &Option<Json>) -> Option<String> {
    value.as_ref().and_then(|v| v.read::<String>().ok())
}

impl UpdateFields {
    /// The echoed message's id, when it is a string.
    pub(crate) fn message_id(&self) -> Option<String> {
        text_of(&self.message_id)
    }

    /// The v2 session state, when it is a string.
    pub(crate) fn state(&self) -> Option<String> {
        text_of(&self.state)
    }

    /// The stop reason of an idle state, when it is a string.
    pub(crate) fn stop_reason(&self) -> Option<String> {
        text_of(&self.stop_reason)
    }
}

/// The params of every ACP call the engine makes: `session/prompt`,
/// `session/inject`, `_session/steering` and the pending-inject calls. The
/// content goes out as the caller's own JSON text.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SessionParams<'a> {
    pub session_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<&'a Json>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prompt: Option<&'a Json>,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<SteeringMeta>,
}

/// `_meta` of a `_session/steering` call: `{ steering: { idleBehavior } }`.
#[derive(Debug, Serialize)]
pub(crate) struct SteeringMeta {
    pub steering: IdleBehavior,
}

/// What the agent should do when no turn runs.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct IdleBehavior {
    pub idle_behavior: &'static str,
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_steering_outcome_reads_known_values_and_unknown_ones_as_unknown() {
        use crate::core::acp::wire::SteeringOutcome;
        let o: SteeringOutcome = serde_json::from_str(&serde_json::json!({"outcome": "injected"}).to_string()).unwrap();
        assert_eq!(o, SteeringOutcome::Injected);
        let u: SteeringOutcome = serde_json::from_str(&serde_json::json!({"outcome": "teleported"}).to_string()).unwrap();
        assert_eq!(u, SteeringOutcome::Unknown);
    }

    #[test]
    fn an_inject_answer_reads_its_message_id() {
        use crate::core::acp::wire::InjectAnswer;
        let a: InjectAnswer = serde_json::from_str(&serde_json::json!({"messageId": "m1"}).to_string()).unwrap();
        assert_eq!(a.message_id, "m1");
    }

    #[test]
    fn a_prompt_answer_reads_its_stop_reason() {
        use crate::core::acp::wire::PromptAnswer;
        let a: PromptAnswer = serde_json::from_str(&serde_json::json!({"stopReason": "end_turn"}).to_string()).unwrap();
        assert_eq!(a.stop_reason, "end_turn");
    }

    #[test]
    fn a_user_message_echo_reads_its_message_id() {
        use crate::core::acp::wire::UpdateFields;
        let u: UpdateFields = serde_json::from_str(
            &serde_json::json!(
            {"sessionUpdate": "user_message", "messageId": "m1", "content": []})
            .to_string(),
        )
        .unwrap();
        assert_eq!(u.message_id().as_deref(), Some("m1"));
    }

    #[test]
    fn a_state_update_reads_its_state_and_a_malformed_stop_reason_as_absent() {
        use crate::core::acp::wire::UpdateFields;
        let read = |v: serde_json::Value| serde_json::from_str::<UpdateFields>(&v.to_string()).unwrap();
        let idle = read(serde_json::json!({"sessionUpdate": "state_update", "state": "idle", "stopReason": "cancelled"}));
        assert_eq!((idle.state().as_deref(), idle.stop_reason().as_deref()), (Some("idle"), Some("cancelled")));
        let odd = read(serde_json::json!({"sessionUpdate": "state_update", "state": "idle", "stopReason": 7, "messageId": 1}));
        assert_eq!((odd.stop_reason(), odd.message_id()), (None, None));
    }
}
