//! A steer submission and the host call that carries it.

use serde::Deserialize;
use serde_json::{json, Map, Value};

use super::wire::{Delivery, SteerAnswer, TurnStartAnswer};
use crate::core::error::Failure;

/// A user's mid-turn message for a codexhost thread.
///
/// ```
/// use renderer_steering::core::codexhost::SteerRequest;
/// let r = SteerRequest::text("t", Some("turn-1"), "use pnpm");
/// assert_eq!(r.input[0]["text"], "use pnpm");
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
    pub input: Vec<Value>,
    /// The caller's message id (the shell supplies a random one when absent).
    #[serde(default)]
    pub client_user_message_id: Option<String>,
    /// A turn start has been sent but not confirmed.
    #[serde(default)]
    pub pending_turn_start: bool,
    /// Passed through to the host.
    #[serde(default)]
    pub additional_context: Option<Value>,
    /// Passed through to the host (`responsesapiClientMetadata`).
    #[serde(default)]
    pub responsesapi_client_metadata: Option<Value>,
    /// The steer's bound, when the caller's request options set one.
    #[serde(skip)]
    pub steer_timeout_ms: Option<u64>,
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
            input: vec![json!({ "type": "text", "text": text })],
            client_user_message_id: None,
            pending_turn_start: false,
            additional_context: None,
            responsesapi_client_metadata: None,
            steer_timeout_ms: None,
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
    /// assert_eq!(params["codexhostSteerDelivery"], "activeTurn");
    /// assert_eq!(shown, Delivery::ActiveTurn);
    /// let (method, _, shown) = SteerRequest::text("t", None, "x").call(Delivery::Official);
    /// assert_eq!((method, shown), ("turn/start", Delivery::NewTurn));
    /// ```
    pub fn call(&self, delivery: Delivery) -> (&'static str, Value, Delivery) {
        let mut params = Map::new();
        params.insert("threadId".into(), json!(self.thread_id));
        let Some(turn) = &self.expected_turn_id else {
            params.insert("input".into(), json!(self.input));
            self.insert_optional(&mut params);
            return ("turn/start", Value::Object(params), Delivery::NewTurn);
        };
        params.insert("expectedTurnId".into(), json!(turn));
        params.insert("input".into(), json!(self.input));
        self.insert_optional(&mut params);
        if delivery != Delivery::Official {
            params.insert("codexhostSteerDelivery".into(), json!(delivery.as_str()));
        }
        ("turn/steer", Value::Object(params), delivery)
    }

    fn insert_optional(&self, params: &mut Map<String, Value>) {
        let optional = [
            ("clientUserMessageId", self.client_user_message_id.as_ref().map(|s| json!(s))),
            ("additionalContext", self.additional_context.clone()),
            ("responsesapiClientMetadata", self.responsesapi_client_metadata.clone()),
        ];
        for (key, value) in optional {
            if let Some(value) = value {
                params.insert(key.into(), value);
            }
        }
    }
}

/// Reads the answer to the call made by [`SteerRequest::call`]: the turn id
/// and the delivery the host reports (the shown one when it reports none).
pub fn read_answer(method: &str, value: &Value, shown: Delivery) -> Result<(String, Delivery), Failure> {
    let malformed = |detail: String| Failure::malformed(method, detail);
    let (turn_id, delivery) = if method == "turn/start" {
        let answer = TurnStartAnswer::deserialize(value).map_err(|e| malformed(e.to_string()))?;
        (answer.turn.id, Delivery::NewTurn)
    } else {
        let answer = SteerAnswer::deserialize(value).map_err(|e| malformed(e.to_string()))?;
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
    fn read_answer_1() {
        use crate::core::codexhost::request::read_answer;
        use crate::core::codexhost::Delivery;
        let v = serde_json::json!({"turnId": "t2", "delivery": "newTurn"});
        assert_eq!(read_answer("turn/steer", &v, Delivery::ActiveTurn).unwrap(), ("t2".into(), Delivery::NewTurn));
        assert!(read_answer("turn/steer", &serde_json::json!({"turnId": ""}), Delivery::ActiveTurn).is_err());
    }
}
