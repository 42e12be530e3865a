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
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::boundary::{own_field, read_draft, read_id, read_typed, report, MAX_ARGUMENT_UNITS, MAX_ID_UNITS};
use super::convert::to_js;
use super::driver::Driver;
use super::failure::to_js_error;
use super::ids::{now_ms, random_id};
use super::options::{field, function_field, is_follower, read_timeouts};
use super::transport::Transport;
use super::types::DesktopOptions;
use crate::core::codexhost::{CodexhostEngine, CodexhostOutcome, Delivery};
use crate::core::acp::outcome::unknown;
use crate::core::content::steer_text;
use crate::core::sorted_map::SortedMap;
use crate::core::timeouts::MAX_TIMEOUT_MS;
use crate::core::{Failure, RpcError, SteeringError, Trace};

#[wasm_bindgen(module = "/js/desktop.js")]
extern "C" {
    #[wasm_bindgen(js_name = installLayer, catch)]
    fn install_layer(manager: &JsValue, steer: &JsValue, send: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = removeFromLayer, catch)]
    fn remove_from_layer(manager: &JsValue, proto: &JsValue, layer: &JsValue, name: &str, restore: bool) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = copyWith, catch)]
    fn copy_with(source: &JsValue, key: &str, value: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = pausedIds, catch)]
    fn paused_ids(messages: &JsValue, reason: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = unpauseMessages, catch)]
    fn unpause_messages(reason: &str, keep: &JsValue) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = canceller, catch)]
    fn canceller() -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = bounded, catch)]
    fn bounded(value: &JsValue, ms: u32, cancel: &JsValue) -> Result<Promise, JsValue>;
}

const PAUSE_REASON: &str = "Interrupted before the steer was accepted.";

struct Route {
    expected_turn_id: String,
    /// Set once the rewritten `turn/steer` was handed to the desktop's
    /// `sendRequest`: from then on a missing answer is `outcomeUnknown`.
    sent: Rc<Cell<bool>>,
}

struct Hook {
    manager: JsValue,
    /// The manager's own prototype and the private layer (set once installed).
    layer: RefCell<(JsValue, JsValue)>,
    original_steer: Function,
    original_send: Function,
    decider: Driver<CodexhostEngine>,
    active_tags: RefCell<SortedMap<String, &'static str>>,
    routes: RefCell<SortedMap<(String, String), Route>>,
    disposed: Cell<bool>,
    /// Every wait on the app or the host races this; `dispose()` fires it.
    cancel: JsValue,
    steer_ms: u64,
    keep_alive: RefCell<Vec<JsValue>>,
}

/// How a bounded wait ended.
enum Waited {
    Ok(JsValue),
    Error(JsValue),
    Timeout,
    Cancelled,
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
        let (proto, layer) = hook.layer.borrow().clone();
        let _ = remove_from_layer(&hook.manager, &proto, &layer, "steerTurn", false);
        if let Some(cancel) = function_field(&hook.cancel, "cancel") {
            // Caught import (Function.call): ends every bounded wait of this hook.
            let _ = cancel.call0(&JsValue::NULL);
        }
        hook.restore_when_idle();
    }
}

/// The rejection for `input` (the desktop's own draft array, handed back by identity).
fn reject(failure: Failure, input: &JsValue) -> JsValue {
    let draft = read_draft(input).unwrap_or_default();
    to_js_error(&SteeringError::new(failure, draft, Trace::default()), input)
}

fn call(f: &Function, this: &JsValue, args: &Array) -> Result<JsValue, JsValue> {
    f.apply(this, args)
}

impl Hook {
    fn restore_when_idle(&self) {
        if !self.disposed.get() || !self.routes.borrow().is_empty() {
            return;
        }
        let (proto, layer) = self.layer.borrow().clone();
        let _ = remove_from_layer(&self.manager, &proto, &layer, "sendRequest", true);
        self.keep_alive.borrow_mut().clear();
    }

    /// Waits for an app or host call for at most the steer bound, or until dispose.
    async fn bounded(&self, value: Result<JsValue, JsValue>) -> Waited {
        let value = match value {
            Ok(value) => value,
            Err(thrown) => return Waited::Error(thrown),
        };
        let ms = self.steer_ms.min(MAX_TIMEOUT_MS - 1) as u32;
        let Ok(promise) = bounded(&value, ms, &self.cancel) else { return Waited::Cancelled };
        let Ok(waited) = JsFuture::from(promise).await else { return Waited::Cancelled };
        match own_field(&waited, "kind").as_string().as_deref() {
            Some("ok") => Waited::Ok(own_field(&waited, "value")),
            Some("error") => Waited::Error(own_field(&waited, "error")),
            Some("timeout") => Waited::Timeout,
            _ => Waited::Cancelled,
        }
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

    /// The wrapped `steerTurn`: a steer this hook does not handle (unreadable,
    /// not text, a follower window) goes to the desktop's own method at once,
    /// its return value untouched; a text steer is decided first.
    fn steer_turn(self: Rc<Self>, this: JsValue, args: Array) -> Result<JsValue, JsValue> {
        let input = args.get(1);
        let read = read_id(&args.get(0), "threadId").ok().zip(read_draft(&input).ok().and_then(|d| steer_text(&d).ok()));
        let Some((thread_id, text)) = read.filter(|(thread_id, _)| !self.is_follower(thread_id)) else {
            return call(&self.original_steer, &this, &args);
        };
        Ok(future_to_promise(self.route(this, args, thread_id, text)).into())
    }

    async fn route(self: Rc<Self>, this: JsValue, args: Array, thread_id: String, text: String) -> Result<JsValue, JsValue> {
        let input = args.get(1);
        let delivery = self.decide(&thread_id, &text).await.map_err(|e| to_js_error(&e, &input))?;
        if self.is_follower(&thread_id) || delivery == Delivery::Official {
            // The desktop's own steer (also when the role changed while inspect was out).
            return call(&self.original_steer, &this, &args);
        }
        if delivery == Delivery::NewTurn {
            return self.new_turn(thread_id, args).await;
        }
        self.active_tags.borrow_mut().insert(thread_id.clone(), "activeTurn");
        let waited = self.bounded(call(&self.original_steer, &this, &args)).await;
        self.active_tags.borrow_mut().remove(&thread_id);
        match waited {
            Waited::Ok(value) => Ok(value),
            Waited::Error(error) => Err(error), // the desktop's own failure, unchanged
            // The desktop's own turn/steer may have left: never a plain failure.
            Waited::Timeout => Err(reject(unknown("steerTurn", "no answer within the steer bound"), &input)),
            Waited::Cancelled => Err(reject(unknown("steerTurn", "disposed before the answer"), &input)),
        }
    }

    /// The desktop's `submissionHost` answer for `thread_id` (`None` when absent or unreadable).
    fn ask_host(&self, host: &JsValue, method: &str, thread_id: &str) -> Option<JsValue> {
        function_field(host, method).and_then(|f| f.call1(host, &JsValue::from_str(thread_id)).ok())
    }

    async fn new_turn(self: Rc<Self>, thread_id: String, args: Array) -> Result<JsValue, JsValue> {
        let input = args.get(1);
        let restore = args.get(2);
        let host = self.submission_host();
        let expected = self.ask_host(&host, "getActiveTurnId", &thread_id).and_then(|v| read_id(&v, "turn id").ok());
        let Some(expected_turn_id) = expected else {
            let detail = "the desktop's submission binding is missing: a new turn cannot be started".into();
            return Err(reject(Failure::MissingBinding { detail }, &input));
        };
        if self.ask_host(&host, "hasPendingTurnStart", &thread_id).and_then(|v| v.as_bool()) == Some(true) {
            return Err(reject(Failure::PendingTurnStart, &input));
        }
        if !(args.get(7).is_null() || args.get(7).is_undefined()) {
            return Err(reject(Failure::InvalidInput { reason: "a steer cannot replace a tool response".into() }, &input));
        }
        let context = field(&restore, "context");
        if !context.is_object() {
            return Err(reject(Failure::InvalidInput { reason: "restoreMessage.context must be an object".into() }, &input));
        }
        let message_id = read_id(&args.get(5), "messageId")
            .or_else(|_| read_id(&field(&restore, "id"), "restoreMessage.id"))
            .unwrap_or_else(|_| random_id());
        let or_null = |v: JsValue| if v.is_undefined() { JsValue::NULL } else { v };
        let or_empty = |v: JsValue| if v.is_undefined() || v.is_null() { Array::new().into() } else { v };
        let request = object(&[
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
        ]);
        let start_context = object(&[
            ("attachments", or_empty(args.get(4))),
            ("commentAttachments", or_empty(field(&context, "commentAttachments"))),
            ("mcpAppModelContextAttachments", field(&context, "mcpAppModelContextAttachments")),
            ("useAppServerPermissionDefault", JsValue::TRUE),
        ]);
        let submission = object(&[("request", request), ("context", start_context)]);
        let Some(start) = function_field(&self.manager, "startTurn") else {
            return Err(reject(Failure::MissingBinding { detail: "startTurn is missing".into() }, &input));
        };
        let paused_before = self.paused_follow_ups(&thread_id).await;
        let key = (thread_id.clone(), message_id);
        let sent = Rc::new(Cell::new(false));
        self.routes.borrow_mut().insert(key.clone(), Route { expected_turn_id, sent: sent.clone() });
        let waited = self.bounded(start.call3(&self.manager, &thread_id.clone().into(), &submission, &args.get(8))).await;
        self.routes.borrow_mut().remove(&key);
        // Before the rewritten steer left, nothing can have arrived: a plain failure.
        let unanswered = |detail: &str| if sent.get() { unknown("startTurn", detail) } else { Failure::Disposed };
        self.restore_when_idle();
        let result = match waited {
            Waited::Ok(value) => Ok(value),
            Waited::Error(error) if is_steering_error(&error) => Err(error),
            Waited::Error(error) => Err(reject(Failure::Transport { method: "startTurn".into(), detail: describe(&error) }, &input)),
            // The rewritten turn/steer may have left: never a plain failure.
            Waited::Timeout if !sent.get() => {
                Err(reject(Failure::Timeout { method: "startTurn".into(), after_ms: self.steer_ms }, &input))
            }
            Waited::Timeout => Err(reject(unanswered("no answer within the steer bound"), &input)),
            Waited::Cancelled => Err(reject(unanswered("disposed before the answer"), &input)),
        };
        if result.is_ok() {
            self.resume_follow_ups(&thread_id, &paused_before).await;
        }
        result
    }

    /// Ids of follow-ups paused with the steer's reason (best effort, bounded).
    async fn paused_follow_ups(&self, thread_id: &str) -> JsValue {
        let coordinator = self.coordinator();
        if let Some(load) = function_field(&coordinator, "loadMessages") {
            let _ = self.bounded(load.call1(&coordinator, &thread_id.into())).await;
        }
        let Some(read) = function_field(&coordinator, "readMessages") else { return Array::new().into() };
        let messages = match self.bounded(read.call1(&coordinator, &thread_id.into())).await {
            Waited::Ok(messages) => messages,
            _ => JsValue::UNDEFINED,
        };
        paused_ids(&messages, PAUSE_REASON).unwrap_or_else(|_| Array::new().into())
    }

    /// Un-pauses follow-ups the stop paused (not those paused before); a
    /// failure is logged, never turned into a failed delivery.
    async fn resume_follow_ups(&self, thread_id: &str, paused_before: &JsValue) {
        let coordinator = self.coordinator();
        let Some(mutate) = function_field(&coordinator, "mutate") else { return };
        let Ok(unpause) = unpause_messages(PAUSE_REASON, paused_before) else { return };
        match self.bounded(mutate.call2(&coordinator, &thread_id.into(), &unpause)).await {
            Waited::Ok(_) => {}
            Waited::Error(e) => report("could not resume follow-ups", &e),
            Waited::Timeout | Waited::Cancelled => report("resuming follow-ups did not finish", &JsValue::UNDEFINED),
        }
    }

    fn send_request(self: Rc<Self>, this: JsValue, args: Array) -> Result<JsValue, JsValue> {
        let (method, params) = (args.get(0), args.get(1));
        let thread_id = read_id(&field(&params, "threadId"), "threadId").unwrap_or_default();
        if method == JsValue::from_str("turn/start") {
            let message_id = read_id(&field(&params, "clientUserMessageId"), "clientUserMessageId").unwrap_or_default();
            let route = self.routes.borrow().get(&(thread_id.clone(), message_id)).map(|r| (r.expected_turn_id.clone(), r.sent.clone()));
            if let Some((expected_turn_id, sent)) = route {
                return Ok(self.rewrite_start(params, args.get(2), expected_turn_id, sent).into());
            }
        }
        if method == JsValue::from_str("turn/steer") {
            let tag = self.active_tags.borrow().get(&thread_id).copied();
            if let Some(tag) = tag {
                if let Ok(tagged) = copy_with(&params, "codexhostSteerDelivery", &tag.into()) {
                    if !tagged.is_undefined() {
                        args.set(1, tagged);
                    }
                }
            }
        }
        call(&self.original_send, &this, &args)
    }

    /// The `turn/start` of a newTurn presentation goes out as a tagged
    /// `turn/steer`; its `{ turnId }` answer comes back as `{ turn }`.
    fn rewrite_start(self: Rc<Self>, params: JsValue, options: JsValue, expected_turn_id: String, sent: Rc<Cell<bool>>) -> Promise {
        future_to_promise(async move {
            let input = field(&params, "input");
            if self.disposed.get() {
                return Err(reject(Failure::Disposed, &input));
            }
            let mut steer: Vec<(&str, JsValue)> = ["threadId", "input", "clientUserMessageId", "additionalContext", "responsesapiClientMetadata"]
                .into_iter()
                .map(|key| (key, field(&params, key)))
                .filter(|(_, value)| !value.is_undefined() && !value.is_null())
                .collect();
            steer.push(("expectedTurnId", expected_turn_id.into()));
            steer.push(("codexhostSteerDelivery", "newTurn".into()));
            sent.set(true);
            let sent = self.original_send.call3(&self.manager, &"turn/steer".into(), &object(&steer), &options);
            let thrown_now = sent.is_err();
            let answer = match self.bounded(sent).await {
                Waited::Ok(answer) => answer,
                // Thrown synchronously: nothing was written.
                Waited::Error(error) if thrown_now => {
                    return Err(reject(Failure::Transport { method: "turn/steer".into(), detail: describe(&error) }, &input))
                }
                Waited::Error(error) => {
                    let failure = match rpc_error(&error) {
                        Some(error) => Failure::Host { method: "turn/steer".into(), error },
                        None => unknown("turn/steer", &describe(&error)),
                    };
                    return Err(reject(failure, &input));
                }
                Waited::Timeout => return Err(reject(unknown("turn/steer", "no answer within the steer bound"), &input)),
                Waited::Cancelled => return Err(reject(unknown("turn/steer", "disposed before the answer"), &input)),
            };
            let turn_id = read_typed::<TurnIdAnswer>(&answer, MAX_ARGUMENT_UNITS, Some(&["turnId"])).map(|a| a.turn_id);
            let Some(turn_id) = turn_id.ok().filter(|t| !t.is_empty()) else {
                return Err(reject(unknown("turn/steer", "the answer has no turnId"), &input));
            };
            Ok(to_js(&json!({ "turn": { "id": turn_id, "status": "inProgress", "items": [], "error": null } })))
        })
    }
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct TurnIdAnswer {
    turn_id: String,
}

/// A plain object of this module's own making.
fn object(entries: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (key, value) in entries {
        let _ = Reflect::set(&object, &JsValue::from_str(key), value);
    }
    object.into()
}

/// A rejection this hook made itself (passed through unchanged).
fn is_steering_error(error: &JsValue) -> bool {
    error.is_object() && own_field(error, "name") == JsValue::from_str("SteeringError")
}

/// Reads `{ code, message, data? }` from a rejection through the front door.
fn rpc_error(error: &JsValue) -> Option<RpcError> {
    #[derive(serde::Deserialize)]
    struct Shape {
        code: i64,
        #[serde(default)]
        message: String,
        #[serde(default)]
        data: Option<Value>,
    }
    let shape: Shape = read_typed(error, MAX_ARGUMENT_UNITS, Some(&["code", "message", "data"])).ok()?;
    Some(RpcError { code: shape.code, message: shape.message, data: shape.data })
}

/// A short description of any thrown value (read in JS, never throws).
fn describe(error: &JsValue) -> String {
    read_typed::<String>(error, MAX_ID_UNITS, None).unwrap_or_else(|_| {
        own_field(error, "message").as_string().map(|m| m.chars().take(1000).collect()).unwrap_or_else(|| "the call failed".into())
    })
}

/// Installs the hook; returns `null` when `manager` lacks the methods, and
/// throws a clear error when the manager refuses it (frozen, a refusing Proxy).
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
    let timeouts = read_timeouts(&options)?;
    let bound_send = original_send.bind0(&manager);
    let decider = Driver::new(CodexhostEngine::new(timeouts), Transport::new(bound_send), None);
    let cancel = canceller().map_err(|_| JsError::new("cannot create the hook's canceller"))?;
    let hook = Rc::new(Hook {
        manager: manager.clone(), layer: RefCell::default(), original_steer, original_send, decider,
        active_tags: RefCell::default(), routes: RefCell::default(), disposed: Cell::new(false), cancel,
        steer_ms: timeouts.steer_ms, keep_alive: RefCell::default(),
    });
    // The wrappers own the hook: it stays installed while they exist, even if
    // the app drops the handle (only dispose() removes it).
    let owner = hook.clone();
    let steer = Closure::<dyn FnMut(JsValue, Array) -> Result<JsValue, JsValue>>::new(move |this: JsValue, args: Array| {
        owner.clone().steer_turn(this, args)
    });
    let owner = hook.clone();
    let send = Closure::<dyn FnMut(JsValue, Array) -> Result<JsValue, JsValue>>::new(move |this: JsValue, args: Array| {
        owner.clone().send_request(this, args)
    });
    let steer = steer.into_js_value();
    let send = send.into_js_value();
    let installed = install_layer(&manager, &steer, &send).map_err(|_| JsError::new("cannot install the desktop hook"))?;
    if let Some(reason) = own_field(&installed, "refused").as_string() {
        return Err(JsError::new(&reason));
    }
    *hook.layer.borrow_mut() = (own_field(&installed, "proto"), own_field(&installed, "layer"));
    hook.keep_alive.borrow_mut().extend([steer, send]);
    Ok(DesktopSteering { hook }.into())
}
