//! The desktop hook's journal (`core::desktop`): a record is written just
//! before the desktop's own request carries the message, on every path, in
//! the engines' format; it is removed once the steer is settled and kept
//! while the outcome is unknown; nothing is written without a journal or
//! for a message without an id.
#![cfg(not(target_arch = "wasm32"))]

mod desktop;

use desktop::{call, drain, lost, own, refused, started, Out};
use renderer_steering::core::codexhost::Delivery;
use renderer_steering::core::desktop::{Answer, DesktopHook, Ended, NewTurnStep, Outgoing};
use renderer_steering::core::journal::{storage_key, JournalDialect, JournalRecord, MAX_RECORDS, MAX_RECORD_BYTES};
use renderer_steering::core::Action;

fn journaled() -> DesktopHook {
    let mut hook = DesktopHook::new(1_000);
    hook.enable_journal("rs:".into(), 1_000.0);
    hook
}

/// The journal actions among `actions`: `(key, Some(record))` for a write, `(key, None)` for a removal.
fn writes(actions: &[Out]) -> Vec<(String, Option<JournalRecord>)> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Journal { key, record } => Some((key.clone(), record.as_deref().map(|t| JournalRecord::from_text(t).unwrap()))),
            _ => None,
        })
        .collect()
}

#[test]
fn the_desktops_own_steer_is_written_before_it_leaves_with_the_turn_and_what_was_shown() {
    let mut hook = journaled();
    let steer = own(&mut hook, call("t", "use pnpm", Some("m-1"), 1), Delivery::ActiveTurn, true);
    assert!(writes(&drain(&mut hook)).is_empty(), "nothing before the request");
    let out = hook.request_into(5, "turn/steer", "t", Some("m-1"), Some("turn-1".into()), 1);
    assert_eq!(out, Outgoing::Own(steer, Some(Delivery::ActiveTurn)));
    let written = writes(&drain(&mut hook));
    let [(key, Some(record))] = written.as_slice() else { panic!("one write: {written:?}") };
    assert_eq!(key, &storage_key("rs:", JournalDialect::Codexhost, "t", "m-1"));
    assert_eq!((record.key.as_str(), record.message_id.as_str()), ("t", "m-1"));
    assert_eq!(record.expected_turn_id.as_deref(), Some("turn-1"));
    assert_eq!(record.presented.as_deref(), Some("activeTurn"));
    assert_eq!(record.method, "turn/steer");
    assert_eq!(record.draft.value()[0]["text"], "use pnpm");
    assert_eq!(record.at, 1_005.0, "the engine's time plus the wall clock's offset");
}

#[test]
fn a_delivered_steer_removes_its_record_and_an_unknown_one_keeps_it() {
    let mut hook = journaled();
    let steer = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::Official, false);
    hook.request_into(0, "turn/steer", "t", Some("m-1"), None, 1);
    drain(&mut hook);
    hook.own_ended(steer, Ended::Ok);
    assert_eq!(writes(&drain(&mut hook)), [(storage_key("rs:", JournalDialect::Codexhost, "t", "m-1"), None)]);

    let steer = own(&mut hook, call("t", "y", Some("m-2"), 2), Delivery::Official, false);
    hook.request_into(0, "turn/steer", "t", Some("m-2"), None, 2);
    drain(&mut hook);
    hook.own_ended(steer, Ended::Error(lost()));
    assert!(writes(&drain(&mut hook)).is_empty(), "outcome unknown: kept");
    hook.forget("m-2");
    assert_eq!(writes(&drain(&mut hook)), [(storage_key("rs:", JournalDialect::Codexhost, "t", "m-2"), None)], "until forgotten");
}

#[test]
fn a_host_refusal_settles_the_steer_and_removes_its_record() {
    let mut hook = journaled();
    let steer = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::ActiveTurn, true);
    hook.request_into(0, "turn/steer", "t", Some("m-1"), None, 1);
    drain(&mut hook);
    hook.own_ended(steer, Ended::Error(refused()));
    assert_eq!(writes(&drain(&mut hook)).len(), 1);
}

#[test]
fn a_new_turn_route_writes_its_one_request_as_it_leaves() {
    let mut hook = journaled();
    let (steer, id) = started(&mut hook, 0, call("t", "start over", Some("m-9"), 1), Some("turn-1"));
    drain(&mut hook);
    hook.request(1, "turn/start", "t", Some(&id), 5);
    let written = writes(&drain(&mut hook));
    let [(_, Some(record))] = written.as_slice() else { panic!("one write: {written:?}") };
    assert_eq!((record.method.as_str(), record.presented.as_deref()), ("turn/steer", Some("newTurn")), "rewritten into the running turn");
    assert_eq!(record.expected_turn_id.as_deref(), Some("turn-1"));
    let answer = Answer { turn_id: Some("turn-1".into()), delivery: Some(Delivery::NewTurn) };
    hook.routed_ended(steer, Ended::Ok, Some(answer));
    assert!(writes(&drain(&mut hook)).is_empty(), "the steer ends with its startTurn");
    hook.start_settled(steer, true);
    if let NewTurnStep::WaitDone(_) = hook.start_ended(2, steer, Ended::Ok) {
        hook.done_ended(steer, Ended::Ok);
    }
    assert!(writes(&drain(&mut hook)).iter().any(|(_, record)| record.is_none()), "delivered: removed");
}

#[test]
fn without_a_journal_or_an_id_nothing_is_written() {
    let mut hook = DesktopHook::new(1_000);
    own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::ActiveTurn, true);
    hook.request_into(0, "turn/steer", "t", Some("m-1"), None, 1);
    assert!(writes(&drain(&mut hook)).is_empty(), "no journal");
    let mut hook = journaled();
    own(&mut hook, call("t", "x", None, 7), Delivery::ActiveTurn, true);
    assert!(matches!(hook.request_into(0, "turn/steer", "t", None, None, 7), Outgoing::Own(..)));
    assert!(writes(&drain(&mut hook)).is_empty(), "a message without an id cannot be named after a restart");
}

/// The text of each record written among `actions`.
fn record_texts(actions: &[Out]) -> Vec<String> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Journal { record: Some(text), .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// The records an own steer of `text` writes as its request leaves.
fn written_for(text: &str) -> Vec<String> {
    let mut hook = journaled();
    own(&mut hook, call("t", text, Some("m-1"), 1), Delivery::ActiveTurn, true);
    hook.request_into(0, "turn/steer", "t", Some("m-1"), None, 1);
    record_texts(&drain(&mut hook))
}

#[test]
fn a_record_is_written_up_to_the_records_bound_and_not_past_it() {
    let [short] = written_for("x").try_into().expect("one record");
    let at_bound = "x".repeat(1 + MAX_RECORD_BYTES - short.len());
    let [record] = written_for(&at_bound).try_into().expect("one record at the bound");
    assert_eq!(record.len(), MAX_RECORD_BYTES);
    assert!(written_for(&format!("{at_bound}x")).is_empty(), "one byte past the bound: none");
}

/// Steers of ids `m-0` ..= `m-{last}` on their own threads, each ending with an unknown outcome.
fn unknown_steers(hook: &mut DesktopHook, last: usize, input: u64) -> Vec<(String, Option<JournalRecord>)> {
    let mut actions = Vec::new();
    for n in 0..=last {
        let (thread, id, input) = (format!("t-{n}"), format!("m-{n}"), input + n as u64);
        let steer = own(hook, call(&thread, "x", Some(&id), input), Delivery::Official, false);
        hook.request_into(0, "turn/steer", &thread, Some(&id), None, input);
        hook.own_ended(steer, Ended::Error(lost()));
        hook.own_settled(steer);
        actions.extend(writes(&drain(hook)));
    }
    actions
}

#[test]
fn past_the_count_bound_the_oldest_idle_record_is_removed() {
    let mut hook = journaled();
    let written = unknown_steers(&mut hook, MAX_RECORDS, 1);
    let removed: Vec<_> = written.iter().filter(|(_, record)| record.is_none()).map(|(key, _)| key.clone()).collect();
    assert_eq!(removed, [storage_key("rs:", JournalDialect::Codexhost, "t-0", "m-0")]);
    hook.forget("m-1");
    assert_eq!(writes(&drain(&mut hook)).len(), 1, "the next oldest is kept");
}

#[test]
fn a_record_carried_by_a_steer_still_out_outlives_the_count_bound() {
    let mut hook = journaled();
    let out = own(&mut hook, call("t", "x", Some("m"), 1), Delivery::Official, true);
    hook.request_into(0, "turn/steer", "t", Some("m"), None, 1);
    drain(&mut hook);
    let written = unknown_steers(&mut hook, MAX_RECORDS - 1, 2);
    let removed: Vec<_> = written.iter().filter(|(_, record)| record.is_none()).map(|(key, _)| key.clone()).collect();
    assert_eq!(removed, [storage_key("rs:", JournalDialect::Codexhost, "t-0", "m-0")], "the oldest idle one goes instead");
    hook.own_ended(out, Ended::Ok);
    hook.own_settled(out);
    assert_eq!(writes(&drain(&mut hook)), [(storage_key("rs:", JournalDialect::Codexhost, "t", "m"), None)]);
}

#[test]
fn a_same_id_retry_that_is_delivered_removes_the_record_its_first_attempt_left() {
    let mut hook = journaled();
    // A host that deduplicates the id: the same message may be sent again.
    let first = own(&mut hook, call("t", "x", Some("m"), 1), Delivery::Official, true);
    hook.request_into(0, "turn/steer", "t", Some("m"), None, 1);
    hook.own_ended(first, Ended::Error(lost()));
    hook.own_settled(first);
    let key = storage_key("rs:", JournalDialect::Codexhost, "t", "m");
    assert!(writes(&drain(&mut hook)).iter().all(|(_, record)| record.is_some()), "kept while unknown");
    let again = own(&mut hook, call("t", "x", Some("m"), 2), Delivery::Official, true);
    hook.request_into(0, "turn/steer", "t", Some("m"), None, 2);
    hook.own_ended(again, Ended::Ok);
    hook.own_settled(again);
    let written = writes(&drain(&mut hook));
    assert_eq!(written.last(), Some(&(key, None)), "delivered: the message is in the thread");
}
