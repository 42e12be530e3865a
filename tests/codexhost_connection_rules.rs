//! What an answer of a replaced connection may teach: the thread's owner
//! (it never changes), but nothing about the new connection (which methods
//! it lacks, whether it deduplicates by `clientUserMessageId`).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{ok, run, steer_with_id, stock_host};
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerRequest};
use renderer_steering::core::{Action, HostAnswer, RequestId, RpcError, Timeouts};
use serde_json::{json, Value};

/// Starts a steer whose first probe stays unanswered; returns that probe's id.
fn steer_with_open_probe(e: &mut CodexhostEngine, r: SteerRequest) -> RequestId {
    e.steer(r, 0).unwrap();
    let mut probe = None;
    while let Some(action) = e.poll_action() {
        if let Action::Send(sent) = action {
            assert_eq!(sent.method, "codexhost/thread/steering/inspect");
            probe = Some(sent.id);
        }
    }
    probe.expect("the inspect request")
}

#[test]
fn an_inspect_answer_of_the_old_connection_does_not_make_the_new_one_deduplicate() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let probe = steer_with_open_probe(&mut e, steer_with_id("t", "m1"));
    // Reconnected to a stock app-server; then the old host's inspect answer arrives.
    e.connection_replaced();
    e.handle_answer(probe, HostAnswer::Result(json!({ "delivery": "official" }).into()), 0);
    let mut steers = 0;
    run(&mut e, 0, stock_host(&mut steers));
    e.handle_timeout(60_000);
    let lost = run(&mut e, 60_000, |_, _| None);
    assert!(lost.actions.iter().any(|a| matches!(a, Action::Complete { result: Err(err), .. } if err.failure.kind() == "outcomeUnknown")));
    assert_eq!(steers, 1);
    // The retry must not trust the stock host to drop a second copy.
    e.steer(steer_with_id("t", "m1"), 60_000).unwrap();
    let retry = run(&mut e, 60_000, stock_host(&mut steers));
    assert_eq!(retry.methods()[0], "thread/read", "the retry reads the thread first");
    assert_eq!(steers, 1, "no second turn/steer while u1 may hold the first copy");
}

#[test]
fn a_missing_method_answer_of_the_old_connection_does_not_skip_the_new_ones_inspect() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let probe = steer_with_open_probe(&mut e, steer_with_id("a", "m1"));
    e.connection_replaced();
    e.handle_answer(probe, HostAnswer::Error(RpcError::new(-32601, "Method not found")), 0);
    let _ = run(&mut e, 0, |_, _| None);
    e.steer(steer_with_id("b", "m2"), 0).unwrap();
    let next = run(&mut e, 0, |_, _| None);
    assert_eq!(next.methods()[0], "codexhost/thread/steering/inspect", "the new connection may have inspect");
}

#[test]
fn the_owner_an_old_answer_showed_is_still_learned() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let probe = steer_with_open_probe(&mut e, steer_with_id("t", "m1"));
    e.connection_replaced();
    e.handle_answer(probe, HostAnswer::Result(json!({ "delivery": "official" }).into()), 0);
    let _ = run(&mut e, 0, |m, _| if m == "turn/steer" { ok(json!({ "turnId": "u1" })) } else { None });
    assert_eq!(e.remembered_owners(), 1);
    let op = e.steer(steer_with_id("t", "m2"), 0).unwrap().op();
    let next = run(&mut e, 0, |m, _| if m == "turn/steer" { ok(json!({ "turnId": "u1" })) } else { None });
    assert_eq!(next.methods(), ["turn/steer"], "a codex-owned thread needs no probe");
    assert!(matches!(next.completion(op), Some(Action::Complete { result: Ok(CodexhostOutcome::Steered(_)), .. })));
}

#[test]
fn a_steer_written_on_the_old_connection_is_not_trusted_to_the_new_ones_deduplication() {
    let codexhost = |m: &str, _: &Value| match m {
        "codexhost/thread/steering/inspect" => ok(json!({ "delivery": "official" })),
        _ => None,
    };
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(steer_with_id("t", "m1"), 0).unwrap();
    let first = run(&mut e, 0, codexhost);
    assert_eq!(first.methods(), ["codexhost/thread/steering/inspect", "turn/steer"]);
    // Reconnected (perhaps to another host) while m1's turn/steer is out; the
    // new host answers an inspect for another thread, then m1's answer is lost.
    e.connection_replaced();
    e.steer(steer_with_id("other", "m2"), 0).unwrap();
    run(&mut e, 0, codexhost);
    e.handle_timeout(60_000);
    run(&mut e, 60_000, |_, _| None);
    e.steer(steer_with_id("t", "m1"), 60_000).unwrap();
    let mut steers = 0;
    let retry = run(&mut e, 60_000, stock_host(&mut steers));
    assert_eq!(retry.methods()[0], "thread/read", "the new connection never saw m1: read the thread first");
}

#[test]
fn a_retry_that_sent_nothing_keeps_the_presentation_of_the_attempt_that_did() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(steer_with_id("t", "m1"), 0).unwrap();
    let first = run(&mut e, 0, |m, _| match m {
        "codexhost/thread/steering/inspect" => ok(json!({ "delivery": "newTurn" })),
        _ => None,
    });
    assert_eq!(first.presented(), ["newTurn"]);
    e.handle_timeout(60_000);
    run(&mut e, 60_000, |_, _| None);
    e.connection_replaced();
    let op = e.steer(steer_with_id("t", "m1"), 60_000).unwrap().op();
    let mut steers = 0;
    let retry = run(&mut e, 60_000, stock_host(&mut steers));
    assert_eq!((retry.methods(), steers), (vec!["thread/read"], 0));
    let kept = retry.actions.iter().find_map(|a| match a {
        Action::Unconfirmed { op: o, presentation } if *o == op => Some(*presentation),
        _ => None,
    });
    assert_eq!(kept, Some("newTurn"), "still shown as the first attempt showed it");
}
