//! Bounds on every wait for the host.

use serde::Serialize;

use super::error::OptionError;
use super::given::Given;
use super::options::{optional, Accepts};

/// How long the engine waits for each kind of host answer, in milliseconds.
///
/// ```
/// use renderer_steering::core::Timeouts;
/// let t = Timeouts { decide_ms: 500, ..Timeouts::default() };
/// assert_eq!(t.steer_ms, 30_000);
/// ```
/// Read from JavaScript as `{ decideMs?, steerMs?, requestMs? }`
/// ([`Timeouts::from_given`]); any other key (a misspelling such as
/// `decideMS`) is refused, not silently ignored. Codexhost uses `decideMs`
/// and `steerMs`, ACP `requestMs`; each ignores the others, so one object
/// can serve both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
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
    if !Accepts::Milliseconds.admits(&Given::Number(ms)) {
        return Err(OptionError::refused(what, Accepts::Milliseconds, Given::Number(ms)).to_string());
    }
    Ok(ms as u64)
}

/// The keys `options.timeouts` takes.
///
/// ```
/// assert_eq!(renderer_steering::core::timeouts::TIMEOUT_KEYS, ["decideMs", "steerMs", "requestMs"]);
/// ```
pub const TIMEOUT_KEYS: &[&str] = &["decideMs", "steerMs", "requestMs"];

impl Timeouts {
    /// Reads the object `within` (`options.timeouts`) from the keys it has
    /// and the value of each key it takes (`value_of`); an absent key
    /// (`undefined` or `null`) keeps its default. Refuses an unknown key and
    /// any value but a whole number of milliseconds a timer can hold.
    ///
    /// ```
    /// use renderer_steering::core::{given::Given, Timeouts};
    /// let keys = ["decideMs".to_string()];
    /// let given = |key: &str| if key == "decideMs" { Given::Number(500.0) } else { Given::Undefined };
    /// let t = Timeouts::from_given("options.timeouts", &keys, given).unwrap();
    /// assert_eq!((t.decide_ms, t.steer_ms), (500, 30_000));
    /// let refused = Timeouts::from_given("options.timeouts", &keys, |_| Given::Number(1e300)).unwrap_err();
    /// assert_eq!(refused.to_string(), "options.timeouts.decideMs must be a whole number of milliseconds from 0 to 2147483647 (got 1e300)");
    /// ```
    pub fn from_given(within: &str, keys: &[String], mut value_of: impl FnMut(&str) -> Given) -> Result<Timeouts, OptionError> {
        if let Some(key) = keys.iter().find(|key| !TIMEOUT_KEYS.contains(&key.as_str())) {
            return Err(OptionError::Unknown { within: within.into(), key: key.clone(), known: TIMEOUT_KEYS });
        }
        let mut timeouts = Timeouts::default();
        let slots = [("decideMs", &mut timeouts.decide_ms), ("steerMs", &mut timeouts.steer_ms), ("requestMs", &mut timeouts.request_ms)];
        for (key, slot) in slots {
            let given = value_of(key);
            if optional(&format!("{within}.{key}"), Accepts::WholeMilliseconds, &given)? {
                if let Given::Number(ms) = given {
                    *slot = ms as u64;
                }
            }
        }
        Ok(timeouts)
    }

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
