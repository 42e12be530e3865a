//! How each step of a desktop steer leads to the next (`flow.rs` takes the
//! inputs): which call comes after which answer, what a call's end, a
//! deadline or dispose means at each stage, and the actions that settle a
//! steer. The rules each step applies are in `new_turn`, `own` and `route`.

use super::call::{route_key, text, Build, Call, CallId, Read, Settled, Target, ValueFacts};
use super::flow::{entry, failure, started_turn, Purpose, Stage};
use super::new_turn::{ActiveTurn, NewTurnFacts, NewTurnStep};
use super::own::Decided;
use super::types::{Effect, Ended, ErrorFacts, Verdict, WaitId};
use super::{DesktopHook, FollowUp, SteerId};
use crate::core::codexhost::Delivery;
use crate::core::{Action, Json, SteeringError};

impl DesktopHook {
    /// The next action for the driver, in order; `None` once drained.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// assert!(DesktopHook::new(1).poll_action().is_none());
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn poll_action(&mut self) -> Option<Action<Settled>> {
        self.actions.pop_front()
    }

    /// When to call [`Self::tick`] next: the earliest deadline still ahead.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// assert_eq!(DesktopHook::new(1).poll_timeout(), None);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn poll_timeout(&self) -> Option<u64> {
        self.next_deadline()
    }

    /// A new op number (a steer's, a request's).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn new_op(&mut self) -> SteerId {
        self.next += 1;
        SteerId(self.next)
    }

    /// Asks the driver to make a call, kept as `purpose` until it settles.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn make(
        &mut self,
        of: SteerId,
        target: Target,
        args: Option<Vec<Build>>,
        read: Read,
        awaited: bool,
        purpose: Purpose,
    ) -> CallId {
        self.next_call += 1;
        let id = CallId(self.next_call);
        if purpose != Purpose::Passed {
            self.calls.insert(id, purpose);
        }
        self.actions.push_back(Action::Call(Call { id, of, target, args, read, awaited }));
        id
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn complete(&mut self, op: SteerId, result: Result<Settled, SteeringError>) {
        self.actions.push_back(Action::Complete { op, result });
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn report(&mut self, what: &'static str, call: Option<CallId>) {
        self.actions.push_back(Action::Report { what, call });
    }

    /// Settles a steer as its verdict says (`call`: whose value or error it takes).
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn conclude(&mut self, steer: SteerId, verdict: Verdict, call: Option<CallId>) {
        let result = match (verdict, call) {
            (Verdict::Fail(refusal), _) => Err(failure(refusal)),
            (Verdict::Resolve, Some(call)) => Ok(Settled::Value(call)),
            (Verdict::Rethrow, Some(call)) => Ok(Settled::Rethrow(call, false)),
            (_, None) => Ok(Settled::Built(Json::null())),
        };
        self.complete(steer, result);
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn stage_of(&self, steer: SteerId) -> Option<Stage> {
        self.steers.get(&steer).map(|s| s.stage)
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    fn set_stage(&mut self, steer: SteerId, stage: Stage) {
        if let Some(s) = self.steers.get_mut(&steer) {
            s.stage = stage;
        }
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn thread_of(&self, steer: SteerId) -> String {
        self.steers.get(&steer).map(|s| s.thread_id.clone()).unwrap_or_default()
    }

    /// A call returned (not yet settled): what a synchronous read says.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn returned(&mut self, call: CallId, purpose: Purpose, facts: ValueFacts) {
        match purpose {
            Purpose::PendingStart(steer) => {
                self.calls.remove(&call);
                if facts.yes {
                    self.new_turn_read(steer, ActiveTurn::Unreadable, true);
                } else {
                    self.ask_active_turn(steer);
                }
            }
            Purpose::ActiveTurn(steer) => {
                self.calls.remove(&call);
                let turn = match facts.turn_id {
                    _ if facts.absent => ActiveTurn::Ended,
                    Some(id) => ActiveTurn::Running(id),
                    None => ActiveTurn::Unreadable,
                };
                self.new_turn_read(steer, turn, false);
            }
            Purpose::Below(steer) if !facts.yes => {
                self.calls.remove(&call);
                self.earlier_check(steer, None);
            }
            Purpose::Below(steer) => self.earlier_check(steer, Some(call)),
            Purpose::Follower(steer) => {
                let now = self.now;
                self.follower_called(now, steer, false);
            }
            Purpose::Start(steer) => self.start_called(steer, false),
            _ => {}
        }
    }

    /// A call threw when made.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn threw(&mut self, call: CallId, purpose: Purpose, facts: ErrorFacts) {
        match purpose.clone() {
            Purpose::Decide(steer) => self.on_decided(steer, call, Err(facts)),
            Purpose::Follower(steer) => {
                let now = self.now;
                self.follower_called(now, steer, true);
                self.complete(steer, Ok(Settled::Rethrow(call, false)));
            }
            Purpose::Own(steer) => {
                self.own_settled(steer);
                self.call_ended(steer, call, Ended::Error(facts), None);
            }
            Purpose::Start(steer) => {
                self.start_called(steer, true);
                self.call_ended(steer, call, Ended::Error(facts), None);
            }
            Purpose::FollowUps(steer) => self.call_ended(steer, call, Ended::Error(facts), None),
            Purpose::Resume(wait) => {
                self.waits.settle(wait);
                self.report("could not resume follow-ups", Some(call));
            }
            Purpose::PlainStart(route) => {
                self.routed_threw(route, &facts.of_desktop());
            }
            Purpose::Routed(op, route, _, wait) => {
                self.waits.settle(wait);
                let refusal = self.routed_threw(route, &facts.of_desktop());
                self.complete(op, Err(failure(refusal)));
            }
            // A read that threw reads as one that is not there.
            Purpose::PendingStart(_) | Purpose::ActiveTurn(_) | Purpose::Below(_) => self.missing(call, purpose),
            // The desktop's own request threw: the wrapper throws it on, unchanged.
            Purpose::Answer { .. } | Purpose::Passed => {}
        }
    }

    /// A function the engine asked for is not there (or a read of it failed).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn missing(&mut self, call: CallId, purpose: Purpose) {
        match purpose {
            Purpose::PendingStart(steer) => self.ask_active_turn(steer),
            Purpose::ActiveTurn(steer) => self.new_turn_read(steer, ActiveTurn::Unreadable, false),
            Purpose::Below(steer) => self.earlier_check(steer, None),
            Purpose::FollowUps(steer) => match self.stage_of(steer) {
                Some(Stage::FollowUps(c, wait, read)) if c == call && self.waits.settle(wait).is_some() => {
                    if read {
                        self.start_turn(steer, false, None);
                    } else {
                        self.read_queue(steer);
                    }
                }
                _ => {}
            },
            Purpose::Resume(wait) => {
                self.waits.settle(wait);
            }
            Purpose::Answer { .. } | Purpose::Passed => {}
            other @ (Purpose::Decide(_)
            | Purpose::Follower(_)
            | Purpose::Own(_)
            | Purpose::Start(_)
            | Purpose::PlainStart(_)
            | Purpose::Routed(..)) => self.threw(call, other, ErrorFacts::words("the desktop's function is missing")),
        }
    }

    /// `call` ended as `ended`: the steer waiting on it goes on, if its wait is still open.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn call_ended(&mut self, steer: SteerId, call: CallId, ended: Ended, facts: Option<ValueFacts>) {
        let wait =
            match self.stage_of(steer) {
                Some(
                    Stage::Own(c, wait) | Stage::FollowUps(c, wait, _) | Stage::Starting(c, wait) | Stage::Earlier(wait, None, Some(c)),
                ) if c == call => wait,
                _ => return,
            };
        if self.waits.settle(wait).is_some() {
            self.advance(steer, ended, facts);
        }
    }

    /// The steer's current stage ended as `ended`: its next step.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn advance(&mut self, steer: SteerId, ended: Ended, facts: Option<ValueFacts>) {
        let now = self.now;
        let start_call = self.steers.get(&steer).and_then(|s| s.start_call);
        match self.stage_of(steer) {
            Some(Stage::Own(call, _)) => {
                let verdict = self.own_ended(steer, ended);
                self.conclude(steer, verdict, Some(call));
            }
            Some(Stage::Earlier(..)) => {
                let step = self.earlier_ended(steer, ended);
                self.next_step(steer, step, start_call, Self::load_follow_ups);
            }
            Some(Stage::FollowUps(_, _, read)) => match (ended, read) {
                (Ended::Ok, false) => self.read_queue(steer),
                (Ended::Ok, true) => self.start_turn(steer, false, facts.and_then(|f| f.follow_ups)),
                (how, _) => self.start_turn(steer, how == Ended::Timeout, None),
            },
            Some(Stage::Starting(..)) => {
                let step = self.start_ended(now, steer, ended);
                self.next_step(steer, step, start_call, |_, _| {});
            }
            Some(Stage::Done(_)) => {
                let verdict = self.done_ended(steer, ended);
                self.conclude(steer, verdict, start_call);
            }
            _ => {}
        }
    }

    /// Carries out a newTurn step: `go` on, wait, or settle.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn next_step(&mut self, steer: SteerId, step: NewTurnStep, start_call: Option<CallId>, go: fn(&mut Self, SteerId)) {
        match step {
            NewTurnStep::Go => go(self, steer),
            NewTurnStep::Build(_) => {}
            NewTurnStep::WaitEarlier(wait, route) => self.set_stage(steer, Stage::Earlier(wait, route, None)),
            NewTurnStep::WaitDone(wait) => self.set_stage(steer, Stage::Done(wait)),
            NewTurnStep::Done(verdict) => self.conclude(steer, verdict, start_call),
        }
    }

    /// The decider answered (or failed): the steer's path.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn on_decided(&mut self, steer: SteerId, call: CallId, result: Result<ValueFacts, ErrorFacts>) {
        let decision = result.as_ref().ok().map(|f| (f.delivery.as_deref().and_then(Delivery::from_name), f.host_deduplicates));
        let follower = result.as_ref().is_ok_and(|f| f.follower);
        let now = self.now;
        match self.decided(steer, decision, follower) {
            Decided::Follower => {
                self.set_stage(steer, Stage::Follower);
                self.make(steer, Target::OwnSteer, None, Read::Nothing, true, Purpose::Follower(steer));
            }
            Decided::Own(tag) => {
                self.own_called(steer, tag);
                let wait = self.wait(now, None);
                let call = self.make(steer, Target::OwnSteer, None, Read::Nothing, true, Purpose::Own(steer));
                self.set_stage(steer, Stage::Own(call, wait));
            }
            Decided::NewTurn => {
                let thread_id = self.thread_of(steer);
                self.make(
                    steer,
                    Target::SubmissionHost("hasPendingTurnStart"),
                    Some(vec![text(&thread_id)]),
                    Read::IsTrue,
                    false,
                    Purpose::PendingStart(steer),
                );
            }
            Decided::Done(Verdict::Rethrow) => {
                let packaged = result.err().is_some_and(|f| f.package_error.is_some());
                self.complete(steer, Ok(Settled::Rethrow(call, packaged)));
            }
            Decided::Done(verdict) => self.conclude(steer, verdict, Some(call)),
        }
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    fn ask_active_turn(&mut self, steer: SteerId) {
        let thread_id = self.thread_of(steer);
        self.make(
            steer,
            Target::SubmissionHost("getActiveTurnId"),
            Some(vec![text(&thread_id)]),
            Read::TurnId,
            false,
            Purpose::ActiveTurn(steer),
        );
    }

    /// The submission host was read: the newTurn's checks, then an earlier attempt.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn new_turn_read(&mut self, steer: SteerId, active_turn: ActiveTurn, pending_turn_start: bool) {
        let Some(s) = self.steers.get(&steer) else { return };
        let facts = NewTurnFacts {
            pending_turn_start,
            active_turn,
            tool_output: s.tool_output,
            context_is_object: s.context_is_object,
            start_turn: s.start_turn,
            fresh_id: s.fresh_id.clone(),
        };
        let now = self.now;
        match self.new_turn(now, steer, facts) {
            NewTurnStep::Build(message_id) => {
                let thread_id = self.thread_of(steer);
                if self.open_route(&thread_id, &message_id).is_some() {
                    self.earlier_check(steer, None);
                } else {
                    let key = route_key(&thread_id, &message_id);
                    self.make(steer, Target::Below, Some(vec![Build::Text(key)]), Read::Defined, true, Purpose::Below(steer));
                }
            }
            step => self.next_step(steer, step, None, |_, _| {}),
        }
    }

    /// Whether to wait for an earlier attempt's route (`below`: the call
    /// whose promise a disposed hook below gave for it).
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn earlier_check(&mut self, steer: SteerId, below: Option<CallId>) {
        let now = self.now;
        match self.earlier(now, steer, below.is_some()) {
            NewTurnStep::WaitEarlier(wait, route) => self.set_stage(steer, Stage::Earlier(wait, route, below.filter(|_| route.is_none()))),
            step => self.next_step(steer, step, None, Self::load_follow_ups),
        }
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    fn load_follow_ups(&mut self, steer: SteerId) {
        self.follow_ups_call(steer, "loadMessages", Read::Nothing, false);
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    fn read_queue(&mut self, steer: SteerId) {
        self.follow_ups_call(steer, "readMessages", Read::FollowUps, true);
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    fn follow_ups_call(&mut self, steer: SteerId, method: &'static str, read: Read, reading: bool) {
        let now = self.now;
        let wait = self.wait(now, Some(steer));
        let thread_id = self.thread_of(steer);
        let call = self.make(steer, Target::Coordinator(method), Some(vec![text(&thread_id)]), read, true, Purpose::FollowUps(steer));
        self.set_stage(steer, Stage::FollowUps(call, wait, reading));
    }

    /// The follow-ups were read (or not): `startTurn`, unless the steer ends here.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn start_turn(&mut self, steer: SteerId, used_up: bool, follow_ups: Option<Vec<FollowUp>>) {
        let now = self.now;
        match self.start(now, steer, used_up, follow_ups.as_deref()) {
            NewTurnStep::Go => {
                let wait = self.wait(now, Some(steer));
                let (thread_id, message_id) =
                    self.steers.get(&steer).map(|s| (s.thread_id.clone(), s.sent_id.clone().unwrap_or_default())).unwrap_or_default();
                let args = vec![text(&thread_id), submission(&thread_id, &message_id), Build::Arg(8)];
                let call = self.make(steer, Target::StartTurn, Some(args), Read::Nothing, true, Purpose::Start(steer));
                if let Some(s) = self.steers.get_mut(&steer) {
                    s.start_call = Some(call);
                }
                self.set_stage(steer, Stage::Starting(call, wait));
            }
            step => self.next_step(steer, step, None, |_, _| {}),
        }
    }

    /// A route's `turn/steer` ended: its request op settles.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn routed_settled(
        &mut self,
        op: SteerId,
        route: SteerId,
        rewrite: bool,
        call: CallId,
        (ended, facts): (Ended, Option<ValueFacts>),
    ) {
        let answer = facts.map(|f| super::Answer {
            turn_id: f.turn_id.filter(|id| !id.is_empty()),
            delivery: f.delivery.as_deref().and_then(Delivery::from_name),
        });
        let turn_id = answer.as_ref().and_then(|a| a.turn_id.clone());
        let result = match self.routed_ended(route, ended, answer) {
            Verdict::Resolve if rewrite => Ok(Settled::Built(started_turn(turn_id))),
            Verdict::Resolve => Ok(Settled::Value(call)),
            Verdict::Rethrow => Ok(Settled::Rethrow(call, false)),
            Verdict::Fail(refusal) => Err(failure(refusal)),
        };
        self.complete(op, result);
    }

    /// Resumes the follow-ups the stop paused (a newTurn accepted), on one steer bound.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn resume(&mut self, thread_id: &str, paused_before: Vec<super::FollowUpId>) {
        let now = self.now;
        let wait = self.wait(now, None);
        let args = vec![text(thread_id), Build::Unpause(paused_before)];
        self.make(SteerId(0), Target::Coordinator("mutate"), Some(args), Read::Nothing, true, Purpose::Resume(wait));
    }

    /// Carries out what the rules noted: waits ended, routes gone or done, follow-ups to resume.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn pump(&mut self) {
        while !self.effects.is_empty() {
            for effect in std::mem::take(&mut self.effects) {
                match effect {
                    Effect::Expired(wait) => self.wait_ended(wait, Ended::Timeout),
                    Effect::Cancelled(wait) => self.wait_ended(wait, Ended::Cancelled),
                    Effect::Released(route) => self.route_gone(route),
                    Effect::Done(route) => self.route_done(route),
                    Effect::Resume { thread_id, paused_before } => self.resume(&thread_id, paused_before),
                }
            }
        }
    }

    /// A wait ended by its deadline or dispose.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn wait_ended(&mut self, wait: WaitId, how: Ended) {
        let waiting = self.steers.iter().find(|(_, s)| stage_wait(s.stage) == Some(wait)).map(|(id, _)| *id);
        if let Some(steer) = waiting {
            return self.advance(steer, how, None);
        }
        let call = self
            .calls
            .iter()
            .find(|(_, p)| matches!(p, Purpose::Routed(.., w) | Purpose::Resume(w) if *w == wait))
            .map(|(c, p)| (*c, p.clone()));
        match call {
            Some((call, Purpose::Routed(op, route, rewrite, _))) => {
                self.calls.remove(&call);
                self.routed_settled(op, route, rewrite, call, (how, None));
            }
            Some((call, _)) => {
                self.calls.remove(&call);
                self.report("resuming follow-ups did not finish", None);
            }
            None => {}
        }
    }

    /// A route is gone: an attempt of the same message waiting for it goes on.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn route_gone(&mut self, route: SteerId) {
        let waiting: Vec<(SteerId, WaitId)> = self
            .steers
            .iter()
            .filter_map(|(id, s)| match s.stage {
                Stage::Earlier(wait, Some(r), _) if r == route => Some((*id, wait)),
                _ => None,
            })
            .collect();
        for (steer, wait) in waiting {
            if self.waits.settle(wait).is_some() {
                self.advance(steer, Ended::Ok, None);
            }
        }
    }

    /// A route's one request ended: its steer, waiting after `startTurn`, ends too.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn route_done(&mut self, route: SteerId) {
        if let Some(Stage::Done(wait)) = self.stage_of(route) {
            if self.waits.settle(wait).is_some() {
                self.advance(route, Ended::Ok, None);
            }
        }
    }
}

/// The wait a stage holds.
#[cfg_attr(feature = "size-first", optimize(size))]
fn stage_wait(stage: Stage) -> Option<WaitId> {
    match stage {
        Stage::Own(_, wait) | Stage::Earlier(wait, ..) | Stage::FollowUps(_, wait, _) | Stage::Starting(_, wait) | Stage::Done(wait) => {
            Some(wait)
        }
        Stage::Deciding | Stage::Follower => None,
    }
}

/// The submission a newTurn's `startTurn` takes, as the spec builds it
/// from the steer's arguments (`steerTurn(threadId, input, restoreMessage,
/// serviceTier, attachments, clientUserMessageId, additionalContext, toolOutput, options)`).
#[cfg_attr(feature = "size-first", optimize(size))]
fn submission(thread_id: &str, message_id: &str) -> Build {
    let restore = || Build::Arg(2);
    let context = || Build::field(restore(), "context");
    let or = |value: Build, default: Json, null_too: bool| Build::Or(Box::new(value), default, null_too);
    let request = Build::Object(vec![
        entry("threadId", text(thread_id)),
        entry("input", Build::Arg(1)),
        entry("clientUserMessageId", text(message_id)),
        entry("additionalContext", Build::Arg(6)),
        entry("responsesapiClientMetadata", Build::field(restore(), "responsesapiClientMetadata")),
        entry("cwd", Build::field(restore(), "cwd")),
        entry("serviceTier", Build::Arg(3)),
        entry("model", Build::Literal(Json::null())),
        entry("effort", Build::Literal(Json::null())),
        entry("collaborationMode", or(Build::field(context(), "collaborationMode"), Json::null(), false)),
    ]);
    let context = Build::Object(vec![
        entry("attachments", or(Build::Arg(4), Json::no_items(), true)),
        entry("commentAttachments", or(Build::field(context(), "commentAttachments"), Json::no_items(), true)),
        entry("mcpAppModelContextAttachments", Build::field(context(), "mcpAppModelContextAttachments")),
        entry("useAppServerPermissionDefault", Build::Literal(Json::of(&true))),
    ]);
    Build::Object(vec![entry("request", request), entry("context", context)])
}
