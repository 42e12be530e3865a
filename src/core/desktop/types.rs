//! What the desktop hook's driver tells the core and what it is told back:
//! plain facts in (read from the desktop's objects by the driver, never an
//! object itself), verdicts and effects out.

use serde::Serialize;

use crate::core::codexhost::Delivery;
use crate::core::{Failure, RpcError};

/// One steer the hook handles (also names its newTurn route and its wait):
/// a submission, as the engines number theirs.
///
/// ```
/// use renderer_steering::core::desktop::SteerId;
/// assert!(SteerId(1) < SteerId(2));
/// ```
pub use crate::core::action::OpId as SteerId;

/// One bounded wait of the driver (on the desktop or the host): a pending
/// call, as the engines number theirs.
///
/// ```
/// use renderer_steering::core::desktop::WaitId;
/// assert_eq!(WaitId(3).0, 3);
/// ```
pub use crate::core::json_rpc::RequestId as WaitId;

/// A call of the desktop's `steerTurn`, as the driver read it.
///
/// ```
/// use renderer_steering::core::desktop::SteerCall;
/// let call = SteerCall::text("t", "use pnpm", Some("m-1"));
/// assert_eq!(call.message_id(), Some("m-1"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SteerCall {
    /// `threadId` (None: not a string of bounded length).
    pub thread_id: Option<String>,
    /// The text the input steers with (None: not text, unreadable, blank).
    pub text: Option<String>,
    /// The `clientUserMessageId` argument.
    pub argument_id: Option<String>,
    /// `restoreMessage.id`.
    pub restore_id: Option<String>,
    /// The input array's identity (the driver numbers objects; 0: none).
    pub input: u64,
    /// The window is a follower of the thread's stream.
    pub follower: bool,
    /// A tool output was given (a newTurn cannot replace it).
    pub tool_output: bool,
    /// `restoreMessage.context` is an object.
    pub context_is_object: bool,
    /// The manager has a `startTurn`.
    pub start_turn: bool,
    /// A fresh random id, for a newTurn's message when the caller gave none.
    pub fresh_id: String,
}

impl SteerCall {
    /// A text steer of `thread_id` with the caller's id.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::SteerCall;
    /// assert_eq!(SteerCall::text("t", "x", None).text.as_deref(), Some("x"));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn text(thread_id: &str, text: &str, argument_id: Option<&str>) -> Self {
        SteerCall {
            thread_id: Some(thread_id.into()),
            text: Some(text.into()),
            argument_id: argument_id.map(Into::into),
            context_is_object: true,
            start_turn: true,
            fresh_id: "fresh".into(),
            ..Default::default()
        }
    }

    /// The message's id: the argument, else `restoreMessage.id`.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::SteerCall;
    /// let call = SteerCall { restore_id: Some("r".into()), ..Default::default() };
    /// assert_eq!(call.message_id(), Some("r"));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn message_id(&self) -> Option<&str> {
        self.argument_id.as_deref().or(self.restore_id.as_deref())
    }
}

/// What the `steerTurn` wrapper does with a call.
///
/// ```
/// use renderer_steering::core::desktop::Admission;
/// assert_ne!(Admission::Desktop, Admission::Busy);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Admission {
    /// The desktop's own `steerTurn`, its return value untouched.
    Desktop,
    /// The same submission as the steer in flight: its result.
    Joined(SteerId),
    /// Another message is in flight on the thread.
    Busy,
    /// Refused before anything is sent.
    Refused(Refusal),
    /// Admitted: ask the engine to decide.
    Decide(SteerId),
}

/// A failure the core chose, with the message id it carries.
///
/// ```
/// use renderer_steering::core::desktop::Refusal;
/// use renderer_steering::core::Failure;
/// let r = Refusal::new(Failure::disposed(), None);
/// assert_eq!(r.failure.kind(), "disposed");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// Why.
    pub failure: Failure,
    /// The id that was (or would have been) sent.
    pub message_id: Option<String>,
}

impl Refusal {
    /// A refusal carrying `message_id`.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::Refusal;
    /// # use renderer_steering::core::Failure;
    /// assert_eq!(Refusal::new(Failure::busy(), Some("m".into())).message_id.as_deref(), Some("m"));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn new(failure: Failure, message_id: Option<String>) -> Self {
        Refusal { failure, message_id }
    }
}

/// How a steer's result ends.
///
/// ```
/// use renderer_steering::core::desktop::Verdict;
/// assert_eq!(Verdict::Resolve, Verdict::Resolve);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// With the value the driver holds (the desktop's own result).
    Resolve,
    /// With the error the driver holds, unchanged.
    Rethrow,
    /// With this failure (draft: the caller's own input).
    Fail(Refusal),
}

/// How a bounded wait ended.
///
/// ```
/// use renderer_steering::core::desktop::Ended;
/// assert!(matches!(Ended::Timeout, Ended::Timeout));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Ended {
    /// The call resolved.
    Ok,
    /// The call threw or rejected.
    Error(ErrorFacts),
    /// Its deadline passed.
    Timeout,
    /// The hook was disposed.
    Cancelled,
}

/// What the driver read from a rejection.
///
/// ```
/// use renderer_steering::core::desktop::ErrorFacts;
/// assert!(ErrorFacts::words("socket closed").rpc.is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ErrorFacts {
    /// A `SteeringError` this package made (passed on unchanged); `Some(true)`
    /// when its kind is `outcomeUnknown`.
    pub package_error: Option<bool>,
    /// That error's `clientUserMessageId`.
    pub message_id: Option<String>,
    /// The host's JSON-RPC error answer, when it is one.
    pub rpc: Option<RpcError>,
    /// A short description of the value.
    pub words: String,
}

impl ErrorFacts {
    /// A plain failure described by `words`.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::ErrorFacts;
    /// assert_eq!(ErrorFacts::words("x").words, "x");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn words(words: &str) -> Self {
        ErrorFacts { words: words.into(), ..Default::default() }
    }
}

/// What the `sendRequest` wrapper does with a request.
///
/// ```
/// use renderer_steering::core::desktop::Outgoing;
/// assert_eq!(Outgoing::Pass, Outgoing::Pass);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Outgoing {
    /// Unchanged (and not followed).
    Pass,
    /// An official or activeTurn steer's message: sent with this tag (None:
    /// untouched), its answer followed for reconciliation.
    Own(SteerId, Option<Delivery>),
    /// A newTurn route's one request, refused: nothing is sent.
    Refused(Refusal),
    /// A newTurn route's `turn/start` of an ended turn: sent as it is; its
    /// answer decides the steer.
    PlainStart(SteerId),
    /// A newTurn route's message as a `turn/steer` (`rewrite`: its
    /// `turn/start` rewritten, into `expected_turn_id`, tagged newTurn).
    Steer {
        /// The route.
        route: SteerId,
        /// Rewrite a `turn/start` (false: the desktop's own `turn/steer`).
        rewrite: bool,
        /// The turn it steers into (a rewritten `turn/start`'s `expectedTurnId`).
        expected_turn_id: Option<String>,
    },
}

impl Outgoing {
    /// For an official or activeTurn steer's own `turn/steer`: what it was
    /// presented as, since the host's answer is followed (and reconciled
    /// when it differs); `None` for every other request.
    ///
    /// ```
    /// use renderer_steering::core::codexhost::Delivery;
    /// use renderer_steering::core::desktop::{Outgoing, SteerId};
    /// assert_eq!(Outgoing::Own(SteerId(1), None).answer_followed("turn/steer"), Some(Delivery::Official));
    /// assert_eq!(Outgoing::Own(SteerId(1), None).answer_followed("turn/start"), None);
    /// ```
    pub fn answer_followed(&self, method: &str) -> Option<Delivery> {
        match self {
            Outgoing::Own(_, tag) if method == "turn/steer" => Some(tag.unwrap_or(Delivery::Official)),
            _ => None,
        }
    }
}

/// What the host's answer to a routed `turn/steer` carried.
///
/// ```
/// use renderer_steering::core::desktop::Answer;
/// assert!(Answer::default().turn_id.is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Answer {
    /// `turnId`, when a non-empty string.
    pub turn_id: Option<String>,
    /// `delivery`, when the host named one.
    pub delivery: Option<Delivery>,
}

/// What a rule noted for the order to carry on with (`steps.rs`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Effect {
    /// The wait ends: its deadline passed.
    Expired(WaitId),
    /// The wait ends: the hook was disposed.
    Cancelled(WaitId),
    /// The newTurn route is gone (an attempt waiting for it may go on).
    Released(SteerId),
    /// The newTurn route's one request was answered (or failed).
    Done(SteerId),
    /// The newTurn steer was accepted: resume the thread's follow-ups the
    /// stop paused, except `paused_before` ([`to_resume`](super::to_resume)).
    Resume {
        /// The thread.
        thread_id: String,
        /// The follow-ups paused with the stop's reason before the steer.
        paused_before: Vec<super::FollowUpId>,
    },
}

/// A delivery that differs from the presentation (`onReconcile`'s argument).
///
/// ```
/// use renderer_steering::core::desktop::Reconcile;
/// use renderer_steering::core::codexhost::Delivery;
/// let r = Reconcile { thread_id: "t".into(), message_id: None, presented: Delivery::ActiveTurn, delivery: Delivery::NewTurn, turn_id: None };
/// assert_ne!(r.presented, r.delivery);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reconcile {
    /// The thread.
    pub thread_id: String,
    /// The message's `clientUserMessageId`.
    #[serde(rename = "clientUserMessageId")]
    pub message_id: Option<String>,
    /// What the desktop showed.
    pub presented: Delivery,
    /// How the host delivered it.
    pub delivery: Delivery,
    /// The turn that holds it, when the answer named one.
    pub turn_id: Option<String>,
}
