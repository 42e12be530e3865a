//! The official and activeTurn paths: the desktop's own `steerTurn` sends
//! the message, and the one `turn/steer` (or `turn/start`) it sends for this
//! steer, and no other, is recognised by its id or by the very input array:
//! tagged `activeTurn`, left untouched when official. A desktop steer stays
//! recognisable until its `steerTurn` settles, also after the steer's bound.

use super::types::SteerId;
use crate::core::codexhost::Delivery;

/// An official or activeTurn steer whose desktop `steerTurn` is out.
#[derive(Debug)]
struct Tagged {
    steer: SteerId,
    thread_id: String,
    /// What the desktop presents (`Official`: no tag on the wire).
    presented: Delivery,
    /// The ids it may carry: the argument and `restoreMessage.id`.
    ids: Vec<String>,
    /// The input array's identity (0: none).
    input: u64,
    /// Its message left.
    sent: bool,
}

/// Official and activeTurn steers, oldest first.
#[derive(Debug, Default)]
pub(crate) struct Tags {
    steers: Vec<Tagged>,
}

impl Tags {
    /// Follows `steer` while its desktop `steerTurn` is out.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn add(&mut self, steer: SteerId, thread_id: &str, presented: Delivery, ids: Vec<String>, input: u64) {
        self.steers.push(Tagged { steer, thread_id: thread_id.into(), presented, ids, input, sent: false });
    }

    /// Its desktop `steerTurn` settled: no later request is its.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn forget(&mut self, steer: SteerId) {
        self.steers.retain(|s| s.steer != steer);
    }

    /// The steer a desktop request (`sent_id`, `input` identity) carries, now
    /// counted as sent; of several (a same-id retry while the first
    /// attempt's `steerTurn` is still out) the newest not yet sent.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn claim(&mut self, thread_id: &str, sent_id: Option<&str>, input: u64) -> Option<(SteerId, Delivery)> {
        let mut found: Option<usize> = None;
        for (at, s) in self.steers.iter().enumerate() {
            let by_id = sent_id.is_some_and(|id| s.ids.iter().any(|own| own == id));
            let by_input = input != 0 && input == s.input;
            if s.thread_id == thread_id && (by_id || by_input) && found.is_none_or(|f| !s.sent || self.steers[f].sent) {
                found = Some(at);
            }
        }
        let steer = &mut self.steers[found?];
        steer.sent = true;
        Some((steer.steer, steer.presented))
    }

    /// True when a tagged (activeTurn) steer's `steerTurn` is out: its late
    /// `turn/steer` must still carry the tag.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn any_tagged(&self) -> bool {
        self.steers.iter().any(|s| s.presented == Delivery::ActiveTurn)
    }
}
