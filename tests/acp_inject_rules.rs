//! ACP `session/inject`: a steer delivered once the agent echoes its user
//! message, no running turn turning it into a prompt, pending injects
//! revoked (their words handed back) and replaced only where the agent
//! allows it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::acp::{inject_agent, rpc};
use common::{done, run, silent, text};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome};
use renderer_steering::core::HostAnswer;
use serde_json::json;

#[test]
fn inject_steers_and_the_user_message_echo_marks_it_delivered() {
    let mut e = inject_agent(false);
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "messageId": "m1" }).into())));
    assert_eq!(log.sent[0].method, "session/inject");
    assert_eq!(log.sent[0].params, json!({ "sessionId": "s", "mode": "steer", "content": text("x") }));
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Injected { message_id: Some(ref m), .. })) if m == "m1"));
    assert_eq!(e.composer("s").pending_injects, ["m1"]);
    e.update("s", &json!({ "sessionUpdate": "user_message", "messageId": "other" }).into(), 0);
    assert_eq!(e.composer("s").pending_injects, ["m1"]);
    e.update("s", &json!({ "sessionUpdate": "user_message", "messageId": "m1", "content": text("x") }).into(), 0);
    assert!(e.composer("s").pending_injects.is_empty());
}

#[test]
fn inject_no_running_turn_becomes_a_prompt_other_reasons_propagate() {
    let mut e = inject_agent(false);
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    run(&mut e, 0, |_, _| Some(rpc(-32010, Some("no_running_turn"))));
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "stopReason": "end_turn" }).into())));
    assert_eq!(log.methods(), ["session/prompt"]);
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Prompted { .. }))));

    let mut e = inject_agent(false);
    e.prompt_sent("s");
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(rpc(-32010, Some("already_delivered"))));
    assert_eq!(done(&log, op).unwrap().unwrap_err().failure.code(), Some(-32010));
}

fn injected(e: &mut AcpEngine, id: &'static str, words: &str) {
    e.send("s", text(words), 0).unwrap();
    run(e, 0, move |_, _| Some(HostAnswer::Result(json!({ "messageId": id }).into())));
}

#[test]
fn a_pending_inject_can_be_revoked_and_its_words_come_back() {
    let mut e = inject_agent(false);
    e.prompt_sent("s");
    injected(&mut e, "m1", "oops");
    let op = e.revoke("s", "m1", 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({}).into())));
    assert_eq!(log.sent[0].method, "session/revoke_inject");
    assert_eq!(log.sent[0].params, json!({ "sessionId": "s", "messageId": "m1" }));
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Revoked { ref draft, .. })) if *draft == text("oops")));
    assert!(e.composer("s").pending_injects.is_empty());
}

#[test]
fn revoking_a_delivered_or_unknown_inject_fails_with_the_agents_code() {
    for (code, reason) in [(-32010, "already_delivered"), (-32002, "unknown_message_id")] {
        let mut e = inject_agent(false);
        e.prompt_sent("s");
        injected(&mut e, "m1", "x");
        let op = e.revoke("s", "m1", 0).unwrap();
        let log = run(&mut e, 0, move |_, _| Some(rpc(code, Some(reason))));
        let error = done(&log, op).unwrap().unwrap_err();
        assert_eq!(error.failure.code(), Some(code));
        assert_eq!(error.failure.data().unwrap(), &json!({ "reason": reason }));
        assert!(e.composer("s").pending_injects.is_empty());
    }
}

#[test]
fn replace_only_when_the_agent_allows_it() {
    let mut e = inject_agent(false);
    e.prompt_sent("s");
    injected(&mut e, "m1", "x");
    let error = e.replace("s", "m1", text("y"), 0).unwrap_err();
    assert!(error.failure.message().contains("replace_not_supported"));
    assert_eq!(error.draft, text("y"));
    assert!(run(&mut e, 0, silent).sent.is_empty());

    let mut e = inject_agent(true);
    e.prompt_sent("s");
    injected(&mut e, "m1", "x");
    let op = e.replace("s", "m1", text("y"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "messageId": "m2" }).into())));
    assert_eq!(log.sent[0].method, "session/replace_inject");
    assert_eq!(log.sent[0].params, json!({ "sessionId": "s", "messageId": "m1", "content": text("y") }));
    assert!(
        matches!(done(&log, op), Some(Ok(AcpOutcome::Replaced { ref message_id, ref previous_message_id })) if message_id == "m2" && previous_message_id == "m1")
    );
    assert_eq!(e.composer("s").pending_injects, ["m2"]);
}
