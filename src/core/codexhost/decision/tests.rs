//! The delivery decision's probes and what a connection remembers.

use serde_json::json;

use super::{Knowledge, Probe, Step};
use crate::core::codexhost::Delivery;
use crate::core::{HostAnswer, RpcError};

#[test]
fn the_inspect_probe_calls_the_codexhost_inspect_method() {
    assert_eq!(Probe::Inspect.method(), "codexhost/thread/steering/inspect");
}

#[test]
fn the_native_check_is_thread_read() {
    assert_eq!(Probe::ThreadRead.method(), "thread/read");
}

#[test]
fn ownership_list_asks_about_the_one_thread() {
    assert_eq!(Probe::OwnershipList.params("t", "x"), json!({"threadIds": ["t"]}));
}

#[test]
fn each_probe_names_the_path_it_decides_in_the_trace() {
    assert_eq!(Probe::Inspect.path(), "inspect");
    assert_eq!(Probe::OwnershipList.path(), "ownershipList");
    assert_eq!(Probe::ThreadRead.path(), "threadRead");
}

#[test]
fn a_fresh_connection_starts_by_inspecting() {
    let k = Knowledge::default();
    assert_eq!(k.first_step("t"), Step::Ask(Probe::Inspect));
}

#[test]
fn a_missing_inspect_method_moves_on_to_ownership_list() {
    let mut k = Knowledge::default();
    let step = k.learn(Probe::Inspect, "t", &HostAnswer::Error(RpcError::new(-32601, "nope")), None, 0);
    assert_eq!(step, Step::Ask(Probe::OwnershipList));
}

#[test]
fn a_fresh_connection_remembers_no_owner() {
    assert_eq!(Knowledge::default().remembered(), 0);
}

#[test]
fn a_replaced_connection_has_not_shown_it_deduplicates() {
    let mut k = Knowledge::default();
    k.learn(Probe::Inspect, "t", &HostAnswer::Result(json!({"delivery": "activeTurn"}).into()), None, 0);
    assert!(k.deduplicates(Delivery::ActiveTurn), "a codexhost method answered: the host deduplicates external steers");
    k.connection_replaced();
    assert!(!k.deduplicates(Delivery::ActiveTurn), "a new connection has not shown it deduplicates");
}

#[test]
fn a_fresh_connection_has_not_shown_it_deduplicates() {
    let k = Knowledge::default();
    assert!(!k.deduplicates(Delivery::ActiveTurn) && !k.deduplicates(Delivery::NewTurn));
}

#[test]
fn a_codexhost_host_deduplicates_external_threads_only() {
    let mut k = Knowledge::default();
    let owners = json!({"threads": [{"threadId": "t", "owner": "codex"}]});
    k.learn(Probe::OwnershipList, "t", &HostAnswer::Result(owners.into()), None, 0);
    assert!(k.deduplicates(Delivery::NewTurn) && k.deduplicates(Delivery::ActiveTurn));
    assert!(!k.deduplicates(Delivery::Official), "a Codex-owned thread's steer goes verbatim to Codex, which applies a repeated id again");
}
