//! The decision trace: what the engine asked, what it heard, and what it showed.

use serde::Serialize;
use serde_json::Value;

use super::json_rpc::RpcError;

/// How one probe ended. A result is recorded as its [`summary`], not whole
/// (a `thread/read` with turns can be megabytes).
///
/// ```
/// use renderer_steering::core::ProbeAnswer;
/// let a = ProbeAnswer::Result(serde_json::json!({"delivery": "official"}));
/// assert_eq!(serde_json::to_value(&a).unwrap()["kind"], "result");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind", content = "value")]
pub enum ProbeAnswer {
    /// The host's result, summarised ([`summary`]).
    Result(Value),
    /// The host's JSON-RPC error.
    Error(RpcError),
    /// No answer within the bound.
    Timeout,
    /// The transport failed.
    Transport(String),
}

/// One request the engine sent while deciding, with its answer.
///
/// ```
/// use renderer_steering::core::{ProbeAnswer, ProbeRecord};
/// let p = ProbeRecord { method: "thread/read".into(), answer: ProbeAnswer::Timeout };
/// assert_eq!(p.method, "thread/read");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProbeRecord {
    /// JSON-RPC method.
    pub method: String,
    /// How it ended.
    pub answer: ProbeAnswer,
}

/// Everything that explains an outcome.
///
/// ```
/// use renderer_steering::core::Trace;
/// let t = Trace::default();
/// assert_eq!(t.round_trips_before_steer, 0);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Trace {
    /// The dialect path taken (`inspect`, `ownershipList`, `threadRead`,
    /// `cachedOwner`, `inject`, `steeringExtension`, `promptHandoff`, `queue`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<&'static str>,
    /// What the UI was asked to show before the host answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub presented: Option<&'static str>,
    /// What the host said it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_delivery: Option<&'static str>,
    /// Requests sent while deciding, in order, with their answers.
    pub probes: Vec<ProbeRecord>,
    /// Round trips completed before the steer left.
    pub round_trips_before_steer: u32,
    /// The method that carried the message, once sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sent: Option<&'static str>,
}

/// Longest string kept whole in a [`summary`] (characters).
const SUMMARY_STRING_CHARS: usize = 128;

/// What a trace keeps of a host's result: scalars (strings cut to 128
/// characters), objects two levels deep, and every array as the text
/// `"[N items]"`. Enough to explain a decision (`delivery`, `owner`,
/// `modelProvider`), bounded whatever the host sent.
pub fn summary(value: &Value) -> Value {
    summarised(value, 2)
}

fn summarised(value: &Value, levels: u8) -> Value {
    match value {
        Value::String(text) => match text.char_indices().nth(SUMMARY_STRING_CHARS) {
            Some((cut, _)) => Value::String(format!("{}…", &text[..cut])),
            None => value.clone(),
        },
        Value::Array(items) => Value::String(format!("[{} items]", items.len())),
        Value::Object(_) if levels == 0 => Value::String("{…}".into()),
        Value::Object(fields) => {
            // Inserted one by one: collecting into a map would link a sort.
            let mut kept = serde_json::Map::new();
            for (key, field) in fields {
                kept.insert(key.clone(), summarised(field, levels - 1));
            }
            Value::Object(kept)
        }
        scalar => scalar.clone(),
    }
}

impl Trace {
    /// Records a probe and counts its round trip.
    ///
    /// ```
    /// # use renderer_steering::core::{ProbeAnswer, Trace};
    /// let mut t = Trace::default();
    /// t.record_probe("thread/read", ProbeAnswer::Timeout);
    /// assert_eq!(t.round_trips_before_steer, 1);
    /// ```
    pub fn record_probe(&mut self, method: &str, answer: ProbeAnswer) {
        self.probes.push(ProbeRecord { method: method.to_string(), answer });
        self.round_trips_before_steer += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::summary;
    use serde_json::json;

    #[test]
    fn a_summary_keeps_scalars_two_levels_and_counts_arrays() {
        let read = json!({"thread": {"id": "t", "modelProvider": "openai", "turns": [{}, {}], "meta": {"a": 1}}});
        let kept = json!({"thread": {"id": "t", "modelProvider": "openai", "turns": "[2 items]", "meta": "{…}"}});
        assert_eq!(summary(&read), kept);
        assert_eq!(summary(&json!("x".repeat(200))).as_str().unwrap().chars().count(), 129);
        assert_eq!(summary(&json!({"delivery": "activeTurn"})), json!({"delivery": "activeTurn"}));
    }
}
