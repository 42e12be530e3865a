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

/// The desktop hook's state machine, driven by `js/desktop.js`. Every
/// fact comes in through one entry, `call(op, numbers, draft, error,
/// ...strings)`: one export and one glue function instead of one per step
/// (each costs its own argument passing in the wasm and in the glue).
///
/// ```js
/// const core = new api.__DesktopCore(30000);
/// const [step] = core.call("steer", [1, false], input, undefined, "t", "use pnpm", "m-1");
/// ```
#[wasm_bindgen(js_name = __DesktopCore, skip_typescript)]
#[derive(Debug)]
pub struct DesktopCore {
    hook: DesktopHook,
}

#[wasm_bindgen(js_class = __DesktopCore)]
impl DesktopCore {
    /// A hook whose steers are bounded by `steer_ms`.
    #[cfg_attr(feature = "size-first", optimize(size))]
    #[wasm_bindgen(constructor)]
    pub fn new(steer_ms: f64) -> DesktopCore {
        DesktopCore { hook: DesktopHook::new(ms(steer_ms)) }
    }

    /// One step of the driver: `op` names it, `n` holds its numbers (times,
    /// steers, waits, input identities, and its flags as 0 or 1), `s0`..`s4`
    /// its strings, in the order each op lists them:
    ///
    /// - `steer` [input, follower] (threadId, text, argument id, restoreMessage.id):
    ///   `desktop`, `joined` (`steer`), `busy`/`refused` (with the error), `decide` (`steer`);
    /// - `decided` [steer, hostDeduplicates, follower] (delivery; undefined:
    ///   `decide` failed, a name the hook does not know: refused closed):
    ///   `follower`, `own` (`tag`), `newTurn` or the steer's end;
    /// - `followerCalled` [now, steer, threw], `followerSettled` [steer];
    /// - `ownCalled` [steer] (tag; undefined: official), `ownSettled` [steer];
    /// - `ownEnded` [steer] (how, package kind, package id): `resolve`, `rethrow` or `fail`;
    /// - `answered` [] (presented, threadId, messageId, turnId, delivery);
    /// - `newTurn` [now, steer, pendingTurnStart, toolOutput, contextIsObject,
    ///   startTurn] (active turn: running/ended/unreadable, its id, a fresh id):
    ///   `build` (`messageId`) or the steer's end;
    /// - `earlier` [now, steer, below]: `go`, `waitEarlier` or the steer's end;
    /// - `earlierEnded` [steer] (how);
    /// - `start` [now, steer, usedUp], `startCalled` [steer, threw],
    ///   `startSettled` [steer, resolved];
    /// - `startEnded` [now, steer] (how, package kind, package id): `waitDone` or the steer's end;
    /// - `doneEnded` [steer] (how);
    /// - `request` [now, input] (method, threadId, messageId): `pass`, `own`
    ///   (`steer`, `tag`), `refused` (with the error), `plainStart` (`steer`)
    ///   or `steer` (`steer`, `rewrite`, `expectedTurnId`);
    /// - `routedThrew` [steer]: the error the route's `turn/steer` fails with;
    /// - `plainStartEnded` [steer, failed];
    /// - `routedEnded` [steer] (how, turnId, delivery);
    /// - `wait` [now, steer?]: a wait id (the steer's newTurn deadline, else one steer bound);
    /// - `settled` [wait]: true when the waited-for outcome counts;
    /// - `tick` [now], `dispose` [now];
    /// - `openRoute` [] (threadId, messageId): the route while it is open.
    ///
    /// `how` is how a wait ended: ok, error (`error` the rejection),
    /// timeout or cancelled. Steps come as `[step, error]`, the error's
    /// `draft` the driver's own `draft` by identity.
    #[cfg_attr(feature = "size-first", optimize(size))]
    #[allow(clippy::too_many_arguments, reason = "the facts of one step, each a plain value")]
    pub fn call(
        &mut self,
        op: &str,
        n: &[f64],
        draft: JsValue,
        error: JsValue,
        s0: Option<String>,
        s1: Option<String>,
        s2: Option<String>,
        s3: Option<String>,
        s4: Option<String>,
    ) -> JsValue {
        let num = |i: usize| n.get(i).copied().unwrap_or(f64::NAN);
        let flag = |i: usize| num(i) as i32 != 0;
        let steer = |i: usize| SteerId(num(i) as u64);
        let text = |s: Option<String>| s.unwrap_or_default();
        let hook = &mut self.hook;
        let stepped: Array = match op {
            "steer" => {
                let call = SteerCall { thread_id: s0, text: s1, argument_id: s2, restore_id: s3, input: ms(num(0)), follower: flag(1) };
                match hook.steer(call) {
                    Admission::Desktop => out(step("desktop"), JsValue::UNDEFINED),
                    Admission::Joined(s) => out(Step { steer: Some(s.0), ..step("joined") }, JsValue::UNDEFINED),
                    Admission::Busy => out(step("busy"), failure(Refusal::new(crate::core::Failure::busy(), None), &draft)),
                    Admission::Refused(refusal) => out(step("refused"), failure(refusal, &draft)),
                    Admission::Decide(s) => out(Step { steer: Some(s.0), ..step("decide") }, JsValue::UNDEFINED),
                }
            }
            "decided" => {
                let decision = s0.map(|name| (Delivery::from_name(&name), flag(1)));
                match hook.decided(steer(0), decision, flag(2)) {
                    Decided::Follower => out(step("follower"), JsValue::UNDEFINED),
                    Decided::Own(tag) => out(Step { tag, ..step("own") }, JsValue::UNDEFINED),
                    Decided::NewTurn => out(step("newTurn"), JsValue::UNDEFINED),
                    Decided::Done(v) => verdict(v, &draft),
                }
            }
            "followerCalled" => {
                hook.follower_called(ms(num(0)), steer(1), flag(2));
                return JsValue::UNDEFINED;
            }
            "followerSettled" => {
                hook.follower_settled(steer(0));
                return JsValue::UNDEFINED;
            }
            "ownCalled" => {
                hook.own_called(steer(0), delivery(s0));
                return JsValue::UNDEFINED;
            }
            "ownSettled" => {
                hook.own_settled(steer(0));
                return JsValue::UNDEFINED;
            }
            "ownEnded" => verdict(hook.own_ended(steer(0), ended(&text(s0), &error, s1, s2)), &draft),
            "answered" => {
                if let Some(presented) = Delivery::from_name(&text(s0)) {
                    let answer = Answer { turn_id: s3, delivery: delivery(s4) };
                    hook.answered(presented, &text(s1), s2.as_deref(), answer);
                }
                return JsValue::UNDEFINED;
            }
            "newTurn" => {
                let active_turn = match (text(s0).as_str(), s1) {
                    ("running", Some(id)) => ActiveTurn::Running(id),
                    ("ended", _) => ActiveTurn::Ended,
                    _ => ActiveTurn::Unreadable,
                };
                let facts = NewTurnFacts {
                    pending_turn_start: flag(2),
                    active_turn,
                    tool_output: flag(3),
                    context_is_object: flag(4),
                    start_turn: flag(5),
                    fresh_id: text(s2),
                };
                new_turn_step(hook.new_turn(ms(num(0)), steer(1), facts), &draft)
            }
            "earlier" => new_turn_step(hook.earlier(ms(num(0)), steer(1), flag(2)), &draft),
            "earlierEnded" => new_turn_step(hook.earlier_ended(steer(0), ended(&text(s0), &JsValue::UNDEFINED, None, None)), &draft),
            "start" => new_turn_step(hook.start(ms(num(0)), steer(1), flag(2)), &draft),
            "startCalled" => {
                hook.start_called(steer(0), flag(1));
                return JsValue::UNDEFINED;
            }
            "startSettled" => {
                hook.start_settled(steer(0), flag(1));
                return JsValue::UNDEFINED;
            }
            "startEnded" => new_turn_step(hook.start_ended(ms(num(0)), steer(1), ended(&text(s0), &error, s1, s2)), &draft),
            "doneEnded" => verdict(hook.done_ended(steer(0), ended(&text(s0), &JsValue::UNDEFINED, None, None)), &draft),
            "request" => match hook.request(ms(num(0)), &text(s0), &text(s1), s2.as_deref(), ms(num(1))) {
                Outgoing::Pass => out(step("pass"), JsValue::UNDEFINED),
                Outgoing::Own(s, tag) => out(Step { steer: Some(s.0), tag, ..step("own") }, JsValue::UNDEFINED),
                Outgoing::Refused(refusal) => out(step("refused"), failure(refusal, &draft)),
                Outgoing::PlainStart(s) => out(Step { steer: Some(s.0), ..step("plainStart") }, JsValue::UNDEFINED),
                Outgoing::Steer { route, rewrite, expected_turn_id } => {
                    out(Step { steer: Some(route.0), rewrite, expected_turn_id, ..step("steer") }, JsValue::UNDEFINED)
                }
            },
            "routedThrew" => return failure(hook.routed_threw(steer(0), &facts(&error, None, None)), &draft),
            "plainStartEnded" => {
                let facts = flag(1).then(|| facts(&error, None, None));
                hook.plain_start_ended(steer(0), facts.as_ref());
                return JsValue::UNDEFINED;
            }
            "routedEnded" => {
                let how = text(s0);
                let answer = (how == "ok").then(|| Answer { turn_id: s1, delivery: delivery(s2) });
                verdict(hook.routed_ended(steer(0), ended(&how, &error, None, None), answer), &draft)
            }
            "wait" => {
                let of = (!num(1).is_nan()).then(|| steer(1));
                return JsValue::from_f64(hook.wait(ms(num(0)), of).0 as f64);
            }
            "settled" => return JsValue::from_bool(hook.settled(WaitId(num(0) as u64))),
            "tick" => {
                hook.tick(ms(num(0)));
                return JsValue::UNDEFINED;
            }
            "dispose" => {
                hook.dispose(ms(num(0)));
                return JsValue::UNDEFINED;
            }
            "openRoute" => {
                return hook.open_route(&text(s0), &text(s1)).map_or(JsValue::UNDEFINED, |s| JsValue::from_f64(s.0 as f64));
            }
            _ => return JsValue::UNDEFINED,
        };
        stepped.into()
    }

    /// True once disposed.
    #[cfg_attr(feature = "size-first", optimize(size))]
    #[wasm_bindgen(getter)]
    pub fn disposed(&self) -> bool {
        self.hook.is_disposed()
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
