//! What a hook or listener does while the driver drains actions takes
//! effect before the next action: a message whose request the driver had not
//! yet taken is never written once its engine was disposed or its session
//! dropped, and it fails as unsent (its draft handed back), not as
//! "outcome unknown".
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{acp_engine, text};
use renderer_steering::core::acp::AcpEngine;
use renderer_steering::core::{Action, OpId, SteeringError, Timeouts};
use serde_json::json;

/// How each op ended (`Ok(())` for a success).
type Ended = Vec<(OpId, Result<(), SteeringError>)>;

/// A driver whose `unconfirmed` hook runs `hook` on the engine; every
/// request but the first is left unanswered. Returns the methods written and
/// how each op ended.
fn drive(e: &mut AcpEngine, hook: impl Fn(&mut AcpEngine)) -> (Vec<&'static str>, Ended) {
    let (mut written, mut ended) = (Vec::new(), Vec::new());
    while let Some(action) = e.poll_action() {
        match action {
            Action::Send(request) => written.push(request.method),
            Action::Unconfirmed { .. } => hook(e),
            Action::Complete { op, result } => ended.push((op, result.map(|_| ()))),
            _ => {}
        }
    }
    (written, ended)
}

fn ext_agent_with_two_messages() -> (AcpEngine, OpId, OpId) {
    let mut e = acp_engine(json!({ "_meta": { "steering": { "supported": true } } }), false);
    e.prompt_sent("s");
    let one = e.send("s", text("one"), 0).unwrap();
    let two = e.send("s", text("two"), 0).unwrap();
    let (written, _) = drive(&mut e, |_| {});
    assert_eq!(written, ["_session/steering"], "two waits behind one");
    (e, one, two)
}

fn kind(ended: &Ended, op: OpId) -> &'static str {
    ended.iter().find(|(id, _)| *id == op).map(|(_, r)| r.as_ref().err().map_or("ok", |e| e.failure.kind())).unwrap_or("pending")
}

#[test]
fn dispose_from_an_unconfirmed_hook_stops_the_next_message_before_it_is_written() {
    let (mut e, one, two) = ext_agent_with_two_messages();
    e.handle_timeout(Timeouts::default().request_ms + 1);
    let (written, ended) = drive(&mut e, |e| e.dispose());
    assert!(written.is_empty(), "nothing is written after dispose(): {written:?}");
    assert_eq!(kind(&ended, one), "outcomeUnknown");
    assert_eq!(kind(&ended, two), "disposed", "never written: a plain failure, its draft handed back");
}

#[test]
fn a_session_dropped_or_the_connection_closed_from_a_hook_stops_the_next_message_too() {
    for (what, end, expected) in [
        ("sessionReplaced", (|e: &mut AcpEngine| e.session_replaced("s")) as fn(&mut AcpEngine), "sessionReplaced"),
        ("sessionClosed", |e: &mut AcpEngine| e.session_closed("s"), "sessionReplaced"),
        ("connectionClosed", |e: &mut AcpEngine| e.connection_closed(), "unavailable"),
    ] {
        let (mut e, _, two) = ext_agent_with_two_messages();
        e.handle_timeout(Timeouts::default().request_ms + 1);
        let (written, ended) = drive(&mut e, end);
        assert!(written.is_empty(), "{what}: {written:?}");
        assert_eq!(kind(&ended, two), expected, "{what}");
    }
}

#[test]
fn a_request_already_taken_by_the_driver_still_ends_as_outcome_unknown() {
    let (mut e, one, _) = ext_agent_with_two_messages();
    e.dispose();
    let (_, ended) = drive(&mut e, |_| {});
    assert_eq!(kind(&ended, one), "outcomeUnknown", "its request was written");
}
