//! The ACP shell in a real JS engine against a scripted agent.
#![cfg(target_arch = "wasm32")]

mod wasm;

use js_sys::Promise;
use renderer_steering::shell::AcpSteering;
use serde_json::json;
use wasm::{get, host, now, object, recorder, settle, to_value, Host, Reply};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

fn steering(h: &Host, init: serde_json::Value, extra: &[(&str, JsValue)]) -> AcpSteering {
    let mut pairs = vec![("request", h.function.clone().into()), ("initialize", wasm::js(&init))];
    pairs.extend(extra.iter().cloned());
    AcpSteering::new(object(&pairs).unchecked_into()).unwrap()
}

async fn tick() {
    gloo_timers::future::TimeoutFuture::new(0).await;
}

fn text(t: &str) -> JsValue {
    wasm::js(&json!([{ "type": "text", "text": t }]))
}

#[wasm_bindgen_test]
async fn steering_extension_injects_and_reports_composer_changes() {
    let h = host(|_, _| Reply::Ok(json!({ "outcome": "injected" })));
    let s = steering(&h, json!({ "_meta": { "steering": { "supported": true } } }), &[]);
    let (on_change, changes) = recorder();
    s.on_change(Some(on_change.unchecked_into()));
    tick().await;
    s.prompt_sent("s1".into()).unwrap();
    let state = to_value(s.input_mode("s1".into()).unwrap());
    assert_eq!(state["mode"], "direct");
    assert_eq!(state["hint"], "Send now; delivered to the running turn");
    let outcome = to_value(settle(s.send("s1".into(), text("use pnpm").unchecked_into(), None)).await.unwrap());
    assert_eq!(outcome["kind"], "injected");
    assert_eq!(h.calls.borrow()[0].1["_meta"]["steering"]["idleBehavior"], "promptRequired");
    let seen = changes.borrow();
    assert!(seen.iter().any(|c| c[0].as_string().as_deref() == Some("s1") && to_value(c[1].clone())["mode"] == "direct"));
}

#[wasm_bindgen_test]
async fn queue_path_waits_for_the_turn_then_prompts() {
    let h = host(|_, _| Reply::Ok(json!({ "stopReason": "end_turn" })));
    let init = Promise::resolve(&wasm::js(&json!({ "agentCapabilities": {} })));
    let s = AcpSteering::new(object(&[("request", h.function.clone().into()), ("initialize", init.into())]).unchecked_into()).unwrap();
    tick().await;
    s.prompt_sent("s1".into()).unwrap();
    let pending = s.send("s1".into(), text("after this").unchecked_into(), None);
    tick().await;
    assert!(h.calls.borrow().is_empty());
    assert_eq!(to_value(s.queued("s1".into()).unwrap()), json!([[{ "type": "text", "text": "after this" }]]));
    assert_eq!(to_value(s.input_mode("s1".into()).unwrap())["mode"], "queue");
    let verdict = to_value(s.prompt_answered("s1".into(), wasm::js(&json!({ "stopReason": "end_turn" })).unchecked_into()).unwrap());
    assert_eq!(verdict["superseded"], false);
    let outcome = to_value(settle(pending).await.unwrap());
    assert_eq!(outcome["kind"], "prompted");
    assert_eq!(h.methods(), ["session/prompt"]);
}

#[wasm_bindgen_test]
async fn inject_then_revoke_hands_the_words_back() {
    let h = host(|m, _| match m {
        "session/inject" => Reply::Ok(json!({ "messageId": "m1" })),
        _ => Reply::Ok(json!({})),
    });
    let s = steering(&h, json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"] } } } }), &[]);
    tick().await;
    s.prompt_sent("s1".into()).unwrap();
    let outcome = to_value(settle(s.send("s1".into(), text("oops").unchecked_into(), None)).await.unwrap());
    assert_eq!(outcome["messageId"], "m1");
    assert_eq!(to_value(s.input_mode("s1".into()).unwrap())["pendingInjects"], json!(["m1"]));
    let revoked = to_value(settle(s.revoke("s1".into(), "m1".into())).await.unwrap());
    assert_eq!(revoked, json!({ "kind": "revoked", "messageId": "m1", "draft": [{ "type": "text", "text": "oops" }] }));
}

#[wasm_bindgen_test]
async fn a_hung_steer_is_outcome_unknown_after_the_timeout_on_a_real_timer() {
    let h = host(|_, _| Reply::Never);
    let s = steering(&h, json!({ "_meta": { "steering": { "supported": true } } }), &[("timeouts", wasm::js(&json!({ "requestMs": 50 })))]);
    tick().await;
    s.prompt_sent("s1".into()).unwrap();
    let started = now();
    let error = settle(s.send("s1".into(), text("x").unchecked_into(), None)).await.unwrap_err();
    assert_eq!(get(&error, "kind").as_string().unwrap(), "outcomeUnknown");
    assert_eq!(to_value(get(&error, "draft")), json!([{ "type": "text", "text": "x" }]));
    assert!(now() - started >= 45.0);
    assert_eq!(h.methods().len(), 1, "never resent");
}

#[wasm_bindgen_test]
async fn images_are_refused_when_the_agent_has_no_image_input() {
    let h = host(|_, _| Reply::Ok(json!({})));
    let s = steering(&h, json!({ "_meta": { "steering": { "supported": true } } }), &[]);
    tick().await;
    let image = wasm::js(&json!([{ "type": "image", "mimeType": "image/png", "data": "AA==" }]));
    let error = settle(s.send("s1".into(), image.unchecked_into(), None)).await.unwrap_err();
    assert_eq!(get(&error, "kind").as_string().unwrap(), "imagesUnsupported");
    assert!(h.calls.borrow().is_empty());
}
