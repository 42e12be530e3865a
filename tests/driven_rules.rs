//! A generic driver (the bridge's, or a test's) runs either dialect through
//! `core::Driven`: it must see the next deadline and deliver it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::run;
use renderer_steering::core::acp::AcpEngine;
use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest};
use renderer_steering::core::Driven;
use renderer_steering::core::{Action, Timeouts};
use serde_json::json;

/// Returns the deadline the driver sees, then delivers it; returns the
/// deadline and the failure kind the engine completes with.
fn drive_to_deadline<E: Driven>(engine: &mut E) -> (Option<u64>, Option<&'static str>) {
    let deadline = engine.poll_timeout();
    engine.handle_timeout(deadline.unwrap_or(0));
    let mut failed = None;
    while let Some(action) = engine.poll_action() {
        if let Action::Complete { result: Err(e), .. } = action {
            failed = Some(e.failure.kind());
        }
    }
    (deadline, failed)
}

#[test]
fn a_driver_sees_and_delivers_the_acp_deadline() {
    let mut e = AcpEngine::new(Timeouts::default(), false);
    e.initialized(&json!({ "_meta": { "steering": { "supported": true } } }).into(), 0);
    assert_eq!(drive_to_deadline(&mut e), (None, None));
    e.prompt_sent("s");
    e.send("s", vec![json!({ "type": "text", "text": "x" })], 5).unwrap();
    run(&mut e, 5, |_, _| None);
    assert_eq!(drive_to_deadline(&mut e), (Some(10_005), Some("outcomeUnknown")));
}

#[test]
fn a_driver_sees_and_delivers_the_codexhost_deadline() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    assert_eq!(drive_to_deadline(&mut e), (None, None));
    e.steer(SteerRequest::text("t", Some("turn-1"), "x"), 5).unwrap();
    run(&mut e, 5, |_, _| None);
    assert_eq!(drive_to_deadline(&mut e), (Some(10_005), Some("timeout")));
}
