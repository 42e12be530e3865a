//! The journal's recovery of a codexhost engine: what it reads, reports and
//! removes after a reload, and what it teaches a later steer of the same id.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::journal::*;
use common::{err, ok, run, silent, text};
use renderer_steering::core::codexhost::CodexhostOutcome;
use renderer_steering::core::journal::{storage_key, JournalDialect, RecoveredOutcome};
use renderer_steering::core::{Action, Json, Timeouts};
use serde_json::{json, Value};

// ---- codexhost recovery ----

#[test]
fn recovery_reads_each_thread_once_within_the_decide_bound() {
    let mut e = codexhost();
    e.recover(vec![stored("t1", "m1", Some("u1")), stored("t1", "m2", Some("u1")), stored("t2", "m3", None)], 0);
    let log = run(&mut e, 0, silent);
    let reads: Vec<(Value, Option<u64>, bool)> = log.sent.iter().map(|r| (r.params.clone(), r.timeout_ms, r.carries_message)).collect();
    assert_eq!(log.methods(), ["thread/read", "thread/read"]);
    let decide = Some(Timeouts::default().decide_ms);
    assert_eq!(
        reads,
        [
            (json!({ "threadId": "t1", "includeTurns": true }), decide, false),
            (json!({ "threadId": "t2", "includeTurns": true }), decide, false)
        ]
    );
}

#[test]
fn recovery_reports_delivered_what_the_thread_shows_and_removes_it() {
    let mut e = codexhost();
    let op = e.recover(vec![stored("t", "m1", Some("u1")), stored("t", "m2", Some("u1"))], 0);
    let items = [user_message(Some("m1"), &words("m1")), user_message(None, &words("m2"))];
    let log = settle(&mut e, host(thread("t", json!([{ "id": "u1", "status": "inProgress", "items": items }])), None));
    let entries = recovered(&log, op);
    assert_eq!(outcomes(&entries), [("m1", RecoveredOutcome::Delivered), ("m2", RecoveredOutcome::Delivered)]);
    assert_eq!((entries[0].thread_id.as_str(), entries[0].draft.clone()), ("t", Json::from(text(&words("m1")))));
    assert_eq!(removals(&log.actions), [key("t", "m1"), key("t", "m2")]);
}

#[test]
fn recovery_reports_not_delivered_once_its_turn_and_every_later_one_ended_without_it_and_removes_it() {
    let mut e = codexhost();
    let op = e.recover(vec![stored("t", "m1", Some("u1")), stored("t", "m2", Some("u2"))], 0);
    let turns = json!([{ "id": "u1", "status": "interrupted", "items": [] }, { "id": "u2", "status": "completed", "items": [] }]);
    let log = settle(&mut e, host(thread("t", turns), None));
    assert_eq!(outcomes(&recovered(&log, op)), [("m1", RecoveredOutcome::NotDelivered), ("m2", RecoveredOutcome::NotDelivered)]);
    assert_eq!(removals(&log.actions), [key("t", "m1"), key("t", "m2")]);
}

#[test]
fn recovery_reports_unknown_and_keeps_the_record_while_the_host_cannot_tell() {
    let running = thread("t", json!([{ "id": "u1", "status": "completed", "items": [] }, { "id": "u2", "status": "inProgress" }]));
    let reads = [running, thread("other", json!([])), err(-32081, "history could not be read"), None];
    for read in reads {
        let mut e = codexhost();
        let op = e.recover(vec![stored("t", "m1", Some("u1"))], 0);
        let log = settle(&mut e, host(read.clone(), None));
        assert_eq!(outcomes(&recovered(&log, op)), [("m1", RecoveredOutcome::Unknown)], "{read:?}");
        assert!(journal(&log.actions).is_empty(), "{read:?}");
    }
}

#[test]
fn a_recovered_record_removed_once_settled_is_forgotten_and_the_unsettled_ones_are_still_known() {
    let mut e = codexhost();
    let op = e.recover(vec![stored("t1", "m1", Some("u1")), stored("t2", "m2", Some("u1"))], 0);
    let shows = json!([{ "id": "u1", "status": "inProgress", "items": [user_message(Some("m1"), &words("m1"))] }]);
    let log =
        settle(&mut e, |_, p| if p["threadId"] == "t1" { thread("t1", shows.clone()) } else { err(-32081, "history could not be read") });
    assert_eq!(outcomes(&recovered(&log, op)), [("m1", RecoveredOutcome::Delivered), ("m2", RecoveredOutcome::Unknown)]);
    assert_eq!(removals(&log.actions), [key("t1", "m1")]);
    e.forget("m1");
    assert!(journal(&run(&mut e, 0, silent).actions).is_empty(), "already removed");
    e.forget("m2");
    assert_eq!(removals(&run(&mut e, 0, silent).actions), [key("t2", "m2")]);
}

#[test]
fn recovery_never_sends_a_message() {
    let mut e = codexhost();
    e.recover(vec![stored("t", "m1", Some("u1")), stored("t2", "m2", None)], 0);
    let log = settle(&mut e, |_, p| thread(p["threadId"].as_str().unwrap(), json!([{ "id": "u1", "status": "completed", "items": [] }])));
    assert_eq!(log.methods(), ["thread/read", "thread/read"]);
    assert!(log.sent.iter().all(|r| !r.carries_message));
}

#[test]
fn recovery_leaves_the_records_of_followed_threads_alone() {
    let mut e = codexhost();
    e.set_follower("t1", true);
    let op = e.recover(vec![stored("t1", "m1", Some("u1")), stored("t2", "m2", Some("u1")), stored("t3", "m3", Some("u1"))], 0);
    let mut log = run(&mut e, 0, silent);
    assert_eq!(log.sent.iter().map(|r| r.params["threadId"].clone()).collect::<Vec<_>>(), ["t2", "t3"]);
    e.set_follower("t3", true); // taken over by another window while it was read
    let ended = |id: &str| thread(id, json!([{ "id": "u1", "status": "completed", "items": [] }])).unwrap();
    let (t2, t3) = (log.sent[0].id, log.sent[1].id);
    e.handle_answer(t2, ended("t2"), 1);
    e.handle_answer(t3, ended("t3"), 1);
    log.actions.extend(run(&mut e, 1, silent).actions);
    assert_eq!(outcomes(&recovered(&log, op)), [("m2", RecoveredOutcome::NotDelivered)]);
    assert_eq!(removals(&log.actions), [key("t2", "m2")]);
}

#[test]
fn recovery_leaves_the_record_of_a_message_this_engine_is_steering_to_that_steer() {
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    settle(&mut e, host(None, None));
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap(); // the retry reads the thread before it writes
    run(&mut e, 0, silent);
    let op = e.recover(vec![stored("t", "m1", Some("u1"))], 0);
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty(), "{:?}", log.methods());
    assert!(recovered(&log, op).is_empty());
}

#[test]
fn recovery_ignores_records_of_the_other_dialect() {
    let mut e = codexhost();
    let acp = (storage_key(PREFIX, JournalDialect::Acp, "s", "m"), record(JournalDialect::Acp, "s", "m", None, WALL));
    let op = e.recover(vec![acp], 0);
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty() && recovered(&log, op).is_empty());
}

#[test]
fn a_recovery_ended_by_dispose_reports_unknown_and_keeps_the_records() {
    let mut e = codexhost();
    let op = e.recover(vec![stored("t", "m1", Some("u1"))], 0);
    let mut log = run(&mut e, 0, silent);
    e.dispose();
    log.actions.extend(run(&mut e, 0, silent).actions);
    assert_eq!(outcomes(&recovered(&log, op)), [("m1", RecoveredOutcome::Unknown)]);
    let later = e.recover(vec![stored("t", "m2", Some("u1"))], 0);
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty(), "a disposed engine reads nothing");
    assert_eq!(outcomes(&recovered(&log, later)), [("m2", RecoveredOutcome::Unknown)]);
    assert_eq!(e.live_state(), 0);
}

#[test]
fn a_recovered_delivery_makes_a_same_id_steer_resolve_with_nothing_sent() {
    let mut e = codexhost();
    e.recover(vec![stored("t", "m1", Some("u1"))], 0);
    let shows = json!([{ "id": "u1", "status": "completed", "items": [user_message(Some("m1"), &words("m1"))] }]);
    settle(&mut e, host(thread("t", shows), None));
    let op = e.steer(steer("t", Some("u2"), "m1"), 0).unwrap().op();
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty());
    assert!(matches!(log.completion(op), Some(Action::Complete { result: Ok(CodexhostOutcome::Steered(o)), .. }) if o.turn_id == "u1"));
}

#[test]
fn a_recovered_unknown_makes_a_same_id_steer_read_the_thread_first() {
    let mut e = codexhost();
    e.recover(vec![stored("t", "m1", Some("u1"))], 0);
    settle(&mut e, host(thread("t", json!([{ "id": "u1", "status": "inProgress", "items": [] }])), None));
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    assert_eq!(run(&mut e, 0, silent).methods(), ["thread/read"]);
}

#[test]
fn a_recovered_non_delivery_lets_a_same_id_steer_go_without_reading_again() {
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    settle(&mut e, host(None, None)); // unknown: a retry would read the thread first
    e.recover(vec![stored("t", "m1", Some("u1"))], 0);
    settle(&mut e, host(thread("t", json!([{ "id": "u1", "status": "completed", "items": [] }])), None));
    e.steer(steer("t", Some("u2"), "m1"), 0).unwrap();
    assert_eq!(run(&mut e, 0, silent).methods(), ["turn/steer"], "the owner is known: sent at once");
}

#[test]
fn a_recovery_and_its_thread_reads_count_as_live_state_until_they_end() {
    let mut e = codexhost();
    e.recover(vec![stored("t1", "m1", Some("u1")), stored("t2", "m2", Some("u1"))], 0);
    run(&mut e, 0, |_, _| None);
    assert_eq!(e.live_state(), 5, "the recovery, its two thread reads and their two requests");
    settle(&mut e, |_, _| None);
    assert_eq!(e.live_state(), 0, "ended by the bound: nothing held");
}

#[test]
fn recovery_reads_the_record_of_another_message_on_a_thread_this_engine_is_steering() {
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m9"), 0).unwrap();
    run(&mut e, 0, silent); // m9's inspect is out
    let op = e.recover(vec![stored("t", "m1", Some("u1")), stored("t2", "m9", Some("u1"))], 0);
    let log = settle(&mut e, host(None, None));
    let threads: Vec<Value> = log.sent.iter().filter(|r| r.method == "thread/read").map(|r| r.params["threadId"].clone()).collect();
    assert_eq!(threads, ["t", "t2"], "only the very message on the very thread is left to its steer");
    assert_eq!(outcomes(&recovered(&log, op)), [("m1", RecoveredOutcome::Unknown), ("m9", RecoveredOutcome::Unknown)]);
}

#[test]
fn a_recovered_unknown_does_not_undo_a_delivery_this_engine_saw() {
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    settle(&mut e, host(None, ok(json!({ "turnId": "u1" }))));
    e.recover(vec![stored("t", "m1", Some("u1"))], 0);
    settle(&mut e, host(err(-32081, "history could not be read"), None));
    let op = e.steer(steer("t", Some("u1"), "m1"), 0).unwrap().op();
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty(), "delivered here: no thread/read, no second steer ({:?})", log.methods());
    assert!(matches!(log.completion(op), Some(Action::Complete { result: Ok(CodexhostOutcome::Steered(_)), .. })));
}
