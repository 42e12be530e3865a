//! The desktop hook's rules in the core (`core::desktop`): one steer in
//! flight per thread, the unconfirmed ids, the official and activeTurn
//! paths (tag matching and classification), bounded waits as deadlines,
//! dispose, and reconciliation.
#![cfg(not(target_arch = "wasm32"))]

mod desktop;

use desktop::{admit, call, completed, decided_at, drain, failed, lost, next_call, own, own_at, refused, restores, result_of};
use renderer_steering::core::codexhost::Delivery;
use renderer_steering::core::desktop::{
    Admission, Answer, Decided, DesktopHook, Ended, ErrorFacts, Outgoing, Returned, Settled, SteerCall, Target, ValueFacts, Verdict,
};
use renderer_steering::core::Action;

#[test]
fn the_same_id_and_words_join_the_steer_in_flight_and_another_message_is_busy() {
    let mut hook = DesktopHook::new(1_000);
    let first = admit(&mut hook, call("t", "use pnpm", Some("m-1"), 1));
    assert_eq!(hook.steer(call("t", "use pnpm", Some("m-1"), 2)), Admission::Joined(first));
    assert_eq!(hook.steer(call("t", "use bun", Some("m-1"), 2)), Admission::Busy, "same id, other words");
    assert_eq!(hook.steer(call("t", "use pnpm", Some("m-2"), 2)), Admission::Busy, "same words, other id");
    assert_eq!(hook.steer(call("t", "use pnpm", None, 2)), Admission::Busy, "no id is never the same submission");
    assert!(matches!(hook.steer(call("u", "use bun", None, 3)), Admission::Decide(_)), "another thread is free");
}

#[test]
fn a_thread_takes_a_new_message_once_its_steer_has_its_result() {
    let mut hook = DesktopHook::new(1_000);
    let steer = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::ActiveTurn, true);
    assert_eq!(hook.own_ended(steer, Ended::Ok), Verdict::Resolve);
    assert!(matches!(hook.steer(call("t", "y", Some("m-2"), 2)), Admission::Decide(_)));
}

#[test]
fn what_the_hook_does_not_handle_goes_to_the_desktops_own_path() {
    let mut hook = DesktopHook::new(1_000);
    assert_eq!(hook.steer(SteerCall { thread_id: None, ..call("t", "x", None, 1) }), Admission::Desktop, "no thread id");
    assert_eq!(hook.steer(SteerCall { text: None, ..call("t", "x", None, 1) }), Admission::Desktop, "not text");
    assert_eq!(hook.steer(SteerCall { follower: true, ..call("t", "x", None, 1) }), Admission::Desktop, "a follower");
    hook.dispose_at(0);
    assert_eq!(hook.steer(call("t", "x", None, 1)), Admission::Desktop, "after dispose");
}

#[test]
fn an_unknown_outcome_where_the_host_does_not_deduplicate_refuses_the_retry_with_either_id() {
    let mut hook = DesktopHook::new(1_000);
    let steer = own(&mut hook, SteerCall { restore_id: Some("r-1".into()), ..call("t", "x", Some("m-1"), 1) }, Delivery::Official, false);
    assert_eq!(hook.request(0, "turn/steer", "t", Some("m-1"), 1), Outgoing::Own(steer, None), "official: untouched");
    let ended = hook.own_ended(steer, Ended::Error(lost()));
    assert_eq!((failed(&ended).failure.kind(), failed(&ended).message_id.as_deref()), ("outcomeUnknown", Some("m-1")));
    let Admission::Refused(refusal) = hook.steer(call("t", "x", Some("m-1"), 2)) else { panic!("resent") };
    assert_eq!(refusal.failure.kind(), "outcomeUnknown");
    assert!(refusal.failure.message().contains("does not deduplicate"));
    assert!(matches!(hook.steer(call("t", "other", Some("m-2"), 3)), Admission::Decide(_)), "another message still goes");
}

#[test]
fn a_host_that_deduplicates_a_turn_steer_takes_the_same_id_retry() {
    let mut hook = DesktopHook::new(1_000);
    let steer = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::ActiveTurn, true);
    hook.request(0, "turn/steer", "t", Some("m-1"), 1);
    assert_eq!(failed(&hook.own_ended(steer, Ended::Timeout)).failure.kind(), "outcomeUnknown");
    assert!(matches!(hook.steer(call("t", "x", Some("m-1"), 2)), Admission::Decide(_)));
}

#[test]
fn a_message_that_left_as_a_plain_turn_start_is_not_resent_even_where_turn_steer_is_deduplicated() {
    let mut hook = DesktopHook::new(1_000);
    let steer = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::ActiveTurn, true);
    assert_eq!(hook.request(0, "turn/start", "t", Some("m-1"), 1), Outgoing::Own(steer, None), "a turn/start carries no tag");
    assert_eq!(failed(&hook.own_ended(steer, Ended::Error(lost()))).failure.kind(), "outcomeUnknown");
    assert!(matches!(hook.steer(call("t", "x", Some("m-1"), 2)), Admission::Refused(_)));
}

#[test]
fn the_unconfirmed_ids_are_the_last_256_the_oldest_forgotten_first() {
    let mut hook = DesktopHook::new(1_000);
    for n in 0..257 {
        let steer = own(&mut hook, call("t", "x", Some(&format!("m-{n}")), 1), Delivery::Official, false);
        hook.request(0, "turn/steer", "t", Some(&format!("m-{n}")), 1);
        hook.own_ended(steer, Ended::Timeout);
    }
    assert!(matches!(hook.steer(call("t", "x", Some("m-256"), 1)), Admission::Refused(_)), "the newest");
    assert!(matches!(hook.steer(call("t", "x", Some("m-1"), 1)), Admission::Refused(_)), "the oldest kept");
    assert!(matches!(hook.steer(call("u", "x", Some("m-1"), 1)), Admission::Decide(_)), "remembered per thread");
    assert!(matches!(hook.steer(call("t", "x", Some("m-0"), 1)), Admission::Decide(_)), "forgotten");
}

#[test]
fn the_desktops_own_request_is_recognised_by_its_id_or_by_its_very_input_array_and_no_other_is() {
    let mut hook = DesktopHook::new(1_000);
    let steer = own(&mut hook, SteerCall { restore_id: Some("r-1".into()), ..call("t", "x", Some("m-1"), 7) }, Delivery::ActiveTurn, true);
    assert_eq!(hook.request(0, "turn/steer", "t", Some("img-1"), 8), Outgoing::Pass, "another steer of the thread");
    assert_eq!(hook.request(0, "turn/steer", "u", Some("m-1"), 7), Outgoing::Pass, "another thread");
    assert_eq!(hook.request(0, "turn/steer", "t", None, 7), Outgoing::Own(steer, Some(Delivery::ActiveTurn)), "by input");
    assert_eq!(hook.request(0, "turn/steer", "t", Some("r-1"), 0), Outgoing::Own(steer, Some(Delivery::ActiveTurn)), "by restore id");
    assert_eq!(hook.request(0, "thread/list", "t", Some("m-1"), 7), Outgoing::Pass, "only turn/steer and turn/start");
    hook.own_settled(steer);
    assert_eq!(hook.request(0, "turn/steer", "t", Some("m-1"), 7), Outgoing::Pass, "its steerTurn settled");
}

#[test]
fn of_two_attempts_with_one_id_the_newest_not_yet_sent_takes_the_request() {
    let mut hook = DesktopHook::new(100);
    let first = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::ActiveTurn, true);
    hook.own_ended(first, Ended::Timeout); // its steerTurn is still out
    let retry = own(&mut hook, call("t", "x", Some("m-1"), 2), Delivery::ActiveTurn, true);
    assert_eq!(hook.request(0, "turn/steer", "t", Some("m-1"), 0), Outgoing::Own(retry, Some(Delivery::ActiveTurn)));
    assert_eq!(hook.request(0, "turn/steer", "t", Some("m-1"), 0), Outgoing::Own(first, Some(Delivery::ActiveTurn)));
}

#[test]
fn before_its_request_left_the_desktops_failure_is_its_own_and_after_it_only_the_hosts_refusal_is() {
    let mut hook = DesktopHook::new(1_000);
    let before = own(&mut hook, call("a", "x", Some("m"), 1), Delivery::ActiveTurn, true);
    assert_eq!(hook.own_ended(before, Ended::Error(lost())), Verdict::Rethrow);
    let answered = own(&mut hook, call("b", "x", Some("m"), 2), Delivery::ActiveTurn, true);
    hook.request(0, "turn/steer", "b", Some("m"), 2);
    assert_eq!(hook.own_ended(answered, Ended::Error(refused())), Verdict::Rethrow, "the host's error answer");
    let ours = own(&mut hook, call("c", "x", Some("m"), 3), Delivery::ActiveTurn, true);
    hook.request(0, "turn/steer", "c", Some("m"), 3);
    let package = ErrorFacts { package_error: Some(false), ..lost() };
    assert_eq!(hook.own_ended(ours, Ended::Error(package)), Verdict::Rethrow, "this package's own failure");
    let gone = own(&mut hook, call("d", "x", Some("m"), 4), Delivery::Official, true);
    hook.request(0, "turn/steer", "d", Some("m"), 4);
    let ended = hook.own_ended(gone, Ended::Error(lost()));
    assert_eq!(failed(&ended).failure.kind(), "outcomeUnknown");
    assert!(failed(&ended).failure.message().starts_with("turn/steer"));
}

#[test]
fn no_end_within_the_bound_is_outcome_unknown_with_the_id_that_was_sent() {
    let mut hook = DesktopHook::new(1_000);
    let steer = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::ActiveTurn, true);
    hook.request(0, "turn/start", "t", Some("sent-id"), 1); // claimed by input
    let ended = hook.own_ended(steer, Ended::Cancelled);
    assert_eq!(failed(&ended).message_id.as_deref(), Some("sent-id"));
    assert!(failed(&ended).failure.message().contains("disposed before the answer"));
    let timed = own(&mut hook, call("u", "x", Some("m-2"), 2), Delivery::ActiveTurn, true);
    hook.request(0, "turn/steer", "u", Some("m-2"), 2);
    let ended = hook.own_ended(timed, Ended::Timeout);
    assert!(failed(&ended).failure.message().contains("no answer within the steer bound"));
}

#[test]
fn a_wait_ends_at_its_deadline_and_the_timer_follows_the_earliest() {
    let mut hook = DesktopHook::new(100);
    let (early, _) = own_at(&mut hook, 10, call("b", "x", Some("m-2"), 2), "activeTurn", true);
    let (late, late_call) = own_at(&mut hook, 50, call("a", "x", Some("m-1"), 1), "activeTurn", true);
    assert_eq!(hook.poll_timeout(), Some(110));
    hook.tick(109);
    assert!(completed(&drain(&mut hook)).is_empty());
    hook.tick(110);
    let ended = drain(&mut hook);
    assert_eq!(completed(&ended).len(), 1);
    let timed_out = result_of(&ended, early).expect_err("ended by its deadline");
    assert!(timed_out.failure.message().contains("no answer within the steer bound"));
    assert_eq!(hook.poll_timeout(), Some(150));
    hook.settled(120, late_call, Ok(ValueFacts::default()));
    assert_eq!(result_of(&drain(&mut hook), late), Ok(Settled::Value(late_call)), "settled before its deadline: its outcome counts");
    assert_eq!(hook.poll_timeout(), None);
}

#[test]
fn dispose_cancels_every_wait_and_a_wait_opened_after_it_ends_at_once() {
    let mut hook = DesktopHook::new(100);
    let (open, _) = own_at(&mut hook, 0, call("t", "x", Some("m-1"), 1), "official", true);
    let waiting = decided_at(&mut hook, 0, call("u", "x", Some("r"), 2), "newTurn", true);
    let pending = next_call(&mut hook, Target::SubmissionHost("hasPendingTurnStart"));
    hook.called(0, pending.id, Returned::Value(ValueFacts::default()));
    let active = next_call(&mut hook, Target::SubmissionHost("getActiveTurnId"));
    hook.called(0, active.id, Returned::Value(ValueFacts { absent: true, ..ValueFacts::default() }));
    let below = next_call(&mut hook, Target::Below);
    hook.dispose_at(5);
    let actions = drain(&mut hook);
    let cancelled = result_of(&actions, open).expect_err("cancelled by dispose");
    assert!(cancelled.failure.message().contains("disposed before the answer") && restores(&actions));
    // A disposed hook below has the route: the wait for it opens after dispose.
    hook.called(6, below.id, Returned::Value(ValueFacts { yes: true, ..ValueFacts::default() }));
    let after = drain(&mut hook);
    assert_eq!(result_of(&after, waiting).expect_err("ended at once").failure.kind(), "disposed");
    hook.settled(7, below.id, Ok(ValueFacts::default()));
    assert!(completed(&drain(&mut hook)).is_empty(), "ended once");
}

#[test]
fn a_late_active_turn_steer_keeps_its_tag_for_one_steer_bound_after_dispose_then_the_layer_goes() {
    let mut hook = DesktopHook::new(100);
    let steer = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::ActiveTurn, true);
    hook.own_ended(steer, Ended::Timeout);
    hook.dispose_at(200);
    assert!(!restores(&drain(&mut hook)), "its turn/steer may still leave");
    assert_eq!(hook.request(250, "turn/steer", "t", Some("m-1"), 1), Outgoing::Own(steer, Some(Delivery::ActiveTurn)));
    assert_eq!(hook.next_deadline(), Some(300));
    hook.tick(300);
    assert!(restores(&drain(&mut hook)));
}

#[test]
fn the_layer_is_restored_once_and_only_after_dispose() {
    let mut hook = DesktopHook::new(100);
    let first = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::ActiveTurn, true);
    hook.own_ended(first, Ended::Ok);
    hook.own_settled(first);
    assert!(!restores(&drain(&mut hook)), "a live hook keeps its layer");
    let late = own(&mut hook, call("t", "y", Some("m-2"), 2), Delivery::ActiveTurn, true);
    hook.own_ended(late, Ended::Timeout);
    hook.dispose_at(200);
    assert!(!restores(&drain(&mut hook)));
    hook.own_settled(late);
    assert!(restores(&drain(&mut hook)), "nothing is left to tag");
    hook.tick(300);
    assert!(!restores(&drain(&mut hook)), "restored once");
}

#[test]
fn an_official_steer_out_at_dispose_does_not_keep_the_layer() {
    let mut hook = DesktopHook::new(100);
    own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::Official, true);
    hook.dispose_at(0);
    assert!(restores(&drain(&mut hook)));
}

#[test]
fn a_decision_that_arrives_after_dispose_or_names_no_known_delivery_fails_closed() {
    let mut hook = DesktopHook::new(100);
    let a = admit(&mut hook, call("a", "x", Some("m"), 1));
    let b = admit(&mut hook, call("b", "x", Some("m"), 2));
    let unknown = hook.decided(a, Some((None, true)), false);
    assert!(matches!(unknown, Decided::Done(ref v) if failed(v).failure.kind() == "disposed"));
    hook.dispose_at(0);
    let late = hook.decided(b, Some((Some(Delivery::ActiveTurn), true)), false);
    assert!(matches!(late, Decided::Done(ref v) if failed(v).failure.kind() == "disposed"));
}

#[test]
fn a_failed_decision_is_the_steers_own_failure_and_a_follower_hands_it_to_the_desktop() {
    let mut hook = DesktopHook::new(100);
    let a = admit(&mut hook, call("a", "x", None, 1));
    assert_eq!(hook.decided(a, None, false), Decided::Done(Verdict::Rethrow));
    assert!(matches!(hook.steer(call("a", "y", None, 1)), Admission::Decide(_)), "its thread is free");
    let b = admit(&mut hook, call("b", "x", None, 1));
    assert_eq!(hook.decided(b, Some((Some(Delivery::NewTurn), true)), true), Decided::Follower);
    hook.follower_called(0, b, false);
    assert_eq!(hook.steer(call("b", "y", None, 1)), Admission::Busy, "held while the desktop's own steer is out");
    hook.tick(100);
    assert!(matches!(hook.steer(call("b", "y", None, 1)), Admission::Decide(_)), "at most one steer bound");
}

#[test]
fn a_delivery_other_than_the_one_presented_is_reconciled_and_none_after_dispose() {
    let mut hook = DesktopHook::new(100);
    let answer = || Answer { turn_id: Some("turn-2".into()), delivery: Some(Delivery::NewTurn) };
    hook.answered(Delivery::ActiveTurn, "t", Some("m"), answer());
    let [Action::Delivered(r)] = &drain(&mut hook)[..] else { panic!("not reconciled") };
    assert_eq!((r.presented, r.delivery, r.turn_id.as_deref()), (Delivery::ActiveTurn, Delivery::NewTurn, Some("turn-2")));
    hook.answered(Delivery::Official, "t", Some("m"), Answer::default());
    assert!(drain(&mut hook).is_empty(), "no delivery named");
    hook.dispose_at(0);
    assert!(restores(&drain(&mut hook)));
    hook.answered(Delivery::ActiveTurn, "t", Some("m"), answer());
    assert!(drain(&mut hook).is_empty());
}

#[test]
fn a_rethrown_failure_is_remembered_only_when_it_is_this_packages_outcome_unknown() {
    let mut hook = DesktopHook::new(1_000);
    let before = own(&mut hook, call("a", "x", Some("m-1"), 1), Delivery::Official, false);
    assert_eq!(hook.own_ended(before, Ended::Error(lost())), Verdict::Rethrow, "the desktop's failure before its request left");
    assert!(matches!(hook.steer(call("a", "x", Some("m-1"), 2)), Admission::Decide(_)), "nothing left: the retry goes");
    let answered = own(&mut hook, call("b", "x", Some("m-2"), 3), Delivery::Official, false);
    hook.request(0, "turn/steer", "b", Some("m-2"), 3);
    assert_eq!(hook.own_ended(answered, Ended::Error(refused())), Verdict::Rethrow, "the host's error answer");
    assert!(matches!(hook.steer(call("b", "x", Some("m-2"), 4)), Admission::Decide(_)), "refused by the host: the retry goes");
    let unknown = own(&mut hook, call("c", "x", Some("m-3"), 5), Delivery::Official, false);
    hook.request(0, "turn/steer", "c", Some("m-3"), 5);
    let package = ErrorFacts { package_error: Some(true), message_id: Some("sent-3".into()), ..lost() };
    assert_eq!(hook.own_ended(unknown, Ended::Error(package)), Verdict::Rethrow, "this package's outcomeUnknown");
    assert!(matches!(hook.steer(call("c", "x", Some("sent-3"), 6)), Admission::Refused(_)), "the id it sent");
    assert!(matches!(hook.steer(call("c", "x", Some("m-3"), 6)), Admission::Refused(_)), "the caller's id");
}

#[test]
fn a_followers_own_steer_holds_its_thread_until_it_settles_or_one_steer_bound_passes() {
    let mut hook = DesktopHook::new(100);
    let held = admit(&mut hook, call("a", "x", None, 1));
    assert_eq!(hook.decided(held, Some((Some(Delivery::NewTurn), true)), true), Decided::Follower);
    hook.follower_called(10, held, false);
    assert_eq!(hook.next_deadline(), Some(110), "the timer follows the held thread");
    hook.tick(109);
    assert_eq!(hook.steer(call("a", "y", None, 2)), Admission::Busy, "held within its bound");
    hook.tick(110);
    assert!(matches!(hook.steer(call("a", "y", None, 2)), Admission::Decide(_)), "free at its bound");
    let settled = admit(&mut hook, call("b", "x", None, 3));
    assert_eq!(hook.decided(settled, Some((Some(Delivery::NewTurn), true)), true), Decided::Follower);
    hook.follower_called(110, settled, false);
    hook.follower_settled(settled);
    assert!(matches!(hook.steer(call("b", "y", None, 4)), Admission::Decide(_)), "free once the desktop's steer settled");
}

#[test]
fn the_hook_tells_its_steer_bound_and_whether_it_is_disposed() {
    let mut hook = DesktopHook::new(1_234);
    assert_eq!(hook.steer_ms(), 1_234);
    assert!(!hook.is_disposed());
    hook.dispose_at(0);
    assert!(hook.is_disposed());
}

#[test]
fn the_answer_to_an_own_turn_steer_is_followed_as_what_it_was_presented_and_a_turn_start_is_not() {
    let mut hook = DesktopHook::new(1_000);
    let official = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::Official, false);
    let out = hook.request(0, "turn/steer", "t", Some("m-1"), 1);
    assert_eq!((out.clone(), out.answer_followed("turn/steer")), (Outgoing::Own(official, None), Some(Delivery::Official)));
    let active = own(&mut hook, call("u", "x", Some("m-2"), 2), Delivery::ActiveTurn, false);
    let out = hook.request(0, "turn/steer", "u", Some("m-2"), 2);
    assert_eq!(
        (out.clone(), out.answer_followed("turn/steer")),
        (Outgoing::Own(active, Some(Delivery::ActiveTurn)), Some(Delivery::ActiveTurn))
    );
    let start = own(&mut hook, call("v", "x", Some("m-3"), 3), Delivery::ActiveTurn, false);
    let out = hook.request(0, "turn/start", "v", Some("m-3"), 3);
    assert_eq!((out.clone(), out.answer_followed("turn/start")), (Outgoing::Own(start, None), None));
    assert_eq!(Outgoing::Pass.answer_followed("turn/steer"), None);
}

#[test]
fn a_retry_of_an_unknown_outcome_the_host_deduplicates_leaves_again_only_as_a_turn_steer_into_the_same_turn() {
    let mut hook = DesktopHook::new(1_000);
    let first = own(&mut hook, call("t", "x", Some("m-1"), 1), Delivery::ActiveTurn, true);
    hook.request_into(0, "turn/steer", "t", Some("m-1"), Some("turn-1".into()), 1);
    assert_eq!(failed(&hook.own_ended(first, Ended::Timeout)).failure.kind(), "outcomeUnknown");
    hook.own_settled(first);
    let retry = own(&mut hook, call("t", "x", Some("m-1"), 2), Delivery::ActiveTurn, true);
    let plain = hook.request_into(1, "turn/start", "t", Some("m-1"), None, 2);
    assert!(matches!(plain, Outgoing::Refused(r) if r.failure.kind() == "outcomeUnknown"), "never a plain turn/start");
    let elsewhere = hook.request_into(1, "turn/steer", "t", Some("m-1"), Some("turn-2".into()), 2);
    assert!(matches!(elsewhere, Outgoing::Refused(_)), "never into another turn");
    let same = hook.request_into(1, "turn/steer", "t", Some("m-1"), Some("turn-1".into()), 2);
    assert_eq!(same, Outgoing::Own(retry, Some(Delivery::ActiveTurn)), "the host deduplicates this one");
}
