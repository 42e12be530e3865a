//! The desktop hook's core (`core::desktop::DesktopHook`) for its
//! JavaScript driver (`js/desktop*.js`): facts in as plain values the driver
//! read safely, steps out as plain objects (`[step, error]`: the step, and
//! the `SteeringError` it fails with, its `draft` the driver's own array by
//! identity), effects and the next deadline from `effects()`. The driver
//! calls the desktop, waits and keeps the one timer; every rule is the core's.

use js_sys::Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::convert::to_js;
use super::desktop::{describe, rpc_error};
use super::failure::to_js_error;
use crate::core::codexhost::Delivery;
use crate::core::desktop::{
    ActiveTurn, Admission, Answer, Decided, DesktopHook, Effect, Ended, ErrorFacts, NewTurnFacts, NewTurnStep, Outgoing, Refusal,
    SteerCall, SteerId, Verdict, WaitId,
};
use crate::core::{Json, SteeringError, Trace};

/// A step as the driver reads it: `do` names it, the rest are its values.
#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct Step {
    #[serde(rename = "do")]
    what: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    steer: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wait: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    tag: Option<Delivery>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected_turn_id: Option<String>,
    rewrite: bool,
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn step(what: &'static str) -> Step {
    Step { what, ..Default::default() }
}

/// `[step, error]` for the driver.
#[cfg_attr(feature = "size-first", optimize(size))]
fn out(step: Step, error: JsValue) -> Array {
    Array::of2(&to_js(&step), &error)
}

/// The `SteeringError` of a refusal, its draft `draft` by identity.
#[cfg_attr(feature = "size-first", optimize(size))]
fn failure(refusal: Refusal, draft: &JsValue) -> JsValue {
    let error = SteeringError::new(refusal.failure, Json::no_items(), Trace::default()).with_message_id(refusal.message_id);
    to_js_error(&error, draft)
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn verdict(verdict: Verdict, draft: &JsValue) -> Array {
    match verdict {
        Verdict::Resolve => out(step("resolve"), JsValue::UNDEFINED),
        Verdict::Rethrow => out(step("rethrow"), JsValue::UNDEFINED),
        Verdict::Fail(refusal) => out(step("fail"), failure(refusal, draft)),
    }
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn new_turn_step(next: NewTurnStep, draft: &JsValue) -> Array {
    match next {
        NewTurnStep::Go => out(step("go"), JsValue::UNDEFINED),
        NewTurnStep::Build(message_id) => out(Step { message_id: Some(message_id), ..step("build") }, JsValue::UNDEFINED),
        NewTurnStep::WaitEarlier(wait, route) => {
            out(Step { wait: Some(wait.0), steer: route.map(|r| r.0), ..step("waitEarlier") }, JsValue::UNDEFINED)
        }
        NewTurnStep::WaitDone(wait) => out(Step { wait: Some(wait.0), ..step("waitDone") }, JsValue::UNDEFINED),
        NewTurnStep::Done(v) => verdict(v, draft),
    }
}

/// How a wait ended (`how`: ok, error, timeout, cancelled), with what the
/// driver read of a rejection (`package_kind`, `package_id`: a
/// `SteeringError`'s `kind` and `clientUserMessageId`).
#[cfg_attr(feature = "size-first", optimize(size))]
fn ended(how: &str, error: &JsValue, package_kind: Option<String>, package_id: Option<String>) -> Ended {
    match how {
        "ok" => Ended::Ok,
        "timeout" => Ended::Timeout,
        "cancelled" => Ended::Cancelled,
        _ => Ended::Error(facts(error, package_kind, package_id)),
    }
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn facts(error: &JsValue, package_kind: Option<String>, package_id: Option<String>) -> ErrorFacts {
    let package_error = package_kind.map(|kind| kind == "outcomeUnknown");
    let rpc = if package_error.is_some() { None } else { rpc_error(error) };
    ErrorFacts { package_error, message_id: package_id, rpc, words: describe(error) }
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn ms(now: f64) -> u64 {
    if now.is_finite() && now > 0.0 {
        now as u64
    } else {
        0
    }
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn delivery(name: Option<String>) -> Option<Delivery> {
    name.as_deref().and_then(Delivery::from_name)
}

/// The desktop hook's state machine, driven by `js/desktop.js`.
///
/// ```js
/// const core = new api.__DesktopCore(30000);
/// const [step] = core.steer("t", "use pnpm", "m-1", undefined, 1, false, input);
/// ```
#[wasm_bindgen(js_name = __DesktopCore, skip_typescript)]
#[derive(Debug)]
pub struct DesktopCore {
    hook: DesktopHook,
}

#[wasm_bindgen(js_class = __DesktopCore)]
impl DesktopCore {
    /// A hook whose steers are bounded by `steer_ms`.
    #[wasm_bindgen(constructor)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn new(steer_ms: f64) -> DesktopCore {
        DesktopCore { hook: DesktopHook::new(ms(steer_ms)) }
    }

    /// `steerTurn` called: `desktop`, `joined` (`steer`), `busy`/`refused`
    /// (with the error), or `decide` (`steer`).
    #[allow(clippy::too_many_arguments, reason = "the facts of one call, each a plain value")]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn steer(
        &mut self,
        thread_id: Option<String>,
        text: Option<String>,
        argument_id: Option<String>,
        restore_id: Option<String>,
        input: f64,
        follower: bool,
        draft: JsValue,
    ) -> Array {
        let call = SteerCall { thread_id, text, argument_id, restore_id, input: ms(input), follower };
        match self.hook.steer(call) {
            Admission::Desktop => out(step("desktop"), JsValue::UNDEFINED),
            Admission::Joined(s) => out(Step { steer: Some(s.0), ..step("joined") }, JsValue::UNDEFINED),
            Admission::Busy => out(step("busy"), failure(Refusal::new(crate::core::Failure::busy(), None), &draft)),
            Admission::Refused(refusal) => out(step("refused"), failure(refusal, &draft)),
            Admission::Decide(s) => out(Step { steer: Some(s.0), ..step("decide") }, JsValue::UNDEFINED),
        }
    }

    /// The engine decided (`delivery` undefined: `decide` failed; a name
    /// the hook does not know: refused closed).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn decided(&mut self, steer: f64, delivery_name: Option<String>, host_deduplicates: bool, follower: bool, draft: JsValue) -> Array {
        let decision = delivery_name.map(|name| (Delivery::from_name(&name), host_deduplicates));
        match self.hook.decided(SteerId(steer as u64), decision, follower) {
            Decided::Follower => out(step("follower"), JsValue::UNDEFINED),
            Decided::Own(tag) => out(Step { tag, ..step("own") }, JsValue::UNDEFINED),
            Decided::NewTurn => out(step("newTurn"), JsValue::UNDEFINED),
            Decided::Done(v) => verdict(v, &draft),
        }
    }

    /// A follower's own steer was called (`threw`: it threw).
    #[wasm_bindgen(js_name = followerCalled)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn follower_called(&mut self, now: f64, steer: f64, threw: bool) {
        self.hook.follower_called(ms(now), SteerId(steer as u64), threw);
    }

    /// A follower's own steer settled.
    #[wasm_bindgen(js_name = followerSettled)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn follower_settled(&mut self, steer: f64) {
        self.hook.follower_settled(SteerId(steer as u64));
    }

    /// The desktop's own `steerTurn` is called for an official (`tag`
    /// undefined) or activeTurn steer.
    #[wasm_bindgen(js_name = ownCalled)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn own_called(&mut self, steer: f64, tag: Option<String>) {
        self.hook.own_called(SteerId(steer as u64), delivery(tag));
    }

    /// The desktop's own `steerTurn` settled.
    #[wasm_bindgen(js_name = ownSettled)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn own_settled(&mut self, steer: f64) {
        self.hook.own_settled(SteerId(steer as u64));
    }

    /// How the desktop's own `steerTurn` ended: `resolve`, `rethrow` or `fail`.
    #[wasm_bindgen(js_name = ownEnded)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn own_ended(
        &mut self,
        steer: f64,
        how: &str,
        error: JsValue,
        package_kind: Option<String>,
        package_id: Option<String>,
        draft: JsValue,
    ) -> Array {
        verdict(self.hook.own_ended(SteerId(steer as u64), ended(how, &error, package_kind, package_id)), &draft)
    }

    /// The host answered a message presented as `presented` (`turnId`, `delivery` read from the answer).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn answered(
        &mut self,
        presented: &str,
        thread_id: &str,
        message_id: Option<String>,
        turn_id: Option<String>,
        delivered: Option<String>,
    ) {
        let Some(presented) = Delivery::from_name(presented) else { return };
        let answer = Answer { turn_id, delivery: delivery(delivered) };
        self.hook.answered(presented, thread_id, message_id.as_deref(), answer);
    }

    /// The newTurn path begins: `build` (`messageId`) or the steer's end.
    #[wasm_bindgen(js_name = newTurn)]
    #[allow(clippy::too_many_arguments, reason = "the facts of one call, each a plain value")]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn new_turn(
        &mut self,
        now: f64,
        steer: f64,
        pending_turn_start: bool,
        active_turn: &str,
        active_id: Option<String>,
        tool_output: bool,
        context_is_object: bool,
        start_turn: bool,
        fresh_id: String,
        draft: JsValue,
    ) -> Array {
        let active_turn = match (active_turn, active_id) {
            ("running", Some(id)) => ActiveTurn::Running(id),
            ("ended", _) => ActiveTurn::Ended,
            _ => ActiveTurn::Unreadable,
        };
        let facts = NewTurnFacts { pending_turn_start, active_turn, tool_output, context_is_object, start_turn, fresh_id };
        new_turn_step(self.hook.new_turn(ms(now), SteerId(steer as u64), facts), &draft)
    }

    /// An earlier attempt's route: `go`, `waitEarlier` or the steer's end.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn earlier(&mut self, now: f64, steer: f64, below: bool, draft: JsValue) -> Array {
        new_turn_step(self.hook.earlier(ms(now), SteerId(steer as u64), below), &draft)
    }

    /// How the wait for an earlier attempt's route ended.
    #[wasm_bindgen(js_name = earlierEnded)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn earlier_ended(&mut self, steer: f64, how: &str, draft: JsValue) -> Array {
        new_turn_step(self.hook.earlier_ended(SteerId(steer as u64), ended(how, &JsValue::UNDEFINED, None, None)), &draft)
    }

    /// Before `startTurn` (`used_up`: reading the follow-ups used up the bound).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn start(&mut self, now: f64, steer: f64, used_up: bool, draft: JsValue) -> Array {
        new_turn_step(self.hook.start(ms(now), SteerId(steer as u64), used_up), &draft)
    }

    /// `startTurn` returned (`threw`: it threw).
    #[wasm_bindgen(js_name = startCalled)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn start_called(&mut self, steer: f64, threw: bool) {
        self.hook.start_called(SteerId(steer as u64), threw);
    }

    /// `startTurn` settled.
    #[wasm_bindgen(js_name = startSettled)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn start_settled(&mut self, steer: f64, resolved: bool) {
        self.hook.start_settled(SteerId(steer as u64), resolved);
    }

    /// How the wait on `startTurn` ended: `waitDone` or the steer's end.
    #[wasm_bindgen(js_name = startEnded)]
    #[allow(clippy::too_many_arguments, reason = "the facts of one call, each a plain value")]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn start_ended(
        &mut self,
        now: f64,
        steer: f64,
        how: &str,
        error: JsValue,
        package_kind: Option<String>,
        package_id: Option<String>,
        draft: JsValue,
    ) -> Array {
        new_turn_step(self.hook.start_ended(ms(now), SteerId(steer as u64), ended(how, &error, package_kind, package_id)), &draft)
    }

    /// How the wait for the route's one request ended.
    #[wasm_bindgen(js_name = doneEnded)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn done_ended(&mut self, steer: f64, how: &str, draft: JsValue) -> Array {
        verdict(self.hook.done_ended(SteerId(steer as u64), ended(how, &JsValue::UNDEFINED, None, None)), &draft)
    }

    /// `sendRequest` called: `pass`, `own` (`steer`, `tag`), `refused` (with
    /// the error), `plainStart` (`steer`) or `steer` (`steer`, `rewrite`, `expectedTurnId`).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn request(&mut self, now: f64, method: &str, thread_id: &str, message_id: Option<String>, input: f64, draft: JsValue) -> Array {
        match self.hook.request(ms(now), method, thread_id, message_id.as_deref(), ms(input)) {
            Outgoing::Pass => out(step("pass"), JsValue::UNDEFINED),
            Outgoing::Own(s, tag) => out(Step { steer: Some(s.0), tag, ..step("own") }, JsValue::UNDEFINED),
            Outgoing::Refused(refusal) => out(step("refused"), failure(refusal, &draft)),
            Outgoing::PlainStart(s) => out(Step { steer: Some(s.0), ..step("plainStart") }, JsValue::UNDEFINED),
            Outgoing::Steer { route, rewrite, expected_turn_id } => {
                out(Step { steer: Some(route.0), rewrite, expected_turn_id, ..step("steer") }, JsValue::UNDEFINED)
            }
        }
    }

    /// The route's request threw when called: the error its `turn/steer` fails with.
    #[wasm_bindgen(js_name = routedThrew)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn routed_threw(&mut self, steer: f64, error: JsValue, draft: JsValue) -> JsValue {
        failure(self.hook.routed_threw(SteerId(steer as u64), &facts(&error, None, None)), &draft)
    }

    /// The route's plain `turn/start` was answered (`failed`: with `error`).
    #[wasm_bindgen(js_name = plainStartEnded)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn plain_start_ended(&mut self, steer: f64, failed: bool, error: JsValue) {
        let facts = failed.then(|| facts(&error, None, None));
        self.hook.plain_start_ended(SteerId(steer as u64), facts.as_ref());
    }

    /// How the route's `turn/steer` ended (`turnId`, `delivery` read from its answer).
    #[wasm_bindgen(js_name = routedEnded)]
    #[allow(clippy::too_many_arguments, reason = "the facts of one call, each a plain value")]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn routed_ended(
        &mut self,
        steer: f64,
        how: &str,
        error: JsValue,
        turn_id: Option<String>,
        delivered: Option<String>,
        draft: JsValue,
    ) -> Array {
        let answer = (how == "ok").then(|| Answer { turn_id, delivery: delivery(delivered) });
        verdict(self.hook.routed_ended(SteerId(steer as u64), ended(how, &error, None, None), answer), &draft)
    }

    /// Opens a wait (the steer's newTurn deadline, else one steer bound).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn wait(&mut self, now: f64, steer: Option<f64>) -> f64 {
        self.hook.wait(ms(now), steer.map(|s| SteerId(s as u64))).0 as f64
    }

    /// The waited-for call settled: true when its outcome counts.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn settled(&mut self, wait: f64) -> bool {
        self.hook.settled(WaitId(wait as u64))
    }

    /// The driver's timer fired.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn tick(&mut self, now: f64) {
        self.hook.tick(ms(now));
    }

    /// Dispose.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn dispose(&mut self, now: f64) {
        self.hook.dispose(ms(now));
    }

    /// True once disposed.
    #[wasm_bindgen(getter)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn disposed(&self) -> bool {
        self.hook.is_disposed()
    }

    /// The route of this message while it is open (a later hook waits for it).
    #[wasm_bindgen(js_name = openRoute)]
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn open_route(&self, thread_id: &str, message_id: &str) -> Option<f64> {
        self.hook.open_route(thread_id, message_id).map(|s| s.0 as f64)
    }

    /// `{ effects, next }`: what to carry out now, and the next deadline (or null).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn effects(&mut self) -> JsValue {
        #[derive(Serialize)]
        struct Effects {
            effects: Vec<Effect>,
            next: Option<u64>,
        }
        to_js(&Effects { effects: self.hook.take_effects(), next: self.hook.next_deadline() })
    }
}
