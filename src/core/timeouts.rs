//! Bounds on every wait for the host.

use serde::{Deserialize, Serialize};

/// How long the engine waits for each kind of host answer, in milliseconds.
///
/// ```
/// use renderer_steering::core::Timeouts;
/// let t = Timeouts { decide_ms: 500, ..Timeouts::default() };
/// assert_eq!(t.steer_ms, 30_000);
/// ```
/// Read from JavaScript as `{ decideMs?, steerMs?, requestMs? }`; any other
/// key (a misspelling such as `decideMS`) is refused, not silently ignored.
/// Codexhost uses `decideMs` and `steerMs`, ACP `requestMs`; each ignores
/// the others, so one object can serve both.
///
/// ```
/// # use renderer_steering::core::Timeouts;
/// assert!(serde_json::from_str::<Timeouts>(r#"{"decideMS": 50}"#).unwrap_err().to_string().contains("unknown field `decideMS`"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
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

/// The longest bound a timer can hold: `setTimeout` treats anything above
/// 2^31 - 1 ms as 1 ms and would spin. Longer bounds are refused, not clamped.
///
/// ```
/// assert_eq!(renderer_steering::core::timeouts::MAX_TIMEOUT_MS, 2_147_483_647);
/// ```
pub const MAX_TIMEOUT_MS: u64 = 2_147_483_647;

/// Reads a bound given in milliseconds by the caller: a finite, non-negative
/// number of at most [`MAX_TIMEOUT_MS`] (fractions are cut off).
///
/// ```
/// use renderer_steering::core::timeouts::bound_from_ms;
/// assert_eq!(bound_from_ms(1500.7, "timeoutMs"), Ok(1500));
/// assert!(bound_from_ms(f64::INFINITY, "timeoutMs").unwrap_err().contains("2147483647"));
/// assert!(bound_from_ms(-1.0, "timeoutMs").is_err());
/// assert!(bound_from_ms(f64::NAN, "timeoutMs").is_err());
/// ```
pub fn bound_from_ms(ms: f64, what: &str) -> Result<u64, String> {
    if ms.is_nan() || ms < 0.0 || ms > MAX_TIMEOUT_MS as f64 {
        return Err(format!("{what} must be a number of milliseconds from 0 to {MAX_TIMEOUT_MS}, not {ms}"));
    }
    Ok(ms as u64)
}

impl Timeouts {
    /// Refuses bounds a timer cannot hold (see [`MAX_TIMEOUT_MS`]).
    ///
    /// ```
    /// use renderer_steering::core::Timeouts;
    /// assert!(Timeouts::default().check().is_ok());
    /// let t = Timeouts { steer_ms: 1 << 31, ..Timeouts::default() };
    /// assert!(t.check().unwrap_err().contains("steerMs"));
    /// ```
    pub fn check(self) -> Result<Self, String> {
        for (name, ms) in [("decideMs", self.decide_ms), ("steerMs", self.steer_ms), ("requestMs", self.request_ms)] {
            bound_from_ms(ms as f64, name)?;
        }
        Ok(self)
    }
}
