//! The retry of an unknown `turn/start` (a running turn not listing it
//! proves nothing), one delivery never evicts an unknown outcome, a
//! verified retry reports how it was shown; and delivery values and equal
//! deadlines.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{ok, run, unknown_variant};
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, Delivery, SteerRequest};
use renderer_steering::core::{Action, HostAnswer, OpId, Timeouts};
use serde_json::{json, Value};

fn req(turn: Option<&str>, id: &str) -> SteerRequest {
    let mut r = SteerRequest::text("t", turn, "use pnpm");
    r.client_user_message_id = Some(id.into());
    r
}

/// A stock app-server: no codexhost method; `thread/read` with turns shows
/// `turns`; every carrying request (turn/steer, turn/start) is counted, unanswered.
fn stock_host(turns: Value, carried: &mut Vec<String>) -> impl FnMut(&str, &Value) -> Option<HostAnswer> + '_ {
    move |method, params| match method {
        "thread/read" if params["includeTurns"] == json!(true) => ok(json!({ "thread": { "id": "t", "turns": turns } })),
        "thread/read" => ok(json!({ "thread": { "id": "t", "modelProvider": "openai", "cliVersion": "0.171.0" } })),
        "turn/steer" | "turn/start" => {
            carried.push(format!("{method} {}", params["clientUserMessageId"]));
            None
        }
        other => unknown_variant(other),
    }
}

fn result(actions: &[Action<CodexhostOutcome>], op: OpId) -> Option<Result<CodexhostOutcome, &'static str>> {
    actions.iter().find_map(|a| match a {
        Action::Complete { op: o, result } if *o == op => Some(result.clone().map_err(|e| e.failure.kind())),
        _ => None,
    })
}

/// (1) An unknown `turn/start` on a stock host; the retry reads the thread and
/// finds a turn running that does not list the message yet (the turn the first
/// start may have opened: a turn/start answers with `items: []`). As on the
/// steer path, "not there yet while a turn runs" proves nothing; the retry
/// must not send a second copy.
#[test]
fn a_retry_of_an_unknown_turn_start_does_not_resend_while_a_turn_runs_without_it() {
    let mut carried = vec![];
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(req(None, "m1"), 0).unwrap();
    run(&mut e, 0, stock_host(json!([]), &mut carried));
    e.handle_timeout(60_000);
    let log = run(&mut e, 60_000, |_, _| None);
    assert_eq!(result(&log.actions, OpId(1)), Some(Err("outcomeUnknown")));
    assert_eq!(carried.len(), 1);
    // the thread now shows an earlier turn (ended) and a new one running, not listing m1 yet
    let turns = json!([
        { "id": "u0", "status": "completed", "items": [] },
        { "id": "u1", "status": "inProgress", "items": [] },
    ]);
    let op = e.steer(req(None, "m1"), 60_000).unwrap().op();
    let log = run(&mut e, 60_000, stock_host(turns, &mut carried));
    assert_eq!(carried, ["turn/start \"m1\""], "a second copy went out: {:?} -> {:?}", log.methods(), result(&log.actions, op));
}

/// (1b) Same, the retry now names the turn the desktop saw start (u1).
#[test]
fn a_retry_of_an_unknown_turn_start_naming_the_new_turn_does_not_steer_a_second_copy_into_it() {
    let mut carried = vec![];
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(req(None, "m1"), 0).unwrap();
    run(&mut e, 0, stock_host(json!([]), &mut carried));
    e.handle_timeout(60_000);
    run(&mut e, 60_000, |_, _| None);
    let turns = json!([{ "id": "u1", "status": "inProgress", "items": [] }]);
    let op = e.steer(req(Some("u1"), "m1"), 60_000).unwrap().op();
    let log = run(&mut e, 60_000, stock_host(turns, &mut carried));
    assert_eq!(carried, ["turn/start \"m1\""], "a second copy went out: {:?} -> {:?}", log.methods(), result(&log.actions, op));
}

/// (2) verifiedDelivered of a message whose first attempt was a turn/start
/// (shown and delivered as a new turn) reports it as official/official.
#[test]
fn a_verified_turn_start_reports_what_was_shown_and_how_it_went() {
    let mut carried = vec![];
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(req(None, "m1"), 0).unwrap();
    let log = run(&mut e, 0, stock_host(json!([]), &mut carried));
    assert_eq!(log.presented(), ["newTurn"]);
    e.handle_timeout(60_000);
    run(&mut e, 60_000, |_, _| None);
    let turns = json!([{ "id": "u1", "status": "inProgress", "items": [{ "clientId": "m1" }] }]);
    let op = e.steer(req(None, "m1"), 60_000).unwrap().op();
    let log = run(&mut e, 60_000, stock_host(turns, &mut carried));
    let Some(Ok(CodexhostOutcome::Steered(o))) = result(&log.actions, op) else { panic!("{:?}", log.actions) };
    assert_eq!(o.trace.path, Some("verifiedDelivered"));
    assert_eq!((o.presented, o.delivery), (Delivery::NewTurn, Delivery::NewTurn), "shown as a new turn, started a new turn");
}

/// (4) docs/design.md: "delivered ids are forgotten before unknown outcomes ... so a
/// late retry still finds its unknown outcome after any number of deliveries".
/// With 256 unknown outcomes remembered, one delivery must not evict the oldest
/// unknown: its retry would go out unverified to a host that does not deduplicate.
#[test]
fn one_delivery_does_not_evict_an_unknown_outcome() {
    let mut carried = vec![];
    let mut e = CodexhostEngine::new(Timeouts::default());
    for i in 0..256 {
        let op = e.steer(req(Some("u1"), &format!("m{i}")), 0).unwrap().op();
        run(&mut e, 0, stock_host(json!([]), &mut carried));
        e.handle_timeout(60_000);
        let log = run(&mut e, 60_000, |_, _| None);
        assert_eq!(result(&log.actions, op), Some(Err("outcomeUnknown")));
    }
    // one delivered message, on another thread
    let mut d = SteerRequest::text("t2", Some("v1"), "hello");
    d.client_user_message_id = Some("d1".into());
    let op = e.steer(d, 60_000).unwrap().op();
    let log = run(&mut e, 60_000, |m, _| match m {
        "turn/steer" => ok(json!({ "turnId": "v1" })),
        "thread/read" => ok(json!({ "thread": { "id": "t2", "modelProvider": "openai", "cliVersion": "0.171.0" } })),
        other => unknown_variant(other),
    });
    assert!(matches!(result(&log.actions, op), Some(Ok(_))));
    // retry the oldest unknown: u1 still runs, nothing may be sent
    carried.clear();
    let running = json!([{ "id": "u1", "status": "inProgress", "items": [] }]);
    let op = e.steer(req(Some("u1"), "m0"), 60_000).unwrap().op();
    let log = run(&mut e, 60_000, stock_host(running, &mut carried));
    assert!(carried.is_empty(), "second copy sent: {:?} -> {:?}", log.methods(), result(&log.actions, op));
}

/// (3) unknown / null delivery in a turn/steer answer.
#[test]
fn delivery_values_in_a_steer_answer() {
    for (delivery, want) in [(json!("official"), "outcomeUnknown"), (json!("sideways"), "outcomeUnknown"), (json!(7), "outcomeUnknown")] {
        let mut e = CodexhostEngine::new(Timeouts::default());
        let op = e.steer(req(Some("u1"), "m1"), 0).unwrap().op();
        let d = delivery.clone();
        let log = run(&mut e, 0, move |m, _| match m {
            "turn/steer" => ok(json!({ "turnId": "u1", "delivery": d })),
            _ => ok(json!({ "delivery": "activeTurn" })),
        });
        assert_eq!(result(&log.actions, op).map(|r| r.err()), Some(Some(want)), "{delivery}");
        assert!(!log.has_retract());
        assert!(log.actions.iter().any(|a| matches!(a, Action::Unconfirmed { presentation: "activeTurn", .. })));
    }
}

/// (3) inspect with an unknown delivery: no steer, draft back.
#[test]
fn an_inspect_with_an_unknown_delivery_sends_nothing() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let op = e.steer(req(Some("u1"), "m1"), 0).unwrap().op();
    let log = run(&mut e, 0, |_, _| ok(json!({ "delivery": "later" })));
    assert_eq!(log.methods(), ["codexhost/thread/steering/inspect"]);
    assert_eq!(result(&log.actions, op).map(|r| r.err()), Some(Some("malformedAnswer")));
    assert!(log.presented().is_empty());
}

/// (6) a timeout and an answer at the same `now`, equal deadlines.
#[test]
fn equal_deadlines_and_same_instant_answers() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let a = e.steer(SteerRequest::text("a", Some("u"), "x"), 0).unwrap().op();
    let b = e.steer(SteerRequest::text("b", Some("u"), "x"), 0).unwrap().op();
    let log = run(&mut e, 0, |m, _| if m == "turn/steer" { None } else { ok(json!({ "delivery": "activeTurn" })) });
    let steers: Vec<_> = log.sent.iter().filter(|s| s.method == "turn/steer").map(|s| s.id).collect();
    assert_eq!(steers.len(), 2);
    assert_eq!(e.poll_timeout(), Some(30_000));
    e.handle_answer(steers[1], HostAnswer::Result(json!({ "turnId": "u" }).into()), 30_000);
    e.handle_timeout(30_000);
    e.handle_answer(steers[0], HostAnswer::Result(json!({ "turnId": "u" }).into()), 30_000);
    let log = run(&mut e, 30_000, |_, _| None);
    assert_eq!(result(&log.actions, a).map(|r| r.err()), Some(Some("outcomeUnknown")));
    assert!(matches!(result(&log.actions, b), Some(Ok(_))));
    assert_eq!(e.live_state(), 0);
    assert_eq!(e.poll_timeout(), None);
}
