//! Every wait is bounded for real: a bound is a finite number of
//! milliseconds from 0 to 2^31 - 1 (what a timer can hold); anything else is
//! refused, never clamped. And "outcome unknown" is told apart from a plain
//! failure.
#![cfg(not(target_arch = "wasm32"))]

use renderer_steering::core::timeouts::{bound_from_ms, MAX_TIMEOUT_MS};
use renderer_steering::core::{Failure, SteeringError, Timeouts, Trace};

#[test]
fn a_bound_is_whole_milliseconds_from_zero_to_the_timer_ceiling() {
    assert_eq!(bound_from_ms(0.0, "t"), Ok(0));
    assert_eq!(bound_from_ms(1.0, "t"), Ok(1));
    assert_eq!(bound_from_ms(1500.9, "t"), Ok(1500), "fractions are cut off");
    assert_eq!(bound_from_ms(MAX_TIMEOUT_MS as f64, "t"), Ok(MAX_TIMEOUT_MS), "the ceiling itself is allowed");
    assert_eq!(MAX_TIMEOUT_MS, (1 << 31) - 1);
}

#[test]
fn bounds_a_timer_cannot_hold_are_refused_naming_the_limit() {
    for bad in [-1.0, -0.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, (MAX_TIMEOUT_MS + 1) as f64, 2f64.powi(53) - 1.0] {
        let error = bound_from_ms(bad, "requestOptions.timeoutMs").unwrap_err();
        assert!(error.contains("requestOptions.timeoutMs"), "{bad}: {error}");
        assert!(error.contains("2147483647"), "{bad}: {error}");
    }
}

#[test]
fn timeouts_are_checked_field_by_field() {
    assert_eq!(Timeouts::default().check(), Ok(Timeouts::default()));
    let fine = Timeouts { decide_ms: 1, steer_ms: MAX_TIMEOUT_MS, request_ms: 0 };
    assert_eq!(fine.check(), Ok(fine), "a valid set comes back unchanged");
    for (bad, name) in [
        (Timeouts { decide_ms: MAX_TIMEOUT_MS + 1, ..Timeouts::default() }, "decideMs"),
        (Timeouts { steer_ms: u64::MAX, ..Timeouts::default() }, "steerMs"),
        (Timeouts { request_ms: 1 << 40, ..Timeouts::default() }, "requestMs"),
    ] {
        assert!(bad.check().unwrap_err().contains(name), "{name}");
    }
}

#[test]
fn only_an_unknown_outcome_says_the_message_may_have_arrived() {
    let error = |failure| SteeringError::new(failure, vec![].into(), Trace::default());
    assert!(error(Failure::outcome_unknown("turn/steer", "lost")).outcome_unknown());
    for plain in [Failure::busy(), Failure::disposed(), Failure::transport("turn/steer", "closed")] {
        assert!(!error(plain.clone()).outcome_unknown(), "{plain:?}");
    }
}
