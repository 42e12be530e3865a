//! The desktop's follow-up queue as the driver reads it: each message's
//! `id` and `pauseReason`, described by the front door, as one flat list
//! (`[id, pauseReason, id, pauseReason, ...]`), so the queue reuses the
//! input's reader of described values and adds none of its own to the wasm.
//! Which messages the stop paused, and which are resumed, is the core's
//! ([`core::desktop::to_resume`](crate::core::desktop::to_resume)).

use super::described::Described;
use crate::core::desktop::{FollowUp, FollowUpId};
use crate::core::given::Given;

/// `Number.MAX_SAFE_INTEGER`.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// A described id as the core compares it: a whole string or a safe
/// integer (`None`: not comparable).
///
/// ```
/// use renderer_steering::bridge::{follow_up_id, Described};
/// use renderer_steering::core::desktop::FollowUpId;
/// let three: Described = serde_json::from_str(r#"{"t":"number","n":3}"#).unwrap();
/// assert_eq!(follow_up_id(&three), Some(FollowUpId::Number(3)));
/// let half: Described = serde_json::from_str(r#"{"t":"number","n":1.5}"#).unwrap();
/// assert_eq!(follow_up_id(&half), None);
/// ```
#[cfg_attr(feature = "size-first", optimize(size))]
pub fn follow_up_id(id: &Described) -> Option<FollowUpId> {
    match (id.text(), id.given()) {
        (Some(text), _) => Some(FollowUpId::Text(text.to_string())),
        (None, Given::Number(n)) if n.fract() == 0.0 && n.abs() <= MAX_SAFE_INTEGER => Some(FollowUpId::Number(n as i64)),
        _ => None,
    }
}

/// The queue from its flat list of described `[id, pauseReason]` pairs.
///
/// ```
/// use renderer_steering::bridge::{follow_ups, Described};
/// let read: Vec<Described> = serde_json::from_str(r#"[{"t":"string","s":"f-1"},{"t":"null"}]"#).unwrap();
/// let queue = follow_ups(&read);
/// assert_eq!((queue.len(), queue[0].pause_reason.clone()), (1, None));
/// ```
#[cfg_attr(feature = "size-first", optimize(size))]
pub fn follow_ups(read: &[Described]) -> Vec<FollowUp> {
    let message = |pair: &[Described]| FollowUp {
        id: follow_up_id(&pair[0]),
        pause_reason: pair.get(1).and_then(Described::text).map(str::to_string),
    };
    read.chunks(2).map(message).collect()
}
