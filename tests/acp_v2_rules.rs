//! ACP v2 (preview) beside v1: the version and the capabilities from the
//! `initialize` answer, the turn's state from `state_update`, prompts
//! answered `{ messageId }` at insertion, steers landing on their echo.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{acp_engine, done, err, ok, run, silent, text};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome, Capabilities, InputMode, Protocol, SteerPath};
use renderer_steering::core::{HostAnswer, OpId, RequestId};
use serde_json::{json, Value};

fn v2(capabilities: Value) -> AcpEngine {
    acp_engine(json!({ "protocolVersion": 2, "capabilities": capabilities, "_meta": { "steering": { "supported": true } } }), true)
}

fn queue_v2() -> AcpEngine {
    acp_engine(json!({ "protocolVersion": 2, "capabilities": {} }), false)
}

fn state(e: &mut AcpEngine, state: &str, stop_reason: Option<&str>, now: u64) {
    let mut update = json!({ "sessionUpdate": "state_update", "state": state });
    if let Some(reason) = stop_reason {
        update["stopReason"] = json!(reason);
    }
    e.update("s", &update.into(), now);
}

/// Sends `words` while the turn runs; the agent answers `injected`: the steer is landing.
fn landing(e: &mut AcpEngine, words: &str, now: u64) -> OpId {
    let op = e.send("s", text(words), now).unwrap();
    run(e, now, |_, _| ok(json!({ "outcome": "injected" })));
    op
}

/// An agent whose `_session/steering` finds no turn running, and which
/// inserts the prompt that follows.
fn no_turn_then_inserted(method: &str, _: &Value) -> Option<HostAnswer> {
    if method == "_session/steering" {
        ok(json!({ "outcome": "promptRequired", "reason": "noRunningTurn" }))
    } else {
        ok(json!({ "messageId": "ours-1" }))
    }
}

fn echo(e: &mut AcpEngine, message_id: &str) {
    let chunk = json!({ "sessionUpdate": "user_message_chunk", "messageId": message_id, "content": { "type": "text", "text": "x" } });
    e.update("s", &chunk.into(), 3);
}

#[test]
fn the_version_and_the_v2_capabilities_are_read_from_the_initialize_answer() {
    let answer = json!({ "protocolVersion": 2, "capabilities": { "session": { "prompt": { "image": {}, "audio": null } },
        "_meta": { "claudeCode": { "promptQueueing": true } } } });
    let caps = Capabilities::from_initialize(&answer.into(), true);
    assert_eq!(caps.protocol, Protocol::V2);
    assert!(caps.prompt.image, "present (an object) is supported");
    assert!(!caps.prompt.audio && !caps.prompt.embedded_context, "null or omitted is not");
    assert_eq!(caps.path, SteerPath::Queue, "a v2 prompt sent while work runs is not a steer: no handoff");
    let v1_flags_on_v2 = json!({ "protocolVersion": 2, "agentCapabilities": { "promptCapabilities": { "image": true } } });
    assert!(!Capabilities::from_initialize(&v1_flags_on_v2.into(), false).prompt.image, "v1's place is not read on v2");
    let v1 = json!({ "protocolVersion": 1, "capabilities": { "session": { "prompt": { "image": {} } } } });
    let caps = Capabilities::from_initialize(&v1.into(), false);
    assert_eq!(caps.protocol, Protocol::V1);
    assert!(!caps.prompt.image, "v2's place is not read on v1");
}

#[test]
fn an_image_goes_to_a_v2_agent_that_advertises_it() {
    let mut e = v2(json!({ "session": { "prompt": { "image": {} } } }));
    let image = vec![json!({ "type": "image", "mimeType": "image/png", "data": "AAAA" })];
    assert!(e.send("s", image, 0).is_ok());
}

#[test]
fn a_v2_inject_capability_is_read_in_camel_case_with_replace() {
    let caps =
        json!({ "session": { "inject": { "modes": ["queue", "steer"], "steerInStream": ["finish"], "pending": { "replace": true } } } });
    let e = v2(caps);
    assert_eq!(e.path(), SteerPath::Inject { replace: true });
}

#[test]
fn the_turn_runs_from_a_running_state_update_until_idle_and_prompts_do_not_count() {
    let mut e = v2(json!({}));
    e.prompt_sent("s");
    assert_eq!(e.composer("s").mode, InputMode::Idle, "a v2 prompt is not a turn");
    state(&mut e, "running", None, 1);
    assert_eq!(e.composer("s").mode, InputMode::Direct);
    state(&mut e, "requires_action", None, 1);
    assert_eq!(e.composer("s").mode, InputMode::Direct, "blocked on the user is still busy");
    state(&mut e, "_vendor_thinking", None, 1);
    assert_eq!(e.composer("s").mode, InputMode::Direct, "an unknown state is busy, never idle");
    e.prompt_answered("s", &json!({ "messageId": "app-1" }).into(), 2);
    assert_eq!(e.composer("s").mode, InputMode::Direct, "the prompt's answer is its insertion, not the turn's end");
    state(&mut e, "idle", Some("end_turn"), 3);
    assert_eq!(e.composer("s").mode, InputMode::Idle);
}

#[test]
fn a_v2_steer_is_delivered_on_the_echo_of_an_id_no_prompt_owns() {
    let mut e = v2(json!({}));
    e.prompt_sent("s");
    e.prompt_answered("s", &json!({ "messageId": "app-1" }).into(), 0);
    state(&mut e, "running", None, 0);
    let op = e.send("s", text("use pnpm"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| ok(json!({ "outcome": "injected" })));
    assert_eq!(log.methods(), ["_session/steering"]);
    assert_eq!(log.accepted(), [op]);
    echo(&mut e, "app-1");
    assert!(run(&mut e, 3, silent).completion(op).is_none(), "the app's own message is not the steer's echo");
    echo(&mut e, "fresh-1");
    echo(&mut e, "fresh-1");
    let outcome = done(&run(&mut e, 3, silent), op);
    assert!(matches!(outcome, Some(Ok(AcpOutcome::Injected { delivered: Some("echo"), .. }))), "{outcome:?}");
}

#[test]
fn v2_echoes_land_steers_in_order_and_a_chunk_of_a_landed_one_lands_no_other() {
    let mut e = v2(json!({}));
    state(&mut e, "running", None, 0);
    let a = landing(&mut e, "a", 0);
    let b = landing(&mut e, "b", 0);
    echo(&mut e, "e1");
    let log = run(&mut e, 3, silent);
    assert!(done(&log, a).is_some() && done(&log, b).is_none(), "the oldest lands first");
    echo(&mut e, "e1");
    assert!(run(&mut e, 3, silent).completion(b).is_none(), "another chunk of the same message");
    echo(&mut e, "e2");
    assert!(done(&run(&mut e, 3, silent), b).is_some());
}

#[test]
fn a_v2_turn_cancelled_before_the_echo_leaves_the_steer_unknown_with_its_draft() {
    let mut e = v2(json!({}));
    state(&mut e, "running", None, 0);
    let op = landing(&mut e, "use pnpm", 0);
    state(&mut e, "idle", Some("cancelled"), 1);
    let Some(Err(error)) = done(&run(&mut e, 1, silent), op) else { panic!("expected unknown") };
    assert_eq!(error.failure.kind(), "outcomeUnknown");
    assert_eq!(error.draft.value(), json!(text("use pnpm")));
}

#[test]
fn a_repeated_idle_snapshot_is_no_completion() {
    let mut e = v2(json!({}));
    state(&mut e, "idle", Some("cancelled"), 0);
    let op = e.send("s", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| ok(json!({ "messageId": "ours-1" })));
    assert_eq!(log.methods(), ["session/prompt"], "idle: a prompt, not a steer");
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Prompted { .. }))), "not handed back by an old cancelled snapshot");
}

#[test]
fn an_idle_snapshot_after_the_turn_ended_does_not_change_how_it_ended() {
    let mut e = v2(json!({}));
    state(&mut e, "running", None, 0);
    let op = e.send("s", text("use pnpm"), 0).unwrap();
    let steer = run(&mut e, 0, silent).sent[0].id;
    state(&mut e, "idle", Some("end_turn"), 1);
    state(&mut e, "idle", Some("cancelled"), 2);
    e.handle_answer(steer, HostAnswer::Result(json!({ "outcome": "injected" }).into()), 3);
    let outcome = done(&run(&mut e, 3, silent), op);
    assert!(matches!(outcome, Some(Ok(AcpOutcome::Injected { delivered: Some("turnEnded"), .. }))), "{outcome:?}");
}

#[test]
fn a_turn_the_v2_agent_started_itself_ends_with_its_idle_update() {
    let mut e = v2(json!({}));
    state(&mut e, "running", None, 0);
    let op = e.send("s", text("go on"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| ok(json!({ "outcome": "startedNewTurn" })));
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::StartedNewTurn { .. }))));
    // The turn that ended as the steer came, then the agent's own.
    for now in [1, 3] {
        state(&mut e, "idle", Some("end_turn"), now);
        assert_eq!(e.composer("s").mode, InputMode::Idle, "at {now}");
        assert_eq!(e.live_state(), 0, "nothing of the session is kept");
        state(&mut e, "running", None, now + 1);
        assert_eq!(e.composer("s").mode, InputMode::Direct);
    }
}

#[test]
fn the_idle_of_a_turn_that_ended_before_prompt_required_still_ends_the_steers_landing_in_it() {
    let mut e = v2(json!({}));
    state(&mut e, "running", None, 0);
    let a = landing(&mut e, "a", 0);
    let next = e.send("s", text("b"), 1).unwrap();
    let log = run(&mut e, 1, no_turn_then_inserted);
    assert!(matches!(done(&log, next), Some(Ok(AcpOutcome::Prompted { .. }))));
    // The old turn's idle comes after the agent's promptRequired answer.
    state(&mut e, "idle", Some("cancelled"), 2);
    let Some(Err(error)) = done(&run(&mut e, 2, silent), a) else { panic!("ended with its turn") };
    assert_eq!(error.failure.kind(), "outcomeUnknown");
    assert_eq!(error.draft.value(), json!(text("a")));
}

#[test]
fn a_v2_inject_capability_whose_pending_replace_is_an_object_offers_replace() {
    let init =
        json!({ "protocolVersion": 2, "capabilities": { "session": { "inject": { "modes": ["steer"], "pending": { "replace": {} } } } } });
    assert_eq!(Capabilities::from_initialize(&init.into(), false).path, SteerPath::Inject { replace: true });
    let init = json!({ "protocolVersion": 2, "capabilities": { "session": { "inject": { "modes": ["steer"], "pending": { "replace": null } } } } });
    assert_eq!(Capabilities::from_initialize(&init.into(), false).path, SteerPath::Inject { replace: false });
}

#[test]
fn a_v2_prompt_of_ours_resolves_at_insertion_with_its_message_id_within_the_request_bound() {
    let mut e = queue_v2();
    let op = e.send("s", text("hello"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| ok(json!({ "messageId": "ours-1" })));
    assert_eq!(log.sent[0].timeout_ms, Some(10_000), "insertion is bounded like a steer");
    let outcome = done(&log, op);
    assert!(
        matches!(outcome, Some(Ok(AcpOutcome::Prompted { stop_reason: None, message_id: Some(ref m), .. })) if m == "ours-1"),
        "{outcome:?}"
    );
    assert_eq!(e.composer("s").mode, InputMode::Idle, "its turn runs only once the agent says so");
}

#[test]
fn a_v2_prompt_answer_without_a_message_id_is_unknown() {
    for answer in [json!({ "stopReason": "end_turn" }), json!({ "messageId": "" })] {
        let mut e = queue_v2();
        let op = e.send("s", text("hello"), 0).unwrap();
        let Some(Err(error)) = done(&run(&mut e, 0, |_, _| ok(answer.clone())), op) else { panic!("{answer}") };
        assert_eq!(error.failure.kind(), "outcomeUnknown", "{answer}");
    }
}

#[test]
fn a_repeated_running_snapshot_is_no_completion() {
    let mut e = v2(json!({}));
    state(&mut e, "running", None, 0);
    let op = landing(&mut e, "use pnpm", 0);
    state(&mut e, "running", None, 1);
    assert_eq!(done(&run(&mut e, 1, silent), op), None, "the turn still runs: the steer waits for its echo");
    assert_eq!(e.composer("s").mode, InputMode::Direct);
}

#[test]
fn a_v2_prompt_refused_with_an_error_was_not_inserted_and_hands_the_draft_back() {
    let mut e = queue_v2();
    let op = e.send("s", text("hello"), 0).unwrap();
    let Some(Err(error)) = done(&run(&mut e, 0, |_, _| err(-32603, "boom")), op) else { panic!() };
    assert_eq!(error.failure.kind(), "host");
    assert_eq!(error.draft.value(), json!(text("hello")));
}

/// Our prompt is out when other work starts: the agent holds it.
fn held_prompt(e: &mut AcpEngine) -> (OpId, RequestId) {
    let op = e.send("s", text("hello"), 0).unwrap();
    let log = run(e, 0, silent);
    state(e, "running", None, 1);
    (op, log.sent.iter().find(|r| r.method == "session/prompt").expect("sent while idle").id)
}

fn cancelled() -> HostAnswer {
    HostAnswer::Cancelled("request cancelled".into())
}

#[test]
fn a_held_v2_prompt_the_cancel_ended_is_handed_back() {
    let mut e = queue_v2();
    let (op, prompt) = held_prompt(&mut e);
    e.cancel_sent("s");
    e.handle_answer(prompt, cancelled(), 2);
    let outcome = done(&run(&mut e, 2, silent), op);
    assert!(matches!(outcome, Some(Ok(AcpOutcome::HandedBack { reason: "turnCancelled", .. }))), "{outcome:?}");
}

#[test]
fn a_request_cancelled_rejection_without_a_cancel_of_ours_is_unknown_with_the_draft() {
    let mut e = queue_v2();
    let (op, prompt) = held_prompt(&mut e);
    e.handle_answer(prompt, cancelled(), 2);
    let Some(Err(error)) = done(&run(&mut e, 2, silent), op) else { panic!("settled") };
    assert_eq!(error.failure.kind(), "outcomeUnknown", "a client's own cancel may come after the write");
    assert_eq!(error.draft.value(), json!(text("hello")));
}

#[test]
fn a_v2_prompt_with_no_answer_in_its_bound_is_unknown() {
    let mut e = queue_v2();
    let op = e.send("s", text("hello"), 0).unwrap();
    run(&mut e, 0, silent);
    e.handle_timeout(10_000);
    let Some(Err(error)) = done(&run(&mut e, 10_000, silent), op) else { panic!() };
    assert_eq!(error.failure.kind(), "outcomeUnknown");
}

#[test]
fn a_v2_queued_message_goes_out_as_a_prompt_at_idle_and_a_cancel_hands_it_back() {
    let mut e = queue_v2();
    state(&mut e, "running", None, 0);
    let op = e.send("s", text("later"), 0).unwrap();
    assert!(run(&mut e, 0, silent).sent.is_empty(), "no steering path: it waits");
    assert_eq!(e.composer("s").queued, vec![text("later")]);
    state(&mut e, "idle", Some("end_turn"), 1);
    let log = run(&mut e, 1, |_, _| ok(json!({ "messageId": "ours-1" })));
    assert_eq!(log.methods(), ["session/prompt"]);
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Prompted { .. }))));
    state(&mut e, "running", None, 2);
    let op = e.send("s", text("never"), 2).unwrap();
    e.cancel_sent("s");
    let outcome = done(&run(&mut e, 2, silent), op);
    assert!(matches!(outcome, Some(Ok(AcpOutcome::HandedBack { .. }))), "{outcome:?}");
}

#[test]
fn prompt_required_on_v2_goes_out_as_a_prompt_without_waiting_for_a_stale_running_state() {
    let mut e = v2(json!({}));
    state(&mut e, "running", None, 0);
    let op = e.send("s", text("hello"), 0).unwrap();
    let log = run(&mut e, 0, no_turn_then_inserted);
    assert_eq!(log.methods(), ["_session/steering", "session/prompt"]);
    assert!(matches!(done(&log, op), Some(Ok(AcpOutcome::Prompted { .. }))));
}

#[test]
fn a_state_update_on_a_v1_connection_changes_nothing() {
    let mut e = acp_engine(json!({ "_meta": { "steering": { "supported": true } } }), false);
    state(&mut e, "running", None, 0);
    assert_eq!(e.composer("s").mode, InputMode::Idle);
}
