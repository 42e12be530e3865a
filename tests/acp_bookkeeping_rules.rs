//! ACP bookkeeping: the inject answer's id, image block fields, the
//! trace's path name, the handoff fallbacks and what the engine holds.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::acp::handoff_agent;
use common::{done, run};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{RpcError, Timeouts, Trace};
use serde_json::{json, Value};

fn text(t: &str) -> Vec<Value> {
    vec![json!({ "type": "text", "text": t })]
}

fn engine(init: Value, handoff: bool) -> AcpEngine {
    let mut e = AcpEngine::new(Timeouts::default(), handoff);
    e.initialized(&init.into(), 0);
    e
}

fn inject_agent() -> AcpEngine {
    engine(json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } } } }), false)
}

fn answer(v: Value) -> impl FnMut(&str, &Value) -> Option<HostAnswer> {
    move |_, _| Some(HostAnswer::Result(v.clone().into()))
}

#[test]
fn an_inject_answer_with_an_empty_or_missing_message_id_is_outcome_unknown_not_injected() {
    for reply in [json!({ "messageId": "" }), json!({}), json!({ "messageId": 7 })] {
        let mut e = inject_agent();
        e.prompt_sent("s");
        let op = e.send("s", text("keep"), 0).unwrap();
        let log = run(&mut e, 0, answer(reply.clone()));
        let error = done(&log, op).unwrap().unwrap_err();
        assert_eq!(error.failure.kind(), "outcomeUnknown", "{reply}");
        assert_eq!(error.draft, text("keep"), "{reply}");
        assert!(e.composer("s").pending_injects.is_empty(), "{reply}: nothing pending");
    }
}

#[test]
fn an_image_block_needs_both_mime_type_and_data() {
    let init = json!({ "_meta": { "steering": { "supported": true } }, "agentCapabilities": { "promptCapabilities": { "image": true } } });
    for image in
        [json!({ "type": "image", "mimeType": "image/png" }), json!({ "type": "image", "data": "AAAA" }), json!({ "type": "image" })]
    {
        let draft = vec![json!({ "type": "text", "text": "see" }), image.clone()];
        let mut e = engine(init.clone(), false);
        let error = e.send("s", draft.clone(), 0).unwrap_err();
        assert_eq!(error.failure.kind(), "invalidInput", "{image}");
        assert_eq!(error.failure.message(), "an image block needs mimeType and data");
        assert_eq!(error.draft, draft);
        assert!(run(&mut e, 0, |_, _| None).sent.is_empty(), "{image}: nothing sent");
    }
    let mut e = engine(init, false);
    assert!(e.send("s", vec![json!({ "type": "image", "mimeType": "image/png", "data": "AAAA" })], 0).is_ok());
}

fn trace_of(outcome: &AcpOutcome) -> &Trace {
    match outcome {
        AcpOutcome::Injected { trace, .. }
        | AcpOutcome::Prompted { trace, .. }
        | AcpOutcome::StartedNewTurn { trace }
        | AcpOutcome::HandedOff { trace, .. } => trace,
        other => panic!("no trace in {other:?}"),
    }
}

/// Sends "x" while a prompt runs, answers every request with `reply`, ends
/// the first prompt, and returns the trace of the message's outcome.
fn steered_trace(mut e: AcpEngine, reply: Value) -> Trace {
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let mut log = run(&mut e, 0, answer(reply.clone()));
    if done(&log, op).is_none() {
        e.prompt_answered("s", &json!({ "stopReason": "end_turn", "usage": { "outputTokens": 3 } }).into(), 0);
        log = run(&mut e, 0, answer(reply));
    }
    trace_of(&done(&log, op).unwrap().unwrap()).clone()
}

#[test]
fn the_trace_names_the_path_each_message_took() {
    let ext = json!({ "_meta": { "steering": { "supported": true } } });
    let handoff = json!({ "agentCapabilities": { "_meta": { "claudeCode": { "promptQueueing": true } } } });
    let cases = [
        ("inject", inject_agent(), json!({ "messageId": "m1" }), "session/inject"),
        ("steeringExtension", engine(ext, false), json!({ "outcome": "injected" }), "_session/steering"),
        ("promptHandoff", engine(handoff, true), json!({ "stopReason": "end_turn" }), "session/prompt"),
        ("queue", engine(json!({ "agentCapabilities": {} }), false), json!({ "stopReason": "end_turn" }), "session/prompt"),
    ];
    for (path, e, reply, sent) in cases {
        let trace = steered_trace(e, reply);
        assert_eq!(trace.path, Some(path));
        assert_eq!(trace.sent, Some(sent), "{path}");
    }
}

#[test]
fn a_steer_dropped_with_its_session_leaves_no_deadline_behind() {
    let mut e = engine(json!({ "_meta": { "steering": { "supported": true } } }), false);
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let sent = run(&mut e, 0, |_, _| None);
    assert_eq!(e.poll_timeout(), Some(10_000), "the steer is bounded");
    e.session_replaced("s");
    let log = run(&mut e, 0, |_, _| None);
    // The steer was written: it may have reached the agent.
    assert_eq!(done(&log, op).unwrap().unwrap_err().failure.kind(), "outcomeUnknown");
    assert_eq!(e.poll_timeout(), None, "no timer for a request nobody waits for");
    e.handle_timeout(10_000);
    e.handle_answer(sent.sent[0].id, HostAnswer::Result(json!({ "outcome": "injected" }).into()), 0);
    assert!(run(&mut e, 0, |_, _| None).actions.is_empty());
}

#[test]
fn a_handoff_the_agent_does_not_know_falls_back_to_an_ordinary_queued_prompt() {
    let mut e = handoff_agent();
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let steer = run(&mut e, 0, |_, _| None);
    assert_eq!(steer.methods(), ["session/prompt"]);
    e.handle_answer(steer.sent[0].id, HostAnswer::Error(RpcError::new(-32601, "Method not found")), 0);
    let log = run(&mut e, 0, |_, _| None);
    assert!(done(&log, op).is_none(), "provably undelivered: not a failure");
    assert_eq!(log.presented(), ["queued"]);
    assert_eq!(e.composer("s").queued, vec![text("x")]);
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let log = run(&mut e, 0, answer(json!({ "stopReason": "end_turn" })));
    assert_eq!(log.methods(), ["session/prompt"]);
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Prompted { .. }))));
}

#[test]
fn a_first_prompt_the_engine_sent_is_superseded_when_the_handoff_folds_it() {
    let mut e = handoff_agent();
    let first = e.send("s", text("a"), 0).unwrap();
    let prompt = run(&mut e, 0, |_, _| None);
    let steer = e.send("s", text("b"), 0).unwrap();
    let handoff = run(&mut e, 0, |_, _| None);
    assert_eq!((prompt.methods(), handoff.methods()), (vec!["session/prompt"], vec!["session/prompt"]));
    let early = json!({ "stopReason": "end_turn", "usage": { "outputTokens": 0 } });
    e.handle_answer(prompt.sent[0].id, HostAnswer::Result(early.into()), 0);
    let log = run(&mut e, 0, |_, _| None);
    assert!(matches!(done(&log, first), Some(Ok(AcpOutcome::Prompted { superseded: true, .. }))), "{:?}", done(&log, first));
    e.handle_answer(handoff.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    let log = run(&mut e, 0, |_, _| None);
    assert!(matches!(done(&log, steer), Some(Ok(AcpOutcome::HandedOff { handoff: "folded", .. }))));
}

#[test]
fn live_state_counts_every_op_session_lane_and_request_held() {
    let mut e = engine(json!({ "_meta": { "steering": { "supported": true } } }), false);
    e.prompt_sent("s");
    assert_eq!(e.live_state(), 1, "a session with a running turn");
    e.send("s", text("x"), 0).unwrap();
    run(&mut e, 0, |_, _| None);
    assert_eq!(e.live_state(), 4, "plus the op, its lane and its request");
}

#[test]
fn an_agent_that_answered_failed_is_told_apart_from_an_unknown_outcome() {
    let ext = json!({ "_meta": { "steering": { "supported": true } } });
    for (reply, detail) in [("failed", "the agent answered failed"), ("teleported", "unknown outcome")] {
        let mut e = engine(ext.clone(), false);
        e.prompt_sent("s");
        let op = e.send("s", text("x"), 0).unwrap();
        let log = run(&mut e, 0, answer(json!({ "outcome": reply })));
        let message = done(&log, op).unwrap().unwrap_err().failure.message();
        assert_eq!(message, format!("_session/steering may have reached the host ({detail}); it was not resent"));
    }
}
