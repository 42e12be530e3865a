//! The desktop hook's rules (`docs/specs/codexhost-steering.md`, "Desktop integration"), as a state machine
//! over facts: the hook's JavaScript reads the desktop's objects, feeds what
//! it read in here, and carries out what it is told. Nothing here calls the
//! desktop, waits or reads a clock: time comes in as `now` (ms), and every
//! bounded wait is a deadline the driver's one timer ends ([`DesktopHook::tick`]).
//!
//! - lanes (the engines' own, `flight`): one steer in flight per thread,
//!   the same message joins, a different one is refused `busy`;
//! - `tag`: the desktop's own `turn/steer` of an official or activeTurn
//!   steer, recognised by its id or its very input array;
//! - `route`: a newTurn's route, keyed by thread and message id, which lets
//!   exactly one request carrying the message leave;
//! - `new_turn` and `own`: each path's steps and how their failures are
//!   classified (before the message left: plain; after: `outcomeUnknown`);
//! - the unconfirmed ids: the engine's own message-id memory
//!   (`codexhost::recent`), so a retry the host would apply again is refused.
//!
//! ```
//! use renderer_steering::core::desktop::{Admission, DesktopHook, SteerCall};
//! let mut hook = DesktopHook::new(30_000);
//! let first = hook.steer(SteerCall::text("t", "use pnpm", Some("m-1")));
//! let Admission::Decide(steer) = first else { panic!() };
//! assert_eq!(hook.steer(SteerCall::text("t", "use pnpm", Some("m-1"))), Admission::Joined(steer));
//! assert_eq!(hook.steer(SteerCall::text("t", "use bun", Some("m-2"))), Admission::Busy);
//! ```

mod call;
mod events;
mod flow;
mod follow_ups;
mod journal;
mod new_turn;
mod own;
mod paths;
mod route;
mod steps;
mod tag;
mod types;

pub use call::{Build, Call, CallId, Entry, Read, Reply, Returned, Settled, Target, ValueFacts};
pub use flow::RequestCall;

pub use follow_ups::{already_paused, to_resume, FollowUp, FollowUpId, PAUSE_REASON};
pub use new_turn::{ActiveTurn, NewTurnFacts, NewTurnStep};
pub use own::Decided;
pub use route::{ROUTED_METHODS, STEER_FIELDS_OF_START};
pub use types::{Admission, Answer, Ended, ErrorFacts, Outgoing, Reconcile, Refusal, SteerCall, SteerId, Verdict, WaitId};

use flow::{Purpose, Stage};
use types::Effect;

use route::Route;
use tag::Tags;

use crate::core::codexhost::recent::{RecentMessages, Remembered};
use crate::core::codexhost::Delivery;
use crate::core::engine::{Dialect, Engine};
use crate::core::flight::{Admission as LaneAdmission, Ticket};
use crate::core::journal::JournalDialect;
use crate::core::requests::Pending;
use crate::core::sorted_map::SortedMap;
use crate::core::timeouts::Timeouts;
use crate::core::{Action, Failure, HostAnswer, Json};

/// What a refused retry says: the first attempt may already be in the thread.
const NOT_SENT_AGAIN: &str =
    "not sent again: the host does not deduplicate this message by clientUserMessageId, and the first attempt may already be in the thread";

/// One steer the hook handles, until its result is given.
#[derive(Debug)]
pub struct Steer {
    thread_id: String,
    text: String,
    /// The argument id, else `restoreMessage.id` (what joins and what is remembered).
    caller_id: Option<String>,
    argument_id: Option<String>,
    restore_id: Option<String>,
    input: u64,
    /// The newTurn bound: one deadline for the whole path.
    deadline: Option<u64>,
    /// The turn running when a newTurn began (None: it had ended).
    expected_turn_id: Option<String>,
    /// The engine's `hostDeduplicates` for this thread.
    host_deduplicates: bool,
    /// Its message left as a plain `turn/start` (never deduplicated).
    left_as_start: bool,
    /// An official or activeTurn steer's message left (and with which id).
    sent: bool,
    sent_id: Option<String>,
    /// The turn its message left into as a `turn/steer`.
    sent_turn: Option<String>,
    /// A same-id retry of an unknown outcome the host deduplicates: it
    /// leaves again only as a `turn/steer` into this turn (any, when `None`).
    resend_into: Option<Option<String>>,
    /// A newTurn's follow-ups the stop had paused before it (`None`: not
    /// read, so none is resumed).
    paused_before: Option<Vec<FollowUpId>>,
    /// Where it is on its path.
    stage: Stage,
    /// A newTurn's `startTurn` call (whose value it resolves with).
    start_call: Option<CallId>,
    /// What the driver read of the call for a newTurn: a tool output was
    /// given, `restoreMessage.context` is an object, the manager has `startTurn`.
    tool_output: bool,
    context_is_object: bool,
    start_turn: bool,
    /// A fresh id for a newTurn's message when the caller gave none.
    fresh_id: String,
}

/// The desktop hook: the shared [`Engine`] (its ops are the steers, its
/// lanes one steer in flight per thread, its pending requests the waits,
/// its action queue what the driver carries out) over the desktop's own
/// state ([`Desktop`]).
///
/// ```
/// use renderer_steering::core::desktop::DesktopHook;
/// let hook = DesktopHook::new(1_000);
/// assert_eq!((hook.steer_ms(), hook.live_state()), (1_000, 0));
/// ```
pub type DesktopHook = Engine<Desktop>;

/// What the desktop hook holds beyond the engine's shared state: the
/// desktop's own steers' tags, newTurn routes, the unconfirmed ids, the
/// calls out, and dispose's late window.
#[derive(Debug, Default)]
pub struct Desktop {
    tags: Tags,
    routes: Vec<Route>,
    /// Threads whose `startTurn` the hook is calling right now.
    starting: Vec<String>,
    unconfirmed: RecentMessages,
    /// One steer bound after dispose: late requests are no longer waited for.
    late_deadline: Option<u64>,
    late_over: bool,
    restored: bool,
    /// What the rules noted for the order to carry on with (`events.rs`).
    effects: Vec<Effect>,
    /// The calls made and not settled, and what each is for.
    calls: SortedMap<CallId, Purpose>,
    next_call: u64,
    /// The latest time an input brought.
    now: u64,
}

impl Dialect for Desktop {
    type Outcome = Settled;
    type Op = Steer;
    const JOURNAL: JournalDialect = JournalDialect::Codexhost;

    /// The hook sends no request of its own: the desktop's calls end through `called` and `settled`.
    fn on_answer(_: &mut Engine<Self>, _: Pending, _: HostAnswer, _: u64) {}

    fn on_dispose(engine: &mut Engine<Self>) {
        let now = engine.dialect.now;
        engine.end_all(now);
        engine.pump();
    }

    fn next_deadline(engine: &Engine<Self>) -> Option<u64> {
        engine.next_deadline()
    }

    fn held(&self) -> usize {
        self.routes.len() + self.calls.len()
    }
}

impl DesktopHook {
    /// A hook whose steers are bounded by `steer_ms`.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// assert_eq!(DesktopHook::new(100).next_deadline(), None);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn new(steer_ms: u64) -> Self {
        Engine::with_dialect(Timeouts { steer_ms, ..Timeouts::default() }, Desktop::default())
    }

    /// The `steerTurn` wrapper's first step: the desktop's own path for what
    /// the hook does not handle (after dispose, not text, a follower, the
    /// desktop's own `startTurn` handing its submission to `steerTurn`), a
    /// join or `busy` while the thread has a steer in flight, a refusal of a
    /// retry the host would apply again, else a steer to decide.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{Admission, DesktopHook, SteerCall};
    /// let mut hook = DesktopHook::new(100);
    /// assert_eq!(hook.steer(SteerCall::default()), Admission::Desktop);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn steer(&mut self, call: SteerCall) -> Admission {
        if self.is_disposed() {
            return Admission::Desktop;
        }
        let Some(thread_id) = call.thread_id.as_deref() else { return Admission::Desktop };
        let message_id = call.message_id();
        // The desktop's own startTurn, called by this hook, hands the
        // submission (its very input array) to its steerTurn: its own path,
        // never a loop. Another call with the same id is a steer of its own.
        let own_input = |r: &Route| self.ops.get(&r.steer).is_none_or(|s| call.input == 0 || s.input == call.input);
        let handed = message_id
            .and_then(|id| self.dialect.routes.iter().position(|r| r.thread_id == thread_id && r.message_id == id && own_input(r)));
        let handed = handed.map(|at| &mut self.dialect.routes[at]).filter(|r| r.start_out && !r.sent && !r.finished);
        if let Some(route) = handed {
            route.handed_to_steer = true;
            return Admission::Desktop;
        }
        if self.dialect.starting.iter().any(|t| t == thread_id) || call.follower {
            return Admission::Desktop;
        }
        let Some(text) = call.text.as_deref() else { return Admission::Desktop };
        let ticket = Ticket { op: SteerId(self.last_op_id().0 + 1), message_id: message_id.map(Into::into), draft: Json::of(text) };
        match self.lanes.peek_exclusive(thread_id, &ticket) {
            LaneAdmission::Join(steer) => return Admission::Joined(steer),
            LaneAdmission::Refused | LaneAdmission::Queued => return Admission::Busy,
            LaneAdmission::Start => {}
        }
        let mut resend_into = None;
        match message_id.and_then(|id| self.dialect.unconfirmed.unknown(thread_id, id)) {
            Some(Remembered::Unknown { deduplicated: false, .. }) => {
                return Admission::Refused(Refusal::new(Failure::outcome_unknown("steerTurn", NOT_SENT_AGAIN), message_id.map(Into::into)));
            }
            Some(Remembered::Unknown { turn_id, .. }) => resend_into = Some(turn_id),
            _ => {}
        }
        let id = ticket.op;
        self.new_op_id();
        self.lanes.admit_exclusive(thread_id, ticket);
        let steer = Steer {
            thread_id: thread_id.into(),
            text: text.into(),
            caller_id: message_id.map(Into::into),
            argument_id: call.argument_id,
            restore_id: call.restore_id,
            input: call.input,
            deadline: None,
            expected_turn_id: None,
            host_deduplicates: false,
            left_as_start: false,
            sent: false,
            sent_id: None,
            sent_turn: None,
            resend_into,
            paused_before: None,
            stage: Stage::Deciding,
            start_call: None,
            tool_output: call.tool_output,
            context_is_object: call.context_is_object,
            start_turn: call.start_turn,
            fresh_id: call.fresh_id,
        };
        self.ops.insert(id, steer);
        Admission::Decide(id)
    }

    /// Opens a wait for `steer` (its newTurn deadline, else one steer bound
    /// from `now`); ended at once (cancelled) after dispose.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn wait(&mut self, now: u64, steer: Option<SteerId>) -> WaitId {
        // A newTurn steer's route shares its deadline, and the steer is held while its route waits.
        let steer_deadline = steer.and_then(|s| self.ops.get(&s)).and_then(|s| s.deadline);
        let deadline = steer_deadline.unwrap_or(now.saturating_add(self.timeouts.steer_ms));
        self.wait_until(steer.unwrap_or(SteerId(0)), deadline)
    }

    /// Opens a wait of `owner` ending at `deadline`; ended at once (cancelled) after dispose.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn wait_until(&mut self, owner: SteerId, deadline: u64) -> WaitId {
        let id = self.requests.wait_until(owner, deadline);
        if self.is_disposed() {
            self.requests.settle(id);
            self.dialect.effects.push(Effect::Cancelled(id));
        }
        id
    }

    /// Time passed: ends waits, lanes and dispose's late window due at `now`.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn expire(&mut self, now: u64) {
        self.dialect.effects.extend(self.requests.expire(now).into_iter().map(|(id, _)| Effect::Expired(id)));
        self.lanes.expire(now);
        if self.dialect.late_deadline.is_some_and(|at| at <= now) && !self.dialect.late_over {
            self.dialect.late_over = true;
            self.release_routes();
            self.restore_when_idle();
        }
    }

    /// The earliest deadline still ahead (the driver's one timer).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// assert_eq!(DesktopHook::new(100).next_deadline(), None);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn next_deadline(&self) -> Option<u64> {
        let late = self.dialect.late_deadline.filter(|_| !self.dialect.late_over);
        [self.requests.next_deadline(), self.lanes.next_deadline(), late].into_iter().flatten().min()
    }

    /// Dispose: every wait ends (cancelled), routes whose `startTurn`
    /// settled go, and the late window opens.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn end_all(&mut self, now: u64) {
        self.dialect.effects.extend(self.requests.ids().into_iter().map(Effect::Cancelled));
        self.requests.clear();
        self.release_routes();
        if self.dialect.tags.any_tagged() || !self.dialect.routes.is_empty() {
            self.dialect.late_deadline = Some(now.saturating_add(self.timeouts.steer_ms));
        }
        self.restore_when_idle();
    }

    /// The steer bound in ms.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// assert_eq!(DesktopHook::new(7).steer_ms(), 7);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn steer_ms(&self) -> u64 {
        self.timeouts.steer_ms
    }

    /// The result of `steer` is given: its lane is free, and an unknown
    /// outcome the host would not deduplicate is remembered, so its retry is
    /// refused instead of applied twice.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn finish_steer(&mut self, steer: SteerId, verdict: Verdict, rethrown: Option<&ErrorFacts>) -> Verdict {
        let Some(s) = self.ops.remove(&steer) else { return verdict };
        self.lanes.finish(&s.thread_id, steer);
        if let Some(route) = self.dialect.routes.iter_mut().find(|r| r.steer == steer) {
            route.finished = true;
            self.release_route(steer);
        }
        let remember = !s.host_deduplicates || s.left_as_start;
        let failed_unknown = match &verdict {
            Verdict::Fail(refusal) => refusal.failure.is_outcome_unknown().then_some(refusal.message_id.as_deref()),
            Verdict::Rethrow => own::rethrown_unknown(rethrown),
            Verdict::Resolve => None,
        };
        self.journal_ended(steer, failed_unknown.is_none());
        if let (Verdict::Resolve, Some(paused_before)) = (&verdict, s.paused_before) {
            self.dialect.effects.push(Effect::Resume { thread_id: s.thread_id.clone(), paused_before });
        }
        if let Some(sent_id) = failed_unknown {
            // Where the host deduplicates, the retry may go again, but only as a turn/steer into the same turn.
            let what = Remembered::Unknown { deduplicated: !remember, turn_id: s.sent_turn.clone(), presented: Delivery::Official };
            for id in [sent_id, s.caller_id.as_deref()].into_iter().flatten() {
                self.dialect.unconfirmed.remember(&s.thread_id, id, &s.text, what.clone());
            }
        }
        verdict
    }

    /// Takes the layer out once disposed and nothing is left to follow: no
    /// route open, no activeTurn `steerTurn` whose late `turn/steer` must
    /// still be tagged (those at most one steer bound after dispose).
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn restore_when_idle(&mut self) {
        if !self.is_disposed()
            || self.dialect.restored
            || !self.dialect.routes.is_empty()
            || (self.dialect.tags.any_tagged() && !self.dialect.late_over)
        {
            return;
        }
        self.dialect.restored = true;
        self.actions.push_back(Action::Restore);
    }

    /// The thread a plain `turn/start` left on: the steer in flight there
    /// is no longer one the host deduplicates.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn left_as_start(&mut self, thread_id: &str) {
        if self.lanes.in_flight(thread_id).is_none() {
            return;
        }
        self.ops.retain(|_, s| {
            s.left_as_start |= s.thread_id == thread_id;
            true
        });
    }
}
