//! One call of the desktop hook's JavaScript into its engine, as a typed
//! message: what the hook read of the desktop (never an object itself), by
//! name. The JavaScript sends `{ "do": "call", "call": { "op": ..., ...facts } }`;
//! a misspelt op or field is refused by the reader, not guessed.

use serde::Deserialize;

use super::described::Described;
use super::desktop::Rejection;

/// How a bounded wait on a desktop call ended, as the driver saw it.
///
/// ```
/// use renderer_steering::bridge::Waited;
/// let how: Waited = serde_json::from_str(r#""timeout""#).unwrap();
/// assert_eq!(how, Waited::Timeout);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Waited {
    /// The call resolved.
    Ok,
    /// The call rejected (or threw).
    Error,
    /// The engine's deadline ended the wait first.
    Timeout,
    /// Dispose ended the wait.
    Cancelled,
}

/// Which call of the hook it is.
///
/// ```
/// use renderer_steering::bridge::DesktopOp;
/// let op: DesktopOp = serde_json::from_str(r#""routedEnded""#).unwrap();
/// assert_eq!(op, DesktopOp::RoutedEnded);
/// assert!(serde_json::from_str::<DesktopOp>(r#""tock""#).is_err(), "an unknown op is refused");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum DesktopOp {
    /// The wrapped `steerTurn` was called: `input`, `follower`, `threadId`,
    /// `text`, `argumentId`, `restoreId`.
    Steer,
    /// The decider answered: `steer`, `hostDeduplicates`, `follower`,
    /// `delivery` (its name, "" when unreadable; absent: it failed).
    Decided,
    /// A follower's own `steerTurn` was called: `now`, `steer`, `threw`.
    FollowerCalled,
    /// A follower's own `steerTurn` settled: `steer`.
    FollowerSettled,
    /// The desktop's own `steerTurn` is about to be called: `steer`, `tag`
    /// (activeTurn; absent: official).
    OwnCalled,
    /// The desktop's own `steerTurn` settled: `steer`.
    OwnSettled,
    /// The wait on the desktop's own `steerTurn` ended: `steer`, `how`, `error`.
    OwnEnded,
    /// The host answered the desktop's own tagged `turn/steer`: `presented`,
    /// `threadId`, `messageId`, `turnId`, `delivery`.
    Answered,
    /// A newTurn decision: `now`, `steer`, `pendingTurnStart`, `toolOutput`,
    /// `contextIsObject`, `startTurn`, `activeTurn` (`running`, `ended`,
    /// `unreadable`), `turnId`, `freshId`.
    NewTurn,
    /// Whether an earlier attempt's route must be waited for: `now`,
    /// `steer`, `below` (a disposed hook's route is open).
    Earlier,
    /// The wait for an earlier attempt's route ended: `steer`, `how`.
    EarlierEnded,
    /// The follow-ups were read: `now`, `steer`, `usedUp`, `followUps`
    /// (`[id, pauseReason, ...]`, described; absent: unread).
    Start,
    /// `startTurn` was called: `steer`, `threw`.
    StartCalled,
    /// `startTurn` settled: `steer`, `resolved`.
    StartSettled,
    /// The wait on `startTurn` ended: `now`, `steer`, `how`, `error`.
    StartEnded,
    /// The wait for the route's one request ended: `steer`, `how`.
    DoneEnded,
    /// The wrapped `sendRequest` got a routed method: `now`, `input`,
    /// `method`, `threadId`, `messageId`, `expectedTurnId`.
    Request,
    /// The desktop's `sendRequest` threw at once for a route's request: `steer`, `error`.
    RoutedThrew,
    /// A route's plain `turn/start` settled: `steer`, `failed`, `error`.
    PlainStartEnded,
    /// The wait on a route's `turn/steer` ended: `steer`, `how`, `error`,
    /// `turnId`, `delivery`.
    RoutedEnded,
    /// Opens a bounded wait: `now`, `steer` (absent: one steer bound).
    Wait,
    /// A waited-for call settled: `wait`.
    Settled,
    /// The timer fired: `now`.
    Tick,
    /// `dispose()`: `now`.
    Dispose,
    /// Which steer has the route of a message open: `threadId`, `messageId`.
    OpenRoute,
}

/// One call of the hook: its op and the facts it carries, by name (the
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
    /// Which call.
    pub op: DesktopOp,
    /// The clock (`null`: the page's clock gave no number).
    #[serde(default)]
    now: Option<f64>,
    /// The steer it concerns.
    #[serde(default)]
    pub steer: Option<u64>,
    /// The wait it concerns.
    #[serde(default)]
    pub wait: u64,
    /// The draft's identity number (0: not an object).
    #[serde(default)]
    pub input: u64,
    /// The window follows the thread's stream.
    #[serde(default)]
    pub follower: bool,
    /// The thread, the message, the ids a steer carries, the turn.
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
    /// A turn id (an answer's, or the running one's).
    #[serde(default)]
    pub turn_id: Option<String>,
    /// A request's `expectedTurnId`.
    #[serde(default)]
    pub expected_turn_id: Option<String>,
    /// A delivery's name (a decision's, an answer's).
    #[serde(default)]
    pub delivery: Option<String>,
    /// The decider's `hostDeduplicates`.
    #[serde(default)]
    pub host_deduplicates: bool,
    /// The call threw synchronously.
    #[serde(default)]
    pub threw: bool,
    /// `startTurn` resolved.
    #[serde(default)]
    pub resolved: bool,
    /// A plain `turn/start` rejected.
    #[serde(default)]
    pub failed: bool,
    /// A disposed hook below has the route open.
    #[serde(default)]
    pub below: bool,
    /// Reading the follow-ups used up the bound.
    #[serde(default)]
    pub used_up: bool,
    /// The tag an own steer's request gets.
    #[serde(default)]
    pub tag: Option<String>,
    /// How a wait ended.
    #[serde(default)]
    pub how: Option<Waited>,
    /// What a call rejected with.
    #[serde(default)]
    pub error: Option<Rejection>,
    /// What an answered steer was shown as.
    #[serde(default)]
    pub presented: String,
    /// A routed request's method.
    #[serde(default)]
    pub method: String,
    /// A newTurn's facts: the desktop has a `turn/start` pending.
    #[serde(default)]
    pub pending_turn_start: bool,
    /// The steer carries a tool's output.
    #[serde(default)]
    pub tool_output: bool,
    /// `restoreMessage.context` is an object.
    #[serde(default)]
    pub context_is_object: bool,
    /// The manager has `startTurn`.
    #[serde(default)]
    pub start_turn: bool,
    /// The thread's turn: `running`, `ended` or `unreadable`.
    #[serde(default)]
    pub active_turn: String,
    /// A fresh id for the message.
    #[serde(default)]
    pub fresh_id: String,
    /// The follow-up queue read (`[id, pauseReason, ...]`, described).
    #[serde(default)]
    pub follow_ups: Option<Vec<Described>>,
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
}
