//! Sends made while the app's `initialize` is on its way (docs/design.md:
//! they wait for its answer, bounded by `requestMs`, instead of failing
//! `unavailable`), natively.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{done, run, silent, text};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome, InputMode};
use renderer_steering::core::{HostAnswer, Timeouts};
use serde_json::json;

fn initializing() -> AcpEngine {
    let mut e = AcpEngine::new(Timeouts::default(), false);
    e.initializing();
    e
}

#[test]
fn without_initialize_on_its_way_a_send_is_unavailable_at_once() {
    let mut e = AcpEngine::new(Timeouts::default(), false);
    let refused = e.send("s", text("hi"), 0).unwrap_err();
    assert_eq!(refused.failure.kind(), "unavailable");
    assert_eq!(e.composer("s").mode, InputMode::Unavailable);
}

#[test]
fn a_send_waits_for_initialize_then_takes_the_advertised_path() {
    let mut e = initializing();
    e.prompt_sent("s");
    assert_eq!(e.composer("s").mode, InputMode::Queue, "the composer says it waits");
    let op = e.send("s", text("use pnpm"), 0).unwrap();
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty(), "nothing is sent before the capabilities are known");
    assert_eq!(log.presented(), ["queued"]);
    e.initialized(&json!({ "_meta": { "steering": { "supported": true } } }).into(), 5);
    let log = run(&mut e, 5, |_, _| Some(HostAnswer::Result(json!({ "outcome": "injected" }).into())));
    assert_eq!(log.methods(), ["_session/steering"]);
    assert_eq!(log.sent[0].params["prompt"], json!(text("use pnpm")));
    assert_eq!(log.accepted(), [op]);
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 6);
    let log = run(&mut e, 6, silent);
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Injected { .. }))));
}

#[test]
fn waiting_messages_keep_their_order_and_an_idle_session_is_prompted() {
    let mut e = initializing();
    let first = e.send("s", text("one"), 0).unwrap();
    let second = e.send("s", text("two"), 0).unwrap();
    e.initialized(&json!({ "agentCapabilities": {} }).into(), 0);
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "stopReason": "end_turn" }).into())));
    assert_eq!(log.methods(), ["session/prompt", "session/prompt"]);
    assert_eq!(log.sent[0].params["prompt"][0]["text"], "one");
    assert_eq!(log.sent[1].params["prompt"][0]["text"], "two");
    assert!(done(&log, first).is_some_and(|r| r.is_ok()) && done(&log, second).is_some_and(|r| r.is_ok()));
}

#[test]
fn a_failed_initialize_hands_every_waiting_draft_back_unsent() {
    let mut e = initializing();
    let op = e.send("s", text("keep me"), 0).unwrap();
    e.initialize_failed();
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty());
    let failed = done(&log, op).unwrap().unwrap_err();
    assert_eq!(failed.failure.kind(), "unavailable");
    assert_eq!(failed.draft.value(), json!(text("keep me")));
    assert_eq!(e.composer("s").mode, InputMode::Unavailable);
    assert_eq!(e.live_state(), 0);
    assert_eq!(e.send("s", text("later"), 0).unwrap_err().failure.kind(), "unavailable", "no longer waiting");
}

#[test]
fn a_waiting_message_the_agent_cannot_take_is_refused_when_the_capabilities_arrive() {
    let mut e = initializing();
    let image = vec![json!({ "type": "image", "mimeType": "image/png", "data": "AAAA" })];
    let op = e.send("s", image.clone(), 0).unwrap();
    let ok = e.send("s", text("words"), 0).unwrap();
    e.initialized(&json!({ "agentCapabilities": {} }).into(), 0);
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "stopReason": "end_turn" }).into())));
    let refused = done(&log, op).unwrap().unwrap_err();
    assert_eq!(refused.failure.kind(), "imagesUnsupported", "{}", refused.failure);
    assert_eq!(refused.draft.value(), json!(image));
    assert_eq!(log.methods(), ["session/prompt"], "only the text went");
    assert!(done(&log, ok).is_some_and(|r| r.is_ok()));
}

#[test]
fn the_connection_closing_while_initialize_is_out_hands_drafts_back_and_stops_waiting() {
    let mut e = initializing();
    let op = e.send("s", text("hi"), 0).unwrap();
    e.connection_closed();
    let log = run(&mut e, 0, silent);
    assert_eq!(done(&log, op).unwrap().unwrap_err().failure.kind(), "unavailable");
    assert_eq!(e.send("s", text("again"), 0).unwrap_err().failure.kind(), "unavailable");
}

#[test]
fn a_late_initialize_failure_after_the_answer_changes_nothing() {
    let mut e = initializing();
    e.initialized(&json!({ "agentCapabilities": {} }).into(), 0);
    e.initialize_failed();
    assert_eq!(e.composer("s").mode, InputMode::Idle);
    assert!(e.send("s", text("hi"), 0).is_ok());
}
