//! Shared steps of the desktop hook's rule and property tests: a steer
//! admitted and decided, as the hook's driver would feed it.
#![allow(dead_code, reason = "each test binary uses its own subset")]

use renderer_steering::core::codexhost::Delivery;
use renderer_steering::core::desktop::{
    ActiveTurn, Admission, Decided, DesktopHook, Effect, ErrorFacts, NewTurnFacts, NewTurnStep, Refusal, SteerCall, SteerId, Verdict,
};
use renderer_steering::core::RpcError;

/// A text steer of `thread` with the caller's id `id` and input identity `input`.
pub fn call(thread: &str, text: &str, id: Option<&str>, input: u64) -> SteerCall {
    SteerCall { input, ..SteerCall::text(thread, text, id) }
}

/// Admits a steer; panics unless it is to be decided.
pub fn admit(hook: &mut DesktopHook, call: SteerCall) -> SteerId {
    match hook.steer(call) {
        Admission::Decide(steer) => steer,
        other => panic!("not admitted: {other:?}"),
    }
}

/// Admits and decides an official or activeTurn steer, its desktop `steerTurn` called.
pub fn own(hook: &mut DesktopHook, call: SteerCall, delivery: Delivery, dedup: bool) -> SteerId {
    let steer = admit(hook, call);
    let Decided::Own(tag) = hook.decided(steer, Some((Some(delivery), dedup)), false) else { panic!("not own") };
    hook.own_called(steer, tag);
    steer
}

/// Facts of a desktop whose binding shows `turn` running.
pub fn facts(turn: Option<&str>) -> NewTurnFacts {
    NewTurnFacts {
        pending_turn_start: false,
        active_turn: turn.map_or(ActiveTurn::Ended, |t| ActiveTurn::Running(t.into())),
        tool_output: false,
        context_is_object: true,
        start_turn: true,
        fresh_id: "fresh".into(),
    }
}

/// Admits and decides a newTurn steer up to its `startTurn` call (returned: its message id).
pub fn started(hook: &mut DesktopHook, now: u64, call: SteerCall, turn: Option<&str>) -> (SteerId, String) {
    let steer = admit(hook, call);
    assert_eq!(hook.decided(steer, Some((Some(Delivery::NewTurn), true)), false), Decided::NewTurn);
    let NewTurnStep::Build(id) = hook.new_turn(now, steer, facts(turn)) else { panic!("not built") };
    assert_eq!(hook.earlier(now, steer, false), NewTurnStep::Go);
    assert_eq!(hook.start(now, steer, false, None), NewTurnStep::Go);
    hook.start_called(steer, false);
    (steer, id)
}

/// The failure a verdict or step ends with.
pub fn failed(verdict: &Verdict) -> &Refusal {
    match verdict {
        Verdict::Fail(refusal) => refusal,
        other => panic!("not a failure: {other:?}"),
    }
}

/// The kind of the failure a newTurn step ends with.
pub fn step_kind(step: &NewTurnStep) -> &'static str {
    match step {
        NewTurnStep::Done(verdict) => failed(verdict).failure.kind(),
        other => panic!("not ended: {other:?}"),
    }
}

/// A rejection that is not the host's answer.
pub fn lost() -> ErrorFacts {
    ErrorFacts::words("socket closed")
}

/// The host's JSON-RPC error answer.
pub fn refused() -> ErrorFacts {
    ErrorFacts { rpc: Some(RpcError::new(-32074, "turn not active")), ..ErrorFacts::words("turn not active") }
}

/// True when `effects` restore the prototype chain.
pub fn restores(effects: &[Effect]) -> bool {
    effects.contains(&Effect::Restore)
}
