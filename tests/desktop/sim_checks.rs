//! The model desktop's checks on what the hook tells it (its actions, as
//! they come) and at the end of a script (after dispose, every call
//! settled, and time): every promise completed once, with a value or error
//! of a call made for it; calls name ops whose arguments are held; the
//! layer went once; journal records stay only for unknown outcomes; the
//! follow-ups resumed once per accepted newTurn.

use renderer_steering::core::desktop::{Build, Call, CallId, Settled, SteerId, Target};
use renderer_steering::core::journal::{storage_key, JournalDialect};
use renderer_steering::core::{Action, SteeringError};

use super::{Sim, STEER_MS};

/// The highest argument position of an op: a steer's `steerTurn` has nine, a request's `sendRequest` three.
fn arity(request: bool) -> usize {
    if request {
        3
    } else {
        9
    }
}

/// Every `Build::Arg` position in `build`.
fn positions(build: &Build, into: &mut Vec<usize>) {
    match build {
        Build::Arg(n) => into.push(*n),
        Build::Field(inner, _) | Build::Or(inner, ..) => positions(inner, into),
        Build::With(inner, entries) => {
            positions(inner, into);
            entries.iter().for_each(|e| positions(&e.value, into));
        }
        Build::Object(entries) => entries.iter().for_each(|e| positions(&e.value, into)),
        Build::Text(_) | Build::Literal(_) | Build::Unpause(_) => {}
    }
}

impl Sim {
    /// Carries out the hook's actions in order, as its driver does after each input.
    pub(super) fn carry_all(&mut self) {
        let actions: Vec<_> = std::iter::from_fn(|| self.hook.poll_action()).collect();
        let mut written = false;
        for action in actions {
            if written {
                assert!(
                    matches!(&action, Action::Call(c) if c.target == Target::OwnSend),
                    "a journal write not followed by its request: {action:?}"
                );
                written = false;
            }
            match action {
                Action::Call(call) => self.make(call),
                Action::Complete { op, result } => self.completed(op, result),
                Action::Journal { key, record: Some(record) } => {
                    // A same-id attempt writes the same record again (one record per message key).
                    self.journal.insert(key, record);
                    written = true;
                }
                Action::Journal { key, record: None } => {
                    assert!(self.journal.remove(&key).is_some(), "a record removed that was never written: {key}");
                }
                Action::Restore => {
                    assert!(self.disposed, "the layer went before dispose");
                    self.restored += 1;
                    assert_eq!(self.restored, 1, "the layer went twice");
                }
                Action::Released { op } => {
                    let route = self.routes.iter_mut().find(|r| r.steer == op && !r.released);
                    route.unwrap_or_else(|| panic!("released a route that is not open: {op:?}")).released = true;
                }
                Action::Delivered(reconcile) => assert!(!self.disposed, "the app told of {reconcile:?} after dispose"),
                Action::Report { call, .. } => {
                    let made = call.map(|c| self.made.get(&c).map(|m| m.target));
                    assert!(matches!(made, None | Some(Some(Target::Coordinator("mutate")))), "a report of {made:?}");
                }
                other => panic!("not a desktop hook's action: {other:?}"),
            }
        }
        assert!(!written, "a journal write not followed by its request");
    }

    /// A call names an op whose arguments are held, as its target takes them.
    pub(super) fn check_call(&mut self, call: &Call) {
        if call.target == Target::Coordinator("mutate") {
            assert_eq!(call.of, SteerId(0), "mutate takes no op's arguments");
            return self.resuming(call);
        }
        let o = self.ops.get(&call.of).unwrap_or_else(|| panic!("a call of an op never given: {call:?}"));
        assert!(o.held, "a call of an op whose arguments are no longer held: {call:?} {o:?}");
        assert_eq!(o.request, call.target == Target::OwnSend, "a call of the wrong kind of op: {call:?}");
        assert!(call.args.is_some() || call.target == Target::OwnSteer, "only the desktop's steerTurn takes the op's own arguments");
        let mut at = vec![];
        call.args.iter().flatten().for_each(|b| positions(b, &mut at));
        assert!(at.iter().all(|n| *n < arity(o.request)), "an argument the op does not have: {call:?}");
    }

    /// `mutate` resumes the follow-ups of one accepted newTurn steer, once.
    fn resuming(&mut self, call: &Call) {
        let Some([Build::Text(thread), Build::Unpause(before)]) = call.args.as_deref() else { panic!("mutate with {call:?}") };
        // Every follow-up paused before the steer is named (the model's queue:
        // one paused by an earlier stop, named after the steer, and the user's).
        let [renderer_steering::core::desktop::FollowUpId::Text(steer), renderer_steering::core::desktop::FollowUpId::Text(user)] =
            &before[..]
        else {
            panic!("paused before: {before:?}")
        };
        assert_eq!(user, "user", "the user's paused follow-up is left paused");
        let steer = SteerId(steer.parse().expect("a steer number"));
        let o = &self.ops[&steer];
        assert!(o.resolved && o.queue_given && o.thread == thread, "follow-ups resumed for a steer not accepted: {o:?}");
        let resumed = self.resumed.entry(steer).or_default();
        *resumed += 1;
        assert_eq!(*resumed, 1, "follow-ups resumed twice for {steer:?}");
    }

    /// An op's promise settles: once, with what a call made for it gave.
    fn completed(&mut self, op: SteerId, result: Result<Settled, SteeringError>) {
        match &result {
            Ok(Settled::Value(call)) => {
                assert!(self.made_for(op, *call).resolved, "{op:?} resolves with what {call:?} did not resolve with")
            }
            Ok(Settled::Rethrow(call, packaged)) => {
                let m = self.made_for(op, *call);
                assert!(m.threw || m.rejected || m.missing, "{op:?} rethrows what {call:?} did not throw");
                assert!(!packaged || m.error.as_ref().is_some_and(|e| e.package_error.is_some()), "not this package's error");
            }
            Ok(Settled::Built(_)) | Err(_) => {}
        }
        let rethrown = match &result {
            Ok(Settled::Rethrow(call, _)) => self.made.get(call).filter(|m| matches!(m.target, Target::OwnSteer | Target::StartTurn)),
            _ => None,
        };
        let rethrown_unknown = rethrown.and_then(|m| m.error.as_ref()).is_some_and(|e| e.package_error == Some(true));
        let o = self.ops.get_mut(&op).unwrap_or_else(|| panic!("a result for an op never given: {op:?}"));
        assert!(o.promised, "a result for an op whose promise was never given: {op:?}");
        o.completed += 1;
        assert_eq!(o.completed, 1, "{op:?} completed twice");
        o.held = false;
        if o.request {
            return;
        }
        o.resolved = o.new_turn && matches!(result, Ok(Settled::Value(_)));
        let unknown = matches!(&result, Err(e) if e.failure.is_outcome_unknown()) || (rethrown_unknown && !o.follower);
        if !unknown {
            return;
        }
        // The ids it may have carried: its own, and the one its failure names as sent.
        let named = match &result {
            Err(e) => e.message_id.clone(),
            _ => rethrown.and_then(|m| m.error.as_ref()).and_then(|e| e.message_id.clone()),
        };
        let ids: Vec<String> = o.caller_id.iter().chain(o.message.iter()).chain(o.sent_ids.iter()).chain(named.iter()).cloned().collect();
        let thread = o.thread;
        if let (false, Some(id)) = (o.dedup, o.caller_id.clone()) {
            self.unconfirmed.insert((thread, id));
        }
        for id in ids {
            self.unknown_keys.insert(storage_key("sim:", JournalDialect::Codexhost, thread, &id));
        }
    }

    /// The call `call`, which must have been made for `op`.
    fn made_for(&self, op: SteerId, call: CallId) -> &super::Made {
        self.made.get(&call).filter(|m| m.of == op).unwrap_or_else(|| panic!("{op:?} settles with {call:?}, not made for it"))
    }

    /// Dispose, every call out settles (but the desktop's own steers and
    /// requests the script left unanswered), time passes: every promise has
    /// its result, nothing is left to wait for, and the layer went.
    pub(super) fn finish(mut self) {
        self.dispose();
        let settles = |p: &super::Pending, sim: &Self| !p.never || !matches!(sim.made[&p.call].target, Target::OwnSteer | Target::OwnSend);
        while let Some(at) = self.pending.iter().position(|p| settles(p, &self)) {
            let k = self.script.next();
            self.settle(at, k);
        }
        self.pass_time(STEER_MS * 10, false);
        self.pass_time(STEER_MS * 10, true);
        for (op, o) in &self.ops {
            // A follower's steer settles as the desktop's own steerTurn does: one left unanswered stays pending.
            let unanswered =
                o.follower && self.pending.iter().any(|p| self.made[&p.call].of == *op && self.made[&p.call].target == Target::OwnSteer);
            assert!(!o.promised || o.completed == 1 || (unanswered && o.completed == 0), "{op:?} never completed: {o:?}");
            let accepted = u32::from(o.resolved && o.queue_given);
            assert_eq!(self.resumed.get(op).copied().unwrap_or(0), accepted, "follow-ups of {op:?} not resumed once: {o:?}");
        }
        assert_eq!(self.restored, 1, "the layer stayed after dispose");
        assert_eq!(self.hook.poll_timeout(), None, "a deadline outlived dispose");
        // A record stays only for a message whose outcome is unknown.
        for key in self.journal.keys() {
            assert!(self.unknown_keys.contains(key), "a record kept without an unknown outcome: {key}");
        }
    }
}
