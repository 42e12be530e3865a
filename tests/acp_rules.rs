//! The ACP steering spec's rules and table rows, natively: the path chosen
//! from `initialize`, prompts, the extension, the queue, the handoff, the
//! bounds (`session/inject`: `acp_inject_rules.rs`).
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::acp::{ext_agent, handoff_agent, queue_agent, rpc, EXT};
use common::{acp_engine as engine, done, run, silent, text};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome, Capabilities, InputMode, SteerPath};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, Timeouts};
use serde_json::json;

#[test]
fn the_path_is_chosen_from_initialize_in_order_and_gated_strictly() {
    let both = json!({ "_meta": { "steering": { "supported": true } },
        "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } }, "_meta": { "claudeCode": { "promptQueueing": true } } } });
    assert_eq!(Capabilities::from_initialize(&both.clone().into(), true).path, SteerPath::Inject { replace: false });
    let ext_and_handoff = json!({ "_meta": { "steering": { "supported": true } }, "agentCapabilities": { "_meta": { "claudeCode": { "promptQueueing": true } } } });
    assert_eq!(Capabilities::from_initialize(&ext_and_handoff.clone().into(), true).path, SteerPath::SteeringExtension);
    let lenient = json!({ "agentCapabilities": { "_meta": { "steering": { "supported": true } } } });
    assert_eq!(Capabilities::from_initialize(&lenient.clone().into(), false).path, SteerPath::SteeringExtension);
    let queue_only_inject = json!({ "agentCapabilities": { "session": { "inject": { "modes": ["queue"] } } } });
    assert_eq!(Capabilities::from_initialize(&queue_only_inject.clone().into(), false).path, SteerPath::Queue);
    for not_true in [json!("true"), json!(1), json!(null), json!({})] {
        let init = json!({ "_meta": { "steering": { "supported": not_true } }, "agentCapabilities": { "_meta": { "claudeCode": { "promptQueueing": not_true } } } });
        assert_eq!(Capabilities::from_initialize(&init.clone().into(), true).path, SteerPath::Queue, "{not_true}");
    }
    for garbage in [json!(null), json!([]), json!("x"), json!({ "agentCapabilities": 5 })] {
        assert_eq!(
            Capabilities::from_initialize(&garbage.clone().into(), true),
            Capabilities { protocol: Default::default(), path: SteerPath::Queue, prompt: Default::default(), offered: [None; 3] }
        );
    }
}

#[test]
fn nothing_is_probed_with_a_request() {
    let mut e = ext_agent();
    assert!(e.poll_action().is_none_or(|a| !matches!(a, Action::Send(_))));
    e.prompt_sent("s");
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty());
}

#[test]
fn an_idle_session_gets_a_normal_prompt_that_is_not_bounded() {
    let mut e = ext_agent();
    let op = e.send("s", text("hello"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "stopReason": "end_turn" }).into())));
    assert_eq!(log.methods(), ["session/prompt"]);
    assert_eq!(log.sent[0].params, json!({ "sessionId": "s", "prompt": text("hello") }));
    assert_eq!(log.sent[0].timeout_ms, None, "the open prompt of a turn is not bounded");
    assert!(
        matches!(done(&log, op), Some(Ok(AcpOutcome::Prompted { ref stop_reason, superseded: false, .. })) if stop_reason.as_deref() == Some("end_turn"))
    );
    assert_eq!(e.live_state(), 0);
}

#[test]
fn steering_extension_always_sends_the_opt_in_and_injected_is_done() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    let op = e.send("s", text("use pnpm"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "outcome": "injected" }).into())));
    assert_eq!(log.methods(), [EXT]);
    assert_eq!(
        log.sent[0].params,
        json!({ "sessionId": "s", "prompt": text("use pnpm"), "_meta": { "steering": { "idleBehavior": "promptRequired" } } })
    );
    assert_eq!(log.sent[0].timeout_ms, Some(10_000));
    assert_eq!(log.accepted(), [op]);
    assert!(done(&log, op).is_none(), "accepted is not delivered");
    assert_eq!(e.composer("s").mode, InputMode::Direct, "the original prompt still owns completion");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 1);
    let log = run(&mut e, 1, silent);
    let delivered = done(&log, op);
    assert!(matches!(delivered, Some(Ok(AcpOutcome::Injected { message_id: None, delivered: Some("turnEnded"), .. }))), "{delivered:?}");
}

#[test]
fn prompt_required_goes_out_unchanged_as_a_prompt_only_after_the_previous_answer() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "outcome": "promptRequired", "reason": "noRunningTurn" }).into())));
    assert_eq!(log.methods(), [EXT], "no prompt while the previous prompt is open");
    assert!(done(&log, op).is_none());
    assert_eq!(e.composer("s").queued, vec![text("x")]);
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "stopReason": "end_turn" }).into())));
    assert_eq!(log.methods(), ["session/prompt"]);
    assert_eq!(log.sent[0].params["prompt"], json!(text("x")));
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Prompted { .. }))));
}

#[test]
fn started_new_turn_is_never_resent_and_the_session_stays_busy_until_idle() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "outcome": "startedNewTurn" }).into())));
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::StartedNewTurn { .. }))));
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    assert_eq!(run(&mut e, 0, silent).sent.len(), 0, "no resend");
    assert_eq!(e.composer("s").mode, InputMode::Direct, "an unowned turn runs");
    e.send("s", text("y"), 0).unwrap();
    assert_eq!(run(&mut e, 0, silent).methods(), [EXT], "a later message steers the unowned turn");
    e.session_idle("s", 0);
}

#[test]
fn failed_unknown_unreadable_timeout_and_transport_are_outcome_unknown_and_never_resent() {
    let answers = [
        HostAnswer::Result(json!({ "outcome": "failed" }).into()),
        HostAnswer::Result(json!({ "outcome": "teleported" }).into()),
        HostAnswer::Result(json!({}).into()),
        HostAnswer::Result(json!(null).into()),
        HostAnswer::Transport("socket closed".into()),
        HostAnswer::Timeout,
        HostAnswer::Unreadable("undefined".into()),
    ];
    for answer in answers {
        let mut e = ext_agent();
        e.prompt_sent("s");
        let op = e.send("s", text("keep"), 0).unwrap();
        let first = run(&mut e, 0, silent);
        if answer == HostAnswer::Timeout {
            e.handle_timeout(10_000);
        } else {
            e.handle_answer(first.sent[0].id, answer.clone(), 0);
        }
        let log = run(&mut e, 0, silent);
        let error = done(&log, op).unwrap().unwrap_err();
        assert_eq!(error.failure.kind(), "outcomeUnknown", "{answer:?}");
        assert_eq!(error.draft, text("keep"));
        assert!(log.sent.is_empty(), "never auto-resent: {answer:?}");
        e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
        assert!(run(&mut e, 0, silent).sent.is_empty());
    }
}

#[test]
fn extension_errors_propagate_with_their_code() {
    for code in [-32602, -32600] {
        let mut e = ext_agent();
        e.prompt_sent("s");
        let op = e.send("s", text("x"), 0).unwrap();
        let log = run(&mut e, 0, |_, _| Some(rpc(code, None)));
        let error = done(&log, op).unwrap().unwrap_err();
        assert_eq!((error.failure.kind(), error.failure.code()), ("host", Some(code)));
        assert_eq!(error.draft, text("x"));
    }
}

#[test]
fn method_not_found_turns_steering_off_and_queues_the_message() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(rpc(-32601, None)));
    assert_eq!(log.methods(), [EXT]);
    assert!(done(&log, op).is_none());
    assert_eq!(e.path(), SteerPath::Queue);
    assert_eq!(e.composer("s").mode, InputMode::Queue);
    e.send("s", text("y"), 0).unwrap();
    assert!(run(&mut e, 0, silent).sent.is_empty(), "steering stays off for the connection");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let log = run(&mut e, 0, |_, _| None);
    assert_eq!(log.methods(), ["session/prompt"]);
    assert_eq!(log.sent[0].params["prompt"], json!(text("x")), "first in, first out");
}

#[test]
fn steers_are_fifo_one_in_flight_and_never_overtake_the_queue() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    let a = e.send("s", text("a"), 0).unwrap();
    let first = run(&mut e, 0, silent);
    let b = e.send("s", text("b"), 0).unwrap();
    let c = e.send("s", text("c"), 0).unwrap();
    assert!(run(&mut e, 0, silent).sent.is_empty(), "one steer in flight");
    assert_eq!(e.composer("s").queued, vec![text("b"), text("c")]);
    assert_eq!(e.composer("s").mode, InputMode::Queue);
    let other = e.send("t", text("other session"), 0).unwrap();
    assert_eq!(run(&mut e, 0, silent).methods(), ["session/prompt"], "sessions are independent");
    e.handle_answer(first.sent[0].id, HostAnswer::Result(json!({ "outcome": "injected" }).into()), 0);
    let log = run(&mut e, 0, |_, p| Some(HostAnswer::Result(json!({ "outcome": "injected", "echo": p["prompt"][0]["text"] }).into())));
    assert_eq!(log.sent.iter().map(|r| r.params["prompt"][0]["text"].as_str().unwrap()).collect::<Vec<_>>(), ["b", "c"]);
    assert_eq!(log.accepted(), [a, b, c], "each accepted in turn, in order");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let log = run(&mut e, 0, silent);
    for op in [a, b, c] {
        assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Injected { .. }))), "{op:?}");
    }
    let _ = other;
}

#[test]
fn images_are_refused_unless_the_agent_takes_them() {
    let image = vec![json!({ "type": "text", "text": "see" }), json!({ "type": "image", "mimeType": "image/png", "data": "AAAA" })];
    let mut e = ext_agent();
    let error = e.send("s", image.clone(), 0).unwrap_err();
    assert_eq!(error.failure.message(), "this agent does not accept images");
    assert_eq!(error.draft, image);
    assert!(run(&mut e, 0, silent).sent.is_empty());
    let mut e = engine(
        json!({ "_meta": { "steering": { "supported": true } }, "agentCapabilities": { "promptCapabilities": { "image": true } } }),
        false,
    );
    assert!(e.send("s", image, 0).is_ok());
}

#[test]
fn a_dispatch_error_is_surfaced_and_not_resent() {
    let mut e = handoff_agent();
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(rpc(-32602, None)));
    let error = done(&log, op).unwrap().unwrap_err();
    assert_eq!(error.failure.code(), Some(-32602), "refused before running: the host's refusal");
    assert_eq!(log.sent.len(), 1);
    // An error that ends a turn which may have run (the model failed after
    // tools ran) does not prove the message was never taken in.
    let mut e = handoff_agent();
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(rpc(-32603, None)));
    assert_eq!(done(&log, op).unwrap().unwrap_err().failure.kind(), "outcomeUnknown");
    assert_eq!(log.sent.len(), 1, "never resent");
    assert!(log.actions.iter().any(|a| matches!(a, Action::Unconfirmed { .. })), "kept shown, unconfirmed");
}

#[test]
fn a_replaced_session_drops_its_pending_steer_and_queue_with_drafts_a_sent_steer_as_outcome_unknown() {
    let mut e = handoff_agent();
    e.prompt_sent("s");
    let a = e.send("s", text("a"), 0).unwrap();
    let first = run(&mut e, 0, silent);
    let b = e.send("s", text("b"), 0).unwrap();
    e.session_replaced("s");
    let log = run(&mut e, 0, silent);
    // "a" went out as a handoff prompt: it may have reached the agent, so it
    // stays shown, unconfirmed; "b" never left the queue: handed back, retracted.
    for (op, words, kind) in [(a, "a", "outcomeUnknown"), (b, "b", "sessionReplaced")] {
        let error = done(&log, op).unwrap().unwrap_err();
        assert_eq!((error.failure.kind(), error.draft.value()), (kind, json!(text(words))));
    }
    assert!(log.actions.iter().any(|x| matches!(x, Action::Unconfirmed { op, .. } if *op == a)), "{:?}", log.actions);
    assert!(log.actions.iter().any(|x| matches!(x, Action::Retract { op } if *op == b)), "{:?}", log.actions);
    e.handle_answer(first.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    assert!(run(&mut e, 0, silent).actions.is_empty(), "a late answer changes nothing");
    assert_eq!(e.live_state(), 0);
}

#[test]
fn composer_modes_hints_and_change_notifications() {
    let mut e = AcpEngine::new(Timeouts::default(), false);
    assert_eq!(e.composer("s").mode, InputMode::Unavailable);
    e.initialized(&json!({ "_meta": { "steering": { "supported": true } } }).into(), 0);
    assert_eq!(e.composer("s").mode, InputMode::Idle);
    e.prompt_sent("s");
    let changes = run(&mut e, 0, silent);
    assert!(changes.actions.iter().any(|a| matches!(a, Action::Changed { key, .. } if key == "s")));
    let state = e.composer("s");
    assert_eq!((state.mode, state.hint), (InputMode::Direct, "Send now; delivered to the running turn"));
    assert!(!state.hint.contains("fold"));
    let mut q = queue_agent();
    q.prompt_sent("s");
    q.send("s", text("later"), 0).unwrap();
    let log = run(&mut q, 0, silent);
    assert_eq!(log.presented(), ["queued"]);
    assert_eq!(q.composer("s").mode, InputMode::Queue);
    assert_eq!(q.composer("s").queued, vec![text("later")]);
    q.session_closed("s");
    assert_eq!(q.composer("s").mode, InputMode::Unavailable);
    assert_eq!(q.send("s", text("x"), 0).unwrap_err().failure.kind(), "unavailable");
}

#[test]
fn a_closed_connection_hands_every_draft_back() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    let a = e.send("s", text("a"), 0).unwrap();
    let b = e.send("s", text("b"), 0).unwrap();
    let written = run(&mut e, 0, silent);
    assert_eq!(written.methods(), ["_session/steering"], "a was written, b waits");
    e.connection_closed();
    let log = run(&mut e, 0, silent);
    assert_eq!(done(&log, a).unwrap().unwrap_err().failure.kind(), "outcomeUnknown");
    assert_eq!(done(&log, b).unwrap().unwrap_err().failure.kind(), "unavailable");
    assert_eq!(e.composer("s").mode, InputMode::Unavailable);
}

#[test]
fn requests_other_than_prompts_are_bounded_by_the_configured_timeout() {
    let mut e = AcpEngine::new(Timeouts { request_ms: 250, ..Timeouts::default() }, false);
    e.initialized(&json!({ "_meta": { "steering": { "supported": true } } }).into(), 0);
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 1_000).unwrap();
    run(&mut e, 1_000, silent);
    assert_eq!(e.poll_timeout(), Some(1_250));
    e.handle_timeout(1_250);
    let log = run(&mut e, 1_250, silent);
    assert!(done(&log, op).unwrap().unwrap_err().failure.message().contains("within 250 ms"));
}

#[test]
fn dispose_rejects_everything_and_sends_nothing_more() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    let a = e.send("s", text("a"), 0).unwrap();
    let first = run(&mut e, 0, silent);
    // A second message waits behind the first: never written.
    let b = e.send("s", text("b"), 0).unwrap();
    e.dispose();
    e.handle_answer(first.sent[0].id, HostAnswer::Result(json!({ "outcome": "injected" }).into()), 0);
    let log = run(&mut e, 0, silent);
    // The written one may have reached the agent: unknown, kept on screen, never a plain
    // "disposed" that invites a resend; the queued one was never sent.
    assert_eq!(done(&log, a).unwrap().unwrap_err().failure.kind(), "outcomeUnknown");
    assert!(log.actions.iter().any(|x| matches!(x, Action::Unconfirmed { op, .. } if *op == a)));
    assert_eq!(done(&log, b).unwrap().unwrap_err().failure.kind(), "disposed");
    assert!(log.sent.is_empty());
    assert_eq!(e.live_state(), 0);
}

#[test]
fn a_disposed_engine_shows_no_input() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    assert_eq!(e.composer("s").mode, InputMode::Direct);
    e.dispose();
    assert_eq!(e.composer("s").mode, InputMode::Unavailable);
    assert_eq!(e.send("s", text("x"), 0).unwrap_err().failure.kind(), "disposed");
}

#[test]
fn drafts_above_the_limit_are_refused_before_any_request() {
    use renderer_steering::core::content::MAX_DRAFT_BYTES;
    let mut e = ext_agent();
    e.prompt_sent("s");
    let huge = text(&"y".repeat(MAX_DRAFT_BYTES + 1));
    let error = e.send("s", huge.clone(), 0).unwrap_err();
    assert_eq!((error.failure.kind(), error.draft.value()), ("draftTooLarge", json!(huge)));
    assert!(run(&mut e, 0, silent).sent.is_empty());
}

#[test]
fn a_prompt_answer_with_a_token_of_an_earlier_life_of_the_session_ends_no_later_prompt() {
    for end_life in ["replaced", "closed", "connection"] {
        let mut e = queue_agent();
        let old = e.prompt_sent("s");
        match end_life {
            "replaced" => e.session_replaced("s"),
            "closed" => e.session_closed("s"),
            _ => {
                e.connection_closed();
                e.initialized(&json!({}).into(), 0);
            }
        }
        let new = e.prompt_sent("s");
        assert_ne!(old, new, "{end_life}");
        let answer = json!({ "stopReason": "end_turn" }).into();
        e.prompt_answered_for("s", Some(old), &answer, 1);
        assert!(e.composer("s").mode != InputMode::Idle || end_life == "closed", "{end_life}: the new prompt still runs");
        e.prompt_answered_for("s", Some(new), &answer, 2);
        assert_ne!(e.composer("s").mode, InputMode::Queue, "{end_life}: the new prompt's own answer ends it");
    }
}

#[test]
fn a_prompt_answer_with_the_current_token_or_none_counts() {
    let mut e = queue_agent();
    let token = e.prompt_sent("s");
    e.prompt_sent("s");
    let answer = json!({ "stopReason": "end_turn" }).into();
    e.prompt_answered_for("s", Some(token), &answer, 1);
    assert_eq!(e.composer("s").mode, InputMode::Queue, "one prompt still open");
    e.prompt_answered("s", &answer, 2);
    assert_eq!(e.composer("s").mode, InputMode::Idle);
}
