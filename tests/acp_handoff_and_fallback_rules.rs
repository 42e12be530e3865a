//! The ACP edges the spec leaves open, each decided with the real agents' behaviour
//! (`tests/agents/`): handoff answer order, fold evidence, `-32601` falling to
//! the next advertised path, a cancelled turn, and unowned turns ending;
//! and the handoff's own rules: off unless asked, and one at a time.
#![cfg(not(target_arch = "wasm32"))]

mod common;

// claude-agent-acp 0.23.1's advertisement, with the handoff allowed.
use common::acp::handoff_agent as claude;
use common::{acp_engine as engine, done, run, silent, text};
use renderer_steering::core::acp::{AcpOutcome, InputMode, SteerPath};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::RpcError;
use serde_json::json;

fn not_found() -> Option<HostAnswer> {
    Some(HostAnswer::Error(RpcError::new(-32601, "Method not found")))
}

#[test]
fn a_handoff_answered_before_the_apps_prompt_is_folded_and_that_prompt_is_superseded() {
    let mut e = claude();
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let sent = run(&mut e, 0, silent);
    e.handle_answer(sent.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    let log = run(&mut e, 0, silent);
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::HandedOff { handoff: "folded", .. }))));
    let verdict = e.prompt_answered("s", &json!({ "stopReason": "end_turn", "usage": { "outputTokens": 9 } }).into(), 0);
    assert!(verdict.superseded, "reported folded, so the app's later answer is not the turn's answer");
    assert_eq!(e.composer("s").mode, InputMode::Idle);
    assert_eq!(e.live_state(), 0);
}

#[test]
fn an_answer_without_usage_is_no_evidence_of_folding() {
    for answer in [
        json!({ "stopReason": "end_turn" }),
        json!({ "stopReason": "end_turn", "usage": {} }),
        json!({ "stopReason": "end_turn", "usage": null }),
    ] {
        let mut e = claude();
        e.prompt_sent("s");
        let op = e.send("s", text("x"), 0).unwrap();
        let sent = run(&mut e, 0, silent);
        assert!(!e.prompt_answered("s", &answer.clone().into(), 0).superseded, "{answer}: the turn's real answer is not hidden");
        e.handle_answer(sent.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
        let log = run(&mut e, 0, silent);
        assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::HandedOff { handoff: "deferred", .. }))), "{answer}");
    }
}

#[test]
fn zeroed_usage_as_claude_reports_it_is_folded() {
    let mut e = claude();
    e.prompt_sent("s");
    e.send("s", text("x"), 0).unwrap();
    run(&mut e, 0, silent);
    let early = json!({ "stopReason": "end_turn", "usage": { "inputTokens": 0, "outputTokens": 0, "cachedReadTokens": 0, "cachedWriteTokens": 0, "totalTokens": 0 } });
    assert!(e.prompt_answered("s", &early.into(), 0).superseded);
}

#[test]
fn method_not_found_on_inject_falls_to_the_steering_extension() {
    let init = json!({ "_meta": { "steering": { "supported": true } },
        "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } } } });
    let mut e = engine(init, false);
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log =
        run(
            &mut e,
            0,
            |m, _| if m == "session/inject" { not_found() } else { Some(HostAnswer::Result(json!({ "outcome": "injected" }).into())) },
        );
    assert_eq!(log.methods(), ["session/inject", "_session/steering"]);
    assert_eq!(log.sent[1].params["prompt"], json!(text("x")), "the same message, unchanged");
    assert_eq!(log.accepted(), [op]);
    assert!(done(&log, op).is_none(), "accepted as pending input: delivered only once the turn shows it");
    assert_eq!(e.path(), SteerPath::SteeringExtension);
    assert_eq!(e.composer("s").mode, InputMode::Direct, "steering stays on");
    e.send("s", text("y"), 0).unwrap();
    assert_eq!(run(&mut e, 0, silent).methods(), ["_session/steering"], "inject is not tried again");
}

#[test]
fn method_not_found_on_every_advertised_path_ends_in_the_queue() {
    let init = json!({ "_meta": { "steering": { "supported": true } },
        "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } }, "_meta": { "claudeCode": { "promptQueueing": true } } } });
    let mut e = engine(init, true);
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |m, _| if m == "session/prompt" { None } else { not_found() });
    assert_eq!(log.methods(), ["session/inject", "_session/steering", "session/prompt"]);
    assert_eq!(e.path(), SteerPath::PromptHandoff);
    e.handle_answer(log.sent[2].id, HostAnswer::Error(RpcError::new(-32601, "Method not found")), 0);
    assert!(done(&run(&mut e, 0, silent), op).is_none(), "provably undelivered: still queued");
    assert_eq!(e.path(), SteerPath::Queue);
    e.initialized(&json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } } } }).into(), 0);
    assert_eq!(e.path(), SteerPath::Inject { replace: false }, "a new connection starts afresh");
}

#[test]
fn a_cancelled_turn_hands_back_a_prompt_required_message_instead_of_starting_a_turn() {
    let mut e = engine(json!({ "_meta": { "steering": { "supported": true } } }), false);
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "outcome": "promptRequired", "reason": "noRunningTurn" }).into())));
    e.prompt_answered("s", &json!({ "stopReason": "cancelled" }).into(), 0);
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty(), "no turn behind the user's back");
    assert!(log.has_retract(), "the queued chip goes away");
    match done(&log, op) {
        Some(Ok(AcpOutcome::HandedBack { reason: "turnCancelled", draft, .. })) => assert_eq!(draft, text("x")),
        other => panic!("expected handedBack, got {other:?}"),
    }
    assert_eq!(e.composer("s").mode, InputMode::Idle);
    assert_eq!(e.live_state(), 0);
}

#[test]
fn a_cancelled_turn_hands_back_every_queued_message_and_the_next_turn_is_the_users() {
    let mut e = engine(json!({ "agentCapabilities": {} }), false);
    e.prompt_sent("s");
    let a = e.send("s", text("a"), 0).unwrap();
    let b = e.send("s", text("b"), 0).unwrap();
    e.prompt_answered("s", &json!({ "stopReason": "cancelled" }).into(), 0);
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty());
    assert!(matches!(done(&log, a), Some(Ok(AcpOutcome::HandedBack { .. }))));
    assert!(matches!(done(&log, b), Some(Ok(AcpOutcome::HandedBack { .. }))));
    e.prompt_sent("s");
    e.send("s", text("c"), 0).unwrap();
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    assert_eq!(run(&mut e, 0, silent).methods(), ["session/prompt"], "an ordinary end still sends the queue");
}

#[test]
fn an_unowned_turn_ends_when_a_prompt_sent_after_it_answers() {
    let mut e = engine(json!({ "agentCapabilities": { "_meta": { "steering": { "supported": true } } } }), false);
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "outcome": "startedNewTurn" }).into())));
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::StartedNewTurn { .. }))));
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    assert_eq!(e.composer("s").mode, InputMode::Direct, "the older prompt's answer does not end it");
    e.prompt_sent("s");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    assert_eq!(e.composer("s").mode, InputMode::Idle, "an answer to a later prompt means the unowned turn is over");
    assert_eq!(e.live_state(), 0, "no sessionIdle needed");
}

#[test]
fn an_unowned_turn_ends_when_our_own_later_prompt_answers() {
    let init = json!({ "_meta": { "steering": { "supported": true } }, "agentCapabilities": { "_meta": { "claudeCode": { "promptQueueing": true } } } });
    let mut e = engine(init, true);
    e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, silent);
    e.handle_answer(log.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    e.prompt_sent("s");
    let op = e.send("s", text("y"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "outcome": "startedNewTurn" }).into())));
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::StartedNewTurn { .. }))));
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    // Steering via the extension answers -32601 from now on: the unowned turn
    // is steered by handoff, and that prompt's answer ends it.
    let z = e.send("s", text("z"), 0).unwrap();
    let log = run(&mut e, 0, |m, _| if m == "_session/steering" { not_found() } else { None });
    assert_eq!(log.methods(), ["_session/steering", "session/prompt"]);
    e.handle_answer(log.sent[1].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    assert!(matches!(done(&run(&mut e, 0, silent), z), Some(Ok(AcpOutcome::HandedOff { .. }))));
    assert_eq!(e.composer("s").mode, InputMode::Idle);
    assert_eq!(e.live_state(), 0);
}

#[test]
fn audio_and_resource_blocks_need_their_prompt_capability_resource_links_never_do() {
    // docs/specs/acp-steering.md: promptCapabilities { image, audio, embeddedContext }; an omitted capability means unsupported.
    let audio = vec![json!({ "type": "audio", "mimeType": "audio/wav", "data": "AAAA" })];
    let resource = vec![json!({ "type": "resource", "resource": { "uri": "file:///a", "text": "x" } })];
    let link = vec![json!({ "type": "resource_link", "uri": "file:///a", "name": "a" })];
    for offered in [json!({}), json!({ "promptCapabilities": { "audio": "true", "embeddedContext": 1 } })] {
        let mut e = engine(json!({ "agentCapabilities": offered }), false);
        for (blocks, capability) in [(&audio, "promptCapabilities.audio"), (&resource, "promptCapabilities.embeddedContext")] {
            let error = e.send("s", blocks.clone(), 0).unwrap_err();
            assert_eq!(error.failure.kind(), "invalidInput", "{offered}");
            assert!(error.failure.message().contains(capability), "{}", error.failure.message());
            assert_eq!(error.draft, blocks.clone(), "handed back");
        }
        assert!(e.send("s", link.clone(), 0).is_ok(), "a resource link is always taken");
    }
    let mut e = engine(json!({ "agentCapabilities": { "promptCapabilities": { "audio": true, "embeddedContext": true } } }), false);
    assert!(e.send("s", audio, 0).is_ok());
    assert!(e.send("s", resource, 0).is_ok());
    assert!(run(&mut e, 0, silent).sent.iter().all(|r| r.method == "session/prompt"));
}

#[test]
fn pending_injects_an_agent_never_echoes_are_bounded_oldest_forgotten_first() {
    let mut e = engine(json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } } } }), false);
    e.prompt_sent("s");
    let mut n = 0;
    for _ in 0..300 {
        e.send("s", text("x"), 0).unwrap();
        run(&mut e, 0, |_, _| {
            n += 1;
            Some(HostAnswer::Result(json!({ "messageId": format!("m{n:03}") }).into()))
        });
    }
    let pending = e.composer("s").pending_injects;
    assert_eq!(pending.len(), 256, "bounded");
    assert_eq!(pending.first().map(String::as_str), Some("m045"), "m001..m044 forgotten, the oldest first");
    assert_eq!(pending.last().map(String::as_str), Some("m300"));
    assert_eq!(e.revoke("s", "m001", 0).unwrap_err().failure.kind(), "invalidInput", "a forgotten inject cannot be revoked");
    assert!(e.revoke("s", "m045", 0).is_ok());
}

#[test]
fn closed_sessions_are_remembered_up_to_a_bound_and_not_counted_as_live_state() {
    let mut e = engine(json!({ "agentCapabilities": {} }), false);
    for i in 0..1100 {
        e.session_closed(&format!("s{i:04}"));
    }
    assert_eq!(e.live_state(), 0, "a closed marker holds no submission");
    assert_eq!(e.composer("s1099").mode, InputMode::Unavailable, "recently closed: refuses input");
    assert_eq!(e.send("s1099", text("x"), 0).unwrap_err().failure.kind(), "unavailable");
    assert_ne!(e.composer("s0000").mode, InputMode::Unavailable, "the oldest past 1,024 is forgotten");
    e.session_replaced("s1099");
    assert_ne!(e.composer("s1099").mode, InputMode::Unavailable, "a session loaded again takes input");
}

#[test]
fn handoff_is_off_by_default() {
    let mut e = engine(json!({ "agentCapabilities": { "_meta": { "claudeCode": { "promptQueueing": true } } } }), false);
    e.prompt_sent("s");
    e.send("s", text("x"), 0).unwrap();
    assert!(run(&mut e, 0, silent).sent.is_empty(), "queued, not handed off");
}

#[test]
fn handoff_folded_supersedes_the_early_answer() {
    let mut e = claude();
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, silent);
    assert_eq!(log.methods(), ["session/prompt"]);
    assert_eq!(log.sent[0].timeout_ms, None);
    let verdict = e.prompt_answered("s", &json!({ "stopReason": "end_turn", "usage": { "inputTokens": 0, "outputTokens": 0 } }).into(), 0);
    assert!(verdict.superseded, "the early answer is not the turn's answer");
    assert_eq!(e.composer("s").mode, InputMode::Queue, "still running (the steer prompt is open); the next message waits behind it");
    e.handle_answer(log.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    let log = run(&mut e, 0, silent);
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::HandedOff { handoff: "folded", .. }))));
    assert_eq!(e.composer("s").mode, InputMode::Idle);
}

#[test]
fn handoff_deferred_gets_both_answers_in_order() {
    let mut e = claude();
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, silent);
    let verdict = e.prompt_answered("s", &json!({ "stopReason": "end_turn", "usage": { "outputTokens": 420 } }).into(), 0);
    assert!(!verdict.superseded);
    e.handle_answer(log.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    let log = run(&mut e, 0, silent);
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::HandedOff { handoff: "deferred", .. }))));
}

#[test]
fn handoff_admits_only_with_no_queue_and_no_steer_in_flight() {
    let mut e = claude();
    e.prompt_sent("s");
    e.send("s", text("a"), 0).unwrap();
    let first = run(&mut e, 0, silent);
    e.send("s", text("b"), 0).unwrap();
    assert!(run(&mut e, 0, silent).sent.is_empty());
    e.handle_answer(first.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    // "a" answered first: the app's prompt will be superseded. One handoff per
    // turn at a time, so "b" waits for that answer (a second handoff would
    // overwrite what the first one settled) and then starts a turn.
    assert!(run(&mut e, 0, silent).sent.is_empty());
    assert!(e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0).superseded);
    let next = run(&mut e, 0, silent);
    assert_eq!(next.methods(), ["session/prompt"]);
    assert_eq!(next.sent[0].params["prompt"], json!(text("b")));
}
