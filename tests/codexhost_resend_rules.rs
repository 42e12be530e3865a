//! Who deduplicates a resent message: a codexhost host applies a same-id
//! `turn/steer` once only on its external threads; a Codex-owned thread's
//! steer goes verbatim to Codex, which applies a repeated id again. So after
//! an unknown outcome, a retry on a Codex-owned thread reads the thread
//! first, whatever host answered a codexhost method on the connection.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{ok, run, unknown_variant, Log};
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerRequest};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, OpId, Timeouts};
use serde_json::{json, Value};

fn request(thread: &str, turn: Option<&str>) -> SteerRequest {
    let mut r = SteerRequest::text(thread, turn, "use pnpm");
    r.client_user_message_id = Some("m1".into());
    r
}

/// The published codexhost host before steering: no inspect, ownership/list
/// answers `owner`, and `thread/read` with turns shows `turns`.
fn old_codexhost(owner: &'static str, turns: Value, steer: Option<HostAnswer>) -> impl FnMut(&str, &Value) -> Option<HostAnswer> {
    move |method, params| match method {
        "codexhost/thread/steering/inspect" => unknown_variant(method),
        "codexhost/thread/ownership/list" => {
            let row = if owner == "codex" {
                json!({ "threadId": params["threadIds"][0], "owner": "codex" })
            } else {
                json!({ "threadId": params["threadIds"][0], "owner": "external", "harnessId": "claude-code" })
            };
            ok(json!({ "threads": [row] }))
        }
        "thread/read" => ok(json!({ "thread": { "id": params["threadId"], "turns": turns } })),
        _ => steer.clone(),
    }
}

fn kind(log: &Log<CodexhostOutcome>, op: OpId) -> &'static str {
    match log.completion(op) {
        Some(Action::Complete { result: Ok(_), .. }) => "ok",
        Some(Action::Complete { result: Err(e), .. }) => e.failure.kind(),
        other => panic!("no completion: {other:?}"),
    }
}

/// One steer on `owner`'s thread whose answer is lost (written, then the bound passes).
fn lost_answer(owner: &'static str) -> CodexhostEngine {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let op = e.steer(request("t", Some("turn-1")), 0).unwrap().op();
    let first = run(&mut e, 0, old_codexhost(owner, json!([]), None));
    assert!(first.methods().contains(&"turn/steer"), "{owner}: the steer was written");
    e.handle_timeout(60_000);
    let after = run(&mut e, 60_000, |_, _| None);
    assert_eq!(kind(&after, op), "outcomeUnknown", "{owner}: a lost answer is an unknown outcome");
    e
}

#[test]
fn a_same_id_retry_on_a_codex_owned_thread_of_a_codexhost_host_reads_the_thread_and_sends_nothing_while_the_turn_runs() {
    let mut e = lost_answer("codex");
    let op = e.steer(request("t", Some("turn-1")), 60_000).unwrap().op();
    let running = json!([{ "id": "turn-1", "status": "inProgress", "items": [] }]);
    let log = run(&mut e, 60_000, old_codexhost("codex", running, ok(json!({ "turnId": "turn-1" }))));
    assert_eq!(log.methods(), ["thread/read"], "Codex applies a repeated id again: no second turn/steer");
    assert_eq!(log.sent[0].params["includeTurns"], true);
    assert_eq!(kind(&log, op), "outcomeUnknown");
}

#[test]
fn a_same_id_retry_on_a_codex_owned_thread_that_shows_the_message_resolves_delivered_without_sending() {
    let mut e = lost_answer("codex");
    let op = e.steer(request("t", Some("turn-1")), 60_000).unwrap().op();
    let applied = json!([{ "id": "turn-1", "status": "inProgress", "items": [{ "type": "userMessage", "clientId": "m1" }] }]);
    let log = run(&mut e, 60_000, old_codexhost("codex", applied, ok(json!({ "turnId": "turn-1" }))));
    assert_eq!(log.methods(), ["thread/read"]);
    assert_eq!(kind(&log, op), "ok");
}

#[test]
fn a_same_id_retry_on_a_codex_owned_thread_is_sent_again_only_once_its_turn_ended_without_it() {
    let mut e = lost_answer("codex");
    let op = e.steer(request("t", Some("turn-1")), 60_000).unwrap().op();
    let ended = json!([{ "id": "turn-1", "status": "completed", "items": [] }]);
    let log = run(&mut e, 60_000, old_codexhost("codex", ended, ok(json!({ "turnId": "turn-1" }))));
    assert_eq!(log.methods(), ["thread/read", "turn/steer"]);
    assert_eq!(log.sent[1].params["clientUserMessageId"], "m1");
    assert_eq!(kind(&log, op), "ok");
}

#[test]
fn a_same_id_retry_on_an_external_thread_of_a_codexhost_host_is_resent_for_the_host_to_deduplicate() {
    let mut e = lost_answer("external");
    let op = e.steer(request("t", Some("turn-1")), 60_000).unwrap().op();
    let log = run(&mut e, 60_000, old_codexhost("external", json!([]), ok(json!({ "turnId": "turn-2" }))));
    assert_eq!(log.methods(), ["turn/steer"], "the owner is cached and the host deduplicates: no probe, no read");
    assert_eq!(log.sent[0].params["clientUserMessageId"], "m1");
    assert_eq!(log.sent[0].params["codexhostSteerDelivery"], "newTurn");
    assert_eq!(kind(&log, op), "ok");
}

#[test]
fn a_lost_turn_start_on_an_external_thread_is_not_trusted_to_be_deduplicated() {
    // The host deduplicates `turn/steer` only: a plain `turn/start` (the
    // turn had ended) resent with the same id could open a second turn.
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(request("t", None), 0).unwrap();
    let first = run(&mut e, 0, old_codexhost("external", json!([]), None));
    assert!(first.methods().contains(&"turn/start"));
    e.handle_timeout(60_000);
    run(&mut e, 60_000, |_, _| None);
    let op = e.steer(request("t", None), 60_000).unwrap().op();
    let running = json!([{ "id": "turn-2", "status": "inProgress", "items": [] }]);
    let log = run(&mut e, 60_000, old_codexhost("external", running, ok(json!({ "turn": { "id": "turn-3" } }))));
    assert_eq!(log.methods(), ["thread/read"]);
    assert_eq!(kind(&log, op), "outcomeUnknown");
}

#[test]
fn decide_says_a_codexhost_host_deduplicates_external_threads_but_not_codex_owned_ones() {
    for (owner, expected) in [("codex", false), ("external", true)] {
        let mut e = CodexhostEngine::new(Timeouts::default());
        let op = e.decide("t", "use pnpm", 0).unwrap();
        let log = run(&mut e, 0, old_codexhost(owner, json!([]), None));
        match log.completion(op) {
            Some(Action::Complete { result: Ok(CodexhostOutcome::Decided(d)), .. }) => {
                assert_eq!(d.host_deduplicates, expected, "{owner}");
            }
            other => panic!("{owner}: {other:?}"),
        }
    }
}
