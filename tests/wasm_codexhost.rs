//! The codexhost shell in a real JS engine (Chromium, Firefox, Node) with a
//! scripted in-memory host and real timers.
#![cfg(target_arch = "wasm32")]

mod wasm;

use renderer_steering::shell::CodexhostSteering;
use serde_json::json;
use wasm::{get, host, now, object, recorder, settle, to_value, Host, Reply};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

fn steering(host: &Host, timeouts: Option<serde_json::Value>) -> CodexhostSteering {
    let mut pairs = vec![("request", host.function.clone().into())];
    if let Some(t) = timeouts {
        pairs.push(("timeouts", wasm::js(&t)));
    }
    CodexhostSteering::new(object(&pairs).unchecked_into()).unwrap()
}

fn args(thread: &str, text: &str) -> JsValue {
    wasm::js(&json!({ "threadId": thread, "expectedTurnId": "turn-1", "input": [{ "type": "text", "text": text }] }))
}

#[wasm_bindgen_test]
async fn active_turn_steer_presents_tags_and_resolves() {
    let h = host(|m, _| match m {
        "codexhost/thread/steering/inspect" => Reply::Ok(json!({ "delivery": "activeTurn" })),
        _ => Reply::Ok(json!({ "turnId": "turn-1" })),
    });
    let s = steering(&h, None);
    let (present, shown) = recorder();
    let hooks = object(&[("present", present.into())]);
    let result = settle(s.steer(args("t", "use pnpm").unchecked_into(), Some(hooks.unchecked_into()))).await.unwrap();
    let result = to_value(result);
    assert_eq!(result["delivery"], "activeTurn");
    assert_eq!(result["presented"], "activeTurn");
    assert_eq!(result["trace"]["roundTripsBeforeSteer"], 1);
    assert_eq!(shown.borrow()[0][0].as_string().unwrap(), "activeTurn");
    let calls = h.calls.borrow();
    assert_eq!(calls[1].0, "turn/steer");
    assert_eq!(calls[1].1["codexhostSteerDelivery"], "activeTurn");
    assert!(calls[1].1["clientUserMessageId"].as_str().is_some_and(|id| id.len() >= 16), "a fresh random id");
}

#[wasm_bindgen_test]
async fn old_host_fallback_and_typed_rejection_with_the_draft() {
    let h = host(|m, _| match m {
        "codexhost/thread/ownership/list" => Reply::Ok(json!({ "threads": [{ "threadId": "t", "owner": "external", "harnessId": "c" }] })),
        "turn/steer" => Reply::Err(-32072, "thread busy"),
        _ => Reply::Err(-32601, "Method not found"),
    });
    let s = steering(&h, None);
    let error = settle(s.steer(args("t", "keep me").unchecked_into(), None)).await.unwrap_err();
    assert!(error.is_instance_of::<js_sys::Error>());
    assert_eq!(get(&error, "name").as_string().unwrap(), "SteeringError");
    assert_eq!(get(&error, "kind").as_string().unwrap(), "host");
    assert_eq!(get(&error, "code").as_f64(), Some(-32072.0));
    assert_eq!(get(&error, "message").as_string().unwrap(), "thread busy");
    assert_eq!(to_value(get(&error, "draft")), json!([{ "type": "text", "text": "keep me" }]));
    assert_eq!(to_value(get(&error, "trace"))["path"], "ownershipList");
    assert_eq!(h.methods(), ["codexhost/thread/steering/inspect", "codexhost/thread/ownership/list", "turn/steer"]);
}

#[wasm_bindgen_test]
async fn a_hung_inspect_times_out_on_a_real_timer_and_no_steer_follows() {
    let h = host(|_, _| Reply::Never);
    let s = steering(&h, Some(json!({ "decideMs": 60 })));
    let started = now();
    let error = settle(s.steer(args("t", "x").unchecked_into(), None)).await.unwrap_err();
    let waited = now() - started;
    assert_eq!(get(&error, "kind").as_string().unwrap(), "timeout");
    assert!((55.0..2_000.0).contains(&waited), "waited {waited} ms");
    assert_eq!(h.methods(), ["codexhost/thread/steering/inspect"]);
    assert_eq!(s.live_state(), 0);
}

#[wasm_bindgen_test]
async fn request_options_pass_through_by_identity_and_bound_the_steer() {
    let h = host(|m, _| match m {
        "codexhost/thread/steering/inspect" => Reply::Ok(json!({ "delivery": "newTurn" })),
        _ => Reply::Later(5_000, json!({ "turnId": "late" })),
    });
    let s = steering(&h, None);
    let options = object(&[("timeoutMs", JsValue::from_f64(40.0)), ("tag", "mine".into())]);
    let a = args("t", "x");
    js_sys::Reflect::set(&a, &"requestOptions".into(), &options).unwrap();
    let (retract, retracted) = recorder();
    let (unconfirmed, marked) = recorder();
    let hooks = object(&[("retract", retract.into()), ("unconfirmed", unconfirmed.into())]);
    let error = settle(s.steer(a.unchecked_into(), Some(hooks.unchecked_into()))).await.unwrap_err();
    // The steer left and no answer came within the caller's bound: it may have arrived.
    assert_eq!(get(&error, "kind").as_string().unwrap(), "outcomeUnknown");
    assert_eq!(retracted.borrow().len(), 0, "never retracted");
    assert_eq!(marked.borrow().len(), 1, "marked unconfirmed");
    assert_eq!(marked.borrow()[0][0].as_string().as_deref(), Some("newTurn"));
    assert!(get(&error, "clientUserMessageId").is_string(), "the id to retry with");
    let calls = h.calls.borrow();
    assert!(calls[0].2.is_undefined(), "probes get no caller options");
    assert!(js_sys::Object::is(&calls[1].2, &options), "the steer gets the caller's options object itself");
}

#[wasm_bindgen_test]
async fn thrown_rejected_and_unreadable_answers_are_typed_errors() {
    for (reply, kind) in [(0, "transport"), (1, "malformedAnswer"), (2, "transport")] {
        let h = host(move |_, _| match reply {
            0 => Reply::Throw,
            1 => Reply::Undefined,
            _ => Reply::Err(0, "").into_plain(),
        });
        let s = steering(&h, None);
        let error = settle(s.steer(args("t", "x").unchecked_into(), None)).await.unwrap_err();
        assert_eq!(get(&error, "kind").as_string().unwrap(), kind);
        assert_eq!(to_value(get(&error, "draft")), json!([{ "type": "text", "text": "x" }]));
    }
}

trait Plain {
    fn into_plain(self) -> Reply;
}
impl Plain for Reply {
    /// A rejection that is not a JSON-RPC error object (a thrown string).
    fn into_plain(self) -> Reply {
        Reply::Throw
    }
}

#[wasm_bindgen_test]
async fn dispose_rejects_a_decision_in_progress_and_sends_nothing_more() {
    let h = host(|m, _| match m {
        "codexhost/thread/steering/inspect" => Reply::Later(30, json!({ "delivery": "activeTurn" })),
        _ => Reply::Ok(json!({ "turnId": "t" })),
    });
    let s = steering(&h, None);
    let pending = s.steer(args("t", "x").unchecked_into(), None);
    s.dispose();
    let error = settle(pending).await.unwrap_err();
    assert_eq!(get(&error, "kind").as_string().unwrap(), "disposed");
    gloo_timers::future::TimeoutFuture::new(60).await;
    assert_eq!(h.methods(), ["codexhost/thread/steering/inspect"]);
}

#[wasm_bindgen_test]
async fn a_throwing_presentation_hook_does_not_change_delivery() {
    let h = host(|m, _| match m {
        "codexhost/thread/steering/inspect" => Reply::Ok(json!({ "delivery": "official" })),
        _ => Reply::Ok(json!({ "turnId": "turn-1" })),
    });
    let s = steering(&h, None);
    let thrower = wasm_bindgen::closure::Closure::<dyn FnMut() -> Result<(), JsValue>>::new(|| Err(JsValue::from_str("ui bug")));
    let hooks = object(&[("present", thrower.into_js_value())]);
    let result = settle(s.steer(args("t", "x").unchecked_into(), Some(hooks.unchecked_into()))).await.unwrap();
    assert_eq!(to_value(result)["delivery"], "official");
}

#[wasm_bindgen_test]
async fn decide_resolves_with_delivery_and_trace() {
    let h = host(|_, p| Reply::Ok(json!({ "delivery": if p["text"] == "/compact" { "newTurn" } else { "activeTurn" } })));
    let s = steering(&h, None);
    let d = to_value(settle(s.decide(wasm::js(&json!({ "threadId": "t", "text": "/compact" })).unchecked_into())).await.unwrap());
    assert_eq!(d["delivery"], "newTurn");
    assert_eq!(d["trace"]["probes"][0]["method"], "codexhost/thread/steering/inspect");
    assert_eq!(h.methods(), ["codexhost/thread/steering/inspect"]);
}

#[wasm_bindgen_test]
fn a_missing_request_function_is_a_clear_error() {
    assert!(CodexhostSteering::new(object(&[]).unchecked_into()).is_err());
}
