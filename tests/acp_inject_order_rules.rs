//! Accepted injects when answers come out of order, and what a revoke hands
//! back: an echo that arrives before the inject's own answer means
//! delivered; a revoke that fails (or is disposed) hands back no words,
//! since the message is still with the agent.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{acp_engine, done, run, silent, text};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome};
use renderer_steering::core::{HostAnswer, RpcError};
use serde_json::json;

fn inject_agent() -> AcpEngine {
    acp_engine(json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"], "pending": { "replace": true } } } } }), false)
}

fn echo(id: &str) -> renderer_steering::core::Json {
    json!({ "sessionUpdate": "user_message_chunk", "messageId": id, "content": { "type": "text", "text": "use pnpm" } }).into()
}

/// An inject of "use pnpm" accepted as `m1` and left pending.
fn accepted() -> AcpEngine {
    let mut e = inject_agent();
    e.prompt_sent("s");
    let op = e.send("s", text("use pnpm"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "messageId": "m1" }).into())));
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Injected { .. }))));
    assert_eq!(e.composer("s").pending_injects, ["m1"]);
    e
}

#[test]
fn an_echo_before_the_inject_answer_means_delivered() {
    let mut e = inject_agent();
    e.prompt_sent("s");
    let op = e.send("s", text("use pnpm"), 0).unwrap();
    let sent = run(&mut e, 0, silent);
    e.update("s", &echo("m1"), 0);
    e.handle_answer(sent.sent[0].id, HostAnswer::Result(json!({ "messageId": "m1" }).into()), 1);
    let log = run(&mut e, 1, silent);
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Injected { .. }))));
    assert!(e.composer("s").pending_injects.is_empty(), "delivered, not revocable");
    assert_eq!(e.revoke("s", "m1", 1).unwrap_err().failure.kind(), "invalidInput");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 2);
    assert_eq!(e.live_state(), 0);
}

#[test]
fn echoes_of_other_messages_are_not_kept_without_an_inject_in_flight() {
    let mut e = inject_agent();
    e.prompt_sent("s");
    for i in 0..1000 {
        e.update("s", &echo(&format!("other-{i}")), 0);
    }
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    assert_eq!(e.live_state(), 0);
}

#[test]
fn a_failed_revoke_hands_back_no_words() {
    for refusal in
        [HostAnswer::Error(RpcError::new(-32603, "internal")), HostAnswer::Timeout, HostAnswer::Transport("socket closed".into())]
    {
        let mut e = accepted();
        let op = e.revoke("s", "m1", 0).unwrap();
        let log = run(&mut e, 0, |_, _| Some(refusal.clone()));
        let failed = done(&log, op).unwrap().unwrap_err();
        assert_eq!(failed.draft.value(), json!([]), "{refusal:?}: the message is still with the agent");
        assert_eq!(e.composer("s").pending_injects, ["m1"], "{refusal:?}");
    }
}

#[test]
fn a_revoke_ended_by_dispose_hands_back_no_words() {
    let mut e = accepted();
    let op = e.revoke("s", "m1", 0).unwrap();
    let _ = run(&mut e, 0, silent);
    e.dispose();
    let log = run(&mut e, 0, silent);
    assert_eq!(done(&log, op).unwrap().unwrap_err().draft.value(), json!([]));
}

#[test]
fn a_revoke_that_succeeds_hands_the_words_back() {
    let mut e = accepted();
    let op = e.revoke("s", "m1", 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({}).into())));
    match done(&log, op) {
        Some(Ok(AcpOutcome::Revoked { message_id, draft })) => {
            assert_eq!(message_id, "m1");
            assert_eq!(draft.value(), json!(text("use pnpm")));
        }
        other => panic!("{other:?}"),
    }
    assert!(e.composer("s").pending_injects.is_empty());
}
