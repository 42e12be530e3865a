//! The driver's clock readings as the engines' time: whole milliseconds that
//! never go backwards, whatever a page did to its clock.

/// The last good reading of one engine's clock.
///
/// ```
/// use renderer_steering::bridge::Clock;
/// let mut clock = Clock::default();
/// assert_eq!(clock.reading(12.7), 12);
/// assert_eq!(clock.reading(f64::NAN), 12, "a broken clock reads as the last good time");
/// assert_eq!(clock.reading(-5.0), 12);
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Clock {
    last: u64,
}

impl Clock {
    /// `ms` as engine time; a reading that is not a finite, non-negative
    /// number is the last good one.
    ///
    /// ```
    /// # use renderer_steering::bridge::Clock;
    /// let mut clock = Clock::default();
    /// assert_eq!(clock.reading(f64::INFINITY), 0, "no good reading yet");
    /// assert_eq!(clock.reading(1_500.9), 1_500, "whole milliseconds, cut off");
    /// assert_eq!(clock.reading(f64::NEG_INFINITY), 1_500);
    /// ```
    pub fn reading(&mut self, ms: f64) -> u64 {
        if ms.is_finite() && ms >= 0.0 {
            self.last = ms as u64;
        }
        self.last
    }
}

/// Reads a clock reading from the driver's JSON: a number, or `null` where
/// the page's clock gave something JSON cannot hold (`NaN`), which reads
/// as a broken clock.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct At { #[serde(deserialize_with = "renderer_steering::bridge::reading")] now: f64 }
/// let at: At = serde_json::from_str(r#"{"now":null}"#).unwrap();
/// assert!(at.now.is_nan());
/// ```
pub fn reading<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    Ok(<Option<f64> as serde::Deserialize>::deserialize(deserializer)?.unwrap_or(f64::NAN))
}
