//! Shared steps of the desktop hook's rule tests: a steer admitted and
//! decided through the rule methods, or driven through the hook's order
//! (`steer_turn`, `called`, `settled`) as its driver would feed it.
#![allow(dead_code, reason = "each test binary uses its own subset")]

#[path = "submission.rs"]
mod submission;
pub use submission::submitted_id;

use renderer_steering::core::codexhost::Delivery;
use renderer_steering::core::desktop::{
    ActiveTurn, Admission, Call, CallId, Decided, DesktopHook, ErrorFacts, FollowUp, NewTurnFacts, NewTurnStep, Refusal, Reply, Returned,
    Settled, SteerCall, SteerId, Target, ValueFacts, Verdict,
};
use renderer_steering::core::{Action, RpcError, SteeringError};

/// What the hook tells its driver.
pub type Out = Action<Settled>;

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

/// Every action the hook has for its driver, in order.
pub fn drain(hook: &mut DesktopHook) -> Vec<Out> {
    std::iter::from_fn(|| hook.poll_action()).collect()
}

/// True when `actions` restore the prototype chain.
pub fn restores(actions: &[Out]) -> bool {
    actions.contains(&Action::Restore)
}

/// The calls among `actions`.
pub fn calls(actions: &[Out]) -> Vec<Call> {
    actions.iter().filter_map(|a| if let Action::Call(call) = a { Some(call.clone()) } else { None }).collect()
}

/// The results among `actions`, by op.
pub fn completed(actions: &[Out]) -> Vec<(SteerId, Result<Settled, SteeringError>)> {
    actions.iter().filter_map(|a| if let Action::Complete { op, result } = a { Some((*op, result.clone())) } else { None }).collect()
}

/// The one result of `op` among `actions`.
pub fn result_of(actions: &[Out], op: SteerId) -> Result<Settled, SteeringError> {
    let results: Vec<_> = completed(actions).into_iter().filter(|(o, _)| *o == op).map(|(_, r)| r).collect();
    let [result] = &results[..] else { panic!("{op:?} completed {} times: {actions:?}", results.len()) };
    result.clone()
}

/// The kind of the failure `op` ended with among `actions`.
pub fn failed_kind(actions: &[Out], op: SteerId) -> &'static str {
    result_of(actions, op).expect_err("not a failure").failure.kind()
}

/// The next call the hook asks for, which must be of `target`.
pub fn next_call(hook: &mut DesktopHook, target: Target) -> Call {
    let actions = drain(hook);
    let call = calls(&actions).into_iter().next().unwrap_or_else(|| panic!("no call: {actions:?}"));
    assert_eq!(call.target, target, "{actions:?}");
    call
}

/// A steer through `steer_turn`, decided at `now` as `delivery` (`hostDeduplicates`: `dedup`).
pub fn decided_at(hook: &mut DesktopHook, now: u64, call: SteerCall, delivery: &str, dedup: bool) -> SteerId {
    let Reply::Promise(steer) = hook.steer_turn(now, call) else { panic!("not a steer") };
    let decide = next_call(hook, Target::Decide);
    hook.called(now, decide.id, Returned::Value(ValueFacts::default()));
    let facts = ValueFacts { delivery: Some(delivery.into()), host_deduplicates: dedup, ..ValueFacts::default() };
    hook.settled(now, decide.id, Ok(facts));
    steer
}

/// An official or activeTurn steer through the order, its desktop `steerTurn` called and returned.
pub fn own_at(hook: &mut DesktopHook, now: u64, call: SteerCall, delivery: &str, dedup: bool) -> (SteerId, CallId) {
    let steer = decided_at(hook, now, call, delivery, dedup);
    let own = next_call(hook, Target::OwnSteer);
    assert_eq!((own.of, own.args.clone()), (steer, None), "the steer's own arguments");
    hook.called(now, own.id, Returned::Value(ValueFacts::default()));
    (steer, own.id)
}

/// A newTurn steer through the order up to its `startTurn` call, made and
/// returned at `now` (`turn`: the turn running; `queue`: the follow-ups
/// `readMessages` gives). Returned: the steer, its `startTurn` call, its message id.
pub fn start_turn_at(
    hook: &mut DesktopHook,
    now: u64,
    call: SteerCall,
    turn: Option<&str>,
    queue: Option<Vec<FollowUp>>,
) -> (SteerId, CallId, String) {
    let steer = decided_at(hook, now, call, "newTurn", true);
    let pending = next_call(hook, Target::SubmissionHost("hasPendingTurnStart"));
    hook.called(now, pending.id, Returned::Value(ValueFacts::default()));
    let active = next_call(hook, Target::SubmissionHost("getActiveTurnId"));
    let turn_facts = ValueFacts { turn_id: turn.map(Into::into), absent: turn.is_none(), ..ValueFacts::default() };
    hook.called(now, active.id, Returned::Value(turn_facts));
    let below = next_call(hook, Target::Below);
    hook.called(now, below.id, Returned::Value(ValueFacts::default()));
    let load = next_call(hook, Target::Coordinator("loadMessages"));
    hook.called(now, load.id, Returned::Value(ValueFacts::default()));
    hook.settled(now, load.id, Ok(ValueFacts::default()));
    let read = next_call(hook, Target::Coordinator("readMessages"));
    hook.called(now, read.id, Returned::Value(ValueFacts::default()));
    hook.settled(now, read.id, Ok(ValueFacts { follow_ups: queue, ..ValueFacts::default() }));
    let start = next_call(hook, Target::StartTurn);
    let id = submitted_id(&start).expect("a submission with its message id");
    hook.called(now, start.id, Returned::Value(ValueFacts::default()));
    (steer, start.id, id)
}
