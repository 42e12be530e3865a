//! Flight control rules, shared by both dialects: one in flight per key,
//! FIFO behind it, the same message joins, and a lane exists only while busy.

use super::{Admission, Lanes, Ticket};
use crate::core::OpId;

fn ticket(n: u64) -> Ticket {
    Ticket { op: OpId(n), message_id: None, draft: vec![].into() }
}

fn ticket_with_id(n: u64, message_id: &str) -> Ticket {
    Ticket { op: OpId(n), message_id: Some(message_id.into()), draft: vec![].into() }
}

#[test]
fn a_submission_with_a_message_id_is_the_same_message_as_its_copy() {
    let t = ticket_with_id(1, "m");
    assert!(t.same_message(&t.clone()));
}

#[test]
fn a_submission_without_a_message_id_is_never_the_same_message() {
    let a = ticket(1);
    assert!(!a.same_message(&a.clone()), "no id: never the same submission");
}

#[test]
fn starting_and_queueing_are_different_admissions() {
    assert_ne!(Admission::Start, Admission::Queued);
}

#[test]
fn exclusive_admission_refuses_another_message_until_the_one_in_flight_finishes() {
    let mut lanes = Lanes::default();
    assert_eq!(lanes.admit_exclusive("t", ticket(1)), Admission::Start);
    assert_eq!(lanes.admit_exclusive("t", ticket(2)), Admission::Refused);
    lanes.finish("t", OpId(1));
    assert_eq!(lanes.admit_exclusive("t", ticket(3)), Admission::Start);
}

#[test]
fn exclusive_admission_joins_the_same_message_in_flight() {
    let mut lanes = Lanes::default();
    lanes.admit_exclusive("t", ticket_with_id(1, "m"));
    assert_eq!(lanes.admit_exclusive("t", ticket_with_id(2, "m")), Admission::Join(OpId(1)));
}

#[test]
fn fifo_admission_never_lets_a_steer_overtake_a_queued_message() {
    let mut lanes = Lanes::default();
    assert_eq!(lanes.admit_fifo("s", ticket(1), false), Admission::Queued);
    assert_eq!(lanes.admit_fifo("s", ticket(2), true), Admission::Queued, "never overtakes");
}

#[test]
fn a_requeued_submission_keeps_its_place_at_the_head_of_the_queue() {
    let mut lanes = Lanes::default();
    lanes.admit_fifo("s", ticket(1), true);
    lanes.requeue_front("s", OpId(1));
    assert_eq!(lanes.queued_ops("s"), vec![OpId(1)]);
}

#[test]
fn start_next_moves_the_head_of_the_queue_into_flight_once() {
    let mut lanes = Lanes::default();
    lanes.admit_fifo("s", ticket(1), false);
    assert_eq!(lanes.start_next("s"), Some(OpId(1)));
    assert_eq!(lanes.start_next("s"), None);
}

#[test]
fn finishing_the_only_submission_drops_its_lane() {
    let mut lanes = Lanes::default();
    lanes.admit_exclusive("t", ticket(1));
    lanes.finish("t", OpId(1));
    assert_eq!(lanes.len(), 0);
}

#[test]
fn an_unknown_key_has_nothing_in_flight() {
    assert_eq!(Lanes::default().in_flight("t"), None);
}

#[test]
fn an_unknown_key_has_nothing_queued() {
    let lanes = Lanes::default();
    assert!(lanes.queued_ops("s").is_empty());
    assert_eq!((lanes.queued_len("s"), lanes.queued_head("s")), (0, None));
}

#[test]
fn the_queue_head_is_the_oldest_waiting_and_the_one_in_flight_is_not_counted() {
    let mut lanes = Lanes::default();
    lanes.admit_fifo("s", ticket(1), false);
    lanes.admit_fifo("s", ticket(2), false);
    lanes.admit_fifo("s", ticket(3), false);
    assert_eq!((lanes.queued_len("s"), lanes.queued_head("s")), (3, Some(OpId(1))));
    lanes.start_next("s");
    assert_eq!((lanes.queued_len("s"), lanes.queued_head("s")), (2, Some(OpId(2))));
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
