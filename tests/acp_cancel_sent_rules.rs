//! The app tells the engine it sent `session/cancel` (`cancel_sent`): an
//! agent whose turn was already finishing answers `end_turn`, not
//! `cancelled` (codex-acp 0.16.0 does, with the real agent), and the
//! queued message must not then start a new turn
//! behind the user's back. And a handoff ended by the cancel is not folded.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{acp_engine, done, run, silent, text};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome};
use renderer_steering::core::HostAnswer;
use serde_json::json;

fn queue_only() -> AcpEngine {
    acp_engine(json!({ "agentCapabilities": {} }), false)
}

#[test]
fn a_queued_message_is_handed_back_at_the_cancel_whatever_the_turn_ends_with() {
    let mut e = queue_only();
    e.prompt_sent("s");
    let queued = e.send("s", text("use pnpm"), 0).unwrap();
    e.cancel_sent("s");
    let log = run(&mut e, 0, silent);
    match done(&log, queued) {
        Some(Ok(AcpOutcome::HandedBack { reason, draft, .. })) => {
            assert_eq!(reason, "turnCancelled");
            assert_eq!(draft.value()[0]["text"], "use pnpm");
        }
        other => panic!("handed back at the cancel, got {other:?}"),
    }
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    assert!(run(&mut e, 0, silent).sent.is_empty(), "nothing starts a new turn");
}

#[test]
fn a_message_sent_after_the_cancel_goes_when_the_turn_ends() {
    let mut e = queue_only();
    e.prompt_sent("s");
    e.cancel_sent("s");
    let later = e.send("s", text("now do this"), 0).unwrap();
    let _ = run(&mut e, 0, silent);
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let log = run(&mut e, 0, silent);
    assert_eq!(log.methods(), ["session/prompt"]);
    assert!(done(&log, later).is_none(), "in flight as its own turn");
}

#[test]
fn a_cancel_without_a_running_turn_changes_nothing() {
    let mut e = queue_only();
    e.cancel_sent("s");
    assert_eq!(e.live_state(), 0);
    let op = e.send("s", text("hi"), 0).unwrap();
    let log = run(&mut e, 0, silent);
    assert_eq!(log.methods(), ["session/prompt"]);
    assert!(done(&log, op).is_none());
}

#[test]
fn a_handoff_ended_by_the_cancel_before_the_apps_prompt_is_not_folded() {
    let mut e = acp_engine(json!({ "agentCapabilities": { "_meta": { "claudeCode": { "promptQueueing": true } } } }), true);
    e.prompt_sent("s");
    let handed = e.send("s", text("a"), 0).unwrap();
    let first = run(&mut e, 0, silent);
    assert_eq!(first.methods(), ["session/prompt"]);
    e.handle_answer(first.sent[0].id, HostAnswer::Result(json!({ "stopReason": "cancelled" }).into()), 0);
    let log = run(&mut e, 0, silent);
    assert!(matches!(done(&log, handed), Some(Ok(AcpOutcome::HandedOff { handoff: "deferred", .. }))), "{:?}", done(&log, handed));
    let verdict = e.prompt_answered("s", &json!({ "stopReason": "cancelled" }).into(), 0);
    assert!(!verdict.superseded, "the app's cancelled answer is the turn's answer, not hidden");
}
