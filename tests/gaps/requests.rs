//! Outstanding host calls (`core::requests::PendingRequests`): ids are fresh,
//! deadlines are `now + timeout`, due at the deadline itself, and finishing
//! an operation forgets only its own requests.

use renderer_steering::core::requests::PendingRequests;
use renderer_steering::core::OpId;
use serde_json::json;

#[test]
fn finishing_an_operation_forgets_only_its_own_requests() {
    let mut open = PendingRequests::default();
    assert!(open.is_empty());
    let a = open.issue(OpId(1), "a", json!({}).into(), Some(100), false, 0);
    let b = open.issue(OpId(2), "b", json!({}).into(), Some(50), true, 10);
    assert_ne!(a.id, b.id);
    assert_eq!((open.len(), open.is_empty()), (2, false));
    assert_eq!(open.next_deadline(), Some(60));
    open.forget_op(OpId(2));
    assert_eq!(open.len(), 1);
    assert_eq!(open.get(a.id).map(|p| p.method), Some("a"), "the other operation's request stays");
    assert!(open.get(b.id).is_none());
    assert_eq!(open.next_deadline(), Some(100));
}

#[test]
fn a_request_is_due_at_its_deadline_and_clear_drops_every_request() {
    let mut open = PendingRequests::default();
    let a = open.issue(OpId(1), "a", json!({}).into(), Some(100), false, 0);
    open.issue(OpId(1), "unbounded", json!({}).into(), None, true, 0);
    assert!(open.expire(99).is_empty());
    let due = open.expire(100);
    assert_eq!(due.iter().map(|(id, p)| (*id, p.method)).collect::<Vec<_>>(), [(a.id, "a")]);
    assert_eq!(open.len(), 1);
    open.clear();
    assert!(open.is_empty());
    assert_eq!(open.next_deadline(), None);
}
