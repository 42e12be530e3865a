//! The newTurn path's steps: the desktop's binding and the submission's
//! requirements, waiting for an earlier attempt's route, the one steer
//! bound the whole path shares (as a deadline), the route opened around
//! the desktop's `startTurn`, and how the steer ends: the route's request
//! decides; after it left, a failure is never a plain one.

use super::follow_ups::{already_paused, FollowUp};
use super::route::{answered, Abandoned, Route};
use super::types::{Ended, Refusal, SteerId, Verdict, WaitId};
use super::DesktopHook;
use crate::core::Failure;

/// What `getActiveTurnId(threadId)` of the desktop's submission host gave.
///
/// ```
/// use renderer_steering::core::desktop::ActiveTurn;
/// assert_ne!(ActiveTurn::Ended, ActiveTurn::Unreadable);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ActiveTurn {
    /// The running turn's id.
    Running(String),
    /// `null` or `undefined`: no turn runs.
    Ended,
    /// Missing, threw, or not an id: the binding is missing.
    Unreadable,
}

/// What the driver read before a newTurn.
///
/// ```
/// use renderer_steering::core::desktop::{ActiveTurn, NewTurnFacts};
/// let facts = NewTurnFacts { pending_turn_start: false, active_turn: ActiveTurn::Running("turn-1".into()), tool_output: false, context_is_object: true, start_turn: true, fresh_id: "f".into() };
/// assert!(facts.start_turn);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct NewTurnFacts {
    /// `hasPendingTurnStart(threadId) === true`.
    pub pending_turn_start: bool,
    /// `getActiveTurnId(threadId)`.
    pub active_turn: ActiveTurn,
    /// A tool output was given (a steer cannot replace it).
    pub tool_output: bool,
    /// `restoreMessage.context` is an object.
    pub context_is_object: bool,
    /// The manager has a `startTurn`.
    pub start_turn: bool,
    /// A fresh random id, used when the caller gave none.
    pub fresh_id: String,
}

/// What the newTurn path does next.
///
/// ```
/// use renderer_steering::core::desktop::NewTurnStep;
/// assert_eq!(NewTurnStep::Go, NewTurnStep::Go);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum NewTurnStep {
    /// Go on.
    Go,
    /// Build the submission with this message id and go on.
    Build(String),
    /// An earlier attempt of this message has a route open: wait (this
    /// wait, until that route's `Released`; of this hook when `Some`,
    /// else ask the disposed hooks below).
    WaitEarlier(WaitId, Option<SteerId>),
    /// `startTurn` resolved: wait for the route's one request to end
    /// (the route's end, or this wait).
    WaitDone(WaitId),
    /// The steer ends.
    Done(Verdict),
}

impl DesktopHook {
    /// The newTurn path begins at `now` (one steer bound from here covers it
    /// all): the pending start, the binding, the tool output and the
    /// context are checked; its message id chosen.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{ActiveTurn, Admission, DesktopHook, NewTurnFacts, NewTurnStep, SteerCall};
    /// let mut hook = DesktopHook::new(100);
    /// let Admission::Decide(s) = hook.steer(SteerCall::text("t", "x", None)) else { panic!() };
    /// let facts = NewTurnFacts { pending_turn_start: false, active_turn: ActiveTurn::Ended, tool_output: false, context_is_object: true, start_turn: true, fresh_id: "f".into() };
    /// assert_eq!(hook.new_turn(0, s, facts), NewTurnStep::Build("f".into()));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn new_turn(&mut self, now: u64, steer: SteerId, facts: NewTurnFacts) -> NewTurnStep {
        let deadline = now.saturating_add(self.timeouts.steer_ms);
        let Some(s) = self.ops.get_mut(&steer) else { return NewTurnStep::Done(Verdict::Fail(Refusal::new(Failure::disposed(), None))) };
        s.deadline = Some(deadline);
        let failure = if facts.pending_turn_start {
            Some(Failure::pending_turn_start())
        } else if facts.active_turn == ActiveTurn::Unreadable {
            Some(Failure::missing_binding("the desktop's submission binding is missing: a new turn cannot be started"))
        } else if facts.tool_output {
            Some(Failure::invalid_input("a steer cannot replace a tool response"))
        } else if !facts.context_is_object {
            Some(Failure::invalid_input("restoreMessage.context must be an object"))
        } else if !facts.start_turn {
            Some(Failure::missing_binding("startTurn is missing"))
        } else {
            None
        };
        if let Some(failure) = failure {
            return NewTurnStep::Done(self.finish_steer(steer, Verdict::Fail(Refusal::new(failure, None)), None));
        }
        let message_id = s.argument_id.clone().or(s.restore_id.clone()).unwrap_or(facts.fresh_id);
        s.sent_id = Some(message_id.clone());
        if let ActiveTurn::Running(turn) = facts.active_turn {
            s.expected_turn_id = Some(turn);
        }
        NewTurnStep::Build(message_id)
    }

    /// Before `startTurn`: an earlier attempt of this very message whose
    /// route is still open makes this one wait for it (`below`: a disposed
    /// hook below this one has such a route); one whose `startTurn` resolved
    /// before its request came refuses this one (`pendingTurnStart`).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, NewTurnStep, SteerId};
    /// let mut hook = DesktopHook::new(100);
    /// assert!(matches!(hook.earlier(0, SteerId(1), false), NewTurnStep::Done(_)));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn earlier(&mut self, now: u64, steer: SteerId, below: bool) -> NewTurnStep {
        let Some((thread_id, id)) = self.ops.get(&steer).map(|s| (s.thread_id.clone(), s.sent_id.clone().unwrap_or_default())) else {
            return NewTurnStep::Done(Verdict::Fail(Refusal::new(Failure::disposed(), None)));
        };
        let own = self.route_mut(&thread_id, &id).map(|r| (r.steer, r.start_out));
        match own {
            Some((_, false)) => {
                NewTurnStep::Done(self.finish_steer(steer, Verdict::Fail(Refusal::new(Failure::pending_turn_start(), Some(id))), None))
            }
            Some((route, true)) => NewTurnStep::WaitEarlier(self.wait(now, Some(steer)), Some(route)),
            None if below => NewTurnStep::WaitEarlier(self.wait(now, Some(steer)), None),
            None => NewTurnStep::Go,
        }
    }

    /// How the wait for an earlier attempt's route ended.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, Ended, NewTurnStep, SteerId};
    /// assert!(matches!(DesktopHook::new(1).earlier_ended(SteerId(1), Ended::Timeout), NewTurnStep::Done(_)));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn earlier_ended(&mut self, steer: SteerId, ended: Ended) -> NewTurnStep {
        let id = self.ops.get(&steer).and_then(|s| s.sent_id.clone());
        let failure = match ended {
            Ended::Cancelled => Failure::disposed(),
            _ if self.is_disposed() => Failure::disposed(),
            Ended::Ok => return NewTurnStep::Go,
            _ => Failure::pending_turn_start(),
        };
        NewTurnStep::Done(self.finish_steer(steer, Verdict::Fail(Refusal::new(failure, id)), None))
    }

    /// The follow-ups were read (`follow_ups`; `None`: they could not be,
    /// so none is resumed; `used_up`: reading them used up the bound);
    /// `startTurn` is called next unless the steer ends here. From now on
    /// the route takes the message's one request, and a `steerTurn` call of
    /// the thread while `startTurn` runs is the desktop's own.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, NewTurnStep, SteerId};
    /// assert!(matches!(DesktopHook::new(1).start(0, SteerId(1), false, None), NewTurnStep::Done(_)));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn start(&mut self, now: u64, steer: SteerId, used_up: bool, follow_ups: Option<&[FollowUp]>) -> NewTurnStep {
        let disposed = self.is_disposed();
        let steer_ms = self.timeouts.steer_ms;
        let Some(s) = self.ops.get_mut(&steer) else {
            return NewTurnStep::Done(Verdict::Fail(Refusal::new(Failure::disposed(), None)));
        };
        s.paused_before = follow_ups.map(already_paused);
        let (id, deadline) = (s.sent_id.clone(), s.deadline.unwrap_or(now));
        let failure = if disposed {
            Some(Failure::disposed())
        } else if used_up || now >= deadline {
            Some(Failure::timeout("startTurn", steer_ms))
        } else {
            None
        };
        if let Some(failure) = failure {
            return NewTurnStep::Done(self.finish_steer(steer, Verdict::Fail(Refusal::new(failure, id)), None));
        }
        let route = Route {
            steer,
            thread_id: s.thread_id.clone(),
            message_id: id.unwrap_or_default(),
            expected_turn_id: s.expected_turn_id.clone(),
            deadline,
            sent: false,
            abandoned: None,
            start_out: true,
            start_resolved: false,
            finished: false,
            start_seen: false,
            handed_to_steer: false,
            done: None,
        };
        self.dialect.starting.push(s.thread_id.clone());
        self.dialect.routes.push(route);
        NewTurnStep::Go
    }

    /// `startTurn` returned (`threw`: it threw, and has settled).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, SteerId};
    /// DesktopHook::new(1).start_called(SteerId(1), true);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn start_called(&mut self, steer: SteerId, threw: bool) {
        let thread_id = self.route_by_steer(steer).map(|r| {
            r.start_out = r.start_out && !threw;
            r.thread_id.clone()
        });
        if let Some(at) = thread_id.and_then(|t| self.dialect.starting.iter().position(|s| *s == t)) {
            self.dialect.starting.remove(at);
        }
    }

    /// `startTurn` settled (`resolved`, or rejected): its route may go.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, SteerId};
    /// DesktopHook::new(1).start_settled(SteerId(1), true);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn start_settled(&mut self, steer: SteerId, resolved: bool) {
        if let Some(route) = self.route_by_steer(steer) {
            route.start_out = false;
            route.start_resolved = resolved;
            self.release_route(steer);
        }
    }

    /// How the wait on `startTurn` (bounded by the steer's deadline) ended.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, Ended, NewTurnStep, SteerId};
    /// assert!(matches!(DesktopHook::new(1).start_ended(0, SteerId(1), Ended::Timeout), NewTurnStep::Done(_)));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn start_ended(&mut self, now: u64, steer: SteerId, ended: Ended) -> NewTurnStep {
        let steer_ms = self.timeouts.steer_ms;
        let Some(route) = self.route_by_steer(steer) else {
            return NewTurnStep::Done(self.finish_steer(steer, Verdict::Fail(Refusal::new(Failure::disposed(), None)), None));
        };
        let (sent, id, plain) = (route.sent, Some(route.message_id.clone()), route.expected_turn_id.is_none());
        let failure = match &ended {
            Ended::Ok => match route.done.clone() {
                Some(done) => return NewTurnStep::Done(self.done(steer, done)),
                None => return NewTurnStep::WaitDone(self.wait(now, Some(steer))),
            },
            Ended::Error(facts) if facts.package_error.is_some() => {
                return NewTurnStep::Done(self.finish_steer(steer, Verdict::Rethrow, Some(facts)))
            }
            Ended::Error(facts) if !sent => Failure::transport("startTurn", facts.words.clone()),
            Ended::Error(facts) if plain => answered("turn/start", facts),
            Ended::Error(facts) => Failure::outcome_unknown("startTurn", &facts.words),
            Ended::Timeout if !sent => Failure::timeout("startTurn", steer_ms),
            Ended::Cancelled if !sent => Failure::disposed(),
            Ended::Timeout => Failure::outcome_unknown("startTurn", "no answer within the steer bound"),
            Ended::Cancelled => Failure::outcome_unknown("startTurn", "disposed before the answer"),
        };
        match ended {
            Ended::Timeout => self.abandon(steer, Abandoned::Timeout),
            Ended::Cancelled => self.abandon(steer, Abandoned::Cancelled),
            _ => {}
        }
        NewTurnStep::Done(self.finish_steer(steer, Verdict::Fail(Refusal::new(failure, id)), None))
    }

    /// How the wait for the route's one request (after `startTurn` resolved) ended.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, Ended, SteerId, Verdict};
    /// assert!(matches!(DesktopHook::new(1).done_ended(SteerId(1), Ended::Timeout), Verdict::Fail(_)));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn done_ended(&mut self, steer: SteerId, ended: Ended) -> Verdict {
        let Some(route) = self.route_by_steer(steer) else {
            return self.finish_steer(steer, Verdict::Fail(Refusal::new(Failure::disposed(), None)), None);
        };
        if let (Ended::Ok, Some(done)) = (&ended, route.done.clone()) {
            return self.done(steer, done);
        }
        let (sent, id) = (route.sent, Some(route.message_id.clone()));
        let how = if ended == Ended::Timeout { Abandoned::Timeout } else { Abandoned::Cancelled };
        route.abandoned = Some(how);
        let detail = match (sent, how) {
            (false, _) => "startTurn resolved before its turn/start was sent",
            (true, Abandoned::Timeout) => "no answer within the steer bound",
            (true, Abandoned::Cancelled) => "disposed before the answer",
        };
        self.finish_steer(steer, Verdict::Fail(Refusal::new(Failure::outcome_unknown("startTurn", detail), id)), None)
    }

    /// The steer ends as its route's one request did (`None`: accepted; the
    /// steer resolves with `startTurn`'s own result).
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn done(&mut self, steer: SteerId, done: Option<Refusal>) -> Verdict {
        let verdict = done.map_or(Verdict::Resolve, Verdict::Fail);
        self.finish_steer(steer, verdict, None)
    }
}
