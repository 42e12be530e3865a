//! The codexhost hosts that predate the steering inspect: an old host
//! answers `-32601` and the ownership list decides; a stock app server has
//! neither, and `thread/read` must prove the thread native; what a
//! connection lacks is asked again only once it is replaced; and the owners
//! learnt spare later steers a probe.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::codexhost::{engine, fresh, new_host, old_host, outcome, steer, stock_host};
use common::{err, ok, run, unknown_variant};
use serde_json::{json, Value};

#[test]
fn old_host_falls_back_to_ownership_list() {
    for (owner, delivery) in [("external", "newTurn"), ("codex", "official")] {
        let mut e = engine();
        let op = e.steer(steer("t", "x"), 0).unwrap().op();
        let log = run(&mut e, 0, old_host(owner));
        assert_eq!(log.methods(), ["codexhost/thread/steering/inspect", "codexhost/thread/ownership/list", "turn/steer"]);
        assert_eq!(log.sent[1].params, json!({ "threadIds": ["t"] }));
        let o = outcome(&log, op).unwrap();
        assert_eq!(o.delivery.as_str(), delivery);
        assert_eq!(o.trace.path, Some("ownershipList"));
        assert_eq!(o.trace.round_trips_before_steer, 2);
    }
}

#[test]
fn stock_app_server_confirms_native_threads_with_thread_read() {
    let mut e = engine();
    let op = e.steer(steer("t", "x"), 0).unwrap().op();
    let log = run(&mut e, 0, stock_host("openai"));
    assert_eq!(log.methods()[..3], ["codexhost/thread/steering/inspect", "codexhost/thread/ownership/list", "thread/read"]);
    assert_eq!(log.sent[2].params, json!({ "threadId": "t", "includeTurns": false }));
    assert!(log.sent[3].params.get("codexhostSteerDelivery").is_none());
    assert_eq!(outcome(&log, op).unwrap().delivery.as_str(), "official");
}

#[test]
fn stock_app_server_refuses_threads_it_cannot_prove_native() {
    let cases: [(&str, Value); 4] = [
        ("codexhost provider", json!({ "thread": { "id": "t", "modelProvider": "codexhost", "cliVersion": "1" } })),
        ("other id", json!({ "thread": { "id": "u", "modelProvider": "openai", "cliVersion": "1" } })),
        ("empty version", json!({ "thread": { "id": "t", "modelProvider": "openai", "cliVersion": "" } })),
        ("codexhost version", json!({ "thread": { "id": "t", "modelProvider": "openai", "cliVersion": "codexhost" } })),
    ];
    for (name, answer) in cases {
        let mut e = engine();
        let op = e.steer(steer("t", "x"), 0).unwrap().op();
        let log = run(&mut e, 0, |m, _| if m == "thread/read" { ok(answer.clone()) } else { unknown_variant(m) });
        let error = outcome(&log, op).unwrap_err();
        assert_eq!(error.failure.message(), "cannot establish thread ownership", "{name}");
        assert!(!log.methods().contains(&"turn/steer"), "{name}: no steer after a failed decision");
        assert_eq!(error.draft, vec![json!({"type": "text", "text": "x"})]);
    }
}

#[test]
fn invalid_request_without_the_unknown_variant_text_is_not_unsupported() {
    let mut e = engine();
    let op = e.steer(steer("t", "x"), 0).unwrap().op();
    let log = run(&mut e, 0, |_, _| err(-32600, "Invalid request: missing field `text`"));
    assert_eq!(log.methods(), ["codexhost/thread/steering/inspect"]);
    assert_eq!(outcome(&log, op).unwrap_err().failure.code(), Some(-32600));
}

#[test]
fn unsupported_is_remembered_per_connection_until_replaced() {
    let mut e = engine();
    e.steer(steer("a", "x"), 0).unwrap();
    run(&mut e, 0, stock_host("openai"));
    e.steer(steer("b", "y"), 0).unwrap();
    let second = run(&mut e, 0, stock_host("openai"));
    assert_eq!(second.methods(), ["thread/read", "turn/steer"]);
    e.connection_replaced();
    e.steer(steer("c", "z"), 0).unwrap();
    let third = run(&mut e, 0, stock_host("openai"));
    assert_eq!(third.methods()[0], "codexhost/thread/steering/inspect");
}

#[test]
fn codex_owned_threads_are_never_probed_again_external_ones_inspect_every_time() {
    let mut e = engine();
    for _ in 0..2 {
        e.steer(fresh("codex", "x"), 0).unwrap();
        run(&mut e, 0, new_host("official"));
    }
    let op = e.steer(fresh("codex", "x"), 0).unwrap().op();
    let log = run(&mut e, 0, new_host("official"));
    assert_eq!(log.methods(), ["turn/steer"]);
    let o = outcome(&log, op).unwrap();
    assert_eq!((o.trace.round_trips_before_steer, o.trace.path), (0, Some("cachedOwner")));
    for _ in 0..2 {
        e.steer(fresh("ext", "x"), 0).unwrap();
        let log = run(&mut e, 0, new_host("activeTurn"));
        assert_eq!(log.methods(), ["codexhost/thread/steering/inspect", "turn/steer"]);
    }
}

#[test]
fn old_host_external_threads_need_no_probe_the_second_time() {
    let mut e = engine();
    e.steer(steer("t", "x"), 0).unwrap();
    run(&mut e, 0, old_host("external"));
    let op = e.steer(steer("t", "y"), 0).unwrap().op();
    let log = run(&mut e, 0, old_host("external"));
    assert_eq!(log.methods(), ["turn/steer"]);
    assert_eq!(outcome(&log, op).unwrap().delivery.as_str(), "newTurn");
}
