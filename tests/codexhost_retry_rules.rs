//! The edges of retrying an unknown outcome: a retry that wrote nothing
//! keeps the turn the first attempt went to; a retry refused up front stays
//! unknown; a replaced connection is not trusted to deduplicate; a
//! presentation shown before a hook disposed the engine is taken back.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{ok, run, unknown_variant};
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerRequest};
use renderer_steering::core::{Action, HostAnswer, OpId, Timeouts};
use serde_json::{json, Value};

fn request(turn: Option<&str>) -> SteerRequest {
    let mut r = SteerRequest::text("t", turn, "use pnpm");
    r.client_user_message_id = Some("m1".into());
    r
}

/// A stock app-server: no codexhost method, no dedupe; `thread/read` with
/// turns shows `turns`; every `turn/steer` is counted and left unanswered.
fn stock_host(turns: Value, steers: &mut usize) -> impl FnMut(&str, &Value) -> Option<HostAnswer> + '_ {
    move |method, params| match method {
        "thread/read" if params["includeTurns"] == json!(true) => ok(json!({ "thread": { "id": "t", "turns": turns } })),
        "thread/read" => ok(json!({ "thread": { "id": "t", "modelProvider": "openai", "cliVersion": "0.171.0" } })),
        "turn/steer" => {
            *steers += 1;
            None
        }
        other => unknown_variant(other),
    }
}

fn kind(log_actions: Vec<Action<CodexhostOutcome>>, op: OpId) -> &'static str {
    log_actions
        .into_iter()
        .find_map(|a| match a {
            Action::Complete { op: done, result, .. } if done == op => Some(result.map_or_else(|e| e.failure.kind(), |_| "ok")),
            _ => None,
        })
        .unwrap_or("pending")
}

/// An engine whose steer of "m1" into turn u1 went to a stock host and got
/// no answer (outcome unknown), with the count of `turn/steer`s written (1).
fn unknown_on_a_stock_host() -> (CodexhostEngine, usize) {
    let mut steers = 0;
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(request(Some("u1")), 0).unwrap();
    run(&mut e, 0, stock_host(json!([]), &mut steers));
    e.handle_timeout(60_000);
    run(&mut e, 60_000, |_, _| None);
    assert_eq!(steers, 1);
    (e, steers)
}

#[test]
fn a_retry_that_wrote_nothing_keeps_the_turn_the_first_attempt_went_to() {
    let (mut e, mut steers) = unknown_on_a_stock_host();
    // u1 still runs and does not list the message yet (Codex records a steer
    // taken during a tool call only at the model's next request).
    let running = json!([{ "id": "u1", "status": "inProgress", "items": [] }]);
    for (attempt, turn) in [(2, Some("u2")), (3, Some("u2")), (4, None)] {
        let op = e.steer(request(turn), 0).unwrap().op();
        let log = run(&mut e, 0, stock_host(running.clone(), &mut steers));
        assert_eq!(kind(log.actions, op), "outcomeUnknown", "attempt {attempt}");
        assert_eq!(steers, 1, "attempt {attempt} sent nothing while u1 may hold the first copy");
    }
}

#[test]
fn a_retry_of_an_unknown_outcome_refused_up_front_stays_unknown_with_its_id() {
    let (mut e, _) = unknown_on_a_stock_host();
    let mut pending = request(Some("u1"));
    pending.pending_turn_start = true;
    let refused = e.steer(pending, 0).unwrap_err();
    assert_eq!((refused.failure.kind(), refused.message_id.as_deref()), ("outcomeUnknown", Some("m1")));
    // another message in flight on the thread: the retry is not sent, and stays unknown
    let mut other = SteerRequest::text("t", Some("u1"), "something else");
    other.client_user_message_id = Some("m2".into());
    e.steer(other, 0).unwrap();
    let busy = e.steer(request(Some("u1")), 0).unwrap_err();
    assert_eq!((busy.failure.kind(), busy.message_id.as_deref()), ("outcomeUnknown", Some("m1")));
    e.dispose();
    let disposed = e.steer(request(Some("u1")), 0).unwrap_err();
    assert_eq!(disposed.failure.kind(), "outcomeUnknown");
    // a fresh message is still refused plainly
    let mut fresh = SteerRequest::text("t", Some("u1"), "new words");
    fresh.client_user_message_id = Some("m3".into());
    assert_eq!(e.steer(fresh, 0).unwrap_err().failure.kind(), "disposed");
}

#[test]
fn a_delivered_id_resubmitted_with_a_pending_turn_start_resolves_with_the_earlier_result() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let op = e.steer(request(Some("u1")), 0).unwrap().op();
    let log =
        run(&mut e, 0, |m, _| if m == "turn/steer" { ok(json!({ "turnId": "u1" })) } else { ok(json!({ "delivery": "activeTurn" })) });
    assert_eq!(kind(log.actions, op), "ok");
    let mut again = request(Some("u1"));
    again.pending_turn_start = true;
    let op = e.steer(again, 0).unwrap().op();
    let log = run(&mut e, 0, |_, _| None);
    assert!(log.sent.is_empty());
    assert_eq!(kind(log.actions, op), "ok");
}

#[test]
fn after_the_connection_is_replaced_a_retry_reads_the_thread_before_resending() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(request(Some("u1")), 0).unwrap();
    // a codexhost host (it deduplicates): the steer gets no answer
    run(&mut e, 0, |m, _| if m == "turn/steer" { None } else { ok(json!({ "delivery": "activeTurn" })) });
    e.handle_timeout(60_000);
    run(&mut e, 60_000, |_, _| None);
    e.connection_replaced();
    let mut steers = 0;
    let running = json!([{ "id": "u1", "status": "inProgress", "items": [] }]);
    let op = e.steer(request(Some("u1")), 0).unwrap().op();
    let log = run(&mut e, 0, stock_host(running, &mut steers));
    assert_eq!(log.methods(), ["thread/read"], "the new host is not trusted to deduplicate");
    assert_eq!(steers, 0);
    assert_eq!(kind(log.actions, op), "outcomeUnknown");
}

#[test]
fn a_presentation_shown_before_a_hook_disposed_the_engine_is_retracted() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let op = e.steer(request(Some("u1")), 0).unwrap().op();
    let mut seen = Vec::new();
    let mut answers = vec![];
    loop {
        while let Some(action) = renderer_steering::core::Driven::poll_action(&mut e) {
            match action {
                Action::Send(r) if r.method == "codexhost/thread/steering/inspect" => answers.push(r.id),
                Action::Present { .. } => {
                    seen.push("present");
                    e.dispose(); // the UI's present hook disposes (a window closing)
                }
                Action::Retract { .. } => seen.push("retract"),
                Action::Complete { op: done, result: Err(error), .. } if done == op => seen.push(error.failure.kind()),
                _ => {}
            }
        }
        let Some(id) = answers.pop() else { break };
        e.handle_answer(id, HostAnswer::Result(json!({ "delivery": "activeTurn" }).into()), 0);
    }
    assert_eq!(seen, ["present", "retract", "disposed"], "shown, then taken back: the draft is handed back");
}
