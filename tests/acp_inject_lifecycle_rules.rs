//! ACP pending injects after a failed revoke, their traces, and the end of
//! a turn the agent started itself.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::run;
use renderer_steering::core::acp::{AcpEngine, InputMode};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, RpcError, Timeouts};
use serde_json::{json, Value};

fn text(t: &str) -> Vec<Value> {
    vec![json!({ "type": "text", "text": t })]
}

fn agent(init: Value) -> AcpEngine {
    let mut e = AcpEngine::new(Timeouts::default(), false);
    e.initialized(&init.into(), 0);
    e.prompt_sent("s");
    e
}

fn result(v: Value) -> impl FnMut(&str, &Value) -> Option<HostAnswer> {
    move |_, _| Some(HostAnswer::Result(v.clone().into()))
}

#[test]
fn a_revoke_refused_for_another_reason_keeps_the_inject_pending_and_traces_the_path() {
    let mut e = agent(json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } } } }));
    e.send("s", text("x"), 0).unwrap();
    run(&mut e, 0, result(json!({ "messageId": "m1" })));
    let op = e.revoke("s", "m1", 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Error(RpcError::new(-32603, "busy, try again"))));
    let Some(Action::Complete { result: Err(error), .. }) = log.completion(op) else { panic!("the revoke fails") };
    assert_eq!(error.failure.code(), Some(-32603));
    assert_eq!((error.trace.path, error.trace.sent), (Some("inject"), Some("session/revoke_inject")));
    assert_eq!(e.composer("s").pending_injects, ["m1"], "still pending: it can be revoked again");
}

#[test]
fn when_the_agents_own_turn_ends_a_prompt_required_message_goes_out_as_a_prompt() {
    // The agent's `promptRequired` says no turn runs: with no prompt open, the
    // unowned turn it started is over, so the message goes out as a prompt at
    // once (waiting for an optional sessionIdle() could wait forever).
    for reason in ["noRunningTurn", "turnEnding"] {
        let mut e = agent(json!({ "_meta": { "steering": { "supported": true } } }));
        e.send("s", text("a"), 0).unwrap();
        run(&mut e, 0, result(json!({ "outcome": "startedNewTurn" })));
        e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
        let op = e.send("s", text("b"), 0).unwrap();
        let mut answers = vec![json!({ "outcome": "promptRequired", "reason": reason })].into_iter();
        let log = run(&mut e, 0, move |_, _| answers.next().map(|v| HostAnswer::Result(v.into())));
        assert_eq!(log.methods(), ["_session/steering", "session/prompt"], "{reason}");
        assert_eq!(log.sent[1].op, op);
    }
}

#[test]
fn a_prompt_required_answer_while_a_prompt_is_open_waits_for_it() {
    let mut e = agent(json!({ "_meta": { "steering": { "supported": true } } }));
    let op = e.send("s", text("b"), 0).unwrap();
    let steer = run(&mut e, 0, result(json!({ "outcome": "promptRequired", "reason": "turnEnding" })));
    assert_eq!(steer.methods(), ["_session/steering"]);
    assert_eq!(e.composer("s").mode, InputMode::Queue, "after the previous prompt's answer has arrived");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let log = run(&mut e, 0, |_, _| None);
    assert_eq!(log.methods(), ["session/prompt"]);
    assert_eq!(log.sent[0].op, op);
}

#[test]
fn each_input_mode_is_named_as_the_spec_names_it_in_text_and_json() {
    for (mode, name) in
        [(InputMode::Direct, "direct"), (InputMode::Queue, "queue"), (InputMode::Idle, "idle"), (InputMode::Unavailable, "unavailable")]
    {
        assert_eq!(mode.as_str(), name);
        assert_eq!(serde_json::to_value(mode).unwrap(), name);
    }
}
