//! The decision trace: what the engine asked, what it heard, and what it showed.

use serde::Serialize;
use serde_json::Value;

use super::json_rpc::RpcError;

/// How one probe ended.
///
/// ```
/// use renderer_steering::core::ProbeAnswer;
/// let a = ProbeAnswer::Result(serde_json::json!({"delivery": "official"}));
/// assert!(matches!(a, ProbeAnswer::Result(_)));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind", content = "value")]
pub enum ProbeAnswer {
    /// The host's result.
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
