//! `installDesktopSteering(manager, options?)`: the hook for the desktop's
//! request manager (spec "Desktop integration"). Wrappers live on a private
//! prototype layer between the instance and its class prototype; the class
//! prototype and other instances stay untouched; `dispose()` restores the
//! chain exactly.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::options::{field, function_field, is_follower, read_timeouts};
use super::convert::{from_js, to_js};
use super::driver::Driver;
use super::failure::to_js_error;
use super::ids::{now_ms, random_id};
use super::transport::Transport;
use super::types::DesktopOptions;
use crate::core::codexhost::{CodexhostEngine, CodexhostOutcome, Delivery};
use crate::core::content::steer_text;
use crate::core::sorted_map::SortedMap;
use crate::core::{Failure, SteeringError, Trace};

#[wasm_bindgen(module = "/js/rest.js")]
extern "C" {
    #[wasm_bindgen(js_name = restForward)]
    fn rest_forward(target: &Function) -> Function;
}

const PAUSE_REASON: &str = "Interrupted before the steer was accepted.";

struct Route {
    expected_turn_id: String,
}

struct Hook {
    manager: JsValue,
    proto: Object,
    layer: Object,
    original_steer: Function,
    original_send: Function,
    decider: Driver<CodexhostEngine>,
    active_tags: RefCell<SortedMap<String, &'static str>>,
    routes: RefCell<SortedMap<(String, String), Route>>,
    disposed: Cell<bool>,
    keep_alive: RefCell<Vec<JsValue>>,
}

/// Handle returned by `installDesktopSteering`.
#[wasm_bindgen]
pub struct DesktopSteering {
    hook: Rc<Hook>,
}

impl std::fmt::Debug for DesktopSteering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DesktopSteering").finish_non_exhaustive()
    }
}

#[wasm_bindgen]
impl DesktopSteering {
    /// Restores `steerTurn` now and `sendRequest` once pending replacements
    /// settle (they fail closed as `disposed`).
    ///
    /// ```js
    /// const hook = installDesktopSteering(manager);
    /// hook?.dispose();
    /// ```
    pub fn dispose(&self) {
        let hook = &self.hook;
        if hook.disposed.replace(true) {
            return;
        }
        let _ = Reflect::delete_property(&hook.layer, &"steerTurn".into());
        hook.restore_when_idle();
    }
}

fn reject(failure: Failure, input: &JsValue) -> JsValue {
    let draft = from_js(input.clone()).ok().and_then(|v| v.as_array().cloned()).unwrap_or_default();
    to_js_error(&SteeringError::new(failure, draft, Trace::default()), input)
}

async fn settle(value: Result<JsValue, JsValue>) -> Result<JsValue, JsValue> {
    JsFuture::from(Promise::resolve(&value?)).await
}

fn call(f: &Function, this: &JsValue, args: &Array) -> Result<JsValue, JsValue> {
    f.apply(this, args)
}

impl Hook {
    fn restore_when_idle(&self) {
        if !self.disposed.get() || !self.routes.borrow().is_empty() {
            return;
        }
        let _ = Reflect::delete_property(&self.layer, &"sendRequest".into());
        if Object::is(&Object::get_prototype_of(&self.manager), &self.layer) {
            Object::set_prototype_of(self.manager.unchecked_ref::<Object>(), &self.proto);
        }
        self.keep_alive.borrow_mut().clear();
    }

    fn is_follower(&self, thread_id: &str) -> bool {
        function_field(&self.manager, "getStreamRole").is_some_and(|role| is_follower(&role, &self.manager, thread_id))
    }

    /// The desktop's turn coordinator (undefined when it has none).
    fn coordinator(&self) -> JsValue {
        function_field(&self.manager, "getTurnCoordinator")
            .and_then(|f| f.call0(&self.manager).ok())
            .unwrap_or(JsValue::UNDEFINED)
    }

    fn submission_host(&self) -> JsValue {
        field(&field(&self.coordinator(), "options"), "submissionHost")
    }

    async fn decide(&self, thread_id: &str, text: &str) -> Result<Delivery, SteeringError> {
        let op = self.decider.with_engine(|e| e.decide(thread_id, text, now_ms()))?;
        match self.decider.wait(op, None).await {
            Ok(Ok(CodexhostOutcome::Decided(d))) => Ok(d.delivery),
            Ok(Err(e)) => Err(e),
            _ => Err(SteeringError::new(Failure::Disposed, vec![], Trace::default())),
        }
    }

    async fn steer_turn(self: Rc<Self>, this: JsValue, args: Array) -> Result<JsValue, JsValue> {
        let original = || settle(call(&self.original_steer, &this, &args));
        let thread_id = args.get(0).as_string().unwrap_or_default();
        let input = args.get(1);
        let Some(text) = from_js(input.clone()).ok().and_then(|v| v.as_array().and_then(|a| steer_text(a).ok())) else {
            return original().await; // not a text steer: the desktop's own path
        };
        if self.is_follower(&thread_id) {
            return original().await;
        }
        let delivery = self.decide(&thread_id, &text).await.map_err(|e| to_js_error(&e, &input))?;
        if self.is_follower(&thread_id) {
            return original().await; // the role changed while inspect was out
        }
        match delivery {
            Delivery::Official => original().await,
            Delivery::ActiveTurn => {
                self.active_tags.borrow_mut().insert(thread_id.clone(), "activeTurn");
                let result = original().await;
                self.active_tags.borrow_mut().remove(&thread_id);
                result
            }
            Delivery::NewTurn => self.new_turn(thread_id, args).await,
        }
    }

    async fn new_turn(self: Rc<Self>, thread_id: String, args: Array) -> Result<JsValue, JsValue> {
        let input = args.get(1);
        let restore = args.get(2);
        let host = self.submission_host();
        let expected = function_field(&host, "getActiveTurnId").and_then(|f| f.call1(&host, &thread_id.clone().into()).ok()).and_then(|v| v.as_string());
        let Some(expected_turn_id) = expected else {
            let detail = "the desktop's submission binding is missing: a new turn cannot be started".into();
            return Err(reject(Failure::MissingBinding { detail }, &input));
        };
        let pending_start = function_field(&host, "hasPendingTurnStart").and_then(|f| f.call1(&host, &thread_id.clone().into()).ok());
        if pending_start.and_then(|v| v.as_bool()) == Some(true) {
            return Err(reject(Failure::PendingTurnStart, &input));
        }
        if !(args.get(7).is_null() || args.get(7).is_undefined()) {
            return Err(reject(Failure::InvalidInput { reason: "a steer cannot replace a tool response".into() }, &input));
        }
        let context = field(&restore, "context");
        if !context.is_object() {
            return Err(reject(Failure::InvalidInput { reason: "restoreMessage.context must be an object".into() }, &input));
        }
        let message_id = args.get(5).as_string().or_else(|| field(&restore, "id").as_string()).unwrap_or_else(random_id);
        let or_null = |v: JsValue| if v.is_undefined() { JsValue::NULL } else { v };
        let request = Object::new();
        let attachments = if args.get(4).is_undefined() || args.get(4).is_null() { Array::new().into() } else { args.get(4) };
        for (key, value) in [
            ("threadId", JsValue::from_str(&thread_id)),
            ("input", input.clone()),
            ("clientUserMessageId", JsValue::from_str(&message_id)),
            ("additionalContext", args.get(6)),
            ("responsesapiClientMetadata", field(&restore, "responsesapiClientMetadata")),
            ("cwd", field(&restore, "cwd")),
            ("serviceTier", args.get(3)),
            ("model", JsValue::NULL),
            ("effort", JsValue::NULL),
            ("collaborationMode", or_null(field(&context, "collaborationMode"))),
        ] {
            Reflect::set(&request, &key.into(), &value)?;
        }
        let start_context = Object::new();
        let comments = field(&context, "commentAttachments");
        for (key, value) in [
            ("attachments", attachments),
            ("commentAttachments", if comments.is_undefined() { Array::new().into() } else { comments }),
            ("mcpAppModelContextAttachments", field(&context, "mcpAppModelContextAttachments")),
            ("useAppServerPermissionDefault", JsValue::TRUE),
        ] {
            Reflect::set(&start_context, &key.into(), &value)?;
        }
        let submission = Object::new();
        Reflect::set(&submission, &"request".into(), &request)?;
        Reflect::set(&submission, &"context".into(), &start_context)?;
        let paused_before = self.paused_follow_ups(&thread_id).await;
        let key = (thread_id.clone(), message_id);
        self.routes.borrow_mut().insert(key.clone(), Route { expected_turn_id });
        let start = function_field(&self.manager, "startTurn").ok_or_else(|| reject(Failure::MissingBinding { detail: "startTurn is missing".into() }, &input))?;
        let result = settle(start.call3(&self.manager, &thread_id.clone().into(), &submission, &args.get(8))).await;
        self.routes.borrow_mut().remove(&key);
        self.restore_when_idle();
        if result.is_ok() {
            self.resume_follow_ups(&thread_id, &paused_before).await;
        }
        result
    }

    /// Ids of follow-ups paused with the steer's reason (best effort).
    async fn paused_follow_ups(&self, thread_id: &str) -> Vec<String> {
        let coordinator = self.coordinator();
        if let Some(load) = function_field(&coordinator, "loadMessages") {
            let _ = settle(load.call1(&coordinator, &thread_id.into())).await;
        }
        let Some(read) = function_field(&coordinator, "readMessages") else { return vec![] };
        let messages = settle(read.call1(&coordinator, &thread_id.into())).await.unwrap_or(JsValue::UNDEFINED);
        paused_ids(&messages)
    }

    /// Un-pauses follow-ups the stop paused (not those paused before); a
    /// failure is logged, never turned into a failed delivery.
    async fn resume_follow_ups(&self, thread_id: &str, paused_before: &[String]) {
        let coordinator = self.coordinator();
        let Some(mutate) = function_field(&coordinator, "mutate") else { return };
        let before = to_js(&paused_before);
        let unpause = Closure::once_into_js(move |messages: JsValue| -> JsValue {
            let keep: Vec<String> = serde_wasm_bindgen::from_value(before).unwrap_or_default();
            let Ok(list) = messages.clone().dyn_into::<Array>() else { return messages };
            list.iter()
                .map(|m| {
                    let id = field(&m, "id").as_string().unwrap_or_default();
                    if field(&m, "pauseReason").as_string().as_deref() == Some(PAUSE_REASON) && !keep.contains(&id) {
                        let copy = Object::assign(&Object::new(), &m.unchecked_into());
                        let _ = Reflect::set(&copy, &"pauseReason".into(), &JsValue::NULL);
                        copy.into()
                    } else {
                        m
                    }
                })
                .collect::<Array>()
                .into()
        });
        if let Err(e) = settle(mutate.call2(&coordinator, &thread_id.into(), &unpause)).await {
            web_sys::console::warn_2(&"renderer-steering: could not resume follow-ups".into(), &e);
        }
    }

    fn send_request(self: Rc<Self>, this: JsValue, args: Array) -> Result<JsValue, JsValue> {
        let (method, params) = (args.get(0).as_string().unwrap_or_default(), args.get(1));
        let thread_id = field(&params, "threadId").as_string().unwrap_or_default();
        if method == "turn/start" {
            let message_id = field(&params, "clientUserMessageId").as_string().unwrap_or_default();
            let route = self.routes.borrow().get(&(thread_id.clone(), message_id)).map(|r| r.expected_turn_id.clone());
            if let Some(expected_turn_id) = route {
                return Ok(self.rewrite_start(params, args.get(2), expected_turn_id).into());
            }
        }
        if method == "turn/steer" {
            if let Some(tag) = self.active_tags.borrow().get(&thread_id).copied() {
                let tagged = Object::assign(&Object::new(), &params.clone().unchecked_into());
                Reflect::set(&tagged, &"codexhostSteerDelivery".into(), &tag.into())?;
                args.set(1, tagged.into());
            }
        }
        call(&self.original_send, &this, &args)
    }

    /// The `turn/start` of a newTurn presentation goes out as a tagged
    /// `turn/steer`; its `{ turnId }` answer comes back as `{ turn }`.
    fn rewrite_start(self: Rc<Self>, params: JsValue, options: JsValue, expected_turn_id: String) -> Promise {
        future_to_promise(async move {
            let input = field(&params, "input");
            if self.disposed.get() {
                return Err(reject(Failure::Disposed, &input));
            }
            let steer = Object::new();
            for key in ["threadId", "input", "clientUserMessageId", "additionalContext", "responsesapiClientMetadata"] {
                let value = field(&params, key);
                if !value.is_undefined() && !value.is_null() {
                    Reflect::set(&steer, &key.into(), &value)?;
                }
            }
            Reflect::set(&steer, &"expectedTurnId".into(), &expected_turn_id.into())?;
            Reflect::set(&steer, &"codexhostSteerDelivery".into(), &"newTurn".into())?;
            let answer = settle(self.original_send.call3(&self.manager, &"turn/steer".into(), &steer, &options)).await?;
            let turn_id = from_js(answer).ok().and_then(|v| v.get("turnId").and_then(Value::as_str).map(String::from));
            let Some(turn_id) = turn_id.filter(|t| !t.is_empty()) else {
                let detail = "the turn/steer answer has no turnId".into();
                return Err(reject(Failure::Malformed { method: "turn/steer".into(), detail }, &input));
            };
            Ok(to_js(&json!({ "turn": { "id": turn_id, "status": "inProgress", "items": [], "error": null } })))
        })
    }
}

fn paused_ids(messages: &JsValue) -> Vec<String> {
    let Ok(list) = messages.clone().dyn_into::<Array>() else { return vec![] };
    list.iter()
        .filter(|m| field(m, "pauseReason").as_string().as_deref() == Some(PAUSE_REASON))
        .filter_map(|m| field(&m, "id").as_string())
        .collect()
}

/// Installs the hook; returns `null` when `manager` lacks the methods.
///
/// ```js
/// const hook = installDesktopSteering(requestManager, { timeouts: { decideMs: 5000 } });
/// ```
#[wasm_bindgen(js_name = installDesktopSteering, unchecked_return_type = "DesktopSteering | null")]
pub fn install_desktop_steering(
    #[wasm_bindgen(unchecked_param_type = "object")] manager: JsValue,
    options: Option<DesktopOptions>,
) -> Result<JsValue, JsError> {
    let options: JsValue = options.map(Into::into).unwrap_or(JsValue::UNDEFINED);
    let methods = ["steerTurn", "sendRequest", "startTurn", "getTurnCoordinator"].map(|m| function_field(&manager, m));
    let [Some(original_steer), Some(original_send), Some(_), Some(_)] = methods else { return Ok(JsValue::NULL) };
    let proto = Object::get_prototype_of(&manager);
    let layer = Object::create(&proto);
    let bound_send = original_send.bind0(&manager);
    let decider = Driver::new(CodexhostEngine::new(read_timeouts(&options)?), Transport::new(bound_send), None);
    let hook = Rc::new(Hook {
        manager: manager.clone(), proto, layer: layer.clone(), original_steer, original_send, decider,
        active_tags: RefCell::default(), routes: RefCell::default(), disposed: Cell::new(false), keep_alive: RefCell::default(),
    });
    // The wrappers own the hook: it stays installed while they exist, even if
    // the app drops the handle (only dispose() removes it).
    let owner = hook.clone();
    let steer = Closure::<dyn FnMut(JsValue, Array) -> JsValue>::new(move |this: JsValue, args: Array| -> JsValue {
        future_to_promise(owner.clone().steer_turn(this, args)).into()
    });
    let owner = hook.clone();
    let send = Closure::<dyn FnMut(JsValue, Array) -> Result<JsValue, JsValue>>::new(move |this: JsValue, args: Array| {
        owner.clone().send_request(this, args)
    });
    let steer = steer.into_js_value();
    let send = send.into_js_value();
    for (name, target) in [("steerTurn", &steer), ("sendRequest", &send)] {
        let wrapper = rest_forward(target.unchecked_ref());
        let descriptor = Object::new();
        let js_error = |_| JsError::new("cannot build a property descriptor");
        Reflect::set(&descriptor, &"value".into(), &wrapper).map_err(js_error)?;
        Reflect::set(&descriptor, &"writable".into(), &JsValue::TRUE).map_err(js_error)?;
        Reflect::set(&descriptor, &"configurable".into(), &JsValue::TRUE).map_err(js_error)?;
        Object::define_property(&layer, &name.into(), &descriptor);
    }
    hook.keep_alive.borrow_mut().extend([steer, send]);
    Object::set_prototype_of(manager.unchecked_ref::<Object>(), &layer);
    Ok(DesktopSteering { hook }.into())
}
