//! The ACP engine's shared test helpers: agents by what they advertise,
//! and an agent's error answer.

use renderer_steering::core::acp::AcpEngine;
use renderer_steering::core::{HostAnswer, RpcError};
use serde_json::json;

use super::acp_engine as engine;

/// The steering extension's method.
pub const EXT: &str = "_session/steering";

/// An agent that advertises the steering extension.
pub fn ext_agent() -> AcpEngine {
    engine(json!({ "_meta": { "steering": { "supported": true } }, "agentCapabilities": {} }), false)
}

/// An agent with `session/inject` (queue and steer), `replace` of pending injects as given.
pub fn inject_agent(replace: bool) -> AcpEngine {
    engine(
        json!({ "agentCapabilities": { "session": { "inject": { "modes": ["queue", "steer"], "pending": { "replace": replace } } } } }),
        false,
    )
}

/// An agent that takes a concurrent prompt (claude-agent-acp's advertisement), the handoff allowed.
pub fn handoff_agent() -> AcpEngine {
    engine(json!({ "agentCapabilities": { "_meta": { "claudeCode": { "promptQueueing": true } } } }), true)
}

/// An agent that offers no steering: messages queue.
pub fn queue_agent() -> AcpEngine {
    engine(json!({ "agentCapabilities": {} }), false)
}

/// The agent's JSON-RPC error `code`, with `data.reason` when given.
pub fn rpc(code: i64, reason: Option<&str>) -> HostAnswer {
    HostAnswer::Error(RpcError { code, message: "err".into(), data: reason.map(|r| json!({ "reason": r }).into()) })
}
