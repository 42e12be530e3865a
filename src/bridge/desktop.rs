//! The desktop hook's engine (`core::desktop::DesktopHook`) behind the
//! boundary. Its JavaScript (`js/desktop/`) reads the desktop's values
//! safely and hands them in as plain facts; each call answers the step to
//! take (`do` names it) and, for a refusal, the error to fail with. Every
//! rule is the core's.

use serde::{Deserialize, Serialize};

use super::desktop_call::{DesktopCall, DesktopOp, Waited};
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

    /// The same rejection, not read as this package's own error.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn without_package(self) -> Rejection {
        Rejection { package_kind: None, package_id: None, ..self }
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
fn ended(how: Waited, error: Option<&Rejection>) -> Ended {
    match how {
        Waited::Ok => Ended::Ok,
        Waited::Timeout => Ended::Timeout,
        Waited::Cancelled => Ended::Cancelled,
        Waited::Error => Ended::Error(error.map(Rejection::facts).unwrap_or_default()),
    }
}

/// What the desktop's own `sendRequest` failed with: never this package's error.
#[cfg_attr(feature = "size-first", optimize(size))]
fn desktop_facts(error: Option<Rejection>) -> ErrorFacts {
    error.map(Rejection::without_package).map(|r| r.facts()).unwrap_or_default()
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
            #[cfg(feature = "desktop")]
            "call" => match input.call {
                Some(call) => self.call(call),
                None => super::unknown("call"),
            },
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

    /// One call of the hook ([`DesktopCall`]): a fact or a question; the
    /// answer is the step to take, a value, or nothing.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn call(&mut self, call: DesktopCall) -> Output {
        let hook = &mut self.hook;
        let none = Output::default();
        let now = call.now();
        let steer = SteerId(call.steer.unwrap_or_default());
        let how = call.how.unwrap_or(Waited::Error);
        match call.op {
            DesktopOp::Steer => {
                let DesktopCall { thread_id, text, argument_id, restore_id, input, follower, .. } = call;
                match hook.steer(SteerCall { thread_id, text, argument_id, restore_id, input, follower }) {
                    Admission::Desktop => out(step("desktop")),
                    Admission::Joined(s) => out(Step { steer: Some(s.0), ..step("joined") }),
                    Admission::Busy => refused(step("busy"), Refusal::new(Failure::busy(), None)),
                    Admission::Refused(refusal) => refused(step("refused"), refusal),
                    Admission::Decide(s) => out(Step { steer: Some(s.0), ..step("decide") }),
                }
            }
            DesktopOp::Decided => {
                let decision = call.delivery.map(|name| (Delivery::from_name(&name), call.host_deduplicates));
                match hook.decided(steer, decision, call.follower) {
                    Decided::Follower => out(step("follower")),
                    Decided::Own(tag) => out(Step { tag, ..step("own") }),
                    Decided::NewTurn => out(step("newTurn")),
                    Decided::Done(v) => verdict(v),
                }
            }
            DesktopOp::FollowerCalled => {
                hook.follower_called(now, steer, call.threw);
                none
            }
            DesktopOp::FollowerSettled => {
                hook.follower_settled(steer);
                none
            }
            DesktopOp::OwnCalled => {
                hook.own_called(steer, delivery(call.tag));
                none
            }
            DesktopOp::OwnSettled => {
                hook.own_settled(steer);
                none
            }
            DesktopOp::OwnEnded => verdict(hook.own_ended(steer, ended(how, call.error.as_ref()))),
            DesktopOp::Answered => {
                if let Some(presented) = Delivery::from_name(&call.presented) {
                    let answer = Answer { turn_id: call.turn_id, delivery: delivery(call.delivery) };
                    hook.answered(presented, call.thread_id.as_deref().unwrap_or_default(), call.message_id.as_deref(), answer);
                }
                none
            }
            DesktopOp::NewTurn => {
                let active_turn = match (call.active_turn.as_str(), call.turn_id) {
                    ("running", Some(id)) => ActiveTurn::Running(id),
                    ("ended", _) => ActiveTurn::Ended,
                    _ => ActiveTurn::Unreadable,
                };
                let facts = NewTurnFacts {
                    pending_turn_start: call.pending_turn_start,
                    active_turn,
                    tool_output: call.tool_output,
                    context_is_object: call.context_is_object,
                    start_turn: call.start_turn,
                    fresh_id: call.fresh_id,
                };
                new_turn_step(hook.new_turn(now, steer, facts))
            }
            DesktopOp::Earlier => new_turn_step(hook.earlier(now, steer, call.below)),
            DesktopOp::EarlierEnded => new_turn_step(hook.earlier_ended(steer, ended(how, None))),
            DesktopOp::Start => {
                let queue = call.follow_ups.as_deref().map(follow_ups);
                new_turn_step(hook.start(now, steer, call.used_up, queue.as_deref()))
            }
            DesktopOp::StartCalled => {
                hook.start_called(steer, call.threw);
                none
            }
            DesktopOp::StartSettled => {
                hook.start_settled(steer, call.resolved);
                none
            }
            DesktopOp::StartEnded => new_turn_step(hook.start_ended(now, steer, ended(how, call.error.as_ref()))),
            DesktopOp::DoneEnded => verdict(hook.done_ended(steer, ended(how, None))),
            DesktopOp::Request => {
                let (method, thread_id) = (call.method.as_str(), call.thread_id.as_deref().unwrap_or_default());
                match hook.request_into(now, method, thread_id, call.message_id.as_deref(), call.expected_turn_id, call.input) {
                    Outgoing::Pass => out(step("pass")),
                    own @ Outgoing::Own(s, tag) => out(Step { steer: Some(s.0), tag, follow: own.answer_followed(method), ..step("own") }),
                    Outgoing::Refused(refusal) => refused(step("refused"), refusal),
                    Outgoing::PlainStart(s) => out(Step { steer: Some(s.0), ..step("plainStart") }),
                    Outgoing::Steer { route, rewrite, expected_turn_id } => {
                        let (keep, tag) = if rewrite { (Some(&STEER_FIELDS_OF_START[..]), Some(Delivery::NewTurn)) } else { (None, None) };
                        out(Step { steer: Some(route.0), rewrite, expected_turn_id, keep, tag, ..step("steer") })
                    }
                }
            }
            DesktopOp::RoutedThrew => refused(step("fail"), hook.routed_threw(steer, &desktop_facts(call.error))),
            DesktopOp::PlainStartEnded => {
                let facts = call.failed.then(|| desktop_facts(call.error));
                hook.plain_start_ended(steer, facts.as_ref());
                none
            }
            DesktopOp::RoutedEnded => {
                let answer = (how == Waited::Ok).then(|| Answer { turn_id: call.turn_id, delivery: delivery(call.delivery) });
                let error = call.error.map(Rejection::without_package);
                verdict(hook.routed_ended(steer, ended(how, error.as_ref()), answer))
            }
            DesktopOp::Wait => Output::value(&hook.wait(now, call.steer.map(SteerId)).0),
            DesktopOp::Settled => Output::value(&hook.settled(WaitId(call.wait))),
            DesktopOp::Tick => {
                hook.tick(now);
                none
            }
            DesktopOp::Dispose => {
                hook.dispose(now);
                none
            }
            DesktopOp::OpenRoute => {
                let (thread_id, message_id) = (call.thread_id.unwrap_or_default(), call.message_id.unwrap_or_default());
                Output::value(&hook.open_route(&thread_id, &message_id).map(|s| s.0))
            }
        }
    }
}
