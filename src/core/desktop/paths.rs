//! Each path's next call, once the one before it ended: after the
//! decision (the desktop's own steer, or the newTurn path's reads), an
//! earlier attempt's route, the follow-ups, `startTurn` with the
//! submission built as the spec says, a route's `turn/steer` settling its
//! request, and the follow-ups resumed.

use super::call::{route_key, text, Build, CallId, Read, Settled, Target, ValueFacts};
use super::flow::{entry, failure, started_turn, Purpose, Stage};
use super::new_turn::{ActiveTurn, NewTurnFacts, NewTurnStep};
use super::own::Decided;
use super::types::{Ended, ErrorFacts, Verdict};
use super::{DesktopHook, FollowUp, SteerId};
use crate::core::codexhost::Delivery;
use crate::core::Json;

impl DesktopHook {
    /// The decider answered (or failed): the steer's path.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn on_decided(&mut self, steer: SteerId, call: CallId, result: Result<ValueFacts, ErrorFacts>) {
        let decision = result.as_ref().ok().map(|f| (f.delivery.as_deref().and_then(Delivery::from_name), f.host_deduplicates));
        let follower = result.as_ref().is_ok_and(|f| f.follower);
        let now = self.dialect.now;
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
            Decided::Done(verdict) => self.conclude(steer, verdict, Some(call), false),
        }
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn ask_active_turn(&mut self, steer: SteerId) {
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
    pub(super) fn new_turn_read(&mut self, steer: SteerId, active_turn: ActiveTurn, pending_turn_start: bool) {
        let Some(s) = self.ops.get(&steer) else { return };
        let facts = NewTurnFacts {
            pending_turn_start,
            active_turn,
            tool_output: s.tool_output,
            context_is_object: s.context_is_object,
            start_turn: s.start_turn,
            fresh_id: s.fresh_id.clone(),
        };
        let now = self.dialect.now;
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
    pub(super) fn earlier_check(&mut self, steer: SteerId, below: Option<CallId>) {
        let now = self.dialect.now;
        match self.earlier(now, steer, below.is_some()) {
            NewTurnStep::WaitEarlier(wait, route) => self.set_stage(steer, Stage::Earlier(wait, route, below.filter(|_| route.is_none()))),
            step => self.next_step(steer, step, None, Self::load_follow_ups),
        }
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn load_follow_ups(&mut self, steer: SteerId) {
        self.follow_ups_call(steer, "loadMessages", Read::Nothing, false);
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn read_queue(&mut self, steer: SteerId) {
        self.follow_ups_call(steer, "readMessages", Read::FollowUps, true);
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn follow_ups_call(&mut self, steer: SteerId, method: &'static str, read: Read, reading: bool) {
        let now = self.dialect.now;
        let wait = self.wait(now, Some(steer));
        let thread_id = self.thread_of(steer);
        let call = self.make(steer, Target::Coordinator(method), Some(vec![text(&thread_id)]), read, true, Purpose::FollowUps(steer));
        self.set_stage(steer, Stage::FollowUps(call, wait, reading));
    }

    /// The follow-ups were read (or not): `startTurn`, unless the steer ends here.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn start_turn(&mut self, steer: SteerId, used_up: bool, follow_ups: Option<Vec<FollowUp>>) {
        let now = self.dialect.now;
        match self.start(now, steer, used_up, follow_ups.as_deref()) {
            NewTurnStep::Go => {
                let wait = self.wait(now, Some(steer));
                let (thread_id, message_id) =
                    self.ops.get(&steer).map(|s| (s.thread_id.clone(), s.sent_id.clone().unwrap_or_default())).unwrap_or_default();
                let args = vec![text(&thread_id), submission(&thread_id, &message_id), Build::Arg(8)];
                let call = self.make(steer, Target::StartTurn, Some(args), Read::Nothing, true, Purpose::Start(steer));
                if let Some(s) = self.ops.get_mut(&steer) {
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
    pub(super) fn resume(&mut self, thread_id: &str, paused_before: Vec<super::FollowUpId>) {
        let now = self.dialect.now;
        let wait = self.wait(now, None);
        let args = vec![text(thread_id), Build::Unpause(paused_before)];
        self.make(SteerId(0), Target::Coordinator("mutate"), Some(args), Read::Nothing, true, Purpose::Resume(wait));
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
