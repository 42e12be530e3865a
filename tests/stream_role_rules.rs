//! What the app's `streamRole(threadId)` answer means, decided by the
//! engine from what the driver read of it: `"follower"` or `{ role:
//! "follower" }` makes this window a follower of the thread (its steers go
//! to the owner window, the journal's records of it are left to the
//! owner); anything else, a throw included, is the owner's, as when no
//! callback is given. The role is read again with each answer.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::journal::{stored, PREFIX, WALL};
use renderer_steering::bridge::Bridge;
use serde_json::{json, Value};

fn step(bridge: &mut Bridge, handle: u32, input: Value, payload: &str) -> Value {
    serde_json::from_str(&bridge.step(handle, &input.to_string(), payload)).expect("the bridge answers JSON")
}

fn open(bridge: &mut Bridge, journal: bool) -> u32 {
    let function = json!({ "t": "function" });
    let mut read = json!({ "options": { "t": "object" }, "fields": [["request", function], ["streamRole", function]] });
    if journal {
        read["fields"].as_array_mut().unwrap().push(json!(["journal", { "t": "object" }]));
        read["journalMethods"] = json!([["getItem", function], ["setItem", function], ["removeItem", function], ["key", function]]);
    }
    let out = step(bridge, 0, json!({ "do": "open", "engine": "codexhost", "options": read }), "");
    out["value"]["handle"].as_u64().unwrap_or_else(|| panic!("{out}")) as u32
}

fn text(s: &str) -> Value {
    json!({ "t": "string", "s": s })
}

/// Answers a follower's callback gives, and others that are not.
fn following() -> [Value; 2] {
    [json!({ "value": text("follower") }), json!({ "value": { "t": "object" }, "role": text("follower") })]
}

fn owning() -> [Value; 6] {
    [
        json!({ "value": text("owner") }),
        json!({ "value": { "t": "undefined" } }),
        json!({ "value": text("Follower") }),
        json!({ "value": { "t": "object" }, "role": text("owner") }),
        json!({ "value": { "t": "string", "units": 100000 } }),
        json!({ "threw": true }),
    ]
}

fn steer(bridge: &mut Bridge, handle: u32, thread: &str, role: &Value) -> Value {
    let fields = json!({ "threadId": thread, "expectedTurnId": "turn-1", "input": [{ "type": "text", "text": "use pnpm" }] });
    step(bridge, handle, json!({ "do": "steer", "now": 0, "freshId": format!("m-{thread}"), "role": role }), &fields.to_string())
}

#[test]
fn a_follower_answer_refuses_the_steer_and_any_other_answer_lets_it_go() {
    let mut bridge = Bridge::default();
    let handle = open(&mut bridge, false);
    for (n, role) in following().iter().enumerate() {
        let out = steer(&mut bridge, handle, &format!("f{n}"), role);
        assert_eq!(out["error"]["kind"], "follower", "{role}: {out}");
    }
    for (n, role) in owning().iter().enumerate() {
        let out = steer(&mut bridge, handle, &format!("o{n}"), role);
        assert!(out["error"].is_null() && out["value"]["op"].is_u64(), "{role}: {out}");
    }
}

#[test]
fn an_owner_answer_after_a_follower_one_gives_the_thread_back() {
    let mut bridge = Bridge::default();
    let handle = open(&mut bridge, false);
    assert_eq!(steer(&mut bridge, handle, "t", &following()[0])["error"]["kind"], "follower");
    let out = steer(&mut bridge, handle, "t", &json!({ "value": text("owner") }));
    assert!(out["error"].is_null(), "{out}");
}

#[test]
fn a_follower_answer_read_with_the_hosts_answer_stops_the_steer_before_it_is_sent() {
    for (role, sent) in [(following()[1].clone(), false), (json!({ "threw": true }), true)] {
        let mut bridge = Bridge::default();
        let handle = open(&mut bridge, false);
        let out = steer(&mut bridge, handle, "t", &json!({ "value": text("owner") }));
        let probe = out["steps"].as_array().unwrap().iter().find(|s| s["do"] == "send").unwrap().clone();
        assert_eq!(probe["key"], "t", "the answer names the thread whose role is asked");
        let answer = json!({ "do": "answer", "id": probe["id"], "now": 1, "how": "result", "role": role });
        let out = step(&mut bridge, handle, answer, r#"{"delivery":"activeTurn"}"#);
        let steps = out["steps"].as_array().cloned().unwrap_or_default();
        let steered = steps.iter().any(|s| s["method"] == "turn/steer");
        assert_eq!(steered, sent, "{role}: {out}");
        if !sent {
            let complete = steps.iter().find(|s| s["do"] == "complete").expect("completed");
            assert_eq!(complete["error"]["kind"], "follower");
        }
    }
}

#[test]
fn recovery_leaves_the_records_of_a_followed_thread_to_its_owner() {
    for (role, reads) in [(following()[0].clone(), false), (Value::Null, true), (json!({ "threw": true }), true)] {
        let mut bridge = Bridge::default();
        let handle = open(&mut bridge, true);
        let (key, record) = stored("t", "m1", Some("u1"));
        let entries = json!([[key.replacen(PREFIX, "renderer-steering:", 1), record.to_text()]]);
        let read = step(&mut bridge, handle, json!({ "do": "recoverRead", "now": 0, "wall": WALL }), &entries.to_string());
        assert_eq!(read["value"]["threads"], json!(["t"]));
        let out = step(&mut bridge, handle, json!({ "do": "recover", "now": 0, "roles": [["t", role]] }), "");
        let steps = out["steps"].as_array().cloned().unwrap_or_default();
        assert_eq!(steps.iter().any(|s| s["method"] == "thread/read"), reads, "{role}: {out}");
    }
}

#[test]
fn the_desktop_hook_reads_get_stream_role_by_the_same_rule() {
    let mut bridge = Bridge::default();
    let decider = open(&mut bridge, false);
    let hook = step(&mut bridge, 0, json!({ "do": "open", "engine": "desktop", "handle": decider }), "")["value"]["handle"]
        .as_u64()
        .unwrap() as u32;
    let call = |thread: &str, role: &Value| json!({ "do": "call", "call": { "op": "steer", "input": 1, "threadId": thread, "text": "use pnpm", "argumentId": format!("m-{thread}"), "role": role } });
    for (n, role) in following().iter().enumerate() {
        let out = step(&mut bridge, hook, call(&format!("f{n}"), role), "");
        assert_eq!(out["value"]["reply"], "desktop", "a follower's steer is the desktop's own: {role}: {out}");
    }
    for (n, role) in owning().iter().enumerate() {
        let out = step(&mut bridge, hook, call(&format!("o{n}"), role), "");
        assert_eq!(out["value"]["reply"], "promise", "{role}: {out}");
    }
}
