//! A retry of an unknown outcome on a host that does not deduplicate reads
//! the thread first; an answer that does not show the turn the first copy
//! went to has ended must not be read as "not applied".
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{ok, run, unknown_variant};
use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest};
use renderer_steering::core::{HostAnswer, Timeouts};
use serde_json::{json, Value};

fn request() -> SteerRequest {
    let mut r = SteerRequest::text("t", Some("u1"), "use pnpm");
    r.client_user_message_id = Some("m1".into());
    r
}

/// A stock app-server (no dedupe) whose `thread/read { includeTurns: true }`
/// answers `read`; every `turn/steer` is counted and left unanswered.
fn stock_host(read: Value, steers: &mut usize) -> impl FnMut(&str, &Value) -> Option<HostAnswer> + '_ {
    move |method, params| match method {
        "thread/read" if params["includeTurns"] == json!(true) => ok(read.clone()),
        "thread/read" => ok(json!({ "thread": { "id": "t", "modelProvider": "openai", "cliVersion": "0.171.0" } })),
        "turn/steer" => {
            *steers += 1;
            None
        }
        other => unknown_variant(other),
    }
}

/// m1 was written into u1 on a stock host and got no answer; then the user retries it.
fn retry_against(read: Value) -> usize {
    let mut steers = 0;
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(request(), 0).unwrap();
    run(&mut e, 0, stock_host(json!({}), &mut steers));
    e.handle_timeout(60_000);
    run(&mut e, 60_000, |_, _| None);
    assert_eq!(steers, 1);
    e.steer(request(), 60_000).unwrap();
    run(&mut e, 60_000, stock_host(read, &mut steers));
    steers
}

#[test]
fn a_thread_read_whose_turn_has_no_status_does_not_prove_the_turn_ended() {
    // u1 is listed, without the message and without a status: nothing says u1 ended.
    let read = json!({ "thread": { "id": "t", "turns": [{ "id": "u1", "items": [] }] } });
    assert_eq!(retry_against(read), 1, "m1 was sent a second time to a host that does not deduplicate");
}

#[test]
fn a_thread_read_whose_turn_has_an_unknown_status_does_not_prove_the_turn_ended() {
    // a status value this engine does not know (e.g. a newer host's "waitingForApproval")
    let read = json!({ "thread": { "id": "t", "turns": [{ "id": "u1", "status": "waitingForApproval", "items": [] }] } });
    assert_eq!(retry_against(read), 1, "m1 was sent a second time to a host that does not deduplicate");
}

#[test]
fn a_thread_read_of_another_thread_does_not_prove_the_message_was_not_applied() {
    // the answer is about another thread: it says nothing about t's turns
    let read = json!({ "thread": { "id": "other", "turns": [] } });
    assert_eq!(retry_against(read), 1, "m1 was sent a second time to a host that does not deduplicate");
}

#[test]
fn a_thread_read_that_does_not_list_the_turn_does_not_prove_the_message_was_not_applied() {
    let read = json!({ "thread": { "id": "t", "turns": [{ "id": "u0", "status": "completed", "items": [] }] } });
    assert_eq!(retry_against(read), 1, "u1 is not shown ended: m1 may still be in it");
}

#[test]
fn a_thread_read_showing_the_turn_ended_without_the_message_lets_the_retry_send() {
    for status in ["completed", "interrupted", "failed"] {
        let read = json!({ "thread": { "id": "t", "turns": [{ "id": "u1", "status": status, "items": [] }] } });
        assert_eq!(retry_against(read), 2, "u1 {status} without m1: it was not applied");
    }
}
