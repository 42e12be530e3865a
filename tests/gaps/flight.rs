//! Flight control rules (`core::flight::Lanes`), shared by both dialects:
//! one in flight per key, FIFO behind it, and a lane exists only while busy.

use renderer_steering::core::flight::{Admission, Lanes, Ticket};
use renderer_steering::core::OpId;

fn ticket(n: u64) -> Ticket {
    Ticket { op: OpId(n), message_id: None, draft: vec![].into() }
}

#[test]
fn a_lane_exists_only_while_something_is_in_flight_or_queued() {
    let mut lanes = Lanes::default();
    assert!(lanes.is_empty());
    assert_eq!(lanes.len(), 0);
    assert_eq!(lanes.admit_exclusive("a", ticket(1)), Admission::Start);
    assert_eq!(lanes.admit_fifo("b", ticket(2), true), Admission::Start);
    assert_eq!(lanes.admit_fifo("b", ticket(3), true), Admission::Queued);
    assert_eq!((lanes.len(), lanes.is_empty()), (2, false));
    lanes.finish("a", OpId(1));
    assert_eq!((lanes.len(), lanes.is_empty()), (1, false));
    lanes.finish("b", OpId(2));
    assert_eq!(lanes.len(), 1, "b still has a queued message");
    assert_eq!(lanes.start_next("b"), Some(OpId(3)));
    lanes.finish("b", OpId(3));
    assert!(lanes.is_empty());
}
