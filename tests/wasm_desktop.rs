//! The desktop hook against a fake request manager, in a real JS engine.
#![cfg(target_arch = "wasm32")]

mod wasm;

use renderer_steering::shell::install_desktop_steering;
use serde_json::json;
use wasm::{get, settle, to_value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

#[wasm_bindgen(module = "/tests/wasm/fake_manager.js")]
extern "C" {
    #[wasm_bindgen(js_name = makeManager)]
    fn make_manager(answers: JsValue, options: JsValue) -> JsValue;
    #[wasm_bindgen(js_name = protoOf)]
    fn proto_of(o: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = classProto)]
    fn class_proto() -> JsValue;
    #[wasm_bindgen(js_name = ownNames)]
    fn own_names(o: &JsValue) -> String;
    #[wasm_bindgen(js_name = callSteer)]
    fn call_steer(manager: &JsValue, thread: &str, text: &str, extra: JsValue) -> js_sys::Promise;
}

fn answers(delivery: &str) -> JsValue {
    wasm::js(&json!({
        "codexhost/thread/steering/inspect": { "delivery": delivery },
        "turn/steer": { "turnId": "turn-2" },
        "thread/list": { "data": [] }
    }))
}

fn sent(manager: &JsValue) -> Vec<serde_json::Value> {
    let list: js_sys::Array = get(manager, "sent").into();
    list.iter().map(|c| json!({ "method": to_value(get(&c, "method")), "params": to_value(get(&c, "params")) })).collect()
}

fn install(manager: &JsValue) -> renderer_steering::shell::DesktopSteering {
    let handle = install_desktop_steering(manager.clone(), None).unwrap();
    wasm_bindgen::JsCast::unchecked_into::<js_sys::Object>(handle).pipe()
}

trait Pipe {
    fn pipe(self) -> renderer_steering::shell::DesktopSteering;
}
impl Pipe for js_sys::Object {
    fn pipe(self) -> renderer_steering::shell::DesktopSteering {
        use wasm_bindgen::convert::TryFromJsValue;
        renderer_steering::shell::DesktopSteering::try_from_js_value(self.into()).unwrap()
    }
}

#[wasm_bindgen_test]
fn install_returns_null_without_the_methods() {
    let noop = Closure::<dyn FnMut()>::new(|| {}).into_js_value();
    let plain = wasm::object(&[("sendRequest", noop)]);
    assert!(install_desktop_steering(plain, None).unwrap().is_null());
}

#[wasm_bindgen_test]
async fn a_private_layer_holds_the_wrappers_and_dispose_restores_the_chain() {
    let manager = make_manager(answers("official"), JsValue::UNDEFINED);
    let other = make_manager(answers("official"), JsValue::UNDEFINED);
    let names_before = own_names(&class_proto());
    let own_before = own_names(&manager);
    let hook = install(&manager);
    let layer = proto_of(&manager);
    assert!(!js_sys::Object::is(&layer, &class_proto()));
    assert!(js_sys::Object::is(&proto_of(&layer), &class_proto()));
    assert_eq!(own_names(&layer), "sendRequest,steerTurn");
    assert_eq!(own_names(&manager), own_before, "no own properties on the instance");
    assert_eq!(own_names(&class_proto()), names_before, "class prototype untouched");
    assert!(js_sys::Object::is(&proto_of(&other), &class_proto()), "other instances untouched");
    hook.dispose();
    assert!(js_sys::Object::is(&proto_of(&manager), &class_proto()), "exact restore");
}

#[wasm_bindgen_test]
async fn active_turn_tags_the_desktops_own_turn_steer() {
    let manager = make_manager(answers("activeTurn"), JsValue::UNDEFINED);
    let _hook = install(&manager);
    settle(call_steer(&manager, "t", "use pnpm", JsValue::UNDEFINED)).await.unwrap();
    let sent = sent(&manager);
    assert_eq!(sent[0]["method"], "codexhost/thread/steering/inspect");
    assert_eq!(sent[0]["params"], json!({ "threadId": "t", "text": "use pnpm" }));
    assert_eq!(sent[1]["method"], "turn/steer");
    assert_eq!(sent[1]["params"]["codexhostSteerDelivery"], "activeTurn");
}

#[wasm_bindgen_test]
async fn official_goes_out_untouched() {
    let manager = make_manager(answers("official"), JsValue::UNDEFINED);
    let _hook = install(&manager);
    settle(call_steer(&manager, "t", "x", JsValue::UNDEFINED)).await.unwrap();
    assert!(sent(&manager)[1]["params"].get("codexhostSteerDelivery").is_none());
}

#[wasm_bindgen_test]
async fn new_turn_presents_through_start_turn_and_rewrites_it_into_a_tagged_steer() {
    let queue = json!([{ "id": "old", "pauseReason": "Interrupted before the steer was accepted." }]);
    let manager = make_manager(answers("newTurn"), wasm::js(&json!({ "queue": queue, "pauseOnSteer": "new" })));
    let _hook = install(&manager);
    let result = settle(call_steer(&manager, "t", "start over", wasm::js(&json!({ "messageId": "m-9" })))).await.unwrap();
    assert_eq!(to_value(result), json!({ "turn": { "id": "turn-2", "status": "inProgress", "items": [], "error": null } }));
    let started: js_sys::Array = get(&manager, "started").into();
    let request = to_value(get(&get(&started.get(0), "submission"), "request"));
    assert_eq!(request["clientUserMessageId"], "m-9");
    assert_eq!((request["cwd"].as_str(), request["collaborationMode"].as_str(), request["serviceTier"].as_str()), (Some("/repo"), Some("pair"), Some("fast")));
    assert_eq!((request["model"].clone(), request["effort"].clone()), (json!(null), json!(null)));
    let context = to_value(get(&get(&started.get(0), "submission"), "context"));
    assert_eq!(context["useAppServerPermissionDefault"], true);
    assert_eq!(context["attachments"], json!([]));
    let sent = sent(&manager);
    let methods: Vec<_> = sent.iter().map(|s| s["method"].as_str().unwrap().to_string()).collect();
    assert_eq!(methods, ["codexhost/thread/steering/inspect", "turn/steer"], "no turn/start leaks out");
    assert_eq!(sent[1]["params"]["codexhostSteerDelivery"], "newTurn");
    assert_eq!(sent[1]["params"]["expectedTurnId"], "turn-1");
    assert_eq!(sent[1]["params"]["clientUserMessageId"], "m-9");
    let calls: js_sys::Array = get(&manager, "sent").into();
    assert_eq!(to_value(get(&calls.get(1), "options")), json!({ "caller": "startTurn" }), "caller options pass through");
    let queue = to_value(get(&manager, "queue"));
    assert_eq!(queue[0]["pauseReason"], "Interrupted before the steer was accepted.", "paused before: stays paused");
    assert_eq!(queue[1]["pauseReason"], json!(null), "paused by the stop: resumed");
}

#[wasm_bindgen_test]
async fn new_turn_without_the_binding_fails_clearly_but_active_turn_still_works() {
    let manager = make_manager(answers("newTurn"), wasm::js(&json!({ "binding": false })));
    let _hook = install(&manager);
    let error = settle(call_steer(&manager, "t", "x", JsValue::UNDEFINED)).await.unwrap_err();
    assert_eq!(get(&error, "kind").as_string().unwrap(), "missingBinding");
    assert_eq!(to_value(get(&error, "draft")), json!([{ "type": "text", "text": "x" }]));
    let manager = make_manager(answers("activeTurn"), wasm::js(&json!({ "binding": false })));
    let _hook = install(&manager);
    assert!(settle(call_steer(&manager, "t", "x", JsValue::UNDEFINED)).await.is_ok());
}

#[wasm_bindgen_test]
async fn a_tool_output_cannot_be_replaced_by_a_new_turn() {
    let manager = make_manager(answers("newTurn"), JsValue::UNDEFINED);
    let _hook = install(&manager);
    let error = settle(call_steer(&manager, "t", "x", wasm::js(&json!({ "toolOutput": { "out": 1 } })))).await.unwrap_err();
    assert_eq!(get(&error, "kind").as_string().unwrap(), "invalidInput");
}

#[wasm_bindgen_test]
async fn followers_use_the_desktops_own_path_without_probing() {
    let manager = make_manager(answers("newTurn"), wasm::js(&json!({ "role": "follower" })));
    let _hook = install(&manager);
    settle(call_steer(&manager, "t", "x", JsValue::UNDEFINED)).await.unwrap();
    let sent = sent(&manager);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["method"], "turn/steer");
    assert!(sent[0]["params"].get("codexhostSteerDelivery").is_none());
}

#[wasm_bindgen_test]
async fn other_requests_pass_through_unchanged() {
    let manager = make_manager(answers("official"), JsValue::UNDEFINED);
    let _hook = install(&manager);
    let send: js_sys::Function = get(&manager, "sendRequest").into();
    let params = wasm::js(&json!({ "x": 1 }));
    let result = send.call3(&manager, &"thread/list".into(), &params, &JsValue::UNDEFINED).unwrap();
    assert!(result.is_instance_of::<js_sys::Promise>());
    let calls: js_sys::Array = get(&manager, "sent").into();
    assert!(js_sys::Object::is(&get(&calls.get(0), "params"), &params), "params by identity");
}

#[wasm_bindgen_test]
async fn dispose_fails_pending_replacements_closed_then_restores_send_request() {
    let manager = make_manager(answers("newTurn"), wasm::js(&json!({ "deferStart": 30 })));
    let hook = install(&manager);
    let pending = call_steer(&manager, "t", "x", JsValue::UNDEFINED);
    while js_sys::Array::from(&get(&manager, "started")).length() == 0 {
        gloo_timers::future::TimeoutFuture::new(1).await;
    }
    hook.dispose();
    let layer = proto_of(&manager);
    assert_eq!(own_names(&layer), "sendRequest", "steerTurn restored at once, sendRequest kept while a replacement is pending");
    let error = settle(pending).await.unwrap_err();
    assert_eq!(get(&error, "kind").as_string().unwrap(), "disposed");
    let methods: Vec<_> = sent(&manager).iter().map(|s| s["method"].as_str().unwrap().to_string()).collect();
    assert_eq!(methods, ["codexhost/thread/steering/inspect"], "no turn/start leaks out after dispose");
    assert!(js_sys::Object::is(&proto_of(&manager), &class_proto()), "chain restored once it settled");
}

#[wasm_bindgen_test]
async fn the_hook_stays_installed_when_the_app_drops_its_handle() {
    let manager = make_manager(answers("activeTurn"), JsValue::UNDEFINED);
    drop(install(&manager));
    settle(call_steer(&manager, "t", "still steering", JsValue::UNDEFINED)).await.unwrap();
    assert_eq!(sent(&manager)[1]["params"]["codexhostSteerDelivery"], "activeTurn");
}
