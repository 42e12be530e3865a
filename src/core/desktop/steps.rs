//! What the end of each call the desktop hook's engine made means at each
//! stage of a steer (`flow.rs` takes the inputs): a synchronous read
//! answered, a call threw or was not there, a call the steer waits on
//! ended, and the action that settles a steer. The next call of each path
//! is in `paths.rs`; deadlines, dispose and routes ending waits in
//! `events.rs`; the rules each step applies in `new_turn`, `own` and `route`.

use super::call::{Build, Call, CallId, Read, Settled, Target, ValueFacts};
use super::flow::{failure, Purpose, Stage};
use super::new_turn::{ActiveTurn, NewTurnStep};
use super::types::{Ended, ErrorFacts, Verdict};
use super::{DesktopHook, SteerId};
use crate::core::{Action, Json, SteeringError};

impl DesktopHook {
    /// A new op number (a steer's, a request's).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn new_op(&mut self) -> SteerId {
        self.new_op_id()
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
        self.dialect.next_call += 1;
        let id = CallId(self.dialect.next_call);
        if purpose != Purpose::Passed {
            self.dialect.calls.insert(id, purpose);
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

    /// Settles a steer as its verdict says (`call`: whose value or error it
    /// takes; `packaged`: that error is this package's, its draft the op's).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn conclude(&mut self, steer: SteerId, verdict: Verdict, call: Option<CallId>, packaged: bool) {
        let result = match (verdict, call) {
            (Verdict::Fail(refusal), _) => Err(failure(refusal)),
            (Verdict::Resolve, Some(call)) => Ok(Settled::Value(call)),
            (Verdict::Rethrow, Some(call)) => Ok(Settled::Rethrow(call, packaged)),
            (_, None) => Ok(Settled::Built(Json::null())),
        };
        self.complete(steer, result);
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn stage_of(&self, steer: SteerId) -> Option<Stage> {
        self.ops.get(&steer).map(|s| s.stage)
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn set_stage(&mut self, steer: SteerId, stage: Stage) {
        if let Some(s) = self.ops.get_mut(&steer) {
            s.stage = stage;
        }
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn thread_of(&self, steer: SteerId) -> String {
        self.ops.get(&steer).map(|s| s.thread_id.clone()).unwrap_or_default()
    }

    /// A call returned (not yet settled): what a synchronous read says.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn returned(&mut self, call: CallId, purpose: Purpose, facts: ValueFacts) {
        match purpose {
            Purpose::PendingStart(steer) => {
                self.dialect.calls.remove(&call);
                if facts.yes {
                    self.new_turn_read(steer, ActiveTurn::Unreadable, true);
                } else {
                    self.ask_active_turn(steer);
                }
            }
            Purpose::ActiveTurn(steer) => {
                self.dialect.calls.remove(&call);
                let turn = match facts.turn_id {
                    _ if facts.absent => ActiveTurn::Ended,
                    Some(id) => ActiveTurn::Running(id),
                    None => ActiveTurn::Unreadable,
                };
                self.new_turn_read(steer, turn, false);
            }
            Purpose::Below(steer) if !facts.yes => {
                self.dialect.calls.remove(&call);
                self.earlier_check(steer, None);
            }
            Purpose::Below(steer) => self.earlier_check(steer, Some(call)),
            Purpose::Follower(steer) => {
                let now = self.dialect.now;
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
                let now = self.dialect.now;
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
                self.requests.settle(wait);
                self.report("could not resume follow-ups", Some(call));
            }
            Purpose::PlainStart(route) => {
                self.routed_threw(route, &facts);
            }
            Purpose::Routed(op, route, _, wait) => {
                self.requests.settle(wait);
                let refusal = self.routed_threw(route, &facts);
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
                Some(Stage::FollowUps(c, wait, read)) if c == call && self.requests.settle(wait).is_some() => {
                    if read {
                        self.start_turn(steer, false, None);
                    } else {
                        self.read_queue(steer);
                    }
                }
                _ => {}
            },
            Purpose::Resume(wait) => {
                self.requests.settle(wait);
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
        if self.requests.settle(wait).is_some() {
            self.advance(steer, ended, facts);
        }
    }

    /// The steer's current stage ended as `ended`: its next step.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn advance(&mut self, steer: SteerId, ended: Ended, facts: Option<ValueFacts>) {
        let now = self.dialect.now;
        let start_call = self.ops.get(&steer).and_then(|s| s.start_call);
        let packaged = matches!(&ended, Ended::Error(f) if f.package_error.is_some());
        match self.stage_of(steer) {
            Some(Stage::Own(call, _)) => {
                let verdict = self.own_ended(steer, ended);
                self.conclude(steer, verdict, Some(call), packaged);
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
            Some(Stage::Starting(..)) => match self.start_ended(now, steer, ended) {
                NewTurnStep::Done(verdict) => self.conclude(steer, verdict, start_call, packaged),
                step => self.next_step(steer, step, start_call, |_, _| {}),
            },
            Some(Stage::Done(_)) => {
                let verdict = self.done_ended(steer, ended);
                self.conclude(steer, verdict, start_call, false);
            }
            _ => {}
        }
    }

    /// Carries out a newTurn step: `go` on, wait, or settle.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn next_step(&mut self, steer: SteerId, step: NewTurnStep, start_call: Option<CallId>, go: fn(&mut Self, SteerId)) {
        match step {
            NewTurnStep::Go => go(self, steer),
            NewTurnStep::Build(_) => {}
            NewTurnStep::WaitEarlier(wait, route) => self.set_stage(steer, Stage::Earlier(wait, route, None)),
            NewTurnStep::WaitDone(wait) => self.set_stage(steer, Stage::Done(wait)),
            NewTurnStep::Done(verdict) => self.conclude(steer, verdict, start_call, false),
        }
    }
}
