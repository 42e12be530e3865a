//! The follow-up queue around a newTurn steer (docs/specs/codexhost-steering.md, "Desktop integration"):
//! the follow-ups the stop paused with its own reason are resumed once the
//! steer was accepted; never those paused before it, never those paused for
//! another reason, never one whose id cannot be compared, and none when the
//! steer failed or the queue could not be read before `startTurn`.
#![cfg(not(target_arch = "wasm32"))]

mod desktop;

use desktop::{call, calls, drain, next_call, result_of, start_turn_at, Out};
use renderer_steering::core::desktop::{
    already_paused, to_resume, Build, CallId, DesktopHook, ErrorFacts, FollowUp, FollowUpId, Reply, RequestCall, Returned, Settled,
    SteerId, Target, ValueFacts, PAUSE_REASON,
};
use renderer_steering::core::Action;

fn text(id: &str) -> Option<FollowUpId> {
    Some(FollowUpId::Text(id.into()))
}

fn paused(id: Option<FollowUpId>, reason: &str) -> FollowUp {
    FollowUp { id, pause_reason: Some(reason.into()) }
}

/// A newTurn steer into `turn-1` up to its `startTurn` call, the queue read as `queue`.
fn started(hook: &mut DesktopHook, queue: Option<&[FollowUp]>) -> (SteerId, CallId, String) {
    start_turn_at(hook, 0, call("t", "x", Some("m"), 1), Some("turn-1"), queue.map(<[FollowUp]>::to_vec))
}

/// The steer's route request leaves and is accepted; `startTurn` resolves: what the hook asked for meanwhile.
fn accepted(hook: &mut DesktopHook, steer: SteerId, start: CallId, id: &str) -> Vec<Out> {
    let request =
        RequestCall { method: "turn/start".into(), thread_id: "t".into(), message_id: Some(id.into()), input: 5, ..RequestCall::default() };
    let (Reply::Promise(op), _) = hook.send_request(1, request) else { panic!("not routed") };
    let sent = next_call(hook, Target::OwnSend);
    hook.called(1, sent.id, Returned::Value(ValueFacts::default()));
    hook.settled(2, sent.id, Ok(ValueFacts { turn_id: Some("turn-2".into()), ..ValueFacts::default() }));
    let mut told = drain(hook);
    assert!(matches!(result_of(&told, op), Ok(Settled::Built(_))), "the desktop's turn/start gets the answer as a turn");
    hook.settled(3, start, Ok(ValueFacts::default()));
    told.extend(drain(hook));
    assert_eq!(result_of(&told, steer), Ok(Settled::Value(start)));
    told
}

/// The follow-ups resumed among `actions`: each `mutate` call's thread and the ids left paused.
fn resumes(actions: &[Out]) -> Vec<(String, Vec<FollowUpId>)> {
    let mutate = calls(actions).into_iter().filter(|c| c.target == Target::Coordinator("mutate"));
    mutate
        .map(|c| {
            assert_eq!(c.of, SteerId(0), "no op's arguments");
            match c.args.as_deref() {
                Some([Build::Text(thread), Build::Unpause(before)]) => (thread.clone(), before.clone()),
                other => panic!("mutate with {other:?}"),
            }
        })
        .collect()
}

#[test]
fn every_follow_up_paused_for_any_reason_with_a_comparable_id_counts_as_paused_before() {
    let queue = [
        paused(text("a"), PAUSE_REASON),
        paused(Some(FollowUpId::Number(2)), PAUSE_REASON),
        paused(text("user"), "paused by the user"),
        paused(None, PAUSE_REASON),
        FollowUp { id: text("queued"), pause_reason: None },
    ];
    let before = vec![FollowUpId::Text("a".into()), FollowUpId::Number(2), FollowUpId::Text("user".into())];
    assert_eq!(already_paused(&queue), before);
}

#[test]
fn the_follow_ups_paused_before_the_steer_stay_paused_and_ids_compare_by_type() {
    let queue = [
        paused(text("old"), PAUSE_REASON),
        paused(text("1"), PAUSE_REASON),
        paused(Some(FollowUpId::Number(1)), PAUSE_REASON),
        paused(text("user"), "paused by the user"),
        paused(None, PAUSE_REASON),
    ];
    let before = [FollowUpId::Text("old".into()), FollowUpId::Number(1)];
    assert_eq!(to_resume(&queue, &before), vec![1], "\"1\" was not paused before; 1 was");
    assert_eq!(to_resume(&queue, &[]), vec![0, 1, 2]);
}

#[test]
fn an_accepted_new_turn_resumes_the_thread_except_what_was_paused_before() {
    let mut hook = DesktopHook::new(1_000);
    let queue = [paused(text("old"), PAUSE_REASON), paused(text("user"), "paused by the user")];
    let (steer, start, id) = started(&mut hook, Some(&queue));
    assert!(resumes(&drain(&mut hook)).is_empty(), "nothing resumes before the steer is accepted");
    let told = resumes(&accepted(&mut hook, steer, start, &id));
    assert_eq!(told, vec![("t".to_string(), vec![FollowUpId::Text("old".into()), FollowUpId::Text("user".into())])]);
}

#[test]
fn a_follow_up_the_user_paused_stays_paused_when_the_stop_gives_it_its_own_reason() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, start, id) = started(&mut hook, Some(&[paused(text("user"), "paused by the user")]));
    let [(_, before)] = &resumes(&accepted(&mut hook, steer, start, &id))[..] else { panic!("one resume") };
    // The queue once the steer is accepted: the stop gave the user's follow-up its own reason.
    assert_eq!(to_resume(&[paused(text("user"), PAUSE_REASON)], before), Vec::<usize>::new());
}

#[test]
fn a_queue_that_could_not_be_read_resumes_nothing() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, start, id) = started(&mut hook, None);
    assert!(resumes(&accepted(&mut hook, steer, start, &id)).is_empty());
}

#[test]
fn a_failed_or_unknown_new_turn_resumes_nothing() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, _, _) = started(&mut hook, Some(&[]));
    hook.tick(1_000);
    let told = drain(&mut hook);
    assert!(result_of(&told, steer).is_err(), "startTurn never answered");
    assert!(resumes(&told).is_empty());

    let mut hook = DesktopHook::new(1_000);
    let (steer, _, id) = started(&mut hook, Some(&[]));
    let request =
        RequestCall { method: "turn/start".into(), thread_id: "t".into(), message_id: Some(id), input: 5, ..RequestCall::default() };
    assert!(matches!(hook.send_request(1, request).0, Reply::Promise(_)));
    hook.tick(1_000);
    let told = drain(&mut hook);
    let refusal = result_of(&told, steer).expect_err("not failed");
    assert!(refusal.failure.is_outcome_unknown(), "it left: unknown, and the queue stays paused");
    assert!(resumes(&told).is_empty());
}

#[test]
fn a_resume_is_logged_only_when_its_mutate_fails_or_does_not_finish_within_the_bound() {
    for (ends, logged) in
        [(Some(true), None), (Some(false), Some("could not resume follow-ups")), (None, Some("resuming follow-ups did not finish"))]
    {
        let mut hook = DesktopHook::new(1_000);
        let (steer, start, id) = started(&mut hook, Some(&[]));
        let told = accepted(&mut hook, steer, start, &id);
        let mutate = calls(&told).into_iter().find(|c| c.target == Target::Coordinator("mutate")).expect("resumed");
        hook.called(4, mutate.id, Returned::Value(ValueFacts::default()));
        match ends {
            Some(true) => hook.settled(5, mutate.id, Ok(ValueFacts::default())),
            Some(false) => hook.settled(5, mutate.id, Err(ErrorFacts::words("storage full"))),
            None => hook.tick(5_000),
        }
        let reports: Vec<_> =
            drain(&mut hook).into_iter().filter_map(|a| if let Action::Report { what, .. } = a { Some(what) } else { None }).collect();
        assert_eq!(reports, logged.into_iter().collect::<Vec<_>>(), "{ends:?}");
    }
}
