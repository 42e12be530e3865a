//! The desktop hook's order, step by step through its inputs: which call
//! follows which, whom each call asks about, and what a call's return
//! (before it settles) moves on.
#![cfg(not(target_arch = "wasm32"))]

mod desktop;

use desktop::{call, calls, decided_at, drain, lost, next_call, result_of, start_turn_at};
use renderer_steering::core::desktop::{Build, DesktopHook, ErrorFacts, Reply, RequestCall, Returned, Settled, Target, ValueFacts};

fn text(value: &str) -> Build {
    Build::Text(value.into())
}

#[test]
fn the_submission_host_and_the_coordinator_are_asked_about_the_steers_own_thread() {
    let mut hook = DesktopHook::new(1_000);
    decided_at(&mut hook, 0, call("t-7", "x", Some("m"), 1), "newTurn", true);
    let pending = next_call(&mut hook, Target::SubmissionHost("hasPendingTurnStart"));
    assert_eq!(pending.args, Some(vec![text("t-7")]));
    hook.called(0, pending.id, Returned::Value(ValueFacts::default()));
    let active = next_call(&mut hook, Target::SubmissionHost("getActiveTurnId"));
    assert_eq!(active.args, Some(vec![text("t-7")]));
    hook.called(0, active.id, Returned::Value(ValueFacts { absent: true, ..ValueFacts::default() }));
    let below = next_call(&mut hook, Target::Below);
    assert_eq!(below.args, Some(vec![text(r#"["t-7","m"]"#)]), "the route's key");
    hook.called(0, below.id, Returned::Value(ValueFacts::default()));
    let load = next_call(&mut hook, Target::Coordinator("loadMessages"));
    assert_eq!(load.args, Some(vec![text("t-7")]));
}

#[test]
fn a_coordinator_without_load_messages_is_read_at_once() {
    let mut hook = DesktopHook::new(1_000);
    decided_at(&mut hook, 0, call("t", "x", Some("m"), 1), "newTurn", true);
    for target in [Target::SubmissionHost("hasPendingTurnStart"), Target::SubmissionHost("getActiveTurnId"), Target::Below] {
        let read = next_call(&mut hook, target);
        hook.called(0, read.id, Returned::Value(ValueFacts { turn_id: Some("turn-1".into()), ..ValueFacts::default() }));
    }
    let load = next_call(&mut hook, Target::Coordinator("loadMessages"));
    hook.called(0, load.id, Returned::Missing);
    let read = next_call(&mut hook, Target::Coordinator("readMessages"));
    hook.called(0, read.id, Returned::Missing);
    next_call(&mut hook, Target::StartTurn);
}

#[test]
fn a_disposed_hook_below_with_the_route_open_is_waited_for_then_the_attempt_goes_on() {
    let mut hook = DesktopHook::new(1_000);
    decided_at(&mut hook, 0, call("t", "x", Some("m"), 1), "newTurn", true);
    for target in [Target::SubmissionHost("hasPendingTurnStart"), Target::SubmissionHost("getActiveTurnId")] {
        let read = next_call(&mut hook, target);
        hook.called(0, read.id, Returned::Value(ValueFacts { turn_id: Some("turn-1".into()), ..ValueFacts::default() }));
    }
    let below = next_call(&mut hook, Target::Below);
    hook.called(0, below.id, Returned::Value(ValueFacts { yes: true, ..ValueFacts::default() }));
    assert!(calls(&drain(&mut hook)).is_empty(), "it waits for the route below");
    hook.settled(50, below.id, Ok(ValueFacts::default()));
    next_call(&mut hook, Target::Coordinator("loadMessages"));
}

#[test]
fn a_followers_own_steer_holds_its_thread_for_one_steer_bound_only() {
    let mut hook = DesktopHook::new(1_000);
    let Reply::Promise(_) = hook.steer_turn(0, call("t", "x", Some("m-1"), 1)) else { panic!("not a steer") };
    let decide = next_call(&mut hook, Target::Decide);
    hook.called(0, decide.id, Returned::Value(ValueFacts::default()));
    hook.settled(0, decide.id, Ok(ValueFacts { delivery: Some("official".into()), follower: true, ..ValueFacts::default() }));
    let own = next_call(&mut hook, Target::OwnSteer);
    hook.called(0, own.id, Returned::Value(ValueFacts::default()));
    assert!(matches!(hook.steer_turn(10, call("t", "y", Some("m-2"), 2)), Reply::Refused(_)), "busy while held");
    hook.tick(1_000);
    assert!(matches!(hook.steer_turn(1_000, call("t", "y", Some("m-2"), 2)), Reply::Promise(_)), "free after the bound, still unsettled");
}

#[test]
fn once_a_new_turn_ends_the_thread_takes_a_steer_of_its_own_again() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, start, id) = start_turn_at(&mut hook, 0, call("t", "x", Some("m"), 1), Some("turn-1"), None);
    let request =
        RequestCall { method: "turn/start".into(), thread_id: "t".into(), message_id: Some(id), input: 1, ..RequestCall::default() };
    let (Reply::Promise(_), _) = hook.send_request(1, request) else { panic!("not routed") };
    let sent = next_call(&mut hook, Target::OwnSend);
    hook.called(1, sent.id, Returned::Value(ValueFacts::default()));
    hook.settled(2, sent.id, Err(lost()));
    hook.settled(3, start, Ok(ValueFacts::default()));
    assert!(result_of(&drain(&mut hook), steer).is_err());
    assert!(matches!(hook.steer_turn(4, call("t", "y", Some("m-2"), 2)), Reply::Promise(_)), "not the desktop's own startTurn any more");
}

#[test]
fn a_handed_over_turn_steer_of_a_route_resolves_with_the_hosts_own_answer() {
    let mut hook = DesktopHook::new(1_000);
    let (_, _, id) = start_turn_at(&mut hook, 0, call("t", "x", Some("m"), 1), Some("turn-1"), None);
    assert_eq!(hook.steer_turn(1, call("t", "x", Some(&id), 1)), Reply::Desktop, "startTurn hands its submission to steerTurn");
    let request =
        RequestCall { method: "turn/steer".into(), thread_id: "t".into(), message_id: Some(id), input: 1, ..RequestCall::default() };
    let (Reply::Promise(op), _) = hook.send_request(1, request) else { panic!("not routed") };
    let sent = next_call(&mut hook, Target::OwnSend);
    assert_eq!(sent.args.as_ref().map(|a| a[1].clone()), Some(Build::Arg(1)), "the desktop's own params");
    hook.called(1, sent.id, Returned::Value(ValueFacts::default()));
    hook.settled(2, sent.id, Ok(ValueFacts { turn_id: Some("turn-1".into()), ..ValueFacts::default() }));
    assert_eq!(result_of(&drain(&mut hook), op), Ok(Settled::Value(sent.id)), "its answer untouched");
}

#[test]
fn a_route_going_moves_on_only_the_attempts_of_its_own_message() {
    let mut hook = DesktopHook::new(1_000);
    let (_, first_start, _) = start_turn_at(&mut hook, 0, call("t1", "x", Some("m1"), 1), Some("turn-1"), None);
    start_turn_at(&mut hook, 0, call("t2", "x", Some("m2"), 2), Some("turn-1"), None);
    hook.tick(1_000);
    drain(&mut hook);
    for (thread, id) in [("t1", "m1"), ("t2", "m2")] {
        decided_at(&mut hook, 1_000, call(thread, "x", Some(id), 3), "newTurn", true);
        for target in [Target::SubmissionHost("hasPendingTurnStart"), Target::SubmissionHost("getActiveTurnId")] {
            let read = next_call(&mut hook, target);
            hook.called(1_000, read.id, Returned::Value(ValueFacts { turn_id: Some("turn-1".into()), ..ValueFacts::default() }));
        }
    }
    hook.settled(1_100, first_start, Err(lost()));
    let next = calls(&drain(&mut hook));
    let asked: Vec<_> = next.iter().map(|c| (c.target, c.args.clone())).collect();
    assert_eq!(asked, vec![(Target::Coordinator("loadMessages"), Some(vec![text("t1")]))], "the other attempt still waits");
}

#[test]
fn a_same_id_steer_of_another_draft_while_start_turn_runs_joins_and_only_the_very_input_is_the_hand_over() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, _, id) = start_turn_at(&mut hook, 0, call("t", "x", Some("m"), 1), Some("turn-1"), None);
    assert_eq!(hook.steer_turn(1, call("t", "x", Some(&id), 2)), Reply::Promise(steer), "the user's same submission joins");
    assert_eq!(hook.steer_turn(1, call("t", "x", Some(&id), 1)), Reply::Desktop, "the desktop's own hand-over of its input");
}

#[test]
fn a_steer_in_flight_holds_its_calls_and_its_route_until_each_ends() {
    let mut hook = DesktopHook::new(1_000);
    assert_eq!(hook.live_state(), 0);
    let (_, start, _) = start_turn_at(&mut hook, 0, call("t", "x", Some("m"), 1), None, None);
    drain(&mut hook);
    assert_eq!(hook.live_state(), 5, "the steer, its lane and its bound, its route, and the startTurn call in flight");
    hook.settled(5, start, Ok(ValueFacts::default()));
    drain(&mut hook);
    assert_eq!(hook.live_state(), 4, "the call has ended; the route waits for its request");
    let request =
        RequestCall { method: "turn/start".into(), thread_id: "t".into(), message_id: Some("m".into()), expected_turn_id: None, input: 7 };
    hook.send_request(6, request);
    let sent = next_call(&mut hook, Target::OwnSend);
    hook.called(6, sent.id, Returned::Value(ValueFacts::default()));
    hook.settled(7, sent.id, Ok(ValueFacts { turn_id: Some("turn-2".into()), ..ValueFacts::default() }));
    drain(&mut hook);
    assert_eq!(hook.live_state(), 0, "nothing is held once every call and the route have ended");
}

/// A newTurn steer of message `m` on thread `t`, with `turn` running, whose
/// route's request, if it leaves, ends with `outcome`: every call the hook
/// asks for is answered as a plain desktop would. Returned: whether the
/// message left, else the message of the refusal its request met (empty
/// when the steer was refused before it).
fn new_turn_attempt(
    hook: &mut DesktopHook,
    now: u64,
    input: u64,
    turn: Option<&str>,
    outcome: Result<ValueFacts, ErrorFacts>,
) -> Result<(), String> {
    let Reply::Promise(_) = hook.steer_turn(now, call("t", "x", Some("m"), input)) else { return Err(String::new()) };
    let mut left = Err(String::new());
    while let Some(made) = calls(&drain(hook)).into_iter().next() {
        let facts = match made.target {
            Target::Decide => ValueFacts { delivery: Some("newTurn".into()), host_deduplicates: true, ..ValueFacts::default() },
            Target::SubmissionHost("getActiveTurnId") => {
                ValueFacts { turn_id: turn.map(Into::into), absent: turn.is_none(), ..ValueFacts::default() }
            }
            _ => ValueFacts::default(),
        };
        hook.called(now, made.id, Returned::Value(facts.clone()));
        if made.target == Target::StartTurn {
            let request = RequestCall {
                method: "turn/start".into(),
                thread_id: "t".into(),
                message_id: Some("m".into()),
                expected_turn_id: None,
                input: 100 + input,
            };
            match hook.send_request(now, request).0 {
                Reply::Refused(refusal) => left = Err(refusal.failure.message()),
                _ => {
                    let sent = next_call(hook, Target::OwnSend);
                    hook.called(now, sent.id, Returned::Value(ValueFacts::default()));
                    hook.settled(now, sent.id, outcome.clone());
                    left = Ok(());
                }
            }
        }
        if made.awaited {
            hook.settled(now, made.id, Ok(facts));
        }
    }
    left
}

#[test]
fn a_new_turn_retry_of_an_unknown_outcome_leaves_again_only_into_the_turn_the_first_attempt_went_to() {
    for (turn, refused_as) in [(Some("turn-1"), None), (Some("turn-2"), Some("turn/steer")), (None, Some("turn/start"))] {
        let mut hook = DesktopHook::new(1_000);
        assert_eq!(
            new_turn_attempt(&mut hook, 0, 1, Some("turn-1"), Err(lost())),
            Ok(()),
            "the first attempt leaves as a turn/steer into turn-1"
        );
        let retry = new_turn_attempt(&mut hook, 10, 2, turn, Ok(ValueFacts::default()));
        match refused_as {
            None => assert_eq!(retry, Ok(()), "into turn-1 again: the host deduplicates it"),
            Some(method) => {
                assert!(retry.as_ref().is_err_and(|m| m.contains(method)), "with {turn:?} running, refused as a {method}: {retry:?}")
            }
        }
    }
}

#[test]
fn a_new_turn_message_that_left_as_a_plain_turn_start_is_not_sent_again() {
    for turn in [Some("turn-1"), None] {
        let mut hook = DesktopHook::new(1_000);
        assert_eq!(new_turn_attempt(&mut hook, 0, 1, None, Err(lost())), Ok(()), "the first attempt leaves as a plain turn/start");
        assert!(new_turn_attempt(&mut hook, 10, 2, turn, Ok(ValueFacts::default())).is_err(), "the retry with {turn:?} running");
    }
}

#[test]
fn a_route_request_the_desktop_rejects_with_what_looks_like_this_packages_error_is_the_desktops_failure() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, start, id) = start_turn_at(&mut hook, 0, call("t", "x", Some("m"), 1), Some("turn-1"), None);
    let request =
        RequestCall { method: "turn/start".into(), thread_id: "t".into(), message_id: Some(id.clone()), expected_turn_id: None, input: 9 };
    hook.send_request(1, request);
    let sent = next_call(&mut hook, Target::OwnSend);
    hook.called(1, sent.id, Returned::Value(ValueFacts::default()));
    let lookalike = ErrorFacts { package_error: Some(true), message_id: Some("other".into()), ..ErrorFacts::words("outcome unknown") };
    hook.settled(2, sent.id, Err(lookalike));
    hook.settled(3, start, Ok(ValueFacts::default()));
    let actions = drain(&mut hook);
    let Err(error) = result_of(&actions, steer) else { panic!("{actions:?}") };
    assert_eq!(error.failure.kind(), "outcomeUnknown", "the request may have reached the host");
    assert_eq!(error.message_id.as_deref(), Some(id.as_str()), "with the message's own id");
}

#[test]
fn a_steer_without_an_id_submits_the_fresh_id_it_was_given() {
    let mut hook = DesktopHook::new(1_000);
    let (_, _, id) = start_turn_at(&mut hook, 0, call("t", "x", None, 1), None, None);
    assert_eq!(id, "fresh");
}

#[test]
fn a_follow_up_read_that_fails_still_starts_the_turn_and_one_that_outlasts_the_bound_does_not() {
    for (rejected, starts) in [(true, true), (false, false)] {
        let mut hook = DesktopHook::new(1_000);
        decided_at(&mut hook, 0, call("t", "x", Some("m"), 1), "newTurn", true);
        for target in [Target::SubmissionHost("hasPendingTurnStart"), Target::SubmissionHost("getActiveTurnId"), Target::Below] {
            let read = next_call(&mut hook, target);
            hook.called(0, read.id, Returned::Value(ValueFacts { absent: true, ..ValueFacts::default() }));
        }
        let load = next_call(&mut hook, Target::Coordinator("loadMessages"));
        hook.called(0, load.id, Returned::Value(ValueFacts::default()));
        match rejected {
            true => hook.settled(5, load.id, Err(lost())),
            false => hook.tick(1_000),
        }
        let started = calls(&drain(&mut hook)).iter().any(|c| c.target == Target::StartTurn);
        assert_eq!(started, starts, "loadMessages rejected: {rejected}");
    }
}
