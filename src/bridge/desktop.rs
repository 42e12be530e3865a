//! The desktop hook's engine (`core::desktop::DesktopHook`) behind the
//! boundary. Its JavaScript (`js/desktop/`) reads the desktop's values
//! safely and hands them in as plain facts; each call answers the step to
//! take (`do` names it) and, for a refusal, the error to fail with. Every
//! rule is the core's.

use serde::{Deserialize, Serialize};

use super::follow_ups::{follow_up_id, follow_ups};
use super::input::Input;
use super::output::Output;
use crate::core::codexhost::Delivery;
use crate::core::content::steer_text;
use crate::core::desktop::{to_resume, STEER_FIELDS_OF_START};
use crate::core::desktop::{
    ActiveTurn, Admission, Answer, Decided, DesktopHook, Effect, Ended, ErrorFacts, NewTurnFacts, NewTurnStep, Outgoing, Refusal,
    SteerCall, SteerId, Verdict, WaitId,
};
use crate::core::{Failure, Json, RejectionFacts, SteeringError, Trace};

/// What the driver read of a rejection: its raw facts and error data, and
/// whether it is this package's own error.
///
/// ```
/// use renderer_steering::bridge::Rejection;
/// let r: Rejection = serde_json::from_str(r#"{"read":{"object":true,"code":1006,"words":"socket closed"}}"#).unwrap();
/// assert_eq!(r.facts().words, "socket closed");
/// assert!(r.facts().rpc.is_none(), "a close code is no answer");
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Rejection {
    /// A `SteeringError` of this package: its `kind`.
    package_kind: Option<String>,
    /// That error's `clientUserMessageId`.
    package_id: Option<String>,
    /// The rejected value's raw facts.
    read: RejectionFacts,
    /// Its error data's JSON text.
    data: Option<String>,
}

impl Rejection {
    /// The core's facts of it.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn facts(&self) -> ErrorFacts {
        let package_error = self.package_kind.as_ref().map(|kind| kind == "outcomeUnknown");
        let data = || self.data.clone().and_then(|d| Json::parse(d).ok());
        let rpc = if package_error.is_none() { self.read.rpc_error(data()) } else { None };
        ErrorFacts { package_error, message_id: self.package_id.clone(), rpc, words: self.read.words.clone() }
    }
}

/// A step as the driver reads it: `do` names it, the rest are its values.
#[derive(Serialize, Default, Debug)]
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
    /// An own steer's request whose answer is followed: what it was presented as.
    #[serde(skip_serializing_if = "Option::is_none")]
    follow: Option<Delivery>,
    /// A rewritten `turn/start`: the fields its `turn/steer` keeps.
    #[serde(skip_serializing_if = "Option::is_none")]
    keep: Option<&'static [&'static str]>,
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn step(what: &'static str) -> Step {
    Step { what, ..Default::default() }
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn out(step: Step) -> Output {
    Output::value(&step)
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn refused(step: Step, refusal: Refusal) -> Output {
    let error = SteeringError::new(refusal.failure, Json::no_items(), Trace::default()).with_message_id(refusal.message_id);
    Output { error: Some(error.to_report()), ..out(step) }
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn verdict(verdict: Verdict) -> Output {
    match verdict {
        Verdict::Resolve => out(step("resolve")),
        Verdict::Rethrow => out(step("rethrow")),
        Verdict::Fail(refusal) => refused(step("fail"), refusal),
    }
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn new_turn_step(next: NewTurnStep) -> Output {
    match next {
        NewTurnStep::Go => out(step("go")),
        NewTurnStep::Build(message_id) => out(Step { message_id: Some(message_id), ..step("build") }),
        NewTurnStep::WaitEarlier(wait, route) => out(Step { wait: Some(wait.0), steer: route.map(|r| r.0), ..step("waitEarlier") }),
        NewTurnStep::WaitDone(wait) => out(Step { wait: Some(wait.0), ..step("waitDone") }),
        NewTurnStep::Done(v) => verdict(v),
    }
}

#[cfg_attr(feature = "size-first", optimize(size))]
fn ended(how: &str, error: Option<&Rejection>) -> Ended {
    match how {
        "ok" => Ended::Ok,
        "timeout" => Ended::Timeout,
        "cancelled" => Ended::Cancelled,
        _ => Ended::Error(error.map(Rejection::facts).unwrap_or_default()),
    }
}

/// A rejection with what the driver read of it as this package's own error
/// (its `kind` and `clientUserMessageId`).
#[cfg_attr(feature = "size-first", optimize(size))]
fn packaged(error: Option<&Rejection>, kind: Option<String>, id: Option<String>) -> Rejection {
    let mut rejection = error.cloned().unwrap_or_default();
    rejection.package_kind = kind;
    rejection.package_id = id;
    rejection
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

/// The desktop hook's engine.
#[derive(Debug)]
pub(super) struct Session {
    hook: DesktopHook,
}

impl Session {
    /// A hook whose steers are bounded by `steer_ms`.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn new(steer_ms: u64, journal: Option<(String, f64)>) -> Session {
        let mut hook = DesktopHook::new(steer_ms);
        if let Some((prefix, wall_offset)) = journal {
            hook.enable_journal(prefix, wall_offset);
        }
        Session { hook }
    }

    /// One step: `call` (one fact or question of the hook), `effects` (what
    /// to carry out now, and the next deadline), `steerText` (the text a
    /// desktop steer's draft, the payload, carries if it is text only),
    /// `unpause` (which of the follow-ups read to resume: their positions).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn step(&mut self, input: Input, payload: String) -> Output {
        match input.what.as_str() {
            "call" => self.call(input),
            "unpause" => {
                let queue = follow_ups(input.follow_ups.as_deref().unwrap_or_default());
                let paused_before: Vec<_> = input.paused_before.iter().filter_map(follow_up_id).collect();
                Output::value(&to_resume(&queue, &paused_before))
            }
            "forget" => {
                self.hook.forget(input.message_id.text().unwrap_or_default());
                Output::default()
            }
            "effects" => {
                #[derive(Serialize)]
                struct Effects {
                    effects: Vec<Effect>,
                    disposed: bool,
                }
                let effects = Effects { effects: self.hook.take_effects(), disposed: self.hook.is_disposed() };
                Output { timer: self.hook.next_deadline(), ..Output::value(&effects) }
            }
            "steerText" => {
                let text = input.refused.is_none().then(|| Json::parse(payload).ok()).flatten().and_then(|draft| {
                    crate::core::content::check_array(&draft).ok()?;
                    steer_text(&draft).ok()
                });
                Output::value(&text)
            }
            other => super::unknown(other),
        }
    }

    /// The calls, by `op` [numbers] (strings):
    ///
    /// - `steer` [input, follower] (threadId, text, argument id, restoreMessage.id);
    /// - `decided` [steer, hostDeduplicates, follower] (delivery);
    /// - `followerCalled` [now, steer, threw], `followerSettled` [steer];
    /// - `ownCalled` [steer] (tag), `ownSettled` [steer], `ownEnded` [steer] (how);
    /// - `answered` [] (presented, threadId, messageId, turnId, delivery);
    /// - `newTurn` [now, steer, pendingTurnStart, toolOutput, contextIsObject,
    ///   startTurn] (active turn: running/ended/unreadable, its id, a fresh id);
    /// - `earlier` [now, steer, below], `earlierEnded` [steer] (how);
    /// - `start` [now, steer, usedUp] (and the follow-up queue read), `startCalled` [steer, threw],
    ///   `startSettled` [steer, resolved], `startEnded` [now, steer] (how);
    /// - `doneEnded` [steer] (how);
    /// - `request` [now, input] (method, threadId, messageId, expectedTurnId);
    /// - `routedThrew` [steer], `plainStartEnded` [steer, failed], `routedEnded` [steer] (how, turnId, delivery);
    /// - `wait` [now, steer?], `settled` [wait], `tick` [now], `dispose` [now];
    /// - `openRoute` [] (threadId, messageId).
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn call(&mut self, input: Input) -> Output {
        let Input { op, n, mut s, error, follow_ups: queue, .. } = input;
        s.resize(5, None);
        let mut s = s.into_iter();
        let (s0, s1, s2, s3, s4) = (s.next().flatten(), s.next().flatten(), s.next().flatten(), s.next().flatten(), s.next().flatten());
        let num = |i: usize| n.get(i).copied().flatten().unwrap_or(f64::NAN);
        let flag = |i: usize| num(i) as i32 != 0;
        let steer = |i: usize| SteerId(num(i) as u64);
        let text = |s: Option<String>| s.unwrap_or_default();
        let error = error.as_ref();
        let hook = &mut self.hook;
        let none = Output::default();
        match op.as_str() {
            "steer" => {
                let call = SteerCall { thread_id: s0, text: s1, argument_id: s2, restore_id: s3, input: ms(num(0)), follower: flag(1) };
                match hook.steer(call) {
                    Admission::Desktop => out(step("desktop")),
                    Admission::Joined(s) => out(Step { steer: Some(s.0), ..step("joined") }),
                    Admission::Busy => refused(step("busy"), Refusal::new(Failure::busy(), None)),
                    Admission::Refused(refusal) => refused(step("refused"), refusal),
                    Admission::Decide(s) => out(Step { steer: Some(s.0), ..step("decide") }),
                }
            }
            "decided" => {
                let decision = s0.map(|name| (Delivery::from_name(&name), flag(1)));
                match hook.decided(steer(0), decision, flag(2)) {
                    Decided::Follower => out(step("follower")),
                    Decided::Own(tag) => out(Step { tag, ..step("own") }),
                    Decided::NewTurn => out(step("newTurn")),
                    Decided::Done(v) => verdict(v),
                }
            }
            "followerCalled" => {
                hook.follower_called(ms(num(0)), steer(1), flag(2));
                none
            }
            "followerSettled" => {
                hook.follower_settled(steer(0));
                none
            }
            "ownCalled" => {
                hook.own_called(steer(0), delivery(s0));
                none
            }
            "ownSettled" => {
                hook.own_settled(steer(0));
                none
            }
            "ownEnded" => verdict(hook.own_ended(steer(0), ended(&text(s0), Some(&packaged(error, s1, s2))))),
            "answered" => {
                if let Some(presented) = Delivery::from_name(&text(s0)) {
                    let answer = Answer { turn_id: s3, delivery: delivery(s4) };
                    hook.answered(presented, &text(s1), s2.as_deref(), answer);
                }
                none
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
                new_turn_step(hook.new_turn(ms(num(0)), steer(1), facts))
            }
            "earlier" => new_turn_step(hook.earlier(ms(num(0)), steer(1), flag(2))),
            "earlierEnded" => new_turn_step(hook.earlier_ended(steer(0), ended(&text(s0), None))),
            "start" => {
                let queue = queue.as_deref().map(follow_ups);
                new_turn_step(hook.start(ms(num(0)), steer(1), flag(2), queue.as_deref()))
            }
            "startCalled" => {
                hook.start_called(steer(0), flag(1));
                none
            }
            "startSettled" => {
                hook.start_settled(steer(0), flag(1));
                none
            }
            "startEnded" => new_turn_step(hook.start_ended(ms(num(0)), steer(1), ended(&text(s0), Some(&packaged(error, s1, s2))))),
            "doneEnded" => verdict(hook.done_ended(steer(0), ended(&text(s0), None))),
            "request" => match hook.request_into(ms(num(0)), s0.as_deref().unwrap_or_default(), &text(s1), s2.as_deref(), s3, ms(num(1))) {
                Outgoing::Pass => out(step("pass")),
                own @ Outgoing::Own(s, tag) => {
                    let follow = own.answer_followed(s0.as_deref().unwrap_or_default());
                    out(Step { steer: Some(s.0), tag, follow, ..step("own") })
                }
                Outgoing::Refused(refusal) => refused(step("refused"), refusal),
                Outgoing::PlainStart(s) => out(Step { steer: Some(s.0), ..step("plainStart") }),
                Outgoing::Steer { route, rewrite, expected_turn_id } => {
                    let (keep, tag) = if rewrite { (Some(&STEER_FIELDS_OF_START[..]), Some(Delivery::NewTurn)) } else { (None, None) };
                    out(Step { steer: Some(route.0), rewrite, expected_turn_id, keep, tag, ..step("steer") })
                }
            },
            "routedThrew" => {
                let facts = error.map(Rejection::facts).unwrap_or_default();
                refused(step("fail"), hook.routed_threw(steer(0), &facts))
            }
            "plainStartEnded" => {
                let facts = flag(1).then(|| error.map(Rejection::facts).unwrap_or_default());
                hook.plain_start_ended(steer(0), facts.as_ref());
                none
            }
            "routedEnded" => {
                let how = text(s0);
                let answer = (how == "ok").then(|| Answer { turn_id: s1, delivery: delivery(s2) });
                verdict(hook.routed_ended(steer(0), ended(&how, error), answer))
            }
            "wait" => {
                let of = (!num(1).is_nan()).then(|| steer(1));
                Output::value(&hook.wait(ms(num(0)), of).0)
            }
            "settled" => Output::value(&hook.settled(WaitId(num(0) as u64))),
            "tick" => {
                hook.tick(ms(num(0)));
                none
            }
            "dispose" => {
                hook.dispose(ms(num(0)));
                none
            }
            "openRoute" => Output::value(&hook.open_route(&text(s0), &text(s1)).map(|s| s.0)),
            _ => none,
        }
    }
}
