//! The codexhost engine's shared test helpers: an engine, steers, a new
//! host and the outcome of a steer.

use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerOutcome, SteerRequest};
use renderer_steering::core::{Action, HostAnswer, OpId, SteeringError, Timeouts};
use serde_json::{json, Value};

use super::{err, ok, unknown_variant, Log};

/// A codexhost engine with the default bounds.
pub fn engine() -> CodexhostEngine {
    CodexhostEngine::new(Timeouts::default())
}

/// A text steer of `text` on `thread`'s running turn `turn-1`, its message id named by the text.
pub fn steer(thread: &str, text: &str) -> SteerRequest {
    let mut r = SteerRequest::text(thread, Some("turn-1"), text);
    r.client_user_message_id = Some(format!("msg-{text}"));
    r
}

/// A steer with a message id of its own (a new message each call: a
/// delivered id is never sent again).
pub fn fresh(thread: &str, text: &str) -> SteerRequest {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut r = steer(thread, text);
    r.client_user_message_id = Some(format!("msg-{}", NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    r
}

/// The steer's outcome, or its error.
pub fn outcome(log: &Log<CodexhostOutcome>, op: OpId) -> Result<SteerOutcome, SteeringError> {
    match log.completion(op) {
        Some(Action::Complete { result: Ok(CodexhostOutcome::Steered(o)), .. }) => Ok(o.clone()),
        Some(Action::Complete { result: Err(e), .. }) => Err(e.clone()),
        other => panic!("no steer completion: {other:?}"),
    }
}

/// A new host: inspect answers `delivery`, steer answers with a turn id.
pub fn new_host(delivery: &'static str) -> impl FnMut(&str, &Value) -> Option<HostAnswer> {
    move |method, _| match method {
        "codexhost/thread/steering/inspect" => ok(json!({ "delivery": delivery })),
        "turn/steer" => ok(json!({ "turnId": "turn-1" })),
        "turn/start" => ok(json!({ "turn": { "id": "turn-2", "status": "inProgress", "items": [] } })),
        _ => err(-32601, "Method not found"),
    }
}

/// A host without the steering inspect: the ownership list names `owner` for the thread.
pub fn old_host(owner: &'static str) -> impl FnMut(&str, &Value) -> Option<HostAnswer> {
    move |method, params| match method {
        "codexhost/thread/ownership/list" => {
            let id = params["threadIds"][0].clone();
            ok(json!({ "threads": [{ "threadId": id, "owner": owner, "harnessId": "claude" }] }))
        }
        "turn/steer" => ok(json!({ "turnId": "turn-1" })),
        _ => err(-32601, "Method not found"),
    }
}

/// A stock app server: neither codexhost method, `thread/read` names `provider`.
pub fn stock_host(provider: &'static str) -> impl FnMut(&str, &Value) -> Option<HostAnswer> {
    move |method, params| match method {
        "thread/read" => ok(json!({ "thread": { "id": params["threadId"], "modelProvider": provider, "cliVersion": "0.50.0" } })),
        "turn/steer" => ok(json!({ "turnId": "turn-1" })),
        other => unknown_variant(other),
    }
}
