//! "Never a duplicate", natively: once the request carrying a
//! message may have reached the host, a missing answer is `outcomeUnknown`
//! (kept on screen, unconfirmed, never retracted, never resent by the
//! engine); a failure before the write or a definite refusal is a plain
//! failure; one `clientUserMessageId` is one delivery.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{err, ok, run, unknown_variant, Log};
use renderer_steering::core::acp::AcpEngine;
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerOutcome, SteerRequest};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, OpId, SteeringError, Timeouts};
use serde_json::{json, Value};

fn request(id: &str) -> SteerRequest {
    let mut r = SteerRequest::text("t", Some("turn-1"), "use pnpm");
    r.client_user_message_id = Some(id.into());
    r
}

fn result(log: &Log<CodexhostOutcome>, op: OpId) -> Result<SteerOutcome, SteeringError> {
    match log.completion(op) {
        Some(Action::Complete { result: Ok(CodexhostOutcome::Steered(o)), .. }) => Ok(o.clone()),
        Some(Action::Complete { result: Err(e), .. }) => Err(e.clone()),
        other => panic!("no completion: {other:?}"),
    }
}

fn unconfirmed<O>(log: &Log<O>) -> Vec<&'static str> {
    log.actions.iter().filter_map(|a| if let Action::Unconfirmed { presentation, .. } = a { Some(*presentation) } else { None }).collect()
}

/// A codexhost host (inspect answers) whose `turn/steer` answer is `steer`.
fn new_host(steer: Option<HostAnswer>) -> impl FnMut(&str, &Value) -> Option<HostAnswer> {
    move |method, _| match method {
        "codexhost/thread/steering/inspect" => ok(json!({ "delivery": "activeTurn" })),
        _ => steer.clone(),
    }
}

/// Steers once against `host`, then answers the steer with `answer` (or lets it time out).
fn steer_then(answer: Option<HostAnswer>) -> (CodexhostEngine, Log<CodexhostOutcome>, OpId) {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let op = e.steer(request("m1"), 0).unwrap().op();
    let mut log = run(&mut e, 0, new_host(answer.clone()));
    if answer.is_none() {
        e.handle_timeout(60_000);
        let after = run(&mut e, 60_000, |_, _| None);
        log.actions.extend(after.actions);
    }
    (e, log, op)
}

#[test]
fn a_failure_before_the_write_is_plain_retracted_and_carries_the_id() {
    let (_, log, op) = steer_then(Some(HostAnswer::NotSent("socket closed".into())));
    let error = result(&log, op).unwrap_err();
    assert_eq!(error.failure.kind(), "transport");
    assert!(log.has_retract());
    assert!(unconfirmed(&log).is_empty());
    assert_eq!(error.message_id.as_deref(), Some("m1"));
}

#[test]
fn a_definite_refusal_after_the_write_is_a_failure_and_retracted() {
    let (_, log, op) = steer_then(err(-32600, "expected active turn id turn-1 but found turn-2"));
    assert_eq!(result(&log, op).unwrap_err().failure.kind(), "host");
    assert!(log.has_retract());
    assert!(unconfirmed(&log).is_empty());
}

#[test]
fn a_steering_error_reads_as_its_failure_s_sentence() {
    let (_, log, op) = steer_then(err(-32600, "expected active turn id turn-1 but found turn-2"));
    let error = result(&log, op).unwrap_err();
    assert_eq!(error.to_string(), error.failure.message());
    assert!(error.to_string().contains("expected active turn id turn-1 but found turn-2"), "{error}");
}

#[test]
fn no_answer_after_the_write_is_outcome_unknown_kept_on_screen_and_unconfirmed() {
    let answers = [
        None, // the engine's own bound
        Some(HostAnswer::Transport("connection lost".into())),
        Some(HostAnswer::Unreadable("a cycle".into())),
        ok(json!({ "turnId": "" })),
    ];
    for answer in answers {
        let (_, log, op) = steer_then(answer.clone());
        let error = result(&log, op).unwrap_err();
        assert_eq!(error.failure.kind(), "outcomeUnknown", "{answer:?}");
        assert!(!log.has_retract(), "never retracted: {answer:?}");
        assert_eq!(unconfirmed(&log), ["activeTurn"], "{answer:?}");
        assert_eq!(error.draft, vec![json!({ "type": "text", "text": "use pnpm" })]);
        assert_eq!(error.message_id.as_deref(), Some("m1"), "the id to retry with");
        assert_eq!(log.methods().iter().filter(|m| **m == "turn/steer").count(), 1, "never resent");
    }
}

#[test]
fn dispose_while_the_steer_is_out_is_outcome_unknown_not_retracted() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let op = e.steer(request("m1"), 0).unwrap().op();
    run(&mut e, 0, new_host(None));
    e.dispose();
    let log = run(&mut e, 0, |_, _| None);
    assert_eq!(result(&log, op).unwrap_err().failure.kind(), "outcomeUnknown");
    assert!(!log.has_retract());
    assert_eq!(unconfirmed(&log), ["activeTurn"]);
}

#[test]
fn resubmitting_a_delivered_id_resolves_with_the_earlier_result_and_sends_nothing() {
    let (mut e, log, op) = steer_then(ok(json!({ "turnId": "turn-1" })));
    let first = result(&log, op).unwrap();
    let again = e.steer(request("m1"), 0).unwrap().op();
    let log = run(&mut e, 0, new_host(ok(json!({ "turnId": "turn-1" }))));
    assert!(log.sent.is_empty(), "nothing sent: {:?}", log.methods());
    assert!(log.presented().is_empty(), "nothing shown twice");
    let second = result(&log, again).unwrap();
    assert_eq!((second.turn_id, second.delivery), (first.turn_id, first.delivery));
    assert_eq!(second.trace.path, Some("alreadyDelivered"));
    // Another message id on the same thread is a new message.
    e.steer(request("m2"), 0).unwrap();
    assert!(run(&mut e, 0, new_host(ok(json!({ "turnId": "turn-1" })))).methods().contains(&"turn/steer"));
}

#[test]
fn a_message_id_reused_for_another_text_is_refused_with_its_draft_and_nothing_sent() {
    // After a delivery (the host would answer -32602) and after an unknown outcome alike.
    for first in [ok(json!({ "turnId": "turn-1" })), None] {
        let (mut e, _, _) = steer_then(first.clone());
        let mut other = SteerRequest::text("t", Some("turn-1"), "use bun");
        other.client_user_message_id = Some("m1".into());
        let error = e.steer(other.clone(), 0).unwrap_err();
        assert_eq!(error.failure.kind(), "invalidInput", "{:?}", first);
        assert!(error.failure.message().contains("m1"), "{}", error.failure.message());
        assert_eq!(error.draft, other.input, "the new words come back");
        assert!(run(&mut e, 0, new_host(ok(json!({ "turnId": "turn-1" })))).sent.is_empty(), "nothing sent");
    }
}

#[test]
fn a_retry_that_fails_before_its_own_steer_stays_outcome_unknown_never_a_plain_failure() {
    // The earlier attempt may have reached the host: whatever the retry meets
    // (its probe times out, the host refuses the probe, dispose), the words
    // must not come back as a plain failure that invites a send under a new id.
    for end in ["probe timeout", "probe refused", "dispose"] {
        let (mut e, _, _) = steer_then(None);
        let op = e.steer(request("m1"), 1_000).unwrap().op();
        let probe = if end == "probe refused" { err(-32073, "harness failure") } else { None };
        let mut log = run(&mut e, 1_000, move |_, _| probe.clone());
        match end {
            "probe timeout" => e.handle_timeout(100_000),
            "dispose" => e.dispose(),
            _ => {}
        }
        log.actions.extend(run(&mut e, 100_000, |_, _| None).actions);
        let error = result(&log, op).unwrap_err();
        assert_eq!(error.failure.kind(), "outcomeUnknown", "{end}: {}", error.failure.message());
        assert!(error.failure.message().contains("earlier attempt"), "{end}: {}", error.failure.message());
        assert_eq!(error.message_id.as_deref(), Some("m1"), "{end}: retry with the same id");
        assert!(!log.methods().contains(&"turn/steer"), "{end}: the retry's steer never left");
    }
}

#[test]
fn a_retry_on_a_deduplicating_host_resends_with_the_same_id() {
    let (mut e, _, _) = steer_then(None);
    let op = e.steer(request("m1"), 0).unwrap().op();
    let log = run(&mut e, 0, new_host(ok(json!({ "turnId": "turn-1" }))));
    let steer = log.sent.iter().find(|r| r.method == "turn/steer").expect("resent");
    assert_eq!(steer.params["clientUserMessageId"], "m1");
    assert!(result(&log, op).is_ok());
}

/// A stock app-server (no codexhost method, no dedupe): `thread/read`
/// answers the native check, and with `includeTurns` the turns given.
fn stock_host(turns: Value, steer: Option<HostAnswer>) -> impl FnMut(&str, &Value) -> Option<HostAnswer> {
    move |method, params| match method {
        "thread/read" if params["includeTurns"] == json!(true) => ok(json!({ "thread": { "id": "t", "turns": turns } })),
        "thread/read" => ok(json!({ "thread": { "id": "t", "modelProvider": "openai", "cliVersion": "0.171.0" } })),
        "turn/steer" => steer.clone(),
        other => unknown_variant(other),
    }
}

fn stock_unknown() -> CodexhostEngine {
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(request("m1"), 0).unwrap();
    run(&mut e, 0, stock_host(json!([]), None));
    e.handle_timeout(60_000);
    let log = run(&mut e, 60_000, |_, _| None);
    assert!(log.actions.iter().any(|a| matches!(a, Action::Complete { result: Err(e), .. } if e.outcome_unknown())));
    e
}

#[test]
fn a_retry_on_a_host_without_dedupe_that_applied_it_resolves_without_sending() {
    let mut e = stock_unknown();
    let op = e.steer(request("m1"), 0).unwrap().op();
    let turns = json!([{ "id": "turn-1", "status": "inProgress", "items": [{ "type": "userMessage", "clientId": "m1" }] }]);
    let log = run(&mut e, 0, stock_host(turns, ok(json!({ "turnId": "turn-1" }))));
    assert_eq!(log.methods(), ["thread/read"]);
    assert_eq!(log.sent[0].params, json!({ "threadId": "t", "includeTurns": true }));
    let o = result(&log, op).unwrap();
    assert_eq!((o.turn_id.as_str(), o.trace.path), ("turn-1", Some("verifiedDelivered")));
}

#[test]
fn a_retry_on_a_host_without_dedupe_while_the_turn_runs_is_still_unknown_and_sends_nothing() {
    let mut e = stock_unknown();
    let op = e.steer(request("m1"), 0).unwrap().op();
    let turns = json!([{ "id": "turn-1", "status": "inProgress", "items": [] }]);
    let log = run(&mut e, 0, stock_host(turns, ok(json!({ "turnId": "turn-1" }))));
    assert_eq!(log.methods(), ["thread/read"], "no turn/steer while it may still be pending");
    assert_eq!(result(&log, op).unwrap_err().failure.kind(), "outcomeUnknown");
    assert!(!log.has_retract());
}

#[test]
fn a_retry_on_a_host_without_dedupe_after_the_turn_ended_without_it_is_sent_with_the_same_id() {
    let mut e = stock_unknown();
    let op = e.steer(request("m1"), 0).unwrap().op();
    let turns = json!([{ "id": "turn-1", "status": "completed", "items": [] }]);
    let log = run(&mut e, 0, stock_host(turns, ok(json!({ "turnId": "turn-1" }))));
    let steer = log.sent.iter().find(|r| r.method == "turn/steer").expect("sent after the check");
    assert_eq!(log.methods()[0], "thread/read");
    assert_eq!(steer.params["clientUserMessageId"], "m1");
    assert!(result(&log, op).is_ok());
}

#[test]
fn acp_no_answer_after_the_write_is_outcome_unknown_unconfirmed_never_retracted() {
    for answer in [HostAnswer::Timeout, HostAnswer::Transport("closed".into()), HostAnswer::Unreadable("x".into())] {
        let mut e = AcpEngine::new(Timeouts::default(), false);
        e.initialized(&json!({ "_meta": { "steering": { "supported": true } } }).into(), 0);
        e.prompt_sent("s");
        let op = e.send("s", vec![json!({ "type": "text", "text": "keep" })], 0).unwrap();
        let first = run(&mut e, 0, |_, _| None);
        e.handle_answer(first.sent[0].id, answer.clone(), 0);
        let log = run(&mut e, 0, |_, _| None);
        let done = log.completion(op).cloned();
        let Some(Action::Complete { result: Err(error), .. }) = done else { panic!("{answer:?}: {done:?}") };
        assert_eq!(error.failure.kind(), "outcomeUnknown", "{answer:?}");
        assert!(!log.has_retract(), "{answer:?}");
        assert_eq!(unconfirmed(&log), ["steeringExtension"], "{answer:?}");
    }
}

#[test]
fn acp_a_steer_never_written_is_a_plain_failure_and_retracted() {
    let mut e = AcpEngine::new(Timeouts::default(), false);
    e.initialized(&json!({ "_meta": { "steering": { "supported": true } } }).into(), 0);
    e.prompt_sent("s");
    let op = e.send("s", vec![json!({ "type": "text", "text": "keep" })], 0).unwrap();
    let first = run(&mut e, 0, |_, _| None);
    e.handle_answer(first.sent[0].id, HostAnswer::NotSent("closed".into()), 0);
    let log = run(&mut e, 0, |_, _| None);
    let done = log.completion(op).cloned();
    let Some(Action::Complete { result: Err(error), .. }) = done else { panic!("{done:?}") };
    assert_eq!(error.failure.kind(), "transport");
    assert!(log.has_retract());
}

#[test]
fn acp_our_prompt_answered_unreadably_is_outcome_unknown_not_a_plain_failure() {
    let mut e = common::acp_engine(json!({ "agentCapabilities": {} }), false);
    e.prompt_sent("s");
    let op = e.send("s", common::text("x"), 0).unwrap();
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    // The queued message goes out as a prompt; the agent ran it and answered without a stopReason.
    let log = run(&mut e, 0, |_, _| ok(json!({ "stop_reason": "end_turn" })));
    assert_eq!(log.methods(), ["session/prompt"]);
    let error = common::done(&log, op).unwrap().unwrap_err();
    assert_eq!(error.failure.kind(), "outcomeUnknown", "{}", error.failure.message());
    assert_eq!(error.draft, common::text("x"));
    assert_eq!(unconfirmed(&log), ["queue"], "kept on screen, unconfirmed");
    assert_eq!(e.live_state(), 0);
}

#[test]
fn acp_dispose_while_a_replace_or_revoke_is_out_is_outcome_unknown() {
    for method in ["session/replace_inject", "session/revoke_inject"] {
        let caps = json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"], "pending": { "replace": true } } } } });
        let mut e = common::acp_engine(caps, false);
        e.prompt_sent("s");
        e.send("s", common::text("x"), 0).unwrap();
        run(&mut e, 0, |_, _| ok(json!({ "messageId": "m1" })));
        let op = if method == "session/replace_inject" {
            e.replace("s", "m1", common::text("y"), 0).unwrap()
        } else {
            e.revoke("s", "m1", 0).unwrap()
        };
        let sent = run(&mut e, 0, |_, _| None);
        assert_eq!(sent.methods(), [method]);
        e.dispose();
        let log = run(&mut e, 0, |_, _| None);
        let error = common::done(&log, op).unwrap().unwrap_err();
        assert_eq!(error.failure.kind(), "outcomeUnknown", "{method}: {}", error.failure.message());
        assert!(error.failure.message().starts_with(method), "{}", error.failure.message());
        assert_eq!(unconfirmed(&log), ["inject"], "{method}: kept on screen, unconfirmed");
    }
}
