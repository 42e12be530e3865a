//! The desktop hook's newTurn path in the core (`core::desktop`): its
//! checks, the route keyed by thread and message id that lets exactly one
//! request carrying the message leave, the late `turn/start` after a failure
//! or dispose, a `startTurn` that hands the submission to `steerTurn`, and
//! how the steer ends (before its request left: plain; after: `outcomeUnknown`).
#![cfg(not(target_arch = "wasm32"))]

mod desktop;

use desktop::{
    admit, call, calls, completed, decided_at, drain, facts, failed, failed_kind, lost, next_call, own_at, refused, restores, result_of,
    start_turn_at, started, step_kind,
};
use renderer_steering::core::codexhost::Delivery;
use renderer_steering::core::desktop::{
    ActiveTurn, Admission, Answer, Build, DesktopHook, Ended, ErrorFacts, NewTurnStep, Outgoing, Reply, RequestCall, Returned, Settled,
    SteerCall, SteerId, Target, ValueFacts, Verdict,
};
use renderer_steering::core::Action;

/// The desktop's `turn/start` of `thread` carrying `id`.
fn turn_start(thread: &str, id: &str, input: u64) -> RequestCall {
    RequestCall { method: "turn/start".into(), thread_id: thread.into(), message_id: Some(id.into()), input, ..RequestCall::default() }
}

fn new_turn(hook: &mut DesktopHook, facts: renderer_steering::core::desktop::NewTurnFacts) -> &'static str {
    let steer = admit(hook, call("t", "x", None, 1));
    hook.decided(steer, Some((Some(Delivery::NewTurn), true)), false);
    step_kind(&hook.new_turn(0, steer, facts))
}

/// A newTurn steer up to the moment its `startTurn` is being called (not yet returned).
fn starting(hook: &mut DesktopHook, call: SteerCall) -> SteerId {
    let steer = admit(hook, call);
    hook.decided(steer, Some((Some(Delivery::NewTurn), true)), false);
    assert!(matches!(hook.new_turn(0, steer, facts(Some("turn-1"))), NewTurnStep::Build(_)));
    assert_eq!(hook.earlier(0, steer, false), NewTurnStep::Go);
    assert_eq!(hook.start(0, steer, false, None), NewTurnStep::Go);
    steer
}

#[test]
fn a_new_turn_needs_the_binding_no_pending_start_no_tool_output_an_object_context_and_start_turn() {
    let mut hook = DesktopHook::new(1_000);
    assert_eq!(
        new_turn(&mut hook, renderer_steering::core::desktop::NewTurnFacts { pending_turn_start: true, ..facts(Some("turn-1")) }),
        "pendingTurnStart"
    );
    assert_eq!(
        new_turn(&mut hook, renderer_steering::core::desktop::NewTurnFacts { active_turn: ActiveTurn::Unreadable, ..facts(None) }),
        "missingBinding"
    );
    assert_eq!(new_turn(&mut hook, renderer_steering::core::desktop::NewTurnFacts { tool_output: true, ..facts(None) }), "invalidInput");
    assert_eq!(
        new_turn(&mut hook, renderer_steering::core::desktop::NewTurnFacts { context_is_object: false, ..facts(None) }),
        "invalidInput"
    );
    assert_eq!(new_turn(&mut hook, renderer_steering::core::desktop::NewTurnFacts { start_turn: false, ..facts(None) }), "missingBinding");
}

#[test]
fn the_message_id_is_the_argument_else_the_restore_id_else_a_fresh_one() {
    let mut hook = DesktopHook::new(1_000);
    let mut id = |argument: Option<&str>, restore: Option<&str>, thread: &str| {
        let steer = admit(
            &mut hook,
            renderer_steering::core::desktop::SteerCall { restore_id: restore.map(Into::into), ..call(thread, "x", argument, 1) },
        );
        hook.decided(steer, Some((Some(Delivery::NewTurn), true)), false);
        hook.new_turn(0, steer, facts(None))
    };
    assert_eq!(id(Some("m"), Some("r"), "a"), NewTurnStep::Build("m".into()));
    assert_eq!(id(None, Some("r"), "b"), NewTurnStep::Build("r".into()));
    assert_eq!(id(None, None, "c"), NewTurnStep::Build("fresh".into()));
}

#[test]
fn the_routes_turn_start_leaves_once_as_a_turn_steer_tagged_new_turn_and_a_second_is_refused() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, id) = started(&mut hook, 0, call("t", "x", Some("m-9"), 1), Some("turn-1"));
    let expected = Some("turn-1".to_string());
    assert_eq!(
        hook.request(1, "turn/start", "t", Some(&id), 5),
        Outgoing::Steer { route: steer, rewrite: true, expected_turn_id: expected }
    );
    let Outgoing::Refused(second) = hook.request(2, "turn/start", "t", Some(&id), 5) else { panic!("sent twice") };
    assert!(second.failure.message().contains("it already left once"));
    assert_eq!(hook.routed_ended(steer, Ended::Ok, Some(Answer { turn_id: Some("turn-2".into()), delivery: None })), Verdict::Resolve);
    hook.start_settled(steer, true);
    assert!(matches!(hook.start_ended(3, steer, Ended::Ok), NewTurnStep::Done(Verdict::Resolve)));
    assert_eq!(hook.request(4, "turn/start", "t", Some(&id), 5), Outgoing::Pass, "the route is gone: the same id goes plain");
}

#[test]
fn only_the_routes_own_message_is_routed_another_turn_start_of_the_thread_passes() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, _) = started(&mut hook, 0, call("t", "x", Some("m-steer"), 1), Some("turn-1"));
    assert_eq!(hook.open_route("t", "m-steer"), Some(steer));
    assert_eq!((hook.open_route("t", "m-own"), hook.open_route("u", "m-steer")), (None, None), "keyed by thread and message id");
    assert_eq!(hook.request(1, "turn/start", "t", Some("m-own"), 9), Outgoing::Pass);
    assert_eq!(hook.request(1, "turn/steer", "t", Some("m-steer"), 9), Outgoing::Pass, "a turn/steer is the route's only when handed over");
}

#[test]
fn with_no_turn_running_the_turn_start_goes_plain_and_its_answer_decides() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, start, id) = start_turn_at(&mut hook, 0, call("t", "x", Some("m"), 1), None, Some(vec![]));
    let (reply, op) = hook.send_request(1, turn_start("t", &id, 1));
    let Reply::Returned(plain) = reply else { panic!("not plain: {reply:?}") };
    let sent = next_call(&mut hook, Target::OwnSend);
    assert_eq!((sent.id, sent.of), (plain, op));
    assert_eq!(sent.args.as_ref().map(|a| a[0].clone()), Some(Build::Text("turn/start".into())), "sent as it is");
    hook.called(1, plain, Returned::Value(ValueFacts::default()));
    hook.settled(2, plain, Err(refused()));
    assert!(completed(&drain(&mut hook)).is_empty(), "the steer ends with its startTurn");
    hook.settled(3, start, Ok(ValueFacts::default()));
    assert_eq!(failed_kind(&drain(&mut hook), steer), "host", "the host's refusal, the draft back");

    // startTurn resolved first: the steer waits for its turn/start's answer.
    let (steer, start, id) = start_turn_at(&mut hook, 10, call("u", "x", Some("m"), 2), None, Some(vec![]));
    let (Reply::Returned(plain), _) = hook.send_request(11, turn_start("u", &id, 2)) else { panic!("not plain") };
    hook.called(11, plain, Returned::Value(ValueFacts::default()));
    hook.settled(12, start, Ok(ValueFacts::default()));
    assert!(completed(&drain(&mut hook)).is_empty(), "its turn/start is not answered yet");
    hook.settled(13, plain, Ok(ValueFacts::default()));
    assert_eq!(result_of(&drain(&mut hook), steer), Ok(Settled::Value(start)), "answered: startTurn's own value");
}

#[test]
fn start_turn_resolving_before_its_request_came_waits_within_the_bound_then_is_outcome_unknown_and_the_late_request_is_refused() {
    let mut hook = DesktopHook::new(100);
    let (steer, start, id) = start_turn_at(&mut hook, 0, call("t", "x", Some("m-2"), 1), Some("turn-1"), Some(vec![]));
    hook.settled(1, start, Ok(ValueFacts::default()));
    assert!(completed(&drain(&mut hook)).is_empty(), "waits for its request");
    assert_eq!(hook.poll_timeout(), Some(100));
    hook.tick(100);
    let ended = result_of(&drain(&mut hook), steer).expect_err("not ended at its bound");
    assert_eq!(ended.failure.kind(), "outcomeUnknown");
    assert!(ended.failure.message().contains("startTurn resolved before its turn/start was sent"));
    let (Reply::Refused(late), _) = hook.send_request(150, turn_start("t", &id, 1)) else { panic!("leaked") };
    assert_eq!(late.failure.kind(), "timeout");
}

#[test]
fn a_route_whose_start_turn_resolved_refuses_its_late_turn_start_as_disposed_until_one_bound_after_dispose() {
    let mut hook = DesktopHook::new(60);
    let (steer, start, id) = start_turn_at(&mut hook, 0, call("t", "x", Some("m-1"), 1), Some("turn-1"), Some(vec![]));
    hook.settled(1, start, Ok(ValueFacts::default()));
    assert!(completed(&drain(&mut hook)).is_empty());
    hook.dispose_at(10);
    let actions = drain(&mut hook);
    assert_eq!(failed_kind(&actions, steer), "outcomeUnknown");
    assert_eq!(hook.open_route("t", &id), Some(steer), "its turn/start may still come");
    assert!(!restores(&actions));
    let (Reply::Refused(late), _) = hook.send_request(20, turn_start("t", &id, 1)) else { panic!("leaked") };
    assert_eq!(late.failure.kind(), "disposed");
    let actions = drain(&mut hook);
    assert!(actions.contains(&Action::Released { op: steer }) && restores(&actions), "refused: the route and the layer go");
}

#[test]
fn an_unseen_late_turn_start_keeps_the_route_until_the_late_window_ends() {
    let mut hook = DesktopHook::new(60);
    let (steer, _) = started(&mut hook, 0, call("t", "x", Some("m-1"), 1), Some("turn-1"));
    hook.start_settled(steer, true);
    hook.start_ended(1, steer, Ended::Ok);
    hook.dispose_at(10);
    hook.done_ended(steer, Ended::Cancelled);
    assert!(!drain(&mut hook).contains(&Action::Released { op: steer }));
    hook.tick(69);
    assert!(drain(&mut hook).is_empty());
    hook.tick(70);
    let effects = drain(&mut hook);
    assert!(effects.contains(&Action::Released { op: steer }) && restores(&effects));
}

#[test]
fn a_retry_of_the_same_message_waits_for_the_earlier_route_and_one_whose_start_turn_resolved_is_pending() {
    let mut hook = DesktopHook::new(1_000);
    let (first, id) = started(&mut hook, 0, call("t", "x", Some("r-1"), 1), Some("turn-1"));
    assert_eq!(step_kind(&hook.start_ended(5, first, Ended::Timeout)), "timeout", "nothing sent: plain");
    let retry = admit(&mut hook, call("t", "x", Some("r-1"), 2));
    hook.decided(retry, Some((Some(Delivery::NewTurn), true)), false);
    hook.new_turn(6, retry, facts(Some("turn-1")));
    let NewTurnStep::WaitEarlier(_, Some(route)) = hook.earlier(6, retry, false) else { panic!("not waiting") };
    assert_eq!(route, first);
    // The first attempt's late turn/start is refused (it timed out), then its startTurn settles.
    let Outgoing::Refused(late) = hook.request(8, "turn/start", "t", Some(&id), 1) else { panic!("leaked") };
    assert_eq!(late.failure.kind(), "timeout");
    assert!(!drain(&mut hook).contains(&Action::Released { op: first }), "its startTurn is still out");
    hook.start_settled(first, true);
    assert!(drain(&mut hook).contains(&Action::Released { op: first }));
    assert_eq!(hook.earlier_ended(retry, Ended::Ok), NewTurnStep::Go);
    assert_eq!(hook.start(7, retry, false, None), NewTurnStep::Go);
    assert_eq!(hook.open_route("t", &id), Some(retry));
}

#[test]
fn the_earlier_wait_running_out_is_pending_turn_start_and_dispose_is_disposed() {
    let mut hook = DesktopHook::new(1_000);
    for (ended, kind) in [(Ended::Timeout, "pendingTurnStart"), (Ended::Cancelled, "disposed")] {
        let steer = admit(&mut hook, call("t", "x", Some("r"), 1));
        hook.decided(steer, Some((Some(Delivery::NewTurn), true)), false);
        hook.new_turn(0, steer, facts(None));
        assert!(matches!(hook.earlier(0, steer, true), NewTurnStep::WaitEarlier(_, None)), "a disposed hook below has a route");
        assert_eq!(step_kind(&hook.earlier_ended(steer, ended)), kind);
    }
}

#[test]
fn reading_the_follow_ups_shares_the_one_bound_so_start_turn_is_not_called_past_it() {
    let mut hook = DesktopHook::new(100);
    let steer = decided_at(&mut hook, 0, call("t", "x", None, 1), "newTurn", true);
    let pending = next_call(&mut hook, Target::SubmissionHost("hasPendingTurnStart"));
    hook.called(0, pending.id, Returned::Value(ValueFacts::default()));
    let active = next_call(&mut hook, Target::SubmissionHost("getActiveTurnId"));
    hook.called(0, active.id, Returned::Value(ValueFacts { turn_id: Some("turn-1".into()), ..ValueFacts::default() }));
    let below = next_call(&mut hook, Target::Below);
    hook.called(40, below.id, Returned::Value(ValueFacts::default()));
    let load = next_call(&mut hook, Target::Coordinator("loadMessages"));
    assert_eq!(hook.poll_timeout(), Some(100), "the steer's deadline, not 40 + 100");
    hook.called(40, load.id, Returned::Value(ValueFacts::default()));
    hook.settled(60, load.id, Ok(ValueFacts::default()));
    let read = next_call(&mut hook, Target::Coordinator("readMessages"));
    hook.called(60, read.id, Returned::Value(ValueFacts::default()));
    hook.settled(100, read.id, Ok(ValueFacts { follow_ups: Some(vec![]), ..ValueFacts::default() }));
    let actions = drain(&mut hook);
    assert!(calls(&actions).iter().all(|c| c.target != Target::StartTurn), "{actions:?}");
    assert_eq!(failed_kind(&actions, steer), "timeout");
}

#[test]
fn start_turn_handing_the_submission_to_steer_turn_is_the_desktops_own_path_whose_turn_steer_is_the_routes_message() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, id) = started(&mut hook, 0, call("t", "x", Some("m-1"), 1), Some("turn-1"));
    assert_eq!(hook.steer(call("t", "x", Some(&id), 1)), Admission::Desktop);
    let routed = hook.request(1, "turn/steer", "t", Some(&id), 1);
    assert_eq!(routed, Outgoing::Steer { route: steer, rewrite: false, expected_turn_id: Some("turn-1".into()) });
    let failed_steer = hook.routed_ended(steer, Ended::Error(lost()), None);
    assert_eq!(failed(&failed_steer).failure.kind(), "outcomeUnknown", "a lost answer after it left");
}

#[test]
fn start_turn_failing_before_its_request_left_is_plain_and_after_it_is_never_plain() {
    let mut hook = DesktopHook::new(1_000);
    let cases: [(bool, Option<&str>, Ended, &str); 8] = [
        (false, Some("turn-1"), Ended::Error(lost()), "transport"),
        (false, Some("turn-1"), Ended::Timeout, "timeout"),
        (false, Some("turn-1"), Ended::Cancelled, "disposed"),
        (true, Some("turn-1"), Ended::Error(lost()), "outcomeUnknown"),
        (true, Some("turn-1"), Ended::Timeout, "outcomeUnknown"),
        (true, Some("turn-1"), Ended::Cancelled, "outcomeUnknown"),
        (true, Some("turn-1"), Ended::Error(refused()), "outcomeUnknown"),
        (true, None, Ended::Error(refused()), "host"),
    ];
    for (n, (sent, turn, ended, kind)) in cases.into_iter().enumerate() {
        let thread = format!("t{n}");
        let (steer, id) = started(&mut hook, 0, call(&thread, "x", Some("m"), 1), turn);
        if sent {
            assert!(!matches!(hook.request(1, "turn/start", &thread, Some(&id), 1), Outgoing::Refused(_)));
        }
        assert_eq!(step_kind(&hook.start_ended(2, steer, ended)), kind, "case {n}");
    }
}

#[test]
fn the_routed_steers_answer_without_a_turn_id_is_outcome_unknown_and_a_throw_before_writing_is_transport() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, id) = started(&mut hook, 0, call("t", "x", Some("m"), 1), Some("turn-1"));
    hook.request(1, "turn/start", "t", Some(&id), 1);
    let threw = hook.routed_threw(steer, &lost());
    assert_eq!(threw.failure.kind(), "transport");
    assert!(threw.failure.message().contains("socket closed"), "{}", threw.failure.message());
    assert!(matches!(hook.request(2, "turn/start", "t", Some(&id), 1), Outgoing::Steer { .. }), "nothing was written: it may go");
    let verdict = hook.routed_ended(steer, Ended::Ok, Some(Answer::default()));
    assert!(failed(&verdict).failure.message().contains("no turnId"));
}

#[test]
fn a_new_turn_folded_into_the_running_turn_by_the_host_is_reconciled() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, id) = started(&mut hook, 0, call("t", "x", Some("m"), 1), Some("turn-1"));
    hook.request(1, "turn/start", "t", Some(&id), 1);
    hook.routed_ended(steer, Ended::Ok, Some(Answer { turn_id: Some("turn-1".into()), delivery: Some(Delivery::ActiveTurn) }));
    let reconciled: Vec<_> = drain(&mut hook).into_iter().filter(|e| matches!(e, Action::Delivered(_))).collect();
    assert_eq!(reconciled.len(), 1);
}

#[test]
fn a_steer_turn_call_of_the_thread_while_the_hook_calls_start_turn_is_the_desktops_own() {
    let mut hook = DesktopHook::new(1_000);
    starting(&mut hook, call("t", "x", Some("m-1"), 1));
    assert_eq!(hook.steer(call("t", "y", Some("m-other"), 2)), Admission::Desktop);
    assert!(matches!(hook.steer(call("u", "y", None, 3)), Admission::Decide(_)), "another thread is not starting");
}

#[test]
fn start_turn_throwing_has_settled_so_its_route_goes_with_the_steers_result() {
    let mut hook = DesktopHook::new(1_000);
    let steer = starting(&mut hook, call("t", "x", Some("m-1"), 1));
    hook.start_called(steer, true);
    assert_eq!(step_kind(&hook.start_ended(1, steer, Ended::Error(lost()))), "transport");
    assert!(drain(&mut hook).contains(&Action::Released { op: steer }));
    assert_eq!(hook.open_route("t", "m-1"), None);
}

#[test]
fn start_turn_rejecting_with_this_packages_own_error_passes_it_on_unchanged() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, id) = started(&mut hook, 0, call("t", "x", Some("m"), 1), Some("turn-1"));
    assert!(matches!(hook.request(1, "turn/start", "t", Some(&id), 1), Outgoing::Steer { .. }));
    let package = ErrorFacts { package_error: Some(false), ..lost() };
    assert_eq!(hook.start_ended(2, steer, Ended::Error(package)), NewTurnStep::Done(Verdict::Rethrow));
}

#[test]
fn an_earlier_wait_that_ends_after_dispose_is_disposed_however_it_ended() {
    let mut hook = DesktopHook::new(1_000);
    let waiting = ["a", "b"].map(|thread| {
        let steer = admit(&mut hook, call(thread, "x", Some("r"), 1));
        hook.decided(steer, Some((Some(Delivery::NewTurn), true)), false);
        hook.new_turn(0, steer, facts(None));
        assert!(matches!(hook.earlier(0, steer, true), NewTurnStep::WaitEarlier(_, None)));
        steer
    });
    hook.dispose_at(5);
    assert_eq!(step_kind(&hook.earlier_ended(waiting[0], Ended::Ok)), "disposed", "released just as it was disposed");
    assert_eq!(step_kind(&hook.earlier_ended(waiting[1], Ended::Timeout)), "disposed", "expired just as it was disposed");
}

#[test]
fn a_routes_request_past_its_deadline_or_after_dispose_is_refused_before_start_turn_ends() {
    let mut hook = DesktopHook::new(100);
    let (_, late) = started(&mut hook, 0, call("a", "x", Some("m-1"), 1), Some("turn-1"));
    let Outgoing::Refused(refusal) = hook.request(100, "turn/start", "a", Some(&late), 1) else { panic!("left past the bound") };
    assert_eq!(refusal.failure.kind(), "timeout");
    let (timed, timed_id) = started(&mut hook, 0, call("b", "x", Some("m-2"), 2), Some("turn-1"));
    assert_eq!(step_kind(&hook.start_ended(100, timed, Ended::Timeout)), "timeout");
    let (_, open) = started(&mut hook, 100, call("c", "x", Some("m-3"), 3), Some("turn-1"));
    hook.dispose_at(150);
    let Outgoing::Refused(refusal) = hook.request(150, "turn/start", "c", Some(&open), 3) else { panic!("left after dispose") };
    assert_eq!(refusal.failure.kind(), "disposed", "within its bound, its startTurn not yet ended");
    let Outgoing::Refused(refusal) = hook.request(150, "turn/start", "b", Some(&timed_id), 2) else { panic!("left after its timeout") };
    assert_eq!(refusal.failure.kind(), "disposed", "timed out, then disposed");
}

#[test]
fn a_wait_for_a_steer_without_a_new_turn_deadline_is_one_steer_bound_from_now_whatever_routes_are_open() {
    let mut hook = DesktopHook::new(1_000);
    start_turn_at(&mut hook, 0, call("a", "x", Some("m-1"), 1), Some("turn-1"), Some(vec![]));
    let (steer, _) = own_at(&mut hook, 500, call("b", "x", Some("m-2"), 2), "activeTurn", true);
    hook.tick(1_000);
    assert!(completed(&drain(&mut hook)).iter().all(|(op, _)| *op != steer), "the route's bound is not its own");
    assert_eq!(hook.poll_timeout(), Some(1_500));
    hook.tick(1_500);
    assert!(result_of(&drain(&mut hook), steer).is_err());
}

#[test]
fn an_attempt_waiting_for_its_earlier_route_goes_on_as_soon_as_that_route_is_gone() {
    let mut hook = DesktopHook::new(1_000);
    let (first, start, _) = start_turn_at(&mut hook, 0, call("t", "x", Some("m"), 1), Some("turn-1"), None);
    hook.tick(1_000);
    assert_eq!(failed_kind(&drain(&mut hook), first), "timeout", "startTurn still out: its route stays");
    decided_at(&mut hook, 1_000, call("t", "x", Some("m"), 2), "newTurn", true);
    let pending = next_call(&mut hook, Target::SubmissionHost("hasPendingTurnStart"));
    hook.called(1_000, pending.id, Returned::Value(ValueFacts::default()));
    let active = next_call(&mut hook, Target::SubmissionHost("getActiveTurnId"));
    hook.called(1_000, active.id, Returned::Value(ValueFacts { turn_id: Some("turn-1".into()), ..ValueFacts::default() }));
    assert!(calls(&drain(&mut hook)).is_empty(), "it waits for this hook's own route (no hook below is asked)");
    hook.settled(1_100, start, Err(lost()));
    let next = calls(&drain(&mut hook));
    assert_eq!(next.first().map(|c| c.target), Some(Target::Coordinator("loadMessages")), "it goes on at once, long before its bound");
}
