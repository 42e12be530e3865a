//! Outstanding host calls: what a failed answer means, ids are fresh,
//! deadlines are `now + timeout`, due at the deadline itself, and finishing
//! an operation forgets only its own requests.

use serde_json::json;

use super::{FailedAnswer, HostAnswer, PendingRequests};
use crate::core::{OpId, RequestId, RpcError};

#[test]
fn a_result_is_the_hosts_value_and_a_timeout_is_a_failed_answer() {
    let ok = HostAnswer::Result(json!({"turnId": "t"}).into());
    assert_eq!(ok.result().unwrap().value()["turnId"], "t");
    assert_eq!(HostAnswer::Timeout.result(), Err(FailedAnswer::Timeout));
}

#[test]
fn an_rpc_error_answer_is_a_failed_answer_carrying_the_error() {
    let answer = HostAnswer::Error(RpcError::new(-32074, "not active"));
    let Err(failed) = answer.result() else { unreachable!() };
    assert!(matches!(failed, FailedAnswer::Error(e) if e.code == -32074));
}

#[test]
fn a_probe_timeout_says_its_bound_and_an_unreadable_answer_is_malformed() {
    let f = FailedAnswer::Timeout.failure("thread/read", Some(10));
    assert_eq!(f.message(), "thread/read got no answer within 10 ms");
    assert_eq!(FailedAnswer::Unreadable("undefined").failure("thread/read", None).kind(), "malformedAnswer");
}

#[test]
fn after_the_write_a_timeout_is_outcome_unknown_but_a_call_never_sent_is_transport() {
    assert_eq!(FailedAnswer::Timeout.after_write("turn/steer", Some(5)).kind(), "outcomeUnknown");
    assert_eq!(FailedAnswer::NotSent("closed").after_write("turn/steer", None).kind(), "transport");
}

#[test]
fn a_bounded_call_is_due_its_timeout_after_it_was_issued() {
    let mut p = PendingRequests::default();
    let r = p.issue(OpId(1), "thread/read", json!({}).into(), Some(5), false, 100);
    assert_eq!(p.get(r.id).unwrap().deadline, Some(105));
}

#[test]
fn no_outstanding_call_means_no_deadline() {
    let p = PendingRequests::default();
    assert_eq!(p.next_deadline(), None);
}

#[test]
fn every_issued_call_gets_a_fresh_id() {
    let mut p = PendingRequests::default();
    let a = p.issue(OpId(1), "x", json!({}).into(), None, false, 0);
    let b = p.issue(OpId(1), "x", json!({}).into(), None, false, 0);
    assert_ne!(a.id, b.id);
}

#[test]
fn an_unknown_id_is_not_outstanding() {
    assert!(PendingRequests::default().get(RequestId(9)).is_none());
}

#[test]
fn a_call_settles_once_and_a_second_answer_is_ignored() {
    let mut p = PendingRequests::default();
    let r = p.issue(OpId(1), "x", json!({}).into(), None, false, 0);
    assert!(p.settle(r.id).is_some());
    assert!(p.settle(r.id).is_none());
}

#[test]
fn the_next_deadline_is_the_earliest_one() {
    let mut p = PendingRequests::default();
    p.issue(OpId(1), "x", json!({}).into(), Some(50), false, 10);
    p.issue(OpId(2), "x", json!({}).into(), Some(20), false, 10);
    assert_eq!(p.next_deadline(), Some(30));
}

#[test]
fn a_call_expires_at_its_deadline_not_before() {
    let mut p = PendingRequests::default();
    let r = p.issue(OpId(1), "x", json!({}).into(), Some(5), false, 0);
    assert!(p.expire(4).is_empty());
    assert_eq!(p.expire(5)[0].0, r.id);
}

#[test]
fn forgetting_an_operation_drops_its_calls() {
    let mut p = PendingRequests::default();
    p.issue(OpId(1), "x", json!({}).into(), None, false, 0);
    p.forget_op(OpId(1));
    assert!(p.is_empty());
}

#[test]
fn clear_drops_every_outstanding_call() {
    let mut p = PendingRequests::default();
    p.issue(OpId(1), "x", json!({}).into(), None, false, 0);
    p.clear();
    assert!(p.is_empty());
}

#[test]
fn finishing_an_operation_forgets_only_its_own_requests() {
    let mut open = PendingRequests::default();
    assert_eq!((open.len(), open.is_empty()), (0, true), "new pending requests count no call");
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
