//! The follow-up queue around a newTurn steer (spec "Desktop integration"):
//! the follow-ups the stop paused with its own reason are resumed once the
//! steer was accepted; never those paused before it, never those paused for
//! another reason, never one whose id cannot be compared, and none when the
//! steer failed or the queue could not be read before `startTurn`.
#![cfg(not(target_arch = "wasm32"))]

mod desktop;

use desktop::{admit, call, facts};
use renderer_steering::core::codexhost::Delivery;
use renderer_steering::core::desktop::{
    paused_by_stop, to_resume, Answer, Decided, DesktopHook, Effect, Ended, FollowUp, FollowUpId, NewTurnStep, SteerId, Verdict,
    PAUSE_REASON,
};

fn text(id: &str) -> Option<FollowUpId> {
    Some(FollowUpId::Text(id.into()))
}

fn paused(id: Option<FollowUpId>, reason: &str) -> FollowUp {
    FollowUp { id, pause_reason: Some(reason.into()) }
}

/// A newTurn steer into `turn-1` up to its `startTurn` call, the queue read as `queue`.
fn started(hook: &mut DesktopHook, queue: Option<&[FollowUp]>) -> (SteerId, String) {
    let steer = admit(hook, call("t", "x", Some("m"), 1));
    assert_eq!(hook.decided(steer, Some((Some(Delivery::NewTurn), true)), false), Decided::NewTurn);
    let NewTurnStep::Build(id) = hook.new_turn(0, steer, facts(Some("turn-1"))) else { panic!("not built") };
    assert_eq!(hook.earlier(0, steer, false), NewTurnStep::Go);
    assert_eq!(hook.start(0, steer, false, queue), NewTurnStep::Go);
    hook.start_called(steer, false);
    (steer, id)
}

/// The steer's route request leaves and is accepted; `startTurn` resolves.
fn accepted(hook: &mut DesktopHook, steer: SteerId, id: &str) {
    hook.request(1, "turn/start", "t", Some(id), 5);
    assert_eq!(hook.routed_ended(steer, Ended::Ok, Some(Answer { turn_id: Some("turn-2".into()), delivery: None })), Verdict::Resolve);
    hook.start_settled(steer, true);
    assert!(matches!(hook.start_ended(3, steer, Ended::Ok), NewTurnStep::Done(Verdict::Resolve)));
}

fn resumes(hook: &mut DesktopHook) -> Vec<Effect> {
    hook.take_effects().into_iter().filter(|e| matches!(e, Effect::Resume { .. })).collect()
}

#[test]
fn only_the_stops_own_reason_with_a_comparable_id_counts_as_paused_by_it() {
    let queue = [
        paused(text("a"), PAUSE_REASON),
        paused(Some(FollowUpId::Number(2)), PAUSE_REASON),
        paused(text("user"), "paused by the user"),
        paused(None, PAUSE_REASON),
        FollowUp { id: text("queued"), pause_reason: None },
    ];
    assert_eq!(paused_by_stop(&queue), vec![FollowUpId::Text("a".into()), FollowUpId::Number(2)]);
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
    let (steer, id) = started(&mut hook, Some(&queue));
    assert!(resumes(&mut hook).is_empty(), "nothing resumes before the steer is accepted");
    accepted(&mut hook, steer, &id);
    let told = resumes(&mut hook);
    assert_eq!(told, vec![Effect::Resume { thread_id: "t".into(), paused_before: vec![FollowUpId::Text("old".into())] }]);
}

#[test]
fn a_queue_that_could_not_be_read_resumes_nothing() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, id) = started(&mut hook, None);
    accepted(&mut hook, steer, &id);
    assert!(resumes(&mut hook).is_empty());
}

#[test]
fn a_failed_or_unknown_new_turn_resumes_nothing() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, _) = started(&mut hook, Some(&[]));
    assert!(matches!(hook.start_ended(1, steer, Ended::Timeout), NewTurnStep::Done(Verdict::Fail(_))), "startTurn never answered");
    assert!(resumes(&mut hook).is_empty());

    let mut hook = DesktopHook::new(1_000);
    let (steer, id) = started(&mut hook, Some(&[]));
    hook.request(1, "turn/start", "t", Some(&id), 5);
    let NewTurnStep::Done(Verdict::Fail(refusal)) = hook.start_ended(2, steer, Ended::Timeout) else { panic!("not failed") };
    assert!(refusal.failure.is_outcome_unknown(), "it left: unknown, and the queue stays paused");
    assert!(resumes(&mut hook).is_empty());
}
