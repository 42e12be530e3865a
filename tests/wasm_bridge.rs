//! The exported boundary in real JavaScript engines (Chromium, Firefox,
//! Node): `step` through the wasm-bindgen glue, strings in and out, with a
//! scripted host and real timers bounding every wait.
#![cfg(target_arch = "wasm32")]

use renderer_steering::shell::{step, version};
use serde_json::{json, Value};
use wasm_bindgen_test::*;

fn call(handle: u32, input: Value, payload: &str) -> Value {
    serde_json::from_str(&step(handle, &input.to_string(), payload)).expect("step answers JSON")
}

fn text(s: &str) -> Value {
    json!({ "t": "string", "s": s })
}

fn open_codexhost(timeouts: Option<Value>) -> u32 {
    let mut read = json!({ "options": { "t": "object" }, "fields": [["request", { "t": "function" }]] });
    if let Some(timeouts) = timeouts {
        read["fields"].as_array_mut().unwrap().push(json!(["timeouts", { "t": "object" }]));
        read["timeoutKeys"] = json!(timeouts.as_object().unwrap().keys().collect::<Vec<_>>());
        read["timeouts"] = timeouts.as_object().unwrap().iter().map(|(k, v)| json!([k, { "t": "number", "n": v }])).collect();
    }
    let out = call(0, json!({ "do": "open", "engine": "codexhost", "options": read }), "");
    out["value"]["handle"].as_u64().expect("a handle") as u32
}

fn sends(out: &Value) -> Vec<Value> {
    out["steps"].as_array().into_iter().flatten().filter(|s| s["do"] == "send").cloned().collect()
}

fn completion(out: &Value) -> Option<Value> {
    out["steps"].as_array().into_iter().flatten().find(|s| s["do"] == "complete").cloned()
}

fn now() -> f64 {
    js_sys::Date::now()
}

#[wasm_bindgen_test]
fn the_limits_and_the_version_cross() {
    let limits = call(0, json!({ "do": "limits" }), "");
    assert_eq!(limits["value"]["idUnits"], 4096);
    assert_eq!(version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn a_steer_crosses_inspect_then_tagged_steer_with_its_words_intact() {
    let handle = open_codexhost(None);
    // Words outside the BMP, a NUL and an escaped quote survive both crossings.
    let words = "use pnpm 🚀 \u{0} \"quoted\" é";
    let fields = json!({ "threadId": "t", "expectedTurnId": "turn-1", "input": [{ "type": "text", "text": words }] }).to_string();
    let out = call(handle, json!({ "do": "steer", "now": now(), "freshId": "m-1" }), &fields);
    let probe = &sends(&out)[0];
    assert_eq!(probe["method"], "codexhost/thread/steering/inspect");
    assert_eq!(probe["params"]["text"], words);
    let answer = json!({ "delivery": "activeTurn" }).to_string();
    let out = call(handle, json!({ "do": "answer", "id": probe["id"], "now": now(), "how": "result" }), &answer);
    let present = out["steps"].as_array().unwrap().iter().find(|s| s["do"] == "present").expect("shown first").clone();
    assert_eq!(present["shown"], "activeTurn");
    let steer = &sends(&out)[0];
    assert_eq!(steer["params"]["codexhostSteerDelivery"], "activeTurn");
    assert_eq!(steer["params"]["input"][0]["text"], words);
    let out = call(handle, json!({ "do": "answer", "id": steer["id"], "now": now(), "how": "result" }), r#"{"turnId":"turn-1"}"#);
    assert_eq!(completion(&out).unwrap()["ok"]["turnId"], "turn-1");
    call(0, json!({ "do": "close", "handle": handle }), "");
}

#[wasm_bindgen_test]
async fn a_hung_inspect_times_out_on_a_real_timer_and_no_steer_follows() {
    let handle = open_codexhost(Some(json!({ "decideMs": 40 })));
    let fields = json!({ "threadId": "t", "expectedTurnId": "turn-1", "input": [{ "type": "text", "text": "x" }] }).to_string();
    let start = now();
    let out = call(handle, json!({ "do": "steer", "now": start, "freshId": "m-1" }), &fields);
    let deadline = out["timer"].as_f64().expect("the wait is bounded");
    gloo_timers::future::TimeoutFuture::new((deadline - start).max(0.0) as u32 + 1).await;
    let out = call(handle, json!({ "do": "tick", "now": now() }), "");
    let done = completion(&out).expect("settled by the bound");
    assert_eq!(done["error"]["kind"], "timeout");
    assert_eq!(done["error"]["draft"][0]["text"], "x", "the draft comes back");
    assert!(sends(&out).is_empty(), "no steer after the decision timed out");
    call(0, json!({ "do": "close", "handle": handle }), "");
}

#[wasm_bindgen_test]
fn a_host_refusal_is_typed_with_its_code_and_the_draft() {
    let handle = open_codexhost(None);
    let fields = json!({ "threadId": "t", "expectedTurnId": "turn-1", "input": [{ "type": "text", "text": "keep me" }] }).to_string();
    let out = call(handle, json!({ "do": "steer", "now": now(), "freshId": "m-1" }), &fields);
    let probe = &sends(&out)[0];
    let out = call(handle, json!({ "do": "answer", "id": probe["id"], "now": now(), "how": "result" }), r#"{"delivery":"activeTurn"}"#);
    let steer = &sends(&out)[0];
    let rejection = json!({ "object": true, "code": -32072, "message": "thread busy" });
    let refused = json!({ "do": "answer", "id": steer["id"], "now": now(), "how": "rejected", "rejection": rejection });
    let out = call(handle, refused, "");
    let error = completion(&out).unwrap()["error"].clone();
    assert_eq!((error["kind"].as_str(), error["code"].as_i64()), (Some("host"), Some(-32072)));
    assert_eq!(error["draft"], json!([{ "type": "text", "text": "keep me" }]));
    call(0, json!({ "do": "close", "handle": handle }), "");
}

#[wasm_bindgen_test]
fn a_large_answer_crosses_whole() {
    let handle = open_codexhost(None);
    let out = call(handle, json!({ "do": "decide", "now": now(), "threadId": text("t"), "text": text("x") }), "");
    let probe = &sends(&out)[0];
    let big = json!({ "delivery": "official", "padding": "x".repeat(4 * 1024 * 1024) }).to_string();
    let out = call(handle, json!({ "do": "answer", "id": probe["id"], "now": now(), "how": "result" }), &big);
    assert_eq!(completion(&out).unwrap()["ok"]["delivery"], "official");
    call(0, json!({ "do": "close", "handle": handle }), "");
}

#[wasm_bindgen_test]
fn malformed_input_is_refused_in_words_and_the_module_keeps_working() {
    for input in ["", "{", "[]", r#"{"do":"open","engine":"nope"}"#, r#"{"do":7}"#] {
        let out: Value = serde_json::from_str(&step(0, input, "")).unwrap();
        assert!(out["thrown"].is_string(), "{input}");
    }
    assert!(step(12345, "{}", "").contains("freed"));
    let handle = open_codexhost(None);
    assert!(handle > 0);
    call(0, json!({ "do": "close", "handle": handle }), "");
}
