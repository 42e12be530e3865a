//! A `_session/steering` steer the agent accepted (`injected`) is pending
//! input of the running turn, not yet read by the model: it is delivered
//! only on evidence, and one whose turn is cancelled first ends unknown,
//! with its draft, and is never resent.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{acp_engine, done, ok, run, silent, text};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome, InputMode};
use renderer_steering::core::{Action, HostAnswer, OpId};
use serde_json::{json, Value};

fn steering_agent() -> AcpEngine {
    acp_engine(json!({ "_meta": { "steering": { "supported": true } }, "agentCapabilities": {} }), false)
}

fn injected(_: &str, _: &Value) -> Option<HostAnswer> {
    ok(json!({ "outcome": "injected" }))
}

fn end(e: &mut AcpEngine, stop_reason: &str) {
    e.prompt_answered("s", &json!({ "stopReason": stop_reason }).into(), 1);
}

/// An engine with the app's turn running and one steer the agent accepted.
fn accepted_steer(words: &str) -> (AcpEngine, OpId) {
    let mut e = steering_agent();
    e.prompt_sent("s");
    let op = e.send("s", text(words), 0).unwrap();
    let log = run(&mut e, 0, injected);
    assert_eq!(log.accepted(), [op]);
    assert!(done(&log, op).is_none());
    (e, op)
}

fn unknown_with_draft(result: Option<Result<AcpOutcome, renderer_steering::core::SteeringError>>, words: &str) {
    let Some(Err(error)) = result else { panic!("expected a failure, got {result:?}") };
    assert_eq!(error.failure.kind(), "outcomeUnknown", "{error:?}");
    assert_eq!(error.draft.value(), json!(text(words)), "the draft comes back intact");
}

#[test]
fn an_accepted_steer_is_told_to_the_accepted_hook_with_its_path() {
    let mut e = steering_agent();
    e.prompt_sent("s");
    let op = e.send("s", text("use pnpm"), 0).unwrap();
    let log = run(&mut e, 0, injected);
    assert!(log.actions.iter().any(|a| matches!(a, Action::Accepted { op: o, presentation: "steeringExtension" } if *o == op)));
}

#[test]
fn a_turn_that_ends_other_than_cancelled_delivers_its_accepted_steers() {
    for reason in ["end_turn", "max_tokens", "max_turn_requests", "refusal"] {
        let (mut e, op) = accepted_steer("use pnpm");
        end(&mut e, reason);
        let log = run(&mut e, 1, silent);
        let outcome = done(&log, op);
        assert!(matches!(outcome, Some(Ok(AcpOutcome::Injected { delivered: Some("turnEnded"), .. }))), "{reason}: {outcome:?}");
    }
}

#[test]
fn a_turn_that_ends_cancelled_leaves_an_accepted_steer_unknown_with_its_draft() {
    let (mut e, op) = accepted_steer("use pnpm");
    end(&mut e, "cancelled");
    let log = run(&mut e, 1, silent);
    unknown_with_draft(done(&log, op), "use pnpm");
    assert!(log.actions.iter().any(|a| matches!(a, Action::Unconfirmed { op: o, presentation: "steeringExtension" } if *o == op)));
    assert!(log.sent.is_empty(), "never resent");
}

#[test]
fn cancel_sent_ends_an_accepted_steer_unknown_at_once() {
    let (mut e, op) = accepted_steer("use pnpm");
    e.cancel_sent("s");
    let log = run(&mut e, 1, silent);
    unknown_with_draft(done(&log, op), "use pnpm");
    end(&mut e, "end_turn");
    let later = run(&mut e, 2, silent);
    assert!(later.completion(op).is_none(), "it ended once");
    assert!(later.sent.is_empty());
}

#[test]
fn a_steer_accepted_after_the_user_cancelled_its_turn_is_unknown_at_once() {
    let mut e = steering_agent();
    e.prompt_sent("s");
    let op = e.send("s", text("use pnpm"), 0).unwrap();
    let first = run(&mut e, 0, silent);
    e.cancel_sent("s");
    e.handle_answer(first.sent[0].id, HostAnswer::Result(json!({ "outcome": "injected" }).into()), 1);
    let log = run(&mut e, 1, silent);
    unknown_with_draft(done(&log, op), "use pnpm");
}

#[test]
fn an_app_prompt_answer_without_a_stop_reason_proves_nothing() {
    let (mut e, op) = accepted_steer("use pnpm");
    e.prompt_answered("s", &json!({ "error": { "code": -32603 } }).into(), 1);
    let log = run(&mut e, 1, silent);
    unknown_with_draft(done(&log, op), "use pnpm");
}

#[test]
fn two_steers_in_one_turn_are_both_accepted_in_order_and_delivered_at_its_end() {
    let (mut e, a) = accepted_steer("first");
    let b = e.send("s", text("second"), 0).unwrap();
    let log = run(&mut e, 0, injected);
    assert_eq!(log.methods(), ["_session/steering"], "the lane opened once the first was accepted");
    assert_eq!(log.accepted(), [b]);
    assert_eq!(e.composer("s").mode, InputMode::Direct);
    end(&mut e, "end_turn");
    let log = run(&mut e, 1, silent);
    let ended: Vec<OpId> =
        log.actions.iter().filter_map(|x| if let Action::Complete { op, result: Ok(_) } = x { Some(*op) } else { None }).collect();
    assert_eq!(ended, [a, b]);
}

#[test]
fn the_connection_closing_leaves_an_accepted_steer_unknown() {
    let (mut e, op) = accepted_steer("use pnpm");
    e.connection_closed();
    unknown_with_draft(done(&run(&mut e, 1, silent), op), "use pnpm");
}

#[test]
fn the_session_replaced_leaves_an_accepted_steer_unknown() {
    let (mut e, op) = accepted_steer("use pnpm");
    e.session_replaced("s");
    unknown_with_draft(done(&run(&mut e, 1, silent), op), "use pnpm");
}

#[test]
fn dispose_leaves_an_accepted_steer_unknown() {
    let (mut e, op) = accepted_steer("use pnpm");
    e.dispose();
    unknown_with_draft(done(&run(&mut e, 1, silent), op), "use pnpm");
}

#[test]
fn an_accepted_steer_keeps_its_session_until_it_lands() {
    let (mut e, op) = accepted_steer("use pnpm");
    assert!(e.live_state() > 0);
    end(&mut e, "end_turn");
    let log = run(&mut e, 1, silent);
    assert!(done(&log, op).is_some());
    assert_eq!(e.live_state(), 0, "nothing held once it landed");
}

#[test]
fn an_unowned_turn_that_ends_delivers_a_steer_accepted_in_it() {
    let mut e = steering_agent();
    e.prompt_sent("s");
    let started = e.send("s", text("start"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| ok(json!({ "outcome": "startedNewTurn" })));
    assert!(matches!(done(&log, started), Some(Ok(AcpOutcome::StartedNewTurn { .. }))));
    end(&mut e, "end_turn");
    let op = e.send("s", text("steer it"), 1).unwrap();
    assert!(run(&mut e, 1, injected).accepted().contains(&op));
    e.session_idle("s", 2);
    let outcome = done(&run(&mut e, 2, silent), op);
    assert!(matches!(outcome, Some(Ok(AcpOutcome::Injected { delivered: Some("turnEnded"), .. }))), "{outcome:?}");
}

#[test]
fn an_accepted_inject_resolves_at_acceptance_and_survives_a_cancel() {
    let mut e = acp_engine(json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } } } }), false);
    e.prompt_sent("s");
    let op = e.send("s", text("use pnpm"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| ok(json!({ "messageId": "m1" })));
    assert_eq!(log.accepted(), [op]);
    assert!(
        matches!(done(&log, op), Some(Ok(AcpOutcome::Injected { delivered: None, .. }))),
        "the RFD keeps pending injects across a cancel"
    );
    e.cancel_sent("s");
    assert_eq!(e.composer("s").pending_injects, ["m1"]);
}

#[test]
fn a_steer_answered_injected_after_its_turn_ended_takes_that_turns_end() {
    for (reason, delivered) in [("end_turn", true), ("cancelled", false)] {
        let mut e = steering_agent();
        e.prompt_sent("s");
        let op = e.send("s", text("use pnpm"), 0).unwrap();
        let first = run(&mut e, 0, silent);
        end(&mut e, reason);
        e.handle_answer(first.sent[0].id, HostAnswer::Result(json!({ "outcome": "injected" }).into()), 1);
        let outcome = done(&run(&mut e, 1, silent), op);
        if delivered {
            assert!(matches!(outcome, Some(Ok(AcpOutcome::Injected { delivered: Some("turnEnded"), .. }))), "{outcome:?}");
        } else {
            unknown_with_draft(outcome, "use pnpm");
        }
        assert_eq!(e.live_state(), 0, "{reason}: nothing left waiting for a turn that is over");
    }
}
