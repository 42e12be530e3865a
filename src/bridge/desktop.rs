//! The desktop hook's engine (`core::desktop::DesktopHook`) behind the
//! boundary. Its JavaScript (`js/desktop/`) reads the desktop's values
//! safely and hands them in as plain facts ([`DesktopCall`]); each input
//! answers what the wrapped method returns now (`reply`), and the actions
//! to carry out in order (calls of the desktop, promises to settle). Every
//! rule, and the order of every steer, is the core's.

use serde::{Deserialize, Serialize};

use super::desktop_call::{DesktopCall, DesktopOp};
use super::follow_ups::{follow_up_id, follow_ups};
use super::input::Input;
use super::output::{Output, Step};
use crate::core::content::steer_text;
use crate::core::desktop::to_resume;
use crate::core::desktop::{Build, CallId, DesktopHook, ErrorFacts, Reply, RequestCall, Returned, SteerId};
use crate::core::{Json, RejectionFacts, SteeringError, Trace};

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
    ///
    /// ```
    /// # use renderer_steering::bridge::Rejection;
    /// let own: Rejection = serde_json::from_str(r#"{"packageKind":"outcomeUnknown","packageId":"m-1"}"#).unwrap();
    /// assert_eq!((own.facts().package_error, own.facts().message_id.as_deref()), (Some(true), Some("m-1")));
    /// let answer: Rejection = serde_json::from_str(r#"{"read":{"object":true,"code":-32074,"message":"turn not active"}}"#).unwrap();
    /// assert_eq!(answer.facts().rpc.map(|e| e.code), Some(-32074), "the host's error answer");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn facts(&self) -> ErrorFacts {
        let package_error = self.package_kind.as_ref().map(|kind| kind == "outcomeUnknown");
        let data = || self.data.clone().and_then(|d| Json::parse(d).ok());
        let rpc = self.read.rpc_error(data());
        ErrorFacts { package_error, message_id: self.package_id.clone(), rpc, words: self.read.words.clone() }
    }
}

/// What a wrapped method returns, as the driver reads it.
#[derive(Serialize, Debug)]
#[serde(tag = "reply", rename_all = "camelCase")]
enum Answered {
    /// The desktop's own method, as called.
    Desktop,
    /// The promise of `op`; a failure's draft is `draft`, of the call's arguments.
    Promise { op: u64, draft: Build },
    /// A promise rejected with the output's error, whose draft is `draft`.
    Refused { draft: Build },
    /// What `call` returned (its throw, thrown); `op` holds the call's arguments until then.
    Returned { call: u64, op: u64 },
}

/// The desktop hook's engine.
#[derive(Debug)]
pub(super) struct Session {
    hook: DesktopHook,
    /// The handle of its decider (the codexhost engine whose journal's
    /// storage it writes to); 0 once that engine is freed.
    pub(super) decider: u32,
}

impl Session {
    /// A hook whose steers are bounded by `steer_ms`, over the decider
    /// `decider` (whose journal, when it keeps one, it writes to too).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn new(steer_ms: u64, journal: Option<(String, f64)>, decider: u32) -> Session {
        let mut hook = DesktopHook::new(steer_ms);
        if let Some((prefix, wall_offset)) = journal {
            hook.enable_journal(prefix, wall_offset);
        }
        Session { hook, decider }
    }

    /// The app's storage failed: the journal is off; true when it was on.
    pub(super) fn journal_failed(&mut self) -> bool {
        self.hook.journal_failed()
    }

    /// One step: `call` (one input of the hook, [`DesktopCall`]), `steerText`
    /// (the text a desktop steer's draft, the payload, carries if it is text
    /// only), `unpause` (which of the follow-ups read to resume: their
    /// positions), `forget` (a message's journal record).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn step(&mut self, input: Input, payload: String) -> Output {
        let output = match input.what.as_str() {
            #[cfg(feature = "desktop")]
            "call" => match input.call {
                Some(call) => self.call(call),
                None => return super::unknown("call"),
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
            "steerText" => {
                let text = input.refused.is_none().then(|| Json::parse(payload).ok()).flatten().and_then(|draft| {
                    crate::core::content::check_array(&draft).ok()?;
                    steer_text(&draft).ok()
                });
                Output::value(&text)
            }
            other => return super::unknown(other),
        };
        self.drain(output)
    }

    /// The hook's actions into `output`, and its next deadline.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn drain(&mut self, mut output: Output) -> Output {
        while let Some(action) = self.hook.poll_action() {
            output.steps.push(Step::of(action, |_| None));
        }
        output.timer = self.hook.poll_timeout();
        output
    }

    /// One input of the hook ([`DesktopCall`]); the answer is what the
    /// wrapped method returns, a value, or nothing.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn call(&mut self, call: DesktopCall) -> Output {
        let hook = &mut self.hook;
        let now = call.now();
        match call.op {
            DesktopOp::Steer => reply(hook.steer_turn(now, call.steer()), SteerId(0), Build::Arg(1)),
            DesktopOp::Request => {
                let DesktopCall { method, thread_id, message_id, expected_turn_id, input, .. } = call;
                let request = RequestCall { method, thread_id: thread_id.unwrap_or_default(), message_id, expected_turn_id, input };
                let (answer, op) = hook.send_request(now, request);
                reply(answer, op, Build::field(Build::Arg(1), "input"))
            }
            DesktopOp::Called => {
                let returned = match (call.missing, call.error) {
                    (true, _) => Returned::Missing,
                    (false, Some(error)) => Returned::Threw(error.facts()),
                    (false, None) => Returned::Value(call.facts.map(super::Facts::value).unwrap_or_default()),
                };
                hook.called(now, CallId(call.call), returned);
                Output::default()
            }
            DesktopOp::Settled => {
                let result = match call.ok {
                    true => Ok(call.facts.map(super::Facts::value).unwrap_or_default()),
                    false => Err(call.error.as_ref().map(Rejection::facts).unwrap_or_default()),
                };
                hook.settled(now, CallId(call.call), result);
                Output::default()
            }
            DesktopOp::Tick => {
                hook.tick(now);
                Output::default()
            }
            DesktopOp::Dispose => {
                hook.dispose_at(now);
                Output::default()
            }
            DesktopOp::OpenRoute => {
                let (thread_id, message_id) = (call.thread_id.unwrap_or_default(), call.message_id.unwrap_or_default());
                Output::value(&hook.open_route(&thread_id, &message_id).map(|s| s.0))
            }
        }
    }
}

/// A reply as the driver reads it (`op`: the request's, whose arguments
/// its calls take; `draft`: where a failure's draft comes from).
#[cfg_attr(feature = "size-first", optimize(size))]
fn reply(reply: Reply, SteerId(op): SteerId, draft: Build) -> Output {
    match reply {
        Reply::Desktop => Output::value(&Answered::Desktop),
        Reply::Promise(SteerId(op)) => Output::value(&Answered::Promise { op, draft }),
        Reply::Refused(refusal) => {
            let error = SteeringError::new(refusal.failure, Json::no_items(), Trace::default()).with_message_id(refusal.message_id);
            Output { error: Some(error.to_report()), ..Output::value(&Answered::Refused { draft }) }
        }
        Reply::Returned(CallId(call)) => Output::value(&Answered::Returned { call, op }),
    }
}
