//! A journal whose storage failed: the engine turns it off for good (the
//! storage is not touched again: no write, no removal, no listing), the app
//! is told of the first failure only, and steering goes on without it. A
//! desktop hook and its decider write to one storage: a failure of either
//! turns both off, told once.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::journal::*;
use common::{ok, run};
use renderer_steering::bridge::Bridge;
use renderer_steering::core::Action;
use serde_json::{json, Value};

#[test]
fn after_a_failure_the_engine_writes_and_removes_nothing_and_tells_of_the_first_failure_only() {
    let mut e = codexhost();
    e.steer(steer("t", Some("u1"), "m1"), 0).unwrap();
    let kept = settle(&mut e, host(None, None));
    assert_eq!(journal(&kept.actions).len(), 1, "an unknown outcome's record is kept");
    assert!(e.journal_failed(), "the first failure is told");
    assert!(!e.journal_failed(), "a later one is not");
    let op = e.steer(steer("t", Some("u1"), "m2"), 0).unwrap().op();
    let delivered = run(&mut e, 0, host(None, ok(json!({ "turnId": "u1" }))));
    assert_eq!(delivered.methods(), ["turn/steer"], "steering goes on (the thread's owner is known)");
    assert!(matches!(delivered.completion(op), Some(Action::Complete { result: Ok(_), .. })), "{:?}", delivered.actions);
    e.forget("m1");
    let after = run(&mut e, 0, common::silent);
    assert!(journal(&delivered.actions).is_empty() && journal(&after.actions).is_empty(), "the storage is not touched again");
}

// ---- through the boundary ----

fn step(bridge: &mut Bridge, handle: u32, input: Value, payload: &str) -> Value {
    serde_json::from_str(&bridge.step(handle, &input.to_string(), payload)).expect("the bridge answers JSON")
}

/// The options of an engine that keeps a journal.
fn journaled() -> Value {
    let function = json!({ "t": "function" });
    json!({
        "options": { "t": "object" },
        "fields": [["request", function], ["journal", { "t": "object" }]],
        "journalMethods": [["getItem", function], ["setItem", function], ["removeItem", function], ["key", function]]
    })
}

fn open(bridge: &mut Bridge, engine: &str, read: Value) -> u32 {
    let out = step(bridge, 0, json!({ "do": "open", "engine": engine, "options": read }), "");
    out["value"]["handle"].as_u64().unwrap_or_else(|| panic!("{out}")) as u32
}

fn steps_named(out: &Value, name: &str) -> usize {
    out["steps"].as_array().map_or(0, |steps| steps.iter().filter(|s| s["do"] == name).count())
}

fn failed(bridge: &mut Bridge, handle: u32) -> usize {
    steps_named(&step(bridge, handle, json!({ "do": "journalFailed" }), ""), "journalError")
}

/// A codexhost steer of `id` (on a thread of its own) through the boundary,
/// as far as the request that carries it: the journal steps on its way.
fn journal_steps_of_a_steer(bridge: &mut Bridge, handle: u32, id: &str) -> usize {
    let fields = json!({ "threadId": format!("t-{id}"), "expectedTurnId": "u1", "clientUserMessageId": id, "input": text_items() });
    let last_method = |out: &Value| out["steps"].as_array().and_then(|s| s.last()).map(|s| s["method"].clone());
    let mut out = step(bridge, handle, json!({ "do": "steer", "now": 0 }), &fields.to_string());
    if last_method(&out) != Some(json!("turn/steer")) {
        // The owner is asked first while it is not known.
        let answer = json!({ "do": "answer", "id": out["steps"][0]["id"], "now": 1, "how": "result" });
        out = step(bridge, handle, answer, r#"{"delivery":"official"}"#);
    }
    assert_eq!(last_method(&out), Some(json!("turn/steer")), "{out}");
    steps_named(&out, "journal")
}

fn text_items() -> Value {
    json!([{ "type": "text", "text": "use pnpm" }])
}

/// The prefix `recover()` lists, and the threads `recoverRead` answers for one stored record.
fn listing_and_read(bridge: &mut Bridge, handle: u32) -> (Value, Value, usize) {
    let listing = step(bridge, handle, json!({ "do": "recoverList" }), "")["value"]["prefix"].clone();
    let (k, r) = stored("t", "m1", Some("u1"));
    let prefix = "renderer-steering:";
    let garbage = k.replacen(PREFIX, prefix, 1).replace("m1", "m9");
    let entries = json!([[k.replacen(PREFIX, prefix, 1), r.to_text()], [garbage, "not json"]]);
    let read = step(bridge, handle, json!({ "do": "recoverRead", "now": 0, "wall": WALL }), &entries.to_string());
    (listing, read["value"]["threads"].clone(), steps_named(&read, "journal"))
}

#[test]
fn the_boundary_tells_the_first_failure_once_and_lists_reads_and_writes_nothing_after_it() {
    let mut bridge = Bridge::default();
    let engine = open(&mut bridge, "codexhost", journaled());
    assert_eq!(journal_steps_of_a_steer(&mut bridge, engine, "m1"), 1, "a record before the request");
    assert_eq!(listing_and_read(&mut bridge, engine), (json!("renderer-steering:"), json!(["t"]), 1), "garbage is removed");
    assert_eq!(failed(&mut bridge, engine), 1, "the app is told");
    assert_eq!(failed(&mut bridge, engine), 0, "once");
    assert_eq!(journal_steps_of_a_steer(&mut bridge, engine, "m2"), 0, "no record, and the message still goes");
    assert_eq!(listing_and_read(&mut bridge, engine), (Value::Null, json!([]), 0), "nothing listed, read or removed");
    let plain = open(&mut bridge, "codexhost", json!({ "options": { "t": "object" }, "fields": [["request", { "t": "function" }]] }));
    assert_eq!(failed(&mut bridge, plain), 0, "no journal: nothing to tell");
    assert_eq!(listing_and_read(&mut bridge, plain).0, Value::Null);
}

#[test]
fn an_acp_journal_goes_off_the_same_way() {
    let mut bridge = Bridge::default();
    let agent = open(&mut bridge, "acp", journaled());
    assert_eq!(step(&mut bridge, agent, json!({ "do": "recoverList" }), "")["value"]["prefix"], "renderer-steering:");
    assert_eq!((failed(&mut bridge, agent), failed(&mut bridge, agent)), (1, 0));
    assert_eq!(listing_and_read(&mut bridge, agent), (Value::Null, json!([]), 0));
}

#[test]
fn a_desktop_hook_and_its_decider_share_one_storage_and_one_failure() {
    for failing in ["hook", "decider"] {
        let mut bridge = Bridge::default();
        let decider = open(&mut bridge, "codexhost", journaled());
        let hook = step(&mut bridge, 0, json!({ "do": "open", "engine": "desktop", "handle": decider }), "")["value"]["handle"]
            .as_u64()
            .unwrap() as u32;
        let (first, other) = if failing == "hook" { (hook, decider) } else { (decider, hook) };
        assert_eq!(failed(&mut bridge, first), 1, "{failing}: told");
        assert_eq!(failed(&mut bridge, other), 0, "{failing}: the other's journal is off too, and told nothing");
        assert_eq!(journal_steps_of_a_steer(&mut bridge, decider, "m1"), 0, "{failing}: the decider writes nothing");
    }
}

#[test]
fn a_hook_over_a_freed_decider_shares_nothing_with_the_engine_given_its_handle() {
    let mut bridge = Bridge::default();
    let decider = open(&mut bridge, "codexhost", journaled());
    let hook = step(&mut bridge, 0, json!({ "do": "open", "engine": "desktop", "handle": decider }), "")["value"]["handle"]
        .as_u64()
        .unwrap() as u32;
    step(&mut bridge, 0, json!({ "do": "close", "handle": decider }), "");
    let next = open(&mut bridge, "codexhost", journaled());
    assert_eq!(next, decider, "the handle is reused");
    assert_eq!(failed(&mut bridge, hook), 1, "the hook's own journal goes off, and the app is told");
    assert_eq!(journal_steps_of_a_steer(&mut bridge, next, "m1"), 1, "the new engine keeps its journal");
}
