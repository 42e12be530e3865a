//! The decision trace: what the engine asked, what it heard, and what it showed.

use super::json::Json;
use super::json_rpc::RpcError;
use serde::Serialize;

/// How one probe ended. A result is recorded as a summary, not whole (a
/// `thread/read` with turns can be megabytes): kept as is up to 1,024 bytes
/// of JSON text, otherwise the string `"[N bytes of JSON]"`.
///
/// ```
/// use renderer_steering::core::ProbeAnswer;
/// let a = ProbeAnswer::Result(serde_json::json!({"delivery": "official"}).into());
/// assert_eq!(serde_json::to_value(&a).unwrap()["kind"], "result");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind", content = "value")]
pub enum ProbeAnswer {
    /// The host's result, summarised (whole up to 1,024 bytes of JSON text).
    Result(Json),
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

/// Largest result a trace keeps whole (bytes of JSON text).
pub(crate) const SUMMARY_BYTES: usize = 1024;

/// What a trace keeps of a host's result: the result itself when its text is
/// at most [`SUMMARY_BYTES`] (every decision answer is: `delivery`, an
/// ownership row, a thread's metadata), otherwise the string
/// `"[N bytes of JSON]"`. Bounded whatever the host sent, and never parsed.
pub(crate) fn summary(answer: &Json) -> Json {
    let text = answer.text();
    if text.len() <= SUMMARY_BYTES {
        return answer.clone();
    }
    Json::of(&format!("[{} bytes of JSON]", text.len()))
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
    use super::{summary, SUMMARY_BYTES};

    #[test]
    fn every_path_a_trace_names_is_in_the_typescript_union() {
        use crate::core::acp::SteerPath;
        use crate::core::codexhost::decision::Probe;
        let source = include_str!("../../js/index.d.ts");
        let start = source.find("export type TracePath =").expect("TracePath is declared");
        let body = &source[start + "export type TracePath =".len()..];
        let body = &body[..body.find(';').expect("the union ends")];
        let mut typescript: Vec<&str> = body.split('|').map(str::trim).filter(|m| !m.is_empty()).map(|m| m.trim_matches('"')).collect();
        let probes = [Probe::Inspect, Probe::OwnershipList, Probe::ThreadRead].map(Probe::path);
        let acp = [SteerPath::Inject { replace: false }, SteerPath::SteeringExtension, SteerPath::PromptHandoff, SteerPath::Queue]
            .map(SteerPath::as_str);
        // The codexhost paths named where they are set (engine.rs, engine/confirm.rs).
        let named = ["cachedOwner", "alreadyDelivered", "verifiedDelivered"];
        let mut rust: Vec<&str> = probes.into_iter().chain(acp).chain(named).collect();
        typescript.sort_unstable();
        rust.sort_unstable();
        assert_eq!(typescript, rust);
    }
    use crate::core::Json;
    use serde_json::json;

    #[test]
    fn a_summary_keeps_small_results_whole_and_replaces_large_ones() {
        let read = Json::of(&json!({"thread": {"id": "t", "modelProvider": "openai", "turns": [{}, {}]}}));
        assert_eq!(summary(&read), read);
        let edge = Json::of(&"x".repeat(SUMMARY_BYTES - 2));
        assert_eq!(summary(&edge), edge, "exactly the bound is kept");
        let over = Json::of(&"x".repeat(SUMMARY_BYTES - 1));
        assert_eq!(summary(&over), json!("[1025 bytes of JSON]"));
    }
}
