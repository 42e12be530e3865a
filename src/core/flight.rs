//! The one place where "one steer in flight", "a steer never overtakes a
//! queued message" and "the same submission joins, a different one waits or
//! is refused" live. Every dialect and the desktop hook admit submissions
//! through [`Lanes`].

use std::collections::VecDeque;

use super::action::OpId;
use super::json::Json;
use super::sorted_map::SortedMap;

/// Identity of a submission for the "same message joins" rule.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ticket {
    /// The submission.
    pub(crate) op: OpId,
    /// The caller's message id, if any.
    pub(crate) message_id: Option<String>,
    /// The input, for comparing.
    pub(crate) draft: Json,
}

impl Ticket {
    /// Same caller message id and same input.
    pub(crate) fn same_message(&self, other: &Ticket) -> bool {
        self.message_id.is_some() && self.message_id == other.message_id && self.draft == other.draft
    }
}

/// What admission decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admission {
    /// It is now the one in flight.
    Start,
    /// It is the same submission as the one in flight (that op): send nothing.
    Join(OpId),
    /// Something is in flight; a different message is refused.
    Refused,
    /// It waits at the tail of the queue.
    Queued,
}

#[derive(Debug, Default)]
struct Lane {
    in_flight: Option<Ticket>,
    queued: VecDeque<Ticket>,
    /// The one in flight holds the lane until it finishes or this deadline
    /// (a follower's own steer, which the engine does not see end).
    until: Option<u64>,
}

/// Per-key (thread or session) flight control.
#[derive(Debug, Default)]
pub(crate) struct Lanes {
    lanes: SortedMap<String, Lane>,
}

impl Lanes {
    /// What [`Self::admit_exclusive`] would decide, without taking the lane.
    pub(crate) fn peek_exclusive(&self, key: &str, ticket: &Ticket) -> Admission {
        match self.lanes.get(key).and_then(|lane| lane.in_flight.as_ref()) {
            None => Admission::Start,
            Some(current) if current.same_message(ticket) => Admission::Join(current.op),
            Some(_) => Admission::Refused,
        }
    }

    /// codexhost rule: start when idle, join the same message, refuse another.
    pub(crate) fn admit_exclusive(&mut self, key: &str, ticket: Ticket) -> Admission {
        let lane = self.lanes.get_or_insert_with(key.to_string(), Default::default);
        match &lane.in_flight {
            None => {
                lane.in_flight = Some(ticket);
                Admission::Start
            }
            Some(current) if current.same_message(&ticket) => Admission::Join(current.op),
            Some(_) => Admission::Refused,
        }
    }

    /// ACP rule: start only when `may_start`, nothing is in flight and nothing
    /// is queued; otherwise wait at the tail (a steer never jumps the queue).
    pub(crate) fn admit_fifo(&mut self, key: &str, ticket: Ticket, may_start: bool) -> Admission {
        let lane = self.lanes.get_or_insert_with(key.to_string(), Default::default);
        if may_start && lane.in_flight.is_none() && lane.queued.is_empty() {
            lane.in_flight = Some(ticket);
            Admission::Start
        } else {
            lane.queued.push_back(ticket);
            Admission::Queued
        }
    }

    /// Puts a submission back at the head of the queue (it was not consumed
    /// and must keep its place, e.g. steering turned out to be unsupported).
    pub(crate) fn requeue_front(&mut self, key: &str, op: OpId) {
        if let Some(lane) = self.lanes.get_mut(key) {
            if let Some(ticket) = lane.in_flight.take_if(|t| t.op == op) {
                lane.queued.push_front(ticket);
            }
        }
    }

    /// Moves the head of the queue into flight, if nothing is in flight.
    pub(crate) fn start_next(&mut self, key: &str) -> Option<OpId> {
        let lane = self.lanes.get_mut(key)?;
        if lane.in_flight.is_some() {
            return None;
        }
        let ticket = lane.queued.pop_front()?;
        let op = ticket.op;
        lane.in_flight = Some(ticket);
        Some(op)
    }

    /// Ends a submission (in flight or queued); empty lanes are dropped so
    /// per-key state does not grow.
    pub(crate) fn finish(&mut self, key: &str, op: OpId) {
        if let Some(lane) = self.lanes.get_mut(key) {
            if lane.in_flight.as_ref().is_some_and(|t| t.op == op) {
                lane.in_flight = None;
                lane.until = None;
            }
            lane.queued.retain(|t| t.op != op);
            if lane.in_flight.is_none() && lane.queued.is_empty() {
                self.lanes.remove(key);
            }
        }
    }

    /// Lets `op`, in flight for `key`, hold the lane only until `deadline`.
    pub(crate) fn hold_until(&mut self, key: &str, op: OpId, deadline: u64) {
        if let Some(lane) = self.lanes.get_mut(key).filter(|lane| lane.in_flight.as_ref().is_some_and(|t| t.op == op)) {
            lane.until = Some(deadline);
        }
    }

    /// Frees the lanes held past their deadline at `now`.
    pub(crate) fn expire(&mut self, now: u64) {
        self.lanes.retain(|_, lane| lane.until.is_none_or(|until| until > now));
    }

    /// The earliest deadline of a held lane.
    pub(crate) fn next_deadline(&self) -> Option<u64> {
        self.lanes.values().filter_map(|lane| lane.until).min()
    }

    /// The submission in flight for `key`.
    pub(crate) fn in_flight(&self, key: &str) -> Option<OpId> {
        self.lanes.get(key)?.in_flight.as_ref().map(|t| t.op)
    }

    /// How many submissions wait in `key`'s queue (not counting the one in flight).
    pub(crate) fn queued_len(&self, key: &str) -> usize {
        self.lanes.get(key).map_or(0, |l| l.queued.len())
    }

    /// The oldest submission waiting in `key`'s queue.
    pub(crate) fn queued_head(&self, key: &str) -> Option<OpId> {
        self.lanes.get(key)?.queued.front().map(|t| t.op)
    }

    /// The queued submissions for `key`, oldest first.
    pub(crate) fn queued_ops(&self, key: &str) -> Vec<OpId> {
        self.lanes.get(key).map(|l| l.queued.iter().map(|t| t.op).collect()).unwrap_or_default()
    }

    /// Number of keys with live state.
    pub(crate) fn len(&self) -> usize {
        self.lanes.len()
    }

    /// True when no key has live state.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.lanes.is_empty()
    }
}

#[cfg(test)]
mod tests;
