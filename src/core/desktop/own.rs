//! After the engine decided: the follower re-check, dispose while the
//! decision was out, and the official and activeTurn paths, whose message
//! the desktop's own `steerTurn` sends. Once its request has left, a failure
//! that is not the host's own error answer is `outcomeUnknown` (with the id
//! that was sent), never a plain failure that invites a resend.

use super::types::{Answer, Ended, ErrorFacts, Reconcile, Refusal, SteerId, Verdict};
use super::DesktopHook;
use crate::core::codexhost::Delivery;
use crate::core::Failure;

/// What the `steerTurn` wrapper does once the engine decided.
///
/// ```
/// use renderer_steering::core::desktop::Decided;
/// assert_ne!(Decided::Follower, Decided::NewTurn);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Decided {
    /// The window became a follower while the decision was out: the
    /// desktop's own steer, its result untouched ([`DesktopHook::follower_called`]).
    Follower,
    /// The desktop's own `steerTurn` ([`DesktopHook::own_called`]); its
    /// `turn/steer` is tagged with this delivery (None: official, untouched).
    Own(Option<Delivery>),
    /// Presented through `startTurn` ([`DesktopHook::new_turn`]).
    NewTurn,
    /// The steer's result, now.
    Done(Verdict),
}

/// What an ended wait says, for failures after the message may have left.
#[cfg_attr(feature = "size-first", optimize(size))]
fn unknown_detail(ended: &Ended) -> &'static str {
    match ended {
        Ended::Timeout => "no answer within the steer bound",
        _ => "disposed before the answer",
    }
}

impl DesktopHook {
    /// The engine's decision for `steer` (`None`: `decide` failed, its
    /// error is the steer's, unchanged; a delivery of `None`: one this hook
    /// does not know, refused closed), with the stream role read again.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{Admission, Decided, DesktopHook, SteerCall};
    /// # use renderer_steering::core::codexhost::Delivery;
    /// let mut hook = DesktopHook::new(100);
    /// let Admission::Decide(s) = hook.steer(SteerCall::text("t", "x", None)) else { panic!() };
    /// assert_eq!(hook.decided(s, Some((Some(Delivery::ActiveTurn), true)), false), Decided::Own(Some(Delivery::ActiveTurn)));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn decided(&mut self, steer: SteerId, decision: Option<(Option<Delivery>, bool)>, follower: bool) -> Decided {
        let Some((delivery, host_deduplicates)) = decision else { return Decided::Done(self.finish_steer(steer, Verdict::Rethrow, None)) };
        if follower {
            return Decided::Follower;
        }
        // Disposed while the inspect was out: nothing but the inspect has left.
        let (Some(delivery), false, Some(s)) = (delivery, self.is_disposed(), self.ops.get_mut(&steer)) else {
            return Decided::Done(self.finish_steer(steer, Verdict::Fail(Refusal::new(Failure::disposed(), None)), None));
        };
        s.host_deduplicates = host_deduplicates;
        match delivery {
            Delivery::NewTurn => Decided::NewTurn,
            Delivery::ActiveTurn => Decided::Own(Some(Delivery::ActiveTurn)),
            Delivery::Official => Decided::Own(None),
        }
    }

    /// The follower's own steer was called (`threw`: the steer's result is
    /// that throw); otherwise the thread stays in flight until
    /// [`DesktopHook::follower_settled`] or one steer bound from `now`.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{Admission, DesktopHook, SteerCall};
    /// let mut hook = DesktopHook::new(100);
    /// let Admission::Decide(s) = hook.steer(SteerCall::text("t", "x", None)) else { panic!() };
    /// hook.follower_called(0, s, false);
    /// assert_eq!(hook.next_deadline(), Some(100));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn follower_called(&mut self, now: u64, steer: SteerId, threw: bool) {
        if threw {
            self.finish_steer(steer, Verdict::Rethrow, None);
        } else if let Some(s) = self.ops.remove(&steer) {
            self.lanes.hold_until(&s.thread_id, steer, now.saturating_add(self.timeouts.steer_ms));
            self.ops.insert(steer, s);
        }
    }

    /// The follower's own steer settled: its thread is free.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{Admission, DesktopHook, SteerCall};
    /// let mut hook = DesktopHook::new(100);
    /// let Admission::Decide(s) = hook.steer(SteerCall::text("t", "x", None)) else { panic!() };
    /// hook.follower_called(0, s, false);
    /// hook.follower_settled(s);
    /// assert!(matches!(hook.steer(SteerCall::text("t", "y", None)), Admission::Decide(_)));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn follower_settled(&mut self, steer: SteerId) {
        self.finish_steer(steer, Verdict::Resolve, None);
    }

    /// The desktop's own `steerTurn` is about to be called for an official
    /// or activeTurn steer: its request is recognised from now on, by the
    /// ids it was given or its input array, until [`DesktopHook::own_settled`].
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{Admission, DesktopHook, Outgoing, SteerCall};
    /// # use renderer_steering::core::codexhost::Delivery;
    /// let mut hook = DesktopHook::new(100);
    /// let Admission::Decide(s) = hook.steer(SteerCall::text("t", "x", Some("m"))) else { panic!() };
    /// hook.own_called(s, Some(Delivery::ActiveTurn));
    /// assert_eq!(hook.request(0, "turn/steer", "t", Some("m"), 0), Outgoing::Own(s, Some(Delivery::ActiveTurn)));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn own_called(&mut self, steer: SteerId, tag: Option<Delivery>) {
        let Some(s) = self.ops.get(&steer) else { return };
        let ids = [&s.argument_id, &s.restore_id].into_iter().flatten().cloned().collect();
        self.dialect.tags.add(steer, &s.thread_id.clone(), tag.unwrap_or(Delivery::Official), ids, s.input);
    }

    /// The desktop's own `steerTurn` settled (or threw): no later request is
    /// this steer's; a disposed hook's layer may go.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{Admission, DesktopHook, Outgoing, SteerCall};
    /// let mut hook = DesktopHook::new(100);
    /// let Admission::Decide(s) = hook.steer(SteerCall::text("t", "x", Some("m"))) else { panic!() };
    /// hook.own_called(s, None);
    /// hook.own_settled(s);
    /// assert_eq!(hook.request(0, "turn/steer", "t", Some("m"), 0), Outgoing::Pass);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn own_settled(&mut self, steer: SteerId) {
        self.dialect.tags.forget(steer);
        self.restore_when_idle();
    }

    /// How the desktop's own `steerTurn` ended (bounded by one steer bound):
    /// before its request left, or the package's own failure, the desktop's
    /// failure unchanged; the host's error answer unchanged; any other end
    /// after it left is `outcomeUnknown`.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{Admission, DesktopHook, Ended, SteerCall, Verdict};
    /// let mut hook = DesktopHook::new(100);
    /// let Admission::Decide(s) = hook.steer(SteerCall::text("t", "x", Some("m"))) else { panic!() };
    /// let Verdict::Fail(r) = hook.own_ended(s, Ended::Timeout) else { panic!() };
    /// assert_eq!((r.failure.kind(), r.message_id.as_deref()), ("outcomeUnknown", Some("m")));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn own_ended(&mut self, steer: SteerId, ended: Ended) -> Verdict {
        let (sent, id) = self.ops.get(&steer).map(|s| (s.sent, s.sent_id.clone().or(s.argument_id.clone()))).unwrap_or((false, None));
        let verdict = match &ended {
            Ended::Ok => Verdict::Resolve,
            Ended::Error(facts) if !sent || facts.package_error.is_some() || facts.rpc.is_some() => Verdict::Rethrow,
            Ended::Error(facts) => Verdict::Fail(Refusal::new(Failure::outcome_unknown("turn/steer", &facts.words), id)),
            _ => Verdict::Fail(Refusal::new(Failure::outcome_unknown("steerTurn", unknown_detail(&ended)), id)),
        };
        let rethrown = match &ended {
            Ended::Error(facts) => Some(facts),
            _ => None,
        };
        self.finish_steer(steer, verdict, rethrown)
    }

    /// The host answered a request carrying a message presented as
    /// `presented`: a `delivery` other than that is reconciled
    /// (`Action::Delivered`, the desktop hook's `onReconcile`).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{Answer, DesktopHook};
    /// # use renderer_steering::core::Action;
    /// # use renderer_steering::core::codexhost::Delivery;
    /// let mut hook = DesktopHook::new(100);
    /// hook.answered(Delivery::ActiveTurn, "t", Some("m"), Answer { turn_id: Some("turn-2".into()), delivery: Some(Delivery::NewTurn) });
    /// assert!(matches!(hook.poll_action(), Some(Action::Delivered(_))));
    /// hook.answered(Delivery::ActiveTurn, "t", Some("m"), Answer { turn_id: None, delivery: Some(Delivery::ActiveTurn) });
    /// assert!(hook.poll_action().is_none());
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn answered(&mut self, presented: Delivery, thread_id: &str, message_id: Option<&str>, answer: Answer) {
        // Once disposed, the app is not called back any more.
        let Some(delivery) = answer.delivery.filter(|&d| d != presented && !self.is_disposed()) else { return };
        let reconcile =
            Reconcile { thread_id: thread_id.into(), message_id: message_id.map(Into::into), presented, delivery, turn_id: answer.turn_id };
        self.actions.push_back(crate::core::Action::Delivered(reconcile));
    }
}

/// Whether a rethrown error counts as an unknown outcome (the package's own
/// `outcomeUnknown`), and the id it carries.
#[cfg_attr(feature = "size-first", optimize(size))]
pub(crate) fn rethrown_unknown(facts: Option<&ErrorFacts>) -> Option<Option<&str>> {
    facts.filter(|f| f.package_error == Some(true)).map(|f| f.message_id.as_deref())
}
