//! "After connectionReplaced() no unknown outcome counts as deduplicated"
//! holds also for attempts that straddle the replacement.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{ok, run, steer_with_id, stock_host, unknown_variant};
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome};
use renderer_steering::core::{Action, HostAnswer, OpId, Timeouts};
use serde_json::json;

fn kind(actions: &[Action<CodexhostOutcome>], op: OpId) -> &'static str {
    actions
        .iter()
        .find_map(|a| match a {
            Action::Complete { op: done, result, .. } if *done == op => Some(result.as_ref().map_or_else(|e| e.failure.kind(), |_| "ok")),
            _ => None,
        })
        .unwrap_or("pending")
}

/// A retry admitted while the old (deduplicating) connection was up, whose
/// decision is answered by the new stock host after connectionReplaced():
/// it must read the thread before writing a second copy.
#[test]
fn a_retry_whose_decision_straddles_connection_replaced_does_not_resend_unverified() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    // 1. codexhost host (deduplicates): the steer is written, no answer.
    e.steer(steer_with_id("t", "m1"), 0).unwrap();
    run(&mut e, 0, |m, _| if m == "turn/steer" { None } else { ok(json!({ "delivery": "activeTurn" })) });
    e.handle_timeout(60_000);
    run(&mut e, 60_000, |_, _| None);
    // 2. The user retries with the same id: its inspect goes out...
    let op = e.steer(steer_with_id("t", "m1"), 60_000).unwrap().op();
    let inspect = run(&mut e, 60_000, |_, _| None);
    assert_eq!(inspect.methods(), ["codexhost/thread/steering/inspect"]);
    // 3. ...the connection is replaced by a stock app-server (no dedupe),
    //    which answers the inspect as an unknown method.
    e.connection_replaced();
    e.handle_answer(inspect.sent[0].id, unknown_variant("codexhost/thread/steering/inspect").unwrap(), 60_001);
    let mut steers = 0;
    let log = run(&mut e, 60_001, stock_host(&mut steers));
    assert_eq!(
        steers,
        0,
        "a second turn/steer of m1 went to a host that does not deduplicate, unverified: {:?} -> {}",
        log.methods(),
        kind(&log.actions, op)
    );
}

/// The same window, with the old host's own inspect answer arriving just
/// after connectionReplaced() (the answer was on the wire when the app
/// switched connections): the retry's turn/steer is written on the new
/// connection, whose host does not deduplicate, without reading the thread.
#[test]
fn a_retry_decided_by_a_late_inspect_answer_is_not_written_unverified_to_the_new_connection() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(steer_with_id("t", "m1"), 0).unwrap();
    run(&mut e, 0, |m, _| if m == "turn/steer" { None } else { ok(json!({ "delivery": "activeTurn" })) });
    e.handle_timeout(60_000);
    run(&mut e, 60_000, |_, _| None);
    let op = e.steer(steer_with_id("t", "m1"), 60_000).unwrap().op();
    let inspect = run(&mut e, 60_000, |_, _| None);
    e.connection_replaced();
    e.handle_answer(inspect.sent[0].id, HostAnswer::Result(json!({ "delivery": "activeTurn" }).into()), 60_001);
    let mut steers = 0;
    let log = run(&mut e, 60_001, stock_host(&mut steers));
    assert_eq!(
        steers,
        0,
        "m1 written again on the new connection without a thread read: {:?} -> {}",
        log.methods(),
        kind(&log.actions, op)
    );
}
