//! One steer in flight per thread (spec "Concurrency and idempotency"): the
//! same submission (same id, same words) joins the steer in flight, any
//! other message is refused `busy` until it settles.

use super::types::{Admission, SteerId};
use crate::core::sorted_map::SortedMap;

/// The steer in flight on a thread.
#[derive(Debug)]
struct Lane {
    steer: SteerId,
    message_id: Option<String>,
    text: String,
    /// A follower's own steer holds the lane until it settles or this deadline.
    until: Option<u64>,
}

/// Lanes by thread id.
#[derive(Debug, Default)]
pub(crate) struct Lanes {
    by_thread: SortedMap<String, Lane>,
}

impl Lanes {
    /// Joins or refuses a steer when its thread has one in flight; `None`
    /// when the thread is free.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn admit(&self, thread_id: &str, message_id: Option<&str>, text: &str) -> Option<Admission> {
        let lane = self.by_thread.get(thread_id)?;
        if message_id.is_some() && lane.message_id.as_deref() == message_id && lane.text == text {
            return Some(Admission::Joined(lane.steer));
        }
        Some(Admission::Busy)
    }

    /// Takes the thread for `steer`.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn take(&mut self, thread_id: &str, steer: SteerId, message_id: Option<&str>, text: &str) {
        self.by_thread.insert(thread_id.into(), Lane { steer, message_id: message_id.map(Into::into), text: text.into(), until: None });
    }

    /// Holds the lane of `steer` until it is released or `deadline`.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn hold(&mut self, thread_id: &str, steer: SteerId, deadline: u64) {
        if let Some(lane) = self.by_thread.get_mut(thread_id).filter(|lane| lane.steer == steer) {
            lane.until = Some(deadline);
        }
    }

    /// Frees the thread when `steer` still holds it.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn release(&mut self, thread_id: &str, steer: SteerId) {
        if self.by_thread.get(thread_id).is_some_and(|lane| lane.steer == steer) {
            self.by_thread.remove(thread_id);
        }
    }

    /// Frees lanes held past their deadline.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn expire(&mut self, now: u64) {
        self.by_thread.retain(|_, lane| lane.until.is_none_or(|until| until > now));
    }

    /// The earliest deadline of a held lane.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn next_deadline(&self) -> Option<u64> {
        self.by_thread.values().filter_map(|lane| lane.until).min()
    }

    /// True when `thread_id` has a steer in flight.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn is_taken(&self, thread_id: &str) -> bool {
        self.by_thread.contains_key(thread_id)
    }
}
