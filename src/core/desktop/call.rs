//! The desktop's calls as the hook's engine names them: which function of
//! the desktop (or of the hook's decider) to call, with which values, and
//! what to read of what it returns. The engine never holds a JavaScript
//! value: it names the values its driver holds (the arguments an op was
//! called with, by position, and their fields) and describes the objects
//! to build from them, so the desktop's own objects keep their identity and
//! the shape of what is built is decided here, once.

use serde::Serialize;

use super::follow_ups::FollowUpId;
use super::types::SteerId;
use crate::core::Json;

/// One call the driver makes: its id names what it returned, what it
/// resolved with and what it threw, for the inputs that report them.
///
/// ```
/// use renderer_steering::core::desktop::CallId;
/// assert!(CallId(1) < CallId(2));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct CallId(pub u64);

/// Whose function a call calls.
///
/// ```
/// use renderer_steering::core::desktop::Target;
/// assert_ne!(Target::OwnSteer, Target::OwnSend);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Target {
    /// The hook's decider: `decide({ threadId, text })`.
    Decide,
    /// The desktop's own `steerTurn`, on the steer's receiver.
    OwnSteer,
    /// The desktop's own `sendRequest`, on the request's receiver.
    OwnSend,
    /// The manager's `startTurn`.
    StartTurn,
    /// A method of the desktop's turn coordinator (`loadMessages`, `readMessages`, `mutate`).
    Coordinator(&'static str),
    /// A method of the coordinator's submission host (`hasPendingTurnStart`, `getActiveTurnId`).
    SubmissionHost(&'static str),
    /// The disposed hooks below this one on the manager: `released(key)`
    /// of the first with that route open (a promise, or nothing).
    Below,
}

/// A value the driver passes or builds, from what it holds.
///
/// ```
/// use renderer_steering::core::desktop::Build;
/// let cwd = Build::field(Build::Arg(2), "cwd");
/// assert_eq!(serde_json::to_string(&cwd).unwrap(), r#"{"field":[{"arg":2},"cwd"]}"#);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Build {
    /// A string.
    Text(String),
    /// A JSON value (`null`, `true`, `[]`, ...), as a new value.
    Literal(Json),
    /// The op's own argument at this position, by identity.
    Arg(usize),
    /// A field of a value (absent when unreadable).
    Field(Box<Build>, &'static str),
    /// A value, or `default` when it is `undefined` (`null` too, when the flag says so).
    Or(Box<Build>, Json, bool),
    /// A new plain object of these fields, in order.
    Object(Vec<Entry>),
    /// A copy of an object's own fields with these set (the object as it
    /// is when the copy cannot be made).
    With(Box<Build>, Vec<Entry>),
    /// The function `mutate` takes: resumes the follow-ups the stop paused,
    /// except these ([`to_resume`](super::to_resume)).
    Unpause(Vec<FollowUpId>),
}

impl Build {
    /// `value[key]`.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::Build;
    /// assert!(matches!(Build::field(Build::Arg(0), "id"), Build::Field(..)));
    /// ```
    pub fn field(value: Build, key: &'static str) -> Build {
        Build::Field(Box::new(value), key)
    }
}

/// One field of an object the driver builds.
///
/// ```
/// use renderer_steering::core::desktop::{Build, Entry};
/// let e = Entry { key: "cwd", value: Build::Arg(3), skip_absent: true };
/// assert!(e.skip_absent);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// The field's name.
    pub key: &'static str,
    /// Its value.
    pub value: Build,
    /// Left out when the value is `undefined` or `null`.
    pub skip_absent: bool,
}

/// What the driver reads of the value a call returned (a synchronous
/// call) or resolved with (an awaited one), as plain facts.
///
/// ```
/// use renderer_steering::core::desktop::Read;
/// assert_ne!(Read::Answer, Read::Nothing);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Read {
    /// Nothing.
    Nothing,
    /// A decision: its `delivery` and `hostDeduplicates`, and whether the
    /// window now follows this thread's stream.
    Decision(String),
    /// A host's answer: its `turnId` and `delivery`.
    Answer,
    /// A follow-up queue: each message's `id` and `pauseReason`.
    FollowUps,
    /// A turn id: whether it is `undefined` or `null`, and the id.
    TurnId,
    /// Whether it is `true`.
    IsTrue,
    /// Whether it is not `undefined`: read of what the call returned, also
    /// when the call is awaited.
    Defined,
}

/// One call of the desktop (an [`Action::Call`](crate::core::Action::Call)).
///
/// ```
/// use renderer_steering::core::desktop::{Build, Call, CallId, Read, SteerId, Target};
/// let call = Call { id: CallId(1), of: SteerId(1), target: Target::OwnSteer, args: None, read: Read::Nothing, awaited: true };
/// assert!(call.args.is_none(), "the op's own arguments");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Call {
    /// The call.
    pub id: CallId,
    /// The op whose arguments and receiver it uses.
    pub of: SteerId,
    /// What it calls.
    pub target: Target,
    /// Its arguments (`None`: the op's own, as given).
    pub args: Option<Vec<Build>>,
    /// What to read of its value.
    pub read: Read,
    /// Whether its settling is reported (the value is awaited).
    pub awaited: bool,
}

/// What a steer's (or a routed request's) promise settles with, when it is
/// not a failure of this package.
///
/// ```
/// use renderer_steering::core::desktop::{CallId, Settled};
/// assert_ne!(Settled::Value(CallId(1)), Settled::Rethrow(CallId(1), false));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Settled {
    /// Resolves with what the call resolved with.
    Value(CallId),
    /// Rejects with what the call threw or rejected with, unchanged; the
    /// flag: that error is this package's own, and its `draft` becomes the
    /// op's (each promise of a joined op its own).
    Rethrow(CallId, bool),
    /// Resolves with this value, built anew.
    Built(Json),
}

/// What the wrapped `steerTurn` or `sendRequest` returns, now.
///
/// ```
/// use renderer_steering::core::desktop::{Reply, SteerId};
/// assert_ne!(Reply::Desktop, Reply::Promise(SteerId(1)));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// The desktop's own method, called as given, its return value untouched.
    Desktop,
    /// The promise of this op (a steer's, or a routed request's), settled by
    /// its [`Action::Complete`](crate::core::Action::Complete).
    Promise(SteerId),
    /// A promise rejected with this failure.
    Refused(super::Refusal),
    /// What this call returned (or its throw, thrown).
    Returned(CallId),
}

/// What the driver read of a call's value ([`Read`]).
///
/// ```
/// use renderer_steering::core::desktop::ValueFacts;
/// assert!(ValueFacts::default().delivery.is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValueFacts {
    /// A decision's or an answer's `delivery` (a decision's: `""` when unreadable).
    pub delivery: Option<String>,
    /// A decision's `hostDeduplicates === true`.
    pub host_deduplicates: bool,
    /// The window follows the thread's stream, read again.
    pub follower: bool,
    /// An answer's `turnId`, or a turn id read (a string of bounded length).
    pub turn_id: Option<String>,
    /// The value is `undefined` or `null`.
    pub absent: bool,
    /// The value is `true` ([`Read::IsTrue`]) or not `undefined` ([`Read::Defined`]).
    pub yes: bool,
    /// The follow-up queue (`None`: not an array within the bound, or unreadable).
    pub follow_ups: Option<Vec<super::FollowUp>>,
}

/// What a call did when the driver made it.
///
/// ```
/// use renderer_steering::core::desktop::{Returned, ValueFacts};
/// assert_ne!(Returned::Missing, Returned::Value(ValueFacts::default()));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Returned {
    /// The function is not there (nothing was called).
    Missing,
    /// It threw.
    Threw(super::ErrorFacts),
    /// It returned (facts read of the value, for a synchronous call).
    Value(ValueFacts),
}

/// A call's value as an input: its route key for a disposed hook below.
#[cfg_attr(feature = "size-first", optimize(size))]
pub(crate) fn route_key(thread_id: &str, message_id: &str) -> String {
    Json::of(&[thread_id, message_id]).text().to_string()
}

/// A string argument.
#[cfg_attr(feature = "size-first", optimize(size))]
pub(crate) fn text(value: &str) -> Build {
    Build::Text(value.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_route_key_is_the_json_pair() {
        assert_eq!(route_key("t\"", "m"), r#"["t\"","m"]"#);
    }

    #[test]
    fn a_call_reads_as_the_driver_takes_it() {
        let call = Call {
            id: CallId(2),
            of: SteerId(1),
            target: Target::Coordinator("mutate"),
            args: Some(vec![text("t")]),
            read: Read::Nothing,
            awaited: true,
        };
        let text = Json::of(&call).text().to_string();
        assert_eq!(text, r#"{"id":2,"of":1,"target":{"coordinator":"mutate"},"args":[{"text":"t"}],"read":"nothing","awaited":true}"#);
    }
}
