//! `installDesktopSteering(manager, options?)`: the hook for the desktop's
//! request manager (spec "Desktop integration"). Wrappers live on a private
//! prototype layer between the instance and its class prototype; the class
//! prototype and other instances stay untouched; `dispose()` restores the
//! chain exactly.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::boundary::{own_field, read_draft, read_id};
use super::driver::Driver;
use super::failure::to_js_error;
use super::ids::now_ms;
use super::options::{field, function_field, is_follower, read_timeouts};
use super::transport::Transport;
use super::types::DesktopOptions;
use crate::core::codexhost::{CodexhostEngine, CodexhostOutcome, Delivery};
use crate::core::content::steer_text;
use crate::core::sorted_map::SortedMap;
use crate::core::timeouts::MAX_TIMEOUT_MS;
use crate::core::{Failure, Json, SteeringError, Trace};

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

mod new_turn;

/// A decision's delivery as its name (what `decide` reads back).
fn delivery_name(outcome: &CodexhostOutcome) -> JsValue {
    match outcome {
        CodexhostOutcome::Decided(decision) => JsValue::from_str(decision.delivery.as_str()),
        CodexhostOutcome::Steered(_) => JsValue::UNDEFINED,
    }
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
    let draft = read_draft(input).unwrap_or_else(|_| Json::no_items());
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

    /// How the host would deliver `text`; a failure is the `SteeringError`
    /// (draft: `input` itself) the wrapped `steerTurn` rejects with. The same
    /// promise waiter every submission uses (no second waiter kind).
    async fn decide(&self, thread_id: &str, text: &str, input: &JsValue) -> Result<Delivery, JsValue> {
        let op = self.decider.with_engine(|e| e.decide(thread_id, text, now_ms())).map_err(|e| to_js_error(&e, input))?;
        let decided = JsFuture::from(self.decider.promise(op, None, delivery_name, input.clone())).await?;
        decided.as_string().as_deref().and_then(Delivery::from_name).ok_or_else(|| {
            to_js_error(&SteeringError::new(Failure::disposed(), Json::no_items(), Trace::default()), input)
        })
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
        let delivery = self.decide(&thread_id, &text, &input).await?;
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
            Waited::Timeout => Err(reject(Failure::outcome_unknown("steerTurn", "no answer within the steer bound"), &input)),
            Waited::Cancelled => Err(reject(Failure::outcome_unknown("steerTurn", "disposed before the answer"), &input)),
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
