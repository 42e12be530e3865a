//! One input of the desktop hook's JavaScript into its engine, as a typed
//! message: what the hook read of the desktop (never an object itself), by
//! name. The JavaScript sends `{ "do": "call", "call": { "op": ..., ...facts } }`;
//! a misspelt op or field is refused by the reader, not guessed.

use serde::Deserialize;

use super::described::Described;
use super::desktop::Rejection;
use super::role::RoleRead;

/// Which input it is.
///
/// ```
/// use renderer_steering::bridge::DesktopOp;
/// let op: DesktopOp = serde_json::from_str(r#""settled""#).unwrap();
/// assert_eq!(op, DesktopOp::Settled);
/// assert!(serde_json::from_str::<DesktopOp>(r#""tock""#).is_err(), "an unknown op is refused");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DesktopOp {
    /// The wrapped `steerTurn` was called: `now`, `input`, `role`,
    /// `threadId`, `text`, `argumentId`, `restoreId`, `toolOutput`,
    /// `contextIsObject`, `startTurn`, `freshId`.
    Steer,
    /// The wrapped `sendRequest` was called with a routed method: `now`,
    /// `input`, `method`, `threadId`, `messageId`, `expectedTurnId`.
    Request,
    /// A call the engine asked for was made: `now`, `call`, and `missing`,
    /// `error` (it threw) or `facts` (of a synchronous call's value).
    Called,
    /// An awaited call settled: `now`, `call`, `ok`, and `facts` or `error`.
    Settled,
    /// The timer fired: `now`.
    Tick,
    /// `dispose()`: `now`.
    Dispose,
    /// Which steer has the route of a message open: `threadId`, `messageId`.
    OpenRoute,
}

/// What the driver read of a call's value, as the call's `read` asked.
///
/// ```
/// use renderer_steering::bridge::Facts;
/// let facts: Facts = serde_json::from_str(r#"{"delivery":"newTurn","hostDeduplicates":true}"#).unwrap();
/// assert_eq!(facts.value().delivery.as_deref(), Some("newTurn"));
/// ```
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Facts {
    /// `delivery`, when a string (a decision's: "" otherwise).
    delivery: Option<String>,
    /// `hostDeduplicates === true`.
    host_deduplicates: bool,
    /// What `getStreamRole` answered for the thread, read again.
    role: Option<RoleRead>,
    /// `turnId` (or the turn id read), a string of bounded length.
    turn_id: Option<String>,
    /// The value is `undefined` or `null`.
    absent: bool,
    /// The value is `true`, or not `undefined`, as asked.
    yes: bool,
    /// The follow-up queue (`[id, pauseReason, ...]`, described; absent: unread).
    follow_ups: Option<Vec<Described>>,
}

impl Facts {
    /// The core's facts of the value.
    ///
    /// ```
    /// # use renderer_steering::bridge::Facts;
    /// # use renderer_steering::core::desktop::{FollowUp, FollowUpId};
    /// let facts: Facts = serde_json::from_str(r#"{"followUps":[{"t":"number","n":7},{"t":"string","s":"paused"}]}"#).unwrap();
    /// let queue = vec![FollowUp { id: Some(FollowUpId::Number(7)), pause_reason: Some("paused".into()) }];
    /// assert_eq!(facts.value().follow_ups, Some(queue));
    /// assert_eq!(Facts::default().value().follow_ups, None, "a queue not read");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn value(self) -> crate::core::desktop::ValueFacts {
        crate::core::desktop::ValueFacts {
            delivery: self.delivery,
            host_deduplicates: self.host_deduplicates,
            follower: self.role.as_ref().is_some_and(RoleRead::follows),
            turn_id: self.turn_id,
            absent: self.absent,
            yes: self.yes,
            follow_ups: self.follow_ups.as_deref().map(super::follow_ups::follow_ups),
        }
    }
}

/// One input of the hook: its op and the facts it carries, by name (the
/// ones an op does not take are absent). One flat shape for every op, so
/// the wasm holds one reader of it.
///
/// ```
/// use renderer_steering::bridge::{DesktopCall, DesktopOp};
/// let call: DesktopCall = serde_json::from_str(r#"{"op":"tick","now":5}"#).unwrap();
/// assert_eq!((call.op, call.now()), (DesktopOp::Tick, 5));
/// assert!(serde_json::from_str::<DesktopCall>(r#"{"op":"tick","nwo":5}"#).is_err(), "a misspelt field is refused");
/// ```
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DesktopCall {
    /// Which input.
    pub op: DesktopOp,
    /// The clock (`null`: the page's clock gave no number).
    #[serde(default)]
    now: Option<f64>,
    /// The call it reports.
    #[serde(default)]
    pub call: u64,
    /// The draft's identity number (0: not an object).
    #[serde(default)]
    pub input: u64,
    /// What `getStreamRole` answered for the thread.
    #[serde(default)]
    pub role: Option<RoleRead>,
    /// The thread.
    #[serde(default)]
    pub thread_id: Option<String>,
    /// `clientUserMessageId`.
    #[serde(default)]
    pub message_id: Option<String>,
    /// The text a steer's input carries, when text only.
    #[serde(default)]
    pub text: Option<String>,
    /// A steer's argument id.
    #[serde(default)]
    pub argument_id: Option<String>,
    /// A steer's `restoreMessage.id`.
    #[serde(default)]
    pub restore_id: Option<String>,
    /// A request's `expectedTurnId`.
    #[serde(default)]
    pub expected_turn_id: Option<String>,
    /// A routed request's method.
    #[serde(default)]
    pub method: String,
    /// The steer carries a tool's output.
    #[serde(default)]
    pub tool_output: bool,
    /// `restoreMessage.context` is an object.
    #[serde(default)]
    pub context_is_object: bool,
    /// The manager has `startTurn`.
    #[serde(default)]
    pub start_turn: bool,
    /// A fresh id for the message.
    #[serde(default)]
    pub fresh_id: String,
    /// The function the call asked for is not there.
    #[serde(default)]
    pub missing: bool,
    /// An awaited call resolved.
    #[serde(default)]
    pub ok: bool,
    /// What a call threw or rejected with.
    #[serde(default)]
    pub error: Option<Rejection>,
    /// What was read of its value.
    #[serde(default)]
    pub facts: Option<Facts>,
}

impl DesktopCall {
    /// The clock's reading in whole ms (a broken clock reads as 0).
    ///
    /// ```
    /// # use renderer_steering::bridge::DesktopCall;
    /// let call: DesktopCall = serde_json::from_str(r#"{"op":"tick","now":null}"#).unwrap();
    /// assert_eq!(call.now(), 0);
    /// ```
    pub fn now(&self) -> u64 {
        match self.now {
            Some(now) if now.is_finite() && now > 0.0 => now as u64,
            _ => 0,
        }
    }

    /// The steer it reports (its op is [`DesktopOp::Steer`]).
    pub(super) fn steer(self) -> crate::core::desktop::SteerCall {
        crate::core::desktop::SteerCall {
            thread_id: self.thread_id,
            text: self.text,
            argument_id: self.argument_id,
            restore_id: self.restore_id,
            input: self.input,
            follower: self.role.as_ref().is_some_and(RoleRead::follows),
            tool_output: self.tool_output,
            context_is_object: self.context_is_object,
            start_turn: self.start_turn,
            fresh_id: self.fresh_id,
        }
    }
}
