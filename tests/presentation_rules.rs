//! How a steer is shown when the host delivers it elsewhere than the
//! optimistic presentation: one presentation, never two. A caller with a
//! `reconcile` hook gets the move in place; any other caller gets the old
//! presentation retracted and the new one presented.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{ok, run};
use renderer_steering::bridge::Bridge;
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerRequest};
use renderer_steering::core::{Action, HostAnswer, OpId, Timeouts};
use serde_json::{json, Value};

/// Inspect says `activeTurn`; the steer lands in a new turn.
fn moving_answer(method: &str) -> Value {
    match method {
        "turn/steer" => json!({ "turnId": "turn-9", "delivery": "newTurn" }),
        _ => json!({ "delivery": "activeTurn" }),
    }
}

fn moving_host(method: &str, _: &Value) -> Option<HostAnswer> {
    ok(moving_answer(method))
}

fn steered(reconciles: bool) -> (common::Log<CodexhostOutcome>, OpId) {
    let mut engine = CodexhostEngine::new(Timeouts::default());
    let mut request = SteerRequest::text("t", Some("turn-1"), "x");
    request.client_user_message_id = Some("msg-x".into());
    request.reconciles = reconciles;
    let op = engine.steer(request, 0).unwrap().op();
    (run(&mut engine, 0, moving_host), op)
}

/// The presentation actions, in order, with what each names.
fn shown(log: &common::Log<CodexhostOutcome>) -> Vec<String> {
    log.actions
        .iter()
        .filter_map(|action| match action {
            Action::Present { presentation, .. } => Some(format!("present {presentation}")),
            Action::Retract { .. } => Some("retract".into()),
            Action::Reconcile { from, to, .. } => Some(format!("reconcile {from} {to}")),
            _ => None,
        })
        .collect()
}

fn delivered(log: &common::Log<CodexhostOutcome>, op: OpId) -> (&'static str, &'static str) {
    match log.completion(op) {
        Some(Action::Complete { result: Ok(CodexhostOutcome::Steered(o)), .. }) => (o.presented.as_str(), o.delivery.as_str()),
        other => panic!("not delivered: {other:?}"),
    }
}

#[test]
fn a_caller_with_a_reconcile_hook_gets_the_move_in_place() {
    let (log, op) = steered(true);
    assert_eq!(shown(&log), ["present activeTurn", "reconcile activeTurn newTurn"]);
    assert_eq!(delivered(&log, op), ("activeTurn", "newTurn"));
}

#[test]
fn a_caller_without_one_gets_a_retract_then_a_present_where_it_went() {
    let (log, op) = steered(false);
    assert_eq!(shown(&log), ["present activeTurn", "retract", "present newTurn"]);
    assert_eq!(delivered(&log, op), ("activeTurn", "newTurn"), "delivered all the same: nothing is handed back");
}

#[test]
fn a_delivery_where_it_was_shown_is_left_as_it_is() {
    let mut engine = CodexhostEngine::new(Timeouts::default());
    let mut request = SteerRequest::text("t", Some("turn-1"), "x");
    request.client_user_message_id = Some("msg-x".into());
    engine.steer(request, 0).unwrap();
    let log = run(&mut engine, 0, |method, _| match method {
        "turn/steer" => ok(json!({ "turnId": "turn-1", "delivery": "activeTurn" })),
        _ => ok(json!({ "delivery": "activeTurn" })),
    });
    assert_eq!(shown(&log), ["present activeTurn"]);
}

// ---- through the boundary: the driver names the hook, the engine chooses ----

fn step(bridge: &mut Bridge, handle: u32, input: Value, payload: &str) -> Value {
    serde_json::from_str(&bridge.step(handle, &input.to_string(), payload)).expect("the bridge answers JSON")
}

/// The steps the boundary answers for one steer over the moving host, by name.
fn steps_of_a_moved_steer(reconcile_hook: bool) -> Vec<String> {
    let mut bridge = Bridge::default();
    let read = json!({ "options": { "t": "object" }, "fields": [["request", { "t": "function" }]] });
    let handle = step(&mut bridge, 0, json!({ "do": "open", "engine": "codexhost", "options": read }), "")["value"]["handle"]
        .as_u64()
        .unwrap() as u32;
    let fields = json!({ "threadId": "t", "expectedTurnId": "turn-1", "input": [{ "type": "text", "text": "x" }] }).to_string();
    let mut out = step(&mut bridge, handle, json!({ "do": "steer", "now": 0, "freshId": "m-1", "reconcileHook": reconcile_hook }), &fields);
    let mut names = Vec::new();
    for _ in 0..4 {
        let steps = out["steps"].as_array().cloned().unwrap_or_default();
        names.extend(steps.iter().filter(|s| s["do"] != "send" && s["do"] != "journal").map(|s| s["do"].as_str().unwrap().to_string()));
        let Some(send) = steps.iter().find(|s| s["do"] == "send") else { break };
        let answer = moving_answer(send["method"].as_str().unwrap());
        out = step(&mut bridge, handle, json!({ "do": "answer", "id": send["id"], "now": 1, "how": "result" }), &answer.to_string());
    }
    names
}

#[test]
fn the_steer_input_names_the_reconcile_hook_and_the_engine_chooses_the_steps() {
    assert_eq!(steps_of_a_moved_steer(true), ["present", "reconcile", "complete"]);
    assert_eq!(steps_of_a_moved_steer(false), ["present", "retract", "present", "complete"]);
}
