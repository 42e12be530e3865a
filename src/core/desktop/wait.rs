//! The hook's bounded waits as deadlines: the driver owns one timer, set to
//! the earliest deadline; the core says which waits it ends, so no wait on
//! the desktop or the host outlives its bound, and dispose ends them all.

use super::types::{Effect, WaitId};
use crate::core::sorted_map::SortedMap;

/// Open waits by id, each with its deadline (ms on the driver's clock).
#[derive(Debug, Default)]
pub(crate) struct Waits {
    next: u64,
    open: SortedMap<WaitId, u64>,
}

impl Waits {
    /// Opens a wait that ends at `deadline` unless closed first.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn open(&mut self, deadline: u64) -> WaitId {
        self.next += 1;
        let id = WaitId(self.next);
        self.open.insert(id, deadline);
        id
    }

    /// The waited-for call settled first: true when the wait was still
    /// open (its outcome is the call's), false when it had already ended.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn close(&mut self, id: WaitId) -> bool {
        self.open.remove(&id).is_some()
    }

    /// Ends the waits whose deadline is `now` or earlier.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn expire(&mut self, now: u64, effects: &mut Vec<Effect>) {
        let ended: Vec<WaitId> = self.open.iter().filter(|(_, &at)| at <= now).map(|(&id, _)| id).collect();
        for id in ended {
            self.open.remove(&id);
            effects.push(Effect::Expired(id));
        }
    }

    /// Ends every wait (dispose).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn cancel_all(&mut self, effects: &mut Vec<Effect>) {
        for &id in self.open.keys() {
            effects.push(Effect::Cancelled(id));
        }
        self.open.clear();
    }

    /// The earliest deadline of an open wait.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn next_deadline(&self) -> Option<u64> {
        self.open.values().copied().min()
    }
}
