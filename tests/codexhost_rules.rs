//! The codexhost steering spec's rules of one steer, natively: the inspect, the
//! delivery tags, the host's errors, one steer in flight, the bounds (the
//! hosts that predate the inspect: `codexhost_fallback_rules.rs`).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::codexhost::{engine, fresh, new_host, old_host, outcome, steer, stock_host};
use common::{err, ok, run, unknown_variant};
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, Submitted};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, Timeouts};
use serde_json::{json, Value};

#[test]
fn inspect_carries_thread_and_joined_text() {
    let mut e = engine();
    let mut r = steer("t", "x");
    r.input = vec![json!({"type": "text", "text": "use "}), json!({"type": "text", "text": "pnpm"})].into();
    e.steer(r, 0).unwrap();
    let log = run(&mut e, 0, new_host("activeTurn"));
    assert_eq!(log.sent[0].method, "codexhost/thread/steering/inspect");
    assert_eq!(log.sent[0].params, json!({ "threadId": "t", "text": "use pnpm" }));
}

#[test]
fn non_text_blank_and_empty_input_are_refused_before_any_request_with_the_draft() {
    for input in [
        vec![json!({"type": "image", "url": "data:x"})],
        vec![json!({"type": "localImage", "path": "/x.png"}), json!({"type": "text", "text": "see"})],
        vec![],
        vec![json!({"type": "text", "text": "  \n"})],
        vec![json!({"type": "text", "text": 5})],
        vec![json!(null)],
    ] {
        let mut e = engine();
        let mut r = steer("t", "x");
        r.input = input.clone().into();
        let error = e.steer(r, 0).unwrap_err();
        assert_eq!(error.failure.kind(), "invalidInput", "{input:?}");
        assert_eq!(error.draft, input);
        assert!(e.poll_action().is_none(), "nothing may be sent");
    }
}

#[test]
fn active_turn_presents_inside_the_turn_and_tags_the_steer() {
    let mut e = engine();
    let op = e.steer(steer("t", "use pnpm"), 0).unwrap().op();
    let log = run(&mut e, 0, new_host("activeTurn"));
    assert_eq!(log.methods(), ["codexhost/thread/steering/inspect", "turn/steer"]);
    let params = &log.sent[1].params;
    assert_eq!(params["codexhostSteerDelivery"], "activeTurn");
    assert_eq!(params["expectedTurnId"], "turn-1");
    assert_eq!(params["clientUserMessageId"], "msg-use pnpm");
    assert_eq!(params["input"], json!([{"type": "text", "text": "use pnpm"}]));
    assert!(log.sent[1].carries_message);
    assert_eq!(log.presented(), ["activeTurn"]);
    let o = outcome(&log, op).unwrap();
    assert_eq!((o.delivery.as_str(), o.presented.as_str(), o.turn_id.as_str()), ("activeTurn", "activeTurn", "turn-1"));
}

#[test]
fn new_turn_with_a_running_turn_sends_a_tagged_steer() {
    let mut e = engine();
    e.steer(steer("t", "x"), 0).unwrap();
    let log = run(&mut e, 0, new_host("newTurn"));
    assert_eq!(log.sent[1].params["codexhostSteerDelivery"], "newTurn");
    assert_eq!(log.presented(), ["newTurn"]);
}

#[test]
fn official_threads_get_the_stock_steer_untouched() {
    let mut e = engine();
    let mut r = steer("t", "x");
    r.additional_context = Some(json!({"k": 1}).into());
    r.responsesapi_client_metadata = Some(json!({"m": 2}).into());
    e.steer(r, 0).unwrap();
    let log = run(&mut e, 0, new_host("official"));
    assert_eq!(
        log.sent[1].params,
        json!({"threadId": "t", "expectedTurnId": "turn-1", "input": [{"type": "text", "text": "x"}],
               "clientUserMessageId": "msg-x", "additionalContext": {"k": 1}, "responsesapiClientMetadata": {"m": 2}})
    );
}

#[test]
fn an_ended_turn_gets_a_plain_turn_start() {
    let mut e = engine();
    let mut r = steer("t", "x");
    r.expected_turn_id = None;
    let op = e.steer(r, 0).unwrap().op();
    let log = run(&mut e, 0, new_host("newTurn"));
    assert_eq!(log.sent[1].method, "turn/start");
    assert!(log.sent[1].params.get("codexhostSteerDelivery").is_none());
    assert_eq!(outcome(&log, op).unwrap().turn_id, "turn-2");
}

#[test]
fn an_unconfirmed_turn_start_is_refused_without_a_request() {
    let mut e = engine();
    let mut r = steer("t", "x");
    r.pending_turn_start = true;
    let error = e.steer(r.clone(), 0).unwrap_err();
    assert_eq!(error.failure.message(), "previous turn submission has not been confirmed yet");
    assert_eq!(error.draft, r.input);
    assert!(e.poll_action().is_none());
}

const PROPAGATED: [i64; 10] = [-32602, -32072, -32073, -32074, -32076, -32077, -32079, -32080, -32081, -32000];

#[test]
fn every_host_error_in_the_decision_propagates_with_code_message_and_data() {
    for code in PROPAGATED {
        for failing in ["codexhost/thread/steering/inspect", "codexhost/thread/ownership/list", "thread/read"] {
            let mut e = engine();
            let op = e.steer(steer("t", "x"), 0).unwrap().op();
            let log = run(&mut e, 0, |m, _| {
                if m == failing {
                    Some(HostAnswer::Error(renderer_steering::core::RpcError {
                        code,
                        message: format!("e{code}"),
                        data: Some(json!({"why": code}).into()),
                    }))
                } else {
                    unknown_variant(m)
                }
            });
            let error = outcome(&log, op).unwrap_err();
            assert_eq!((error.failure.code(), error.failure.message()), (Some(code), format!("e{code}")));
            assert_eq!(error.failure.data().unwrap(), &json!({"why": code}));
            assert_eq!(log.sent.last().unwrap().method, failing, "no retry, no steer");
            assert!(log.presented().is_empty());
        }
    }
}

#[test]
fn every_host_error_on_the_steer_retracts_and_hands_the_draft_back() {
    for code in PROPAGATED.into_iter().chain([-32601]) {
        let mut e = engine();
        let op = e.steer(steer("t", "keep me"), 0).unwrap().op();
        let log = run(&mut e, 0, |m, _| if m == "turn/steer" { err(code, "refused") } else { ok(json!({"delivery": "activeTurn"})) });
        let error = outcome(&log, op).unwrap_err();
        assert_eq!(error.failure.code(), Some(code));
        assert!(log.has_retract());
        assert_eq!(error.draft, vec![json!({"type": "text", "text": "keep me"})]);
        assert_eq!(log.methods().len(), 2, "sent once, never retried");
    }
}

#[test]
fn malformed_decisions_fail_closed_without_a_steer() {
    for answer in [json!({"delivery": "sideways"}), json!(null), json!({"delivery": 3}), json!([]), json!({})] {
        let mut e = engine();
        let op = e.steer(steer("t", "x"), 0).unwrap().op();
        let log = run(&mut e, 0, |_, _| ok(answer.clone()));
        assert_eq!(outcome(&log, op).unwrap_err().failure.kind(), "malformedAnswer", "{answer}");
        assert_eq!(log.methods(), ["codexhost/thread/steering/inspect"]);
    }
    for answer in [json!({"threads": []}), json!({"threads": [{"threadId": "t", "owner": "alien"}]}), json!({"threads": "t"})] {
        let mut e = engine();
        let op = e.steer(steer("t", "x"), 0).unwrap().op();
        let log = run(&mut e, 0, |m, _| if m.ends_with("ownership/list") { ok(answer.clone()) } else { err(-32601, "no") });
        assert_eq!(outcome(&log, op).unwrap_err().failure.kind(), "malformedAnswer", "{answer}");
    }
}

#[test]
fn malformed_steer_answers_are_outcome_unknown_never_retracted() {
    for answer in [json!({}), json!({"turnId": ""}), json!({"turnId": 4}), json!(null), json!({"turnId": "t", "delivery": "official"})] {
        let mut e = engine();
        let op = e.steer(steer("t", "x"), 0).unwrap().op();
        let log = run(&mut e, 0, |m, _| if m == "turn/steer" { ok(answer.clone()) } else { ok(json!({"delivery": "activeTurn"})) });
        let error = outcome(&log, op).unwrap_err();
        assert_eq!(error.failure.kind(), "outcomeUnknown", "{answer}: a result came, the host may have applied it");
        assert!(!log.has_retract());
        assert_eq!(error.draft, vec![json!({"type": "text", "text": "x"})]);
    }
}

#[test]
fn one_steer_in_flight_per_thread_same_message_joins_other_is_refused() {
    let mut e = engine();
    let first = e.steer(steer("t", "x"), 0).unwrap();
    let sends_before = run(&mut e, 0, |_, _| None).sent.len();
    assert_eq!(e.steer(steer("t", "x"), 0).unwrap(), Submitted::Joined(first.op()));
    assert!(e.poll_action().is_none(), "a join sends nothing");
    let other = e.steer(steer("t", "y"), 0).unwrap_err();
    assert_eq!(other.failure.message(), "this thread is already changing direction");
    assert_eq!(other.draft, vec![json!({"type": "text", "text": "y"})]);
    let mut same_id_other_text = steer("t", "z");
    same_id_other_text.client_user_message_id = Some("msg-x".into());
    assert_eq!(e.steer(same_id_other_text, 0).unwrap_err().failure.kind(), "busy");
    assert!(e.steer(steer("u", "y"), 0).is_ok(), "threads are independent");
    assert_eq!(sends_before, 1);
}

#[test]
fn followers_hand_the_steer_to_the_desktop_before_and_after_inspect() {
    let mut e = engine();
    e.set_follower("t", true);
    assert_eq!(e.steer(steer("t", "x"), 0).unwrap_err().failure.kind(), "follower");
    e.set_follower("t", false);
    let op = e.steer(steer("t", "x"), 0).unwrap().op();
    let log = run(&mut e, 0, |_, _| None);
    e.set_follower("t", true); // the role changed while inspect was out
    e.handle_answer(log.sent[0].id, HostAnswer::Result(json!({"delivery": "activeTurn"}).into()), 0);
    let after = run(&mut e, 0, |_, _| None);
    assert!(after.sent.is_empty(), "no steer from a follower");
    assert_eq!(outcome(&after, op).unwrap_err().failure.kind(), "follower");
}

#[test]
fn dispose_rejects_decisions_in_progress_and_sends_nothing_more() {
    let mut e = engine();
    let op = e.steer(steer("t", "x"), 0).unwrap().op();
    let log = run(&mut e, 0, |_, _| None);
    e.dispose();
    e.handle_answer(log.sent[0].id, HostAnswer::Result(json!({"delivery": "activeTurn"}).into()), 0);
    let after = run(&mut e, 0, |_, _| None);
    assert!(after.sent.is_empty());
    let error = outcome(&after, op).unwrap_err();
    assert_eq!(error.failure.message(), "disposed");
    assert_eq!(error.draft, vec![json!({"type": "text", "text": "x"})]);
    assert_eq!(e.steer(steer("t", "y"), 0).unwrap_err().failure.kind(), "disposed");
}

#[test]
fn a_timed_out_decision_hands_the_draft_back_and_no_steer_follows() {
    let mut e = CodexhostEngine::new(Timeouts { decide_ms: 500, ..Timeouts::default() });
    let op = e.steer(steer("t", "x"), 1_000).unwrap().op();
    let log = run(&mut e, 1_000, |_, _| None);
    assert_eq!(e.poll_timeout(), Some(1_500));
    e.handle_timeout(1_499);
    assert!(e.poll_action().is_none(), "not before the deadline");
    e.handle_timeout(1_500);
    let after = run(&mut e, 1_500, |_, _| None);
    let error = outcome(&after, op).unwrap_err();
    assert_eq!(error.failure.kind(), "timeout");
    assert_eq!(error.failure.message(), "codexhost/thread/steering/inspect got no answer within 500 ms");
    e.handle_answer(log.sent[0].id, HostAnswer::Result(json!({"delivery": "activeTurn"}).into()), 1_600);
    assert!(e.poll_action().is_none(), "a late answer sends no steer");
    assert_eq!(e.live_state(), 0);
}

#[test]
fn the_steer_bound_defaults_to_30s_and_yields_to_request_options() {
    let mut e = engine();
    e.steer(steer("t", "x"), 0).unwrap();
    let log = run(&mut e, 0, |m, _| if m == "turn/steer" { None } else { ok(json!({"delivery": "activeTurn"})) });
    assert_eq!(log.sent[0].timeout_ms, Some(10_000));
    assert_eq!(log.sent[1].timeout_ms, Some(30_000));
    let mut r = steer("u", "x");
    r.steer_timeout_ms = Some(1_234);
    e.steer(r, 0).unwrap();
    let log = run(&mut e, 0, |m, _| if m == "turn/steer" { None } else { ok(json!({"delivery": "activeTurn"})) });
    assert_eq!(log.sent[1].timeout_ms, Some(1_234));
    e.handle_timeout(1_234);
    let after = run(&mut e, 1_234, |_, _| None);
    assert!(!after.has_retract(), "it may have been delivered");
    assert!(after.actions.iter().any(|a| matches!(a, Action::Complete { result: Err(e), .. } if e.failure.kind() == "outcomeUnknown")));
}

#[test]
fn a_disconnect_is_a_transport_error_with_the_draft() {
    let mut e = engine();
    let op = e.steer(steer("t", "x"), 0).unwrap().op();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Transport("socket closed".into())));
    let error = outcome(&log, op).unwrap_err();
    assert_eq!(error.failure.kind(), "transport");
    assert_eq!(error.draft, vec![json!({"type": "text", "text": "x"})]);
}

#[test]
fn the_trace_records_each_probe_with_its_answer() {
    let mut e = engine();
    let op = e.steer(steer("t", "x"), 0).unwrap().op();
    let log = run(&mut e, 0, stock_host("openai"));
    let trace = outcome(&log, op).unwrap().trace;
    let json = serde_json::to_value(&trace).unwrap();
    assert_eq!(json["probes"][0]["answer"]["kind"], "error");
    assert_eq!(json["probes"][0]["answer"]["value"]["code"], -32600);
    assert_eq!(json["probes"][2]["answer"]["kind"], "result");
    assert_eq!(json["roundTripsBeforeSteer"], 3);
    assert_eq!((json["presented"].as_str(), json["hostDelivery"].as_str()), (Some("official"), Some("official")));
}

#[test]
fn decide_sends_no_steer() {
    let mut e = engine();
    let op = e.decide("t", "/compact", 0).unwrap();
    let log = run(&mut e, 0, new_host("newTurn"));
    assert_eq!(log.methods(), ["codexhost/thread/steering/inspect"]);
    assert!(
        matches!(log.completion(op), Some(Action::Complete { result: Ok(CodexhostOutcome::Decided(d)), .. }) if d.delivery.as_str() == "newTurn")
    );
    assert_eq!(e.live_state(), 0);
}

/// The desktop hook sends the message itself; whether a same-id retry is
/// safe (the host deduplicates by `clientUserMessageId`) comes with the
/// decision: a codexhost method answered (inspect, ownership/list), not
/// `thread/read` alone (a stock app-server does not deduplicate).
#[test]
fn a_decision_says_whether_the_host_deduplicates() {
    let decided = |host: &mut dyn FnMut(&str, &Value) -> Option<HostAnswer>| {
        let mut e = engine();
        let op = e.decide("t", "use pnpm", 0).unwrap();
        let log = run(&mut e, 0, host);
        match log.completion(op) {
            Some(Action::Complete { result: Ok(CodexhostOutcome::Decided(d)), .. }) => d.host_deduplicates,
            other => panic!("no decision: {other:?}"),
        }
    };
    assert!(decided(&mut new_host("activeTurn")));
    assert!(decided(&mut old_host("external")));
    assert!(!decided(&mut stock_host("openai")));
}

#[test]
fn duplicate_and_unknown_answers_are_ignored() {
    let mut e = engine();
    let op = e.steer(steer("t", "x"), 0).unwrap().op();
    let log = run(&mut e, 0, new_host("activeTurn"));
    assert!(outcome(&log, op).is_ok());
    for r in &log.sent {
        e.handle_answer(r.id, HostAnswer::Result(json!({"turnId": "again"}).into()), 0);
    }
    e.handle_answer(renderer_steering::core::RequestId(999), HostAnswer::Timeout, 0);
    assert!(e.poll_action().is_none());
}

#[test]
fn the_owner_cache_is_bounded_oldest_first() {
    use renderer_steering::core::codexhost::OWNER_CACHE;
    let mut e = engine();
    for i in 0..OWNER_CACHE + 10 {
        e.steer(fresh(&format!("t{i}"), "x"), 0).unwrap();
        run(&mut e, 0, new_host("official"));
    }
    assert_eq!(e.remembered_owners(), OWNER_CACHE);
    e.steer(fresh("t0", "x"), 0).unwrap();
    assert_eq!(run(&mut e, 0, new_host("official")).methods()[0], "codexhost/thread/steering/inspect", "the oldest was forgotten");
    e.steer(fresh(&format!("t{}", OWNER_CACHE + 9), "x"), 0).unwrap();
    assert_eq!(run(&mut e, 0, new_host("official")).methods(), ["turn/steer"], "the newest is remembered");
    assert_eq!(e.live_state(), 0);
}

#[test]
fn drafts_above_the_limit_are_refused_before_any_request() {
    use renderer_steering::core::content::MAX_DRAFT_BYTES;
    let mut e = engine();
    let huge = "x".repeat(MAX_DRAFT_BYTES);
    let error = e.steer(steer("t", &huge), 0).unwrap_err();
    assert_eq!(error.failure.kind(), "draftTooLarge");
    assert_eq!(error.draft, vec![json!({"type": "text", "text": huge})]);
    assert!(e.poll_action().is_none());
    let fits = "x".repeat(MAX_DRAFT_BYTES - 64);
    assert!(e.steer(steer("t", &fits), 0).is_ok());
}
