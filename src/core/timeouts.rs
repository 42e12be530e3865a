//! Bounds on every wait for the host.

use serde::{Deserialize, Serialize};

/// How long the engine waits for each kind of host answer, in milliseconds.
///
/// ```
/// use renderer_steering::core::Timeouts;
/// let t = Timeouts { decide_ms: 500, ..Timeouts::default() };
/// assert_eq!(t.steer_ms, 30_000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Timeouts {
    /// Inspect, ownership and thread probes (default 10 s).
    pub decide_ms: u64,
    /// The steer itself (default 30 s; a caller's `requestOptions.timeoutMs` wins).
    pub steer_ms: u64,
    /// ACP requests other than the open `session/prompt` (default 10 s).
    pub request_ms: u64,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts { decide_ms: 10_000, steer_ms: 30_000, request_ms: 10_000 }
    }
}
