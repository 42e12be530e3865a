//! Sessions opened and closed for as long as an app runs: what the engine
//! keeps for them stays bounded, and the closed sessions it remembers are
//! the newest ones.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::acp_engine as engine;
use renderer_steering::core::acp::{AcpEngine, InputMode, MAX_CLOSED_SESSIONS};
use serde_json::json;

/// One round per fresh id: the app prompts, reads the composer, closes the
/// session (the driver takes every action, as the wasm shell does).
fn churn(e: &mut AcpEngine, ids: std::ops::Range<usize>) {
    for i in ids {
        let id = format!("churn-{i}");
        e.prompt_sent(&id);
        assert_eq!(e.composer(&id).mode, InputMode::Queue);
        e.session_closed(&id);
        while e.poll_action().is_some() {}
    }
}

#[test]
fn closing_fresh_sessions_for_ever_keeps_a_bounded_set_of_entries() {
    let mut e = engine(json!({ "agentCapabilities": {} }), false);
    churn(&mut e, 0..2 * MAX_CLOSED_SESSIONS);
    let warmed = e.retained();
    churn(&mut e, 2 * MAX_CLOSED_SESSIONS..12_000);
    assert_eq!(e.live_state(), 0);
    assert_eq!(e.retained(), warmed, "flat once the closed sessions reach their bound");
    assert!(warmed <= 3 * MAX_CLOSED_SESSIONS, "a marker, its place and its last report per remembered session: {warmed}");
    assert_eq!(e.composer("churn-11999").mode, InputMode::Unavailable, "the newest closed still refuse input");
}

#[test]
fn a_session_closed_again_is_remembered_once_as_the_newest() {
    let mut e = engine(json!({ "agentCapabilities": {} }), false);
    e.session_closed("again");
    for i in 0..MAX_CLOSED_SESSIONS - 1 {
        e.session_closed(&format!("s{i:04}"));
    }
    e.session_closed("again");
    e.session_closed("one more");
    assert_eq!(e.composer("again").mode, InputMode::Unavailable, "closed most recently but one: remembered");
    assert_ne!(e.composer("s0000").mode, InputMode::Unavailable, "the oldest is the one forgotten");
    assert_eq!(e.composer("s0001").mode, InputMode::Unavailable);
}

#[test]
fn a_closed_session_opened_again_is_not_forgotten_with_the_closed_ones() {
    let mut e = engine(json!({ "agentCapabilities": {} }), false);
    e.session_closed("x");
    e.session_replaced("x");
    e.prompt_sent("x");
    for i in 0..MAX_CLOSED_SESSIONS {
        e.session_closed(&format!("s{i:04}"));
    }
    assert_eq!(e.composer("x").mode, InputMode::Queue, "its running turn is still known");
    assert_eq!(e.live_state(), 1);
}
