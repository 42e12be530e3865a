//! The desktop's own requests of an official or activeTurn steer, as the
//! hook's order passes them on (`send_request`): tagged, their answer
//! followed, and a `sendRequest` of the desktop that throws or is not
//! there left to the desktop's own `steerTurn`.
#![cfg(not(target_arch = "wasm32"))]

mod desktop;

use desktop::{call, completed, drain, next_call, own_at};
use renderer_steering::core::desktop::{Build, DesktopHook, ErrorFacts, Read, Reply, RequestCall, Returned, Target, ValueFacts};
use renderer_steering::core::Action;

fn own_turn_steer(hook: &mut DesktopHook) -> renderer_steering::core::desktop::CallId {
    let request = RequestCall {
        method: "turn/steer".into(),
        thread_id: "t".into(),
        message_id: Some("m".into()),
        input: 1,
        ..RequestCall::default()
    };
    let (Reply::Returned(sent), op) = hook.send_request(1, request) else { panic!("not the steer's own request") };
    let call = next_call(hook, Target::OwnSend);
    assert_eq!((call.id, call.of), (sent, op));
    let Some([Build::Arg(0), Build::With(params, tag), Build::Arg(2)]) = call.args.as_deref() else { panic!("{call:?}") };
    assert_eq!((params.as_ref(), tag[0].key), (&Build::Arg(1), "codexhostSteerDelivery"), "tagged activeTurn");
    assert!(call.awaited && call.read == Read::Answer, "its answer is followed");
    sent
}

#[test]
fn an_own_request_whose_send_request_throws_is_left_to_the_desktops_steer_turn() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, _) = own_at(&mut hook, 0, call("t", "x", Some("m"), 1), "activeTurn", true);
    let sent = own_turn_steer(&mut hook);
    hook.called(1, sent, Returned::Threw(ErrorFacts::words("socket closed")));
    assert!(completed(&drain(&mut hook)).iter().all(|(op, _)| *op != steer), "the steer waits for its steerTurn");
}

#[test]
fn an_own_request_whose_send_request_is_missing_is_left_to_the_desktops_steer_turn() {
    let mut hook = DesktopHook::new(1_000);
    let (steer, _) = own_at(&mut hook, 0, call("t", "x", Some("m"), 1), "activeTurn", true);
    let sent = own_turn_steer(&mut hook);
    hook.called(1, sent, Returned::Missing);
    assert!(completed(&drain(&mut hook)).iter().all(|(op, _)| *op != steer), "the steer waits for its steerTurn");
}

#[test]
fn an_own_turn_steer_answered_with_another_delivery_is_reconciled_and_a_turn_start_is_not_followed() {
    let mut hook = DesktopHook::new(1_000);
    own_at(&mut hook, 0, call("t", "x", Some("m"), 1), "activeTurn", true);
    let sent = own_turn_steer(&mut hook);
    hook.called(1, sent, Returned::Value(ValueFacts::default()));
    let answer = ValueFacts { turn_id: Some("turn-2".into()), delivery: Some("newTurn".into()), ..ValueFacts::default() };
    hook.settled(2, sent, Ok(answer));
    assert!(drain(&mut hook).iter().any(|a| matches!(a, Action::Delivered(r) if r.turn_id.as_deref() == Some("turn-2"))));
    let mut hook = DesktopHook::new(1_000);
    own_at(&mut hook, 0, call("t", "x", Some("m"), 1), "activeTurn", true);
    let start = RequestCall { method: "turn/start".into(), thread_id: "t".into(), message_id: Some("m".into()), ..RequestCall::default() };
    let (Reply::Returned(_), _) = hook.send_request(1, start) else { panic!("not the steer's own request") };
    let call = next_call(&mut hook, Target::OwnSend);
    assert!(!call.awaited && call.read == Read::Nothing, "a turn/start answers nothing to reconcile: {call:?}");
}
