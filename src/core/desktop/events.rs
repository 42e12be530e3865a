//! What ends a wait besides its call: its deadline, dispose, and an
//! earlier attempt's route going or a route's one request ending; the
//! rules note these (`Effect`) and the order carries on from them here.

use super::flow::{Purpose, Stage};
use super::types::{Effect, Ended, WaitId};
use super::{DesktopHook, SteerId};

impl DesktopHook {
    /// Carries out what the rules noted: waits ended, routes gone or done, follow-ups to resume.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn pump(&mut self) {
        while !self.dialect.effects.is_empty() {
            for effect in std::mem::take(&mut self.dialect.effects) {
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
    pub(super) fn wait_ended(&mut self, wait: WaitId, how: Ended) {
        let waiting = self.ops.iter().find(|(_, s)| stage_wait(s.stage) == Some(wait)).map(|(id, _)| *id);
        if let Some(steer) = waiting {
            return self.advance(steer, how, None);
        }
        let call = self
            .dialect
            .calls
            .iter()
            .find(|(_, p)| matches!(p, Purpose::Routed(.., w) | Purpose::Resume(w) if *w == wait))
            .map(|(c, p)| (*c, p.clone()));
        match call {
            Some((call, Purpose::Routed(op, route, rewrite, _))) => {
                self.dialect.calls.remove(&call);
                self.routed_settled(op, route, rewrite, call, (how, None));
            }
            Some((call, _)) => {
                self.dialect.calls.remove(&call);
                self.report("resuming follow-ups did not finish", None);
            }
            None => {}
        }
    }

    /// A route is gone: an attempt of the same message waiting for it goes on.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn route_gone(&mut self, route: SteerId) {
        let waiting: Vec<(SteerId, WaitId)> = self
            .ops
            .iter()
            .filter_map(|(id, s)| match s.stage {
                Stage::Earlier(wait, Some(r), _) if r == route => Some((*id, wait)),
                _ => None,
            })
            .collect();
        for (steer, wait) in waiting {
            if self.requests.settle(wait).is_some() {
                self.advance(steer, Ended::Ok, None);
            }
        }
    }

    /// A route's one request ended: its steer, waiting after `startTurn`, ends too.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn route_done(&mut self, route: SteerId) {
        if let Some(Stage::Done(wait)) = self.stage_of(route) {
            if self.requests.settle(wait).is_some() {
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
