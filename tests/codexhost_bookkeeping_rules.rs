//! codexhost bookkeeping: what a cached owner decides after a reconnect,
//! malformed owner rows, and the pending requests, ops and deadlines.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{err, ok, run};
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerOutcome, SteerRequest};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, OpId, RequestId, Timeouts};
use serde_json::{json, Value};

const INSPECT: &str = "codexhost/thread/steering/inspect";
const OWNERSHIP: &str = "codexhost/thread/ownership/list";

fn steer(e: &mut CodexhostEngine, thread: &str, text: &str) -> OpId {
    let mut r = SteerRequest::text(thread, Some("turn-1"), text);
    r.client_user_message_id = Some(format!("msg-{text}"));
    e.steer(r, 0).unwrap().op()
}

fn steered(log: &common::Log<CodexhostOutcome>, op: OpId) -> SteerOutcome {
    match log.completion(op) {
        Some(Action::Complete { result: Ok(CodexhostOutcome::Steered(o)), .. }) => o.clone(),
        other => panic!("no steer: {other:?}"),
    }
}

/// A host without inspect whose ownership/list says the thread is external.
fn old_host(method: &str, params: &Value) -> Option<HostAnswer> {
    match method {
        OWNERSHIP => ok(json!({ "threads": [{ "threadId": params["threadIds"][0], "owner": "external", "harnessId": "claude" }] })),
        "turn/steer" => ok(json!({ "turnId": "turn-1" })),
        _ => err(-32601, "Method not found"),
    }
}

/// A host with inspect, answering `activeTurn` (live state of an external thread).
fn new_host(method: &str, _: &Value) -> Option<HostAnswer> {
    match method {
        INSPECT => ok(json!({ "delivery": "activeTurn" })),
        "turn/steer" => ok(json!({ "turnId": "turn-1" })),
        _ => err(-32601, "Method not found"),
    }
}

#[test]
fn after_reconnect_an_external_owner_learned_from_an_old_host_asks_the_new_hosts_inspect() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    steer(&mut e, "t", "a");
    run(&mut e, 0, old_host);
    e.connection_replaced();
    let op = steer(&mut e, "t", "b");
    let log = run(&mut e, 0, new_host);
    assert_eq!(log.methods(), [INSPECT, "turn/steer"], "the live state decides, not the cached owner");
    let o = steered(&log, op);
    assert_eq!(o.delivery.as_str(), "activeTurn");
    assert_eq!(o.trace.path, Some("inspect"));
}

#[test]
fn after_reconnect_to_an_old_host_the_cached_external_owner_decides_once_inspect_is_missing() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    steer(&mut e, "t", "a");
    run(&mut e, 0, old_host);
    e.connection_replaced();
    let op = steer(&mut e, "t", "b");
    let log = run(&mut e, 0, old_host);
    assert_eq!(log.methods(), [INSPECT, "turn/steer"], "the owner never changes: no second ownership/list");
    let o = steered(&log, op);
    assert_eq!(o.delivery.as_str(), "newTurn");
    assert_eq!((o.trace.path, o.trace.round_trips_before_steer), (Some("cachedOwner"), 1));
    let op = steer(&mut e, "t", "c");
    let log = run(&mut e, 0, old_host);
    assert_eq!(log.methods(), ["turn/steer"], "inspect is known missing again on this connection");
    assert_eq!(steered(&log, op).trace.path, Some("cachedOwner"));
}

#[test]
fn a_pending_request_names_its_thread_until_it_is_answered() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    steer(&mut e, "t", "a");
    let Some(Action::Send(request)) = e.poll_action() else { panic!("the first action sends inspect") };
    assert_eq!(e.thread_of(request.id), Some("t"));
    assert_eq!(e.thread_of(RequestId(request.id.0 + 1)), None, "never issued");
    e.handle_answer(request.id, HostAnswer::Result(json!({ "delivery": "activeTurn" }).into()), 0);
    assert_eq!(e.thread_of(request.id), None, "settled");
}

#[test]
fn disposing_drops_every_pending_deadline() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    steer(&mut e, "t", "a");
    run(&mut e, 0, |_, _| None);
    assert!(e.poll_timeout().is_some());
    e.dispose();
    assert_eq!(e.poll_timeout(), None);
    assert_eq!(e.live_state(), 0);
}

#[test]
fn one_threads_steer_finishing_leaves_another_threads_probe_pending() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let a = steer(&mut e, "a", "x");
    let b = steer(&mut e, "b", "y");
    assert_ne!(a, b, "each submission has its own op id");
    let probes = run(&mut e, 0, |_, _| None);
    assert_eq!(probes.methods(), [INSPECT, INSPECT]);
    let finished = |e: &mut CodexhostEngine, i: usize, op| {
        e.handle_answer(probes.sent[i].id, HostAnswer::Result(json!({ "delivery": "activeTurn" }).into()), 0);
        let log = run(e, 0, new_host);
        assert_eq!(steered(&log, op).delivery.as_str(), "activeTurn");
    };
    finished(&mut e, 0, a);
    finished(&mut e, 1, b);
    assert_eq!(e.live_state(), 0);
}

#[test]
fn live_state_counts_every_op_lane_and_request_held() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    steer(&mut e, "t", "a");
    run(&mut e, 0, |_, _| None);
    assert_eq!(e.live_state(), 3, "the op, its thread's lane and its inspect");
}

#[test]
fn an_external_owner_without_a_harness_fails_closed_naming_the_missing_field() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let op = steer(&mut e, "t", "a");
    let log = run(&mut e, 0, |method, _| match method {
        OWNERSHIP => ok(json!({ "threads": [{ "threadId": "t", "owner": "external" }] })),
        _ => err(-32601, "Method not found"),
    });
    assert_eq!(log.methods(), [INSPECT, OWNERSHIP], "no steer after a malformed decision");
    let Some(Action::Complete { result: Err(error), .. }) = log.completion(op) else { panic!("the decision fails") };
    assert_eq!(error.failure.kind(), "malformedAnswer");
    assert!(error.failure.message().contains("an external owner needs harnessId"), "{}", error.failure.message());
}
