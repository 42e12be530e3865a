//! A turn the user cancelled hands back every message sent before the
//! cancel, also one whose steer comes back unconsumed afterwards; and the
//! composer is told when the connection closes, the engine is disposed, and
//! input opens again.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{acp_engine, done, run, silent, text};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome, InputMode};
use renderer_steering::core::{Action, HostAnswer, RpcError};
use serde_json::json;

fn ext_agent() -> AcpEngine {
    acp_engine(json!({ "_meta": { "steering": { "supported": true } } }), false)
}

fn inject_agent() -> AcpEngine {
    acp_engine(json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } } } }), false)
}

#[test]
fn a_steer_that_comes_back_unconsumed_after_a_cancel_is_handed_back_not_prompted() {
    let unconsumed = [
        (ext_agent as fn() -> AcpEngine, HostAnswer::Result(json!({ "outcome": "promptRequired", "reason": "noRunningTurn" }).into())),
        (ext_agent, HostAnswer::Error(RpcError::new(-32601, "Method not found"))),
        (
            inject_agent,
            HostAnswer::Error(RpcError {
                code: -32010,
                message: "no turn".into(),
                data: Some(json!({ "reason": "no_running_turn" }).into()),
            }),
        ),
    ];
    for (agent, answer) in unconsumed {
        let mut e = agent();
        e.prompt_sent("s");
        let op = e.send("s", text("use pnpm"), 0).unwrap();
        let steer = run(&mut e, 0, silent);
        assert_eq!(steer.sent.len(), 1);
        e.prompt_answered("s", &json!({ "stopReason": "cancelled" }).into(), 1);
        e.handle_answer(steer.sent[0].id, answer.clone(), 2);
        let log = run(&mut e, 2, silent);
        assert!(log.sent.is_empty(), "{answer:?}: no new turn behind the user's back: {:?}", log.methods());
        match done(&log, op) {
            Some(Ok(AcpOutcome::HandedBack { reason, draft, .. })) => {
                assert_eq!(reason, "turnCancelled");
                assert_eq!(draft.value(), json!(text("use pnpm")));
            }
            other => panic!("{answer:?}: {other:?}"),
        }
        assert_eq!(e.live_state(), 0);
    }
}

#[test]
fn a_message_sent_after_the_cancel_still_goes_out() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    e.prompt_answered("s", &json!({ "stopReason": "cancelled" }).into(), 0);
    let op = e.send("s", text("next"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Result(json!({ "stopReason": "end_turn" }).into())));
    assert_eq!(log.methods(), ["session/prompt"]);
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Prompted { .. }))));
}

fn modes_told(e: &mut AcpEngine) -> Vec<InputMode> {
    std::iter::from_fn(|| e.poll_action())
        .filter_map(|a| match a {
            Action::Changed { state, .. } => Some(state.mode),
            _ => None,
        })
        .collect()
}

#[test]
fn the_composer_is_told_when_the_connection_closes_and_when_input_opens_again() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    assert_eq!(modes_told(&mut e), [InputMode::Direct]);
    e.connection_closed();
    assert_eq!(modes_told(&mut e), [InputMode::Unavailable], "told, with nothing in flight");
    e.initialized(&json!({ "agentCapabilities": {} }).into(), 0);
    assert_eq!(modes_told(&mut e), [InputMode::Idle], "told again on reconnect");
}

#[test]
fn the_composer_is_told_when_the_engine_is_disposed() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    let _ = modes_told(&mut e);
    e.dispose();
    assert_eq!(modes_told(&mut e), [InputMode::Unavailable]);
}
