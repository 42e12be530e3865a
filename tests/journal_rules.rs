//! The journal's rules: where a record is stored, what the loader keeps and
//! removes, and when an engine writes a record and when it removes it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::journal::*;
use common::{acp_engine, err, ok, run, silent, text};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome};
use renderer_steering::core::codexhost::CodexhostEngine;
use renderer_steering::core::journal::{
    load, storage_key, JournalDialect, JournalRecord, RecoveredOutcome, JOURNAL_VERSION, MAX_AGE_MS, MAX_RECORDS, MAX_RECORD_BYTES,
};
use renderer_steering::core::{Action, HostAnswer, Json, Timeouts};
use serde_json::{json, Value};

// ---- where a record is stored, and what the loader keeps ----

#[test]
fn a_storage_key_is_the_prefix_then_the_triple_and_distinct_triples_never_share_one() {
    assert_eq!(key("t", "m"), r#"rs:["codexhost","t","m"]"#);
    let pairs = [("a:b", "c"), ("a", "b:c"), ("a\",\"b", "c"), ("a", "b\",\"c"), ("a\u{0}b", "c"), ("a", "\u{0}bc")];
    let mut keys: Vec<String> = pairs.iter().map(|(t, m)| key(t, m)).collect();
    keys.push(storage_key(PREFIX, JournalDialect::Acp, "a:b", "c"));
    let count = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), count, "two triples share a key");
}

#[test]
fn garbage_under_a_journal_key_is_dropped() {
    for garbage in ["", "not json", "{}", "[1,2]", r#"{"v":1,"dialect":"codexhost"}"#] {
        let loaded = load(PREFIX, vec![(key("t", "m"), garbage.into())], WALL);
        assert_eq!((loaded.records.len(), loaded.drop.clone()), (0, vec![key("t", "m")]), "{garbage:?}");
    }
}

#[test]
fn a_record_of_another_version_is_dropped() {
    let (k, r) = stored("t", "m", Some("u1"));
    let other = JournalRecord { v: JOURNAL_VERSION + 1, ..r };
    let loaded = load(PREFIX, vec![(k.clone(), other.to_text())], WALL);
    assert_eq!((loaded.records.len(), loaded.drop), (0, vec![k]));
}

#[test]
fn a_record_over_the_byte_bound_is_dropped() {
    let (k, r) = stored("t", "m", Some("u1"));
    let big = JournalRecord { draft: Json::from(text(&"x".repeat(MAX_RECORD_BYTES))), ..r };
    let loaded = load(PREFIX, vec![(k.clone(), big.to_text())], WALL);
    assert_eq!((loaded.records.len(), loaded.drop), (0, vec![k]));
}

#[test]
fn a_record_under_another_key_than_its_own_is_dropped() {
    let (_, r) = stored("t", "m", Some("u1"));
    let acp = JournalRecord { dialect: JournalDialect::Acp, ..r.clone() };
    let entries = vec![(key("t", "m"), acp.to_text()), (key("t", "other"), r.to_text()), (key("other", "m"), r.to_text())];
    let loaded = load(PREFIX, entries, WALL);
    assert_eq!(loaded.records.len(), 0);
    assert_eq!(loaded.drop, [key("t", "m"), key("t", "other"), key("other", "m")]);
}

#[test]
fn an_expired_record_is_dropped() {
    let (k, r) = stored("t", "m", Some("u1"));
    let max = MAX_AGE_MS as f64;
    let kept = load(PREFIX, vec![(k.clone(), JournalRecord { at: WALL - max, ..r.clone() }.to_text())], WALL);
    assert_eq!(kept.records.len(), 1, "exactly as old as the journal keeps");
    for at in [WALL - max - 1.0, WALL + max + 1.0] {
        let loaded = load(PREFIX, vec![(k.clone(), JournalRecord { at, ..r.clone() }.to_text())], WALL);
        assert_eq!((loaded.records.len(), loaded.drop), (0, vec![k.clone()]), "written at {at}");
    }
}

#[test]
fn entries_not_under_the_prefix_are_neither_kept_nor_dropped() {
    let (k, r) = stored("t", "m", Some("u1"));
    let entries = vec![
        ("theme".to_string(), "dark".to_string()),
        (format!("other:{}", &k[PREFIX.len()..]), r.to_text()),
        ("rs:settings".into(), "garbage".into()),
        ("rs:other:[\"codexhost\",\"t\",\"m\"]".into(), r.to_text()),
        (k.clone(), r.to_text()),
    ];
    let loaded = load(PREFIX, entries, WALL);
    assert_eq!(loaded.records, vec![(k, r)]);
    assert!(loaded.drop.is_empty(), "{:?}", loaded.drop);
}

#[test]
fn past_the_count_bound_the_oldest_records_are_dropped() {
    let entries: Vec<(String, String)> = (0..MAX_RECORDS + 3)
        .rev()
        .map(|n| {
            let id = format!("m{n}");
            (key("t", &id), JournalRecord { at: WALL + n as f64, ..stored("t", &id, None).1 }.to_text())
        })
        .collect();
    let loaded = load(PREFIX, entries, WALL);
    assert_eq!(loaded.records.len(), MAX_RECORDS);
    assert_eq!(loaded.drop, [key("t", "m0"), key("t", "m1"), key("t", "m2")]);
    assert_eq!(loaded.records[0].1.message_id, "m3", "oldest first");
}

// ---- when an engine writes a record and when it removes it ----

#[test]
fn the_record_is_written_immediately_before_the_send_that_carries_the_message() {
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 5).unwrap();
    let log = run(&mut e, 5, host(None, None));
    let at = log.actions.iter().position(|a| matches!(a, Action::Journal { .. })).expect("a record is written");
    assert!(matches!(&log.actions[at + 1], Action::Send(r) if r.carries_message && r.method == "turn/steer"));
    assert_eq!(journal(&log.actions).len(), 1, "the probe is not journaled");
    let (k, written) = writes(&log.actions).remove(0);
    assert_eq!(k, key("t", "m1"));
    let expected = json!({ "v": 1, "dialect": "codexhost", "key": "t", "messageId": "m1", "expectedTurnId": "u1",
        "method": "turn/steer", "draft": text(&words("m1")), "presented": "official", "at": 5.0 + OFFSET });
    assert_eq!(written, expected);
}

#[test]
fn an_engine_without_the_journal_writes_nothing() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    assert!(journal(&settle(&mut e, host(None, None)).actions).is_empty());
}

#[test]
fn a_message_whose_record_would_be_over_the_byte_bound_is_sent_unjournaled() {
    let mut e = codexhost();
    let long = "t".repeat(MAX_RECORD_BYTES);
    e.steer(steer(&long, Some("u1"), "m1"), 0).unwrap();
    let log = settle(&mut e, host(None, None));
    assert_eq!(log.methods(), ["codexhost/thread/steering/inspect", "turn/steer"]);
    assert!(journal(&log.actions).is_empty());
}

#[test]
fn a_delivered_message_removes_its_record() {
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    let log = settle(&mut e, host(None, ok(json!({ "turnId": "u1" }))));
    assert_eq!(removals(&log.actions), [key("t", "m1")]);
    let removed = log.actions.iter().position(|a| matches!(a, Action::Journal { record: None, .. })).unwrap();
    assert!(matches!(log.actions[removed + 1], Action::Complete { result: Ok(_), .. }), "removed before the steer resolves");
}

#[test]
fn a_host_refusal_removes_the_record() {
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    let log = settle(&mut e, host(None, err(-32074, "expected turn is not the active one")));
    assert_eq!(removals(&log.actions), [key("t", "m1")]);
}

#[test]
fn a_request_the_transport_never_wrote_removes_the_record() {
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    let log = settle(&mut e, host(None, Some(HostAnswer::NotSent("socket closed".into()))));
    assert_eq!(removals(&log.actions), [key("t", "m1")]);
}

#[test]
fn an_unknown_outcome_keeps_the_record() {
    let fates = [None, Some(HostAnswer::Transport("connection lost".into())), Some(HostAnswer::Unreadable("undefined".into()))];
    for fate in fates {
        let mut e = codexhost();
        e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
        let log = settle(&mut e, host(None, fate.clone()));
        assert_eq!(journal(&log.actions).len(), 1, "{fate:?}: written once, never removed");
        assert!(matches!(log.actions.last(), Some(Action::Complete { result: Err(e), .. }) if e.outcome_unknown()));
    }
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    let mut log = run(&mut e, 0, host(None, None));
    e.dispose();
    log.actions.extend(run(&mut e, 0, silent).actions);
    assert_eq!(journal(&log.actions).len(), 1, "disposed while out: written once, never removed");
}

#[test]
fn a_same_id_retry_that_is_delivered_removes_the_record() {
    // Found applied by the retry's thread read: nothing is sent again.
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    settle(&mut e, host(None, None));
    e.steer(steer("t", Some("u2"), "m1"), 0).unwrap();
    let shows = thread("t", json!([{ "id": "u1", "status": "completed", "items": [user_message(Some("m1"), &words("m1"))] }]));
    let log = settle(&mut e, host(shows, None));
    assert_eq!((log.methods(), journal(&log.actions)), (vec!["thread/read"], vec![(key("t", "m1"), None)]));
    // Found not applied, sent again and delivered.
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    settle(&mut e, host(None, None));
    e.steer(steer("t", Some("u2"), "m1"), 0).unwrap();
    let ended = thread("t", json!([{ "id": "u1", "status": "completed", "items": [] }]));
    let log = settle(&mut e, host(ended, ok(json!({ "turnId": "u2" }))));
    assert_eq!(removals(&log.actions), [key("t", "m1")]);
}

#[test]
fn a_retry_refused_after_an_attempt_whose_outcome_is_unknown_keeps_the_record() {
    // An external thread on a codexhost host: the retry into the same turn goes out unread.
    let external = |steer: Option<HostAnswer>| {
        move |method: &str, _: &Value| match method {
            "codexhost/thread/steering/inspect" => ok(json!({ "delivery": "newTurn" })),
            _ => steer.clone(),
        }
    };
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    settle(&mut e, external(None));
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    let log = settle(&mut e, external(err(-32072, "thread busy")));
    assert!(log.sent.iter().any(|r| r.carries_message), "the retry was sent");
    assert!(removals(&log.actions).is_empty(), "the first attempt may have arrived");
}

#[test]
fn an_engine_keeps_at_most_the_count_bound_of_records() {
    let mut e = codexhost();
    let mut removed = vec![];
    for n in 0..=MAX_RECORDS {
        e.steer(steer(&format!("t{n}"), Some("u1"), "m1"), 0).unwrap();
        removed.extend(removals(&settle(&mut e, host(None, None)).actions));
    }
    assert_eq!(removed, [key("t0", "m1")]);
}

#[test]
fn forget_removes_every_record_of_the_id_the_engine_knows() {
    let mut e = codexhost();
    for (thread, id) in [("t1", "m1"), ("t2", "m2")] {
        e.steer(steer(thread, Some("u1"), id), 0).unwrap();
        settle(&mut e, host(None, None));
    }
    e.recover(vec![stored("t3", "m1", Some("u1")), stored("t4", "m3", Some("u1"))], 0);
    settle(&mut e, silent);
    e.forget("m1");
    let log = run(&mut e, 0, silent);
    assert_eq!(removals(&log.actions), [key("t1", "m1"), key("t3", "m1")]);
    let mut a = acp_engine(json!({}), false);
    a.enable_journal(PREFIX.into(), OFFSET);
    a.prompt_sent("s");
    a.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    a.send("s", text("hi"), 0).unwrap();
    let log = run(&mut a, 0, silent);
    let (k, written) = writes(&log.actions).remove(0);
    a.forget(written["messageId"].as_str().unwrap());
    assert_eq!(removals(&run(&mut a, 0, silent).actions), [k]);
}

// ---- ACP ----

fn acp() -> AcpEngine {
    let mut e = acp_engine(json!({ "_meta": { "steering": { "supported": true } } }), false);
    e.enable_journal(PREFIX.into(), OFFSET);
    e.prompt_sent("s");
    e
}

#[test]
fn acp_writes_the_record_before_the_request_and_removes_it_once_answered() {
    let mut e = acp();
    let op = e.send("s", text("use pnpm"), 7).unwrap();
    let log = run(&mut e, 7, |_, _| ok(json!({ "outcome": "injected" })));
    let at = log.actions.iter().position(|a| matches!(a, Action::Journal { record: Some(_), .. })).unwrap();
    assert!(matches!(&log.actions[at + 1], Action::Send(r) if r.carries_message));
    let (k, written) = writes(&log.actions).remove(0);
    let id = format!("{OFFSET}-{}", op.0);
    assert_eq!(k, storage_key(PREFIX, JournalDialect::Acp, "s", &id));
    let expected = json!({ "v": 1, "dialect": "acp", "key": "s", "messageId": id, "method": "_session/steering",
        "draft": text("use pnpm"), "presented": "steer", "at": 7.0 + OFFSET });
    assert_eq!(written, expected);
    assert!(removals(&log.actions).is_empty(), "accepted as pending input is not settled yet");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 8);
    let log = run(&mut e, 8, |_, _| None);
    assert_eq!(removals(&log.actions), [k], "the turn ended: the steer landed");
}

#[test]
fn acp_keeps_the_record_of_an_accepted_steer_whose_turn_is_cancelled() {
    let mut e = acp();
    e.send("s", text("use pnpm"), 7).unwrap();
    run(&mut e, 7, |_, _| ok(json!({ "outcome": "injected" })));
    e.cancel_sent("s");
    let log = run(&mut e, 8, |_, _| None);
    assert!(removals(&log.actions).is_empty(), "it may not have arrived: the record stays for recover()");
    assert!(log.actions.iter().any(|a| matches!(a, Action::Complete { result: Err(e), .. } if e.failure.kind() == "outcomeUnknown")));
}

#[test]
fn acp_keeps_the_record_of_a_message_whose_outcome_is_unknown() {
    let mut e = acp();
    e.send("s", text("use pnpm"), 0).unwrap();
    let log = settle(&mut e, |_, _| ok(json!({ "outcome": "failed" })));
    assert_eq!((writes(&log.actions).len(), removals(&log.actions).len()), (1, 0));
}

#[test]
fn acp_a_message_sent_again_by_another_path_keeps_one_record_until_answered() {
    let mut e = acp();
    e.send("s", text("use pnpm"), 0).unwrap();
    let mut log = run(&mut e, 0, |_, _| ok(json!({ "outcome": "promptRequired", "reason": "noRunningTurn" })));
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    log.actions.extend(run(&mut e, 0, |_, _| ok(json!({ "stopReason": "end_turn" }))).actions);
    let written = writes(&log.actions);
    assert_eq!(written.len(), 2);
    assert_eq!(written[0].0, written[1].0, "one key for the message");
    assert_eq!(written[1].1["method"], "session/prompt");
    assert_eq!(removals(&log.actions), [written[0].0.clone()]);
}

#[test]
fn acp_recovery_reports_every_record_unknown_and_sends_and_removes_nothing() {
    let mut e = acp();
    let mine = (storage_key(PREFIX, JournalDialect::Acp, "s", "m"), record(JournalDialect::Acp, "s", "m", None, WALL));
    let op = e.recover(vec![mine, stored("t", "m2", None)], 0);
    let log = run(&mut e, 0, silent);
    assert!(log.sent.is_empty() && journal(&log.actions).is_empty());
    match log.completion(op) {
        Some(Action::Complete { result: Ok(AcpOutcome::Recovered(entries)), .. }) => {
            let got: Vec<_> = entries.iter().map(|e| (e.session_id.as_str(), e.message_id.as_str(), e.outcome)).collect();
            assert_eq!(got, [("s", "m", RecoveredOutcome::Unknown)], "the codexhost record is not this engine's");
            assert_eq!(entries[0].draft, text(&words("m")));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn acp_recovery_leaves_the_record_of_a_message_being_sent_to_that_send() {
    let mut e = acp();
    e.send("s", text("use pnpm"), 0).unwrap();
    let (k, written) = writes(&run(&mut e, 0, silent).actions).remove(0);
    let record: JournalRecord = serde_json::from_value(written).unwrap();
    let op = e.recover(vec![(k, record)], 0);
    match run(&mut e, 0, silent).completion(op) {
        Some(Action::Complete { result: Ok(AcpOutcome::Recovered(entries)), .. }) => assert!(entries.is_empty(), "{entries:?}"),
        other => panic!("{other:?}"),
    }
}
