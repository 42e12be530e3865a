//! A steer submission and the host call that carries it.

use serde::{Deserialize, Serialize};

use super::wire::{Delivery, SteerAnswer, TurnStartAnswer};
use crate::core::content::text_draft;
use crate::core::error::Failure;
use crate::core::json::Json;

/// A user's mid-turn message for a codexhost thread.
///
/// ```
/// use renderer_steering::core::codexhost::SteerRequest;
/// let r = SteerRequest::text("t", Some("turn-1"), "use pnpm");
/// assert_eq!(r.input, serde_json::json!([{"type": "text", "text": "use pnpm"}]));
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SteerRequest {
    /// The thread.
    pub thread_id: String,
    /// The running turn, if one runs.
    #[serde(default)]
    pub expected_turn_id: Option<String>,
    /// The draft: content items (text only for steering).
    pub input: Json,
    /// The caller's message id (the shell supplies a random one when absent).
    #[serde(default)]
    pub client_user_message_id: Option<String>,
    /// A turn start has been sent but not confirmed.
    #[serde(default)]
    pub pending_turn_start: bool,
    /// Passed through to the host.
    #[serde(default)]
    pub additional_context: Option<Json>,
    /// Passed through to the host (`responsesapiClientMetadata`).
    #[serde(default)]
    pub responsesapi_client_metadata: Option<Json>,
    /// The steer's bound, when the caller's request options set one.
    #[serde(skip)]
    pub steer_timeout_ms: Option<u64>,
    /// The caller shows a changed delivery in place (`reconcile(from, to)`);
    /// without that, a delivery other than the one shown is retracted and
    /// presented again where it went.
    #[serde(skip)]
    pub reconciles: bool,
}

impl SteerRequest {
    /// A plain text steer.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::SteerRequest;
    /// assert!(SteerRequest::text("t", None, "x").expected_turn_id.is_none());
    /// ```
    pub fn text(thread_id: &str, expected_turn_id: Option<&str>, text: &str) -> Self {
        SteerRequest {
            thread_id: thread_id.into(),
            expected_turn_id: expected_turn_id.map(Into::into),
            input: text_draft(text),
            client_user_message_id: None,
            pending_turn_start: false,
            additional_context: None,
            responsesapi_client_metadata: None,
            steer_timeout_ms: None,
            reconciles: false,
        }
    }

    /// The host call for a decided delivery: `turn/steer` (tagged unless
    /// official) while a turn runs, a plain `turn/start` once it has ended.
    /// Returns the method, its params, and what the UI should show.
    ///
    /// ```
    /// # use renderer_steering::core::codexhost::{Delivery, SteerRequest};
    /// let (method, params, shown) = SteerRequest::text("t", Some("u"), "x").call(Delivery::ActiveTurn);
    /// assert_eq!(method, "turn/steer");
    /// assert_eq!(params.value()["codexhostSteerDelivery"], "activeTurn");
    /// assert_eq!(shown, Delivery::ActiveTurn);
    /// let (method, _, shown) = SteerRequest::text("t", None, "x").call(Delivery::Official);
    /// assert_eq!((method, shown), ("turn/start", Delivery::NewTurn));
    /// ```
    pub fn call(&self, delivery: Delivery) -> (&'static str, Json, Delivery) {
        let (method, shown, tag) = match self.expected_turn_id {
            None => ("turn/start", Delivery::NewTurn, None),
            Some(_) => ("turn/steer", delivery, (delivery != Delivery::Official).then(|| delivery.as_str())),
        };
        let params = CallParams {
            thread_id: &self.thread_id,
            expected_turn_id: self.expected_turn_id.as_deref(),
            input: &self.input,
            client_user_message_id: self.client_user_message_id.as_deref(),
            additional_context: self.additional_context.as_ref(),
            responsesapi_client_metadata: self.responsesapi_client_metadata.as_ref(),
            codexhost_steer_delivery: tag,
        };
        (method, Json::of(&params), shown)
    }
}

/// The params of `turn/steer` (and, without a turn, `turn/start`): the draft
/// and pass-through fields go out as the caller's own JSON text.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallParams<'a> {
    thread_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_turn_id: Option<&'a str>,
    input: &'a Json,
    #[serde(skip_serializing_if = "Option::is_none")]
    client_user_message_id: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    additional_context: Option<&'a Json>,
    #[serde(skip_serializing_if = "Option::is_none")]
    responsesapi_client_metadata: Option<&'a Json>,
    #[serde(skip_serializing_if = "Option::is_none")]
    codexhost_steer_delivery: Option<&'static str>,
}

/// Reads the answer to the call made by [`SteerRequest::call`]: the turn id
/// and the delivery the host reports (the shown one when it reports none).
pub(crate) fn read_answer(method: &str, value: &Json, shown: Delivery) -> Result<(String, Delivery), Failure> {
    let malformed = |detail: String| Failure::malformed(method, detail);
    let (turn_id, delivery) = if method == "turn/start" {
        let answer: TurnStartAnswer = value.read().map_err(|e| malformed(e.to_string()))?;
        (answer.turn.id, Delivery::NewTurn)
    } else {
        let answer: SteerAnswer = value.read().map_err(|e| malformed(e.to_string()))?;
        (answer.turn_id, answer.delivery.map(|d| d.as_delivery()).unwrap_or(shown))
    };
    if turn_id.is_empty() {
        return Err(malformed("empty turn id".into()));
    }
    Ok((turn_id, delivery))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_steer_answer_gives_turn_and_delivery_and_an_empty_turn_id_fails() {
        use crate::core::codexhost::request::read_answer;
        use crate::core::codexhost::Delivery;
        let v = serde_json::json!({"turnId": "t2", "delivery": "newTurn"}).into();
        assert_eq!(read_answer("turn/steer", &v, Delivery::ActiveTurn).unwrap(), ("t2".into(), Delivery::NewTurn));
        assert!(read_answer("turn/steer", &serde_json::json!({"turnId": ""}).into(), Delivery::ActiveTurn).is_err());
    }
}
