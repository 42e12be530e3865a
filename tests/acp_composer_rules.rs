//! The ACP composer and handoff rules: one handoff per turn at a time, for
//! `send` and in the composer's mode; a path refused with -32601 re-tells
//! every composer; our failed prompt ends an unowned turn's count once; quiet
//! (idle) sessions are told `unavailable` on close, dispose and a failed
//! `initialize`, and every composer told at a close is owed "open again",
//! however many closes and failed `initialize`s come before it.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::acp::{ext_agent, handoff_agent as claude};
use common::{acp_engine as engine, done, run, silent, text};
use renderer_steering::core::acp::{AcpEngine, AcpOutcome, InputMode};
use renderer_steering::core::{Action, HostAnswer, RpcError};
use serde_json::json;

fn changed_modes(actions: &[Action<AcpOutcome>], key: &str) -> Vec<InputMode> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Changed { key: k, state } if k == key => Some(state.mode),
            _ => None,
        })
        .collect()
}

/// docs/design.md, "One handoff per turn at a time": while the first
/// handoff's fold-or-defer is not settled by the app's prompt answer (also
/// when it answered before the app's prompt, Handoff::AnsweredFirst), the
/// next message waits. A second handoff would overwrite that state, and the
/// first would be reported `folded` while the app's later answer is not
/// `superseded`.
#[test]
fn a_message_sent_after_a_handoff_answered_first_waits_and_folded_agrees_with_superseded() {
    let mut e = claude();
    e.prompt_sent("s");
    let a = e.send("s", text("a"), 0).unwrap();
    let first = run(&mut e, 0, silent);
    assert_eq!(first.methods(), ["session/prompt"]);
    e.handle_answer(first.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    let log = run(&mut e, 0, silent);
    assert!(matches!(done(&log, a), Some(Ok(AcpOutcome::HandedOff { handoff: "folded", .. }))));
    // The app's prompt is still open; its answer will be superseded.
    e.send("s", text("b"), 0).unwrap();
    let second = run(&mut e, 0, silent);
    let verdict = e.prompt_answered("s", &json!({ "stopReason": "end_turn", "usage": { "outputTokens": 9 } }).into(), 0);
    assert!(
        verdict.superseded,
        "\"a\" was reported folded, so the app's answer must be superseded (sent meanwhile: {:?})",
        second.methods()
    );
    assert!(second.sent.is_empty(), "\"b\" must wait: one handoff per turn at a time");
}

/// `-32601` turns the extension off for the whole connection, so every
/// running session's composer goes from `direct` to `queue`; only the session
/// whose steer was refused is told.
#[test]
fn a_path_turned_off_by_method_not_found_is_reported_to_every_running_session() {
    let mut e = ext_agent();
    e.prompt_sent("a");
    e.prompt_sent("b");
    let before = run(&mut e, 0, silent);
    assert_eq!(changed_modes(&before.actions, "b"), [InputMode::Direct]);
    e.send("a", text("x"), 0).unwrap();
    let log = run(&mut e, 0, |_, _| Some(HostAnswer::Error(RpcError::new(-32601, "Method not found"))));
    assert_eq!(e.composer("b").mode, InputMode::Queue, "steering is off for the connection");
    assert_eq!(changed_modes(&log.actions, "b"), [InputMode::Queue], "session b was last told `direct`");
}

/// Our queued `session/prompt` ending in a turn error (-32603) counts as two
/// prompt answers (prompts.rs: on_prompt_answer calls prompt_ended twice), so
/// an unowned turn (`startedNewTurn`) that began after it is ended with no
/// evidence: the composer says idle and the next message goes out as a new
/// concurrent `session/prompt` instead of steering.
#[test]
fn our_prompt_failing_counts_once_toward_ending_an_unowned_turn() {
    let mut e = ext_agent();
    e.send("s", text("a"), 0).unwrap();
    let prompt = run(&mut e, 0, silent);
    assert_eq!(prompt.methods(), ["session/prompt"]);
    let b = e.send("s", text("b"), 0).unwrap();
    let steer =
        run(&mut e, 0, |m, _| (m == "_session/steering").then(|| HostAnswer::Result(json!({ "outcome": "startedNewTurn" }).into())));
    assert!(matches!(done(&steer, b), Some(Ok(AcpOutcome::StartedNewTurn { .. }))));
    e.handle_answer(prompt.sent[0].id, HostAnswer::Error(RpcError::new(-32603, "model failed")), 0);
    let _ = run(&mut e, 0, silent);
    // Control: the same answer as a result leaves the unowned turn running.
    assert_eq!(e.composer("s").mode, InputMode::Direct, "the agent's own turn still runs");
    e.send("s", text("c"), 0).unwrap();
    assert_eq!(run(&mut e, 0, silent).methods(), ["_session/steering"], "steered, not a second prompt");
}

/// Control for the above: a readable answer leaves the unowned turn running.
#[test]
fn control_our_prompt_answered_leaves_the_unowned_turn_running() {
    let mut e = ext_agent();
    e.send("s", text("a"), 0).unwrap();
    let prompt = run(&mut e, 0, silent);
    e.send("s", text("b"), 0).unwrap();
    let _ = run(&mut e, 0, |m, _| (m == "_session/steering").then(|| HostAnswer::Result(json!({ "outcome": "startedNewTurn" }).into())));
    e.handle_answer(prompt.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    let _ = run(&mut e, 0, silent);
    assert_eq!(e.composer("s").mode, InputMode::Direct);
}

/// `initialize` failing makes every composer `unavailable`; a session that was
/// told `queue` while it waited is not told.
#[test]
fn a_failed_initialize_tells_every_composer_it_is_unavailable() {
    let mut e = AcpEngine::new(Default::default(), false);
    e.initializing();
    e.prompt_sent("s");
    let before = run(&mut e, 0, silent);
    assert_eq!(changed_modes(&before.actions, "s"), [InputMode::Queue]);
    e.initialize_failed();
    let log = run(&mut e, 0, silent);
    assert_eq!(e.composer("s").mode, InputMode::Unavailable);
    assert_eq!(changed_modes(&log.actions, "s"), [InputMode::Unavailable]);
}

/// docs/design.md: "The composer is told (onChange) when the connection
/// closes or the engine is disposed (unavailable), also for sessions with
/// nothing in flight". A session told `idle` after its turn ended is
/// forgotten as quiet (composer.rs: flush_changes drops it from `shown`),
/// and its composer must still hear of the close, not keep showing `idle`.
#[test]
fn an_idle_session_is_told_unavailable_when_the_connection_closes() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let before = run(&mut e, 0, silent);
    assert_eq!(changed_modes(&before.actions, "s"), [InputMode::Direct, InputMode::Idle]);
    e.connection_closed();
    let log = run(&mut e, 0, silent);
    assert_eq!(e.composer("s").mode, InputMode::Unavailable);
    assert_eq!(changed_modes(&log.actions, "s"), [InputMode::Unavailable], "last told `idle`");
}

/// Same cause as the handoff test above, seen in the composer: while the first
/// handoff's fold is unsettled the next message waits (docs/design.md), so the mode is
/// `queue`; the composer says `direct` ("Send now; delivered to the running turn").
#[test]
fn the_composer_says_queue_while_a_handoff_answered_first_is_unsettled() {
    let mut e = claude();
    e.prompt_sent("s");
    e.send("s", text("a"), 0).unwrap();
    let first = run(&mut e, 0, silent);
    e.handle_answer(first.sent[0].id, HostAnswer::Result(json!({ "stopReason": "end_turn" }).into()), 0);
    let _ = run(&mut e, 0, silent);
    assert_eq!(e.composer("s").mode, InputMode::Queue);
}

#[test]
fn an_idle_session_is_told_unavailable_when_the_engine_is_disposed() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let _ = run(&mut e, 0, silent);
    e.dispose();
    let log = run(&mut e, 0, silent);
    assert_eq!(changed_modes(&log.actions, "s"), [InputMode::Unavailable], "last told `idle`");
}

#[test]
fn quiet_sessions_told_on_close_are_bounded_to_the_newest() {
    let mut e = ext_agent();
    let quiet = renderer_steering::core::acp::MAX_QUIET_TOLD + 10;
    for i in 0..quiet {
        let id = format!("s{i}");
        e.prompt_sent(&id);
        e.prompt_answered(&id, &json!({ "stopReason": "end_turn" }).into(), 0);
    }
    let _ = run(&mut e, 0, silent);
    assert_eq!(e.live_state(), 0, "quiet sessions hold no state");
    e.connection_closed();
    let told = run(&mut e, 0, silent).actions.iter().filter(|a| matches!(a, Action::Changed { .. })).count();
    assert_eq!(told, renderer_steering::core::acp::MAX_QUIET_TOLD);
}

/// The composer is told `unavailable` only after the sessions are forgotten,
/// so no accepted inject is still listed in what it is told.
#[test]
fn closing_input_reports_no_pending_inject_it_no_longer_holds() {
    for close in [AcpEngine::connection_closed as fn(&mut AcpEngine), AcpEngine::dispose] {
        let mut e = engine(json!({ "agentCapabilities": { "session": { "inject": { "modes": ["queue", "steer"] } } } }), false);
        e.prompt_sent("s");
        e.send("s", text("a"), 0).unwrap();
        let _ = run(&mut e, 0, |m, _| (m == "session/inject").then(|| HostAnswer::Result(json!({ "messageId": "inj-1" }).into())));
        assert_eq!(e.composer("s").pending_injects, ["inj-1"]);
        close(&mut e);
        let told: Vec<_> = run(&mut e, 0, silent)
            .actions
            .into_iter()
            .filter_map(|a| match a {
                Action::Changed { state, .. } => Some(state),
                _ => None,
            })
            .collect();
        let last = told.last().expect("told");
        assert_eq!((last.mode, last.pending_injects.clone()), (InputMode::Unavailable, e.composer("s").pending_injects));
    }
}

// A failed `initialize` after a close must not forget the sessions owed an
// "input open" notice.

/// connection closed -> reconnect: initialize fails once, then succeeds.
/// The composer told `unavailable` on close must be told it is open again.
#[test]
fn a_failed_reinitialize_does_not_forget_sessions_told_unavailable_on_close() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let _ = run(&mut e, 0, silent);
    e.connection_closed();
    let closed = run(&mut e, 0, silent);
    assert_eq!(changed_modes(&closed.actions, "s"), [InputMode::Unavailable]);
    // Reconnect: the first initialize fails, the second succeeds.
    e.initializing();
    e.initialize_failed();
    let _ = run(&mut e, 0, silent);
    e.initialized(&json!({ "_meta": { "steering": { "supported": true } }, "agentCapabilities": {} }).into(), 0);
    let reopened = run(&mut e, 0, silent);
    assert_eq!(e.composer("s").mode, InputMode::Idle);
    assert_eq!(changed_modes(&reopened.actions, "s"), [InputMode::Idle], "last told `unavailable`: it must be told input is open again");
}

/// Control: without the failed initialize in between, the reopen is told.
#[test]
fn control_reinitialize_tells_sessions_told_unavailable_on_close() {
    let mut e = ext_agent();
    e.prompt_sent("s");
    e.prompt_answered("s", &json!({ "stopReason": "end_turn" }).into(), 0);
    let _ = run(&mut e, 0, silent);
    e.connection_closed();
    let _ = run(&mut e, 0, silent);
    e.initializing();
    e.initialized(&json!({ "_meta": { "steering": { "supported": true } }, "agentCapabilities": {} }).into(), 0);
    let reopened = run(&mut e, 0, silent);
    assert_eq!(changed_modes(&reopened.actions, "s"), [InputMode::Idle]);
}

/// An extension agent whose session "s" ran a turn when the connection
/// closed: its composer was told `unavailable` (and is owed "open again").
fn closed_while_running() -> AcpEngine {
    let mut e = ext_agent();
    e.prompt_sent("s");
    let _ = run(&mut e, 0, silent);
    e.connection_closed();
    let closed = run(&mut e, 0, silent);
    assert_eq!(changed_modes(&closed.actions, "s"), [InputMode::Unavailable]);
    e
}

/// A later `initialize` answer opens input: "s" must be told it is idle.
fn assert_told_open_again(mut e: AcpEngine) {
    e.initialized(&json!({ "_meta": { "steering": { "supported": true } }, "agentCapabilities": {} }).into(), 0);
    let reopened = run(&mut e, 0, silent);
    assert_eq!(e.composer("s").mode, InputMode::Idle);
    assert_eq!(changed_modes(&reopened.actions, "s"), [InputMode::Idle], "last told `unavailable`");
}

/// A session whose turn ran when the connection closed (told `unavailable`,
/// remembered in `told_closed`); the reconnect's `initialize` fails twice,
/// then succeeds: the composer must be told input is open again.
#[test]
fn two_failed_reinitializes_do_not_forget_a_running_session_told_unavailable_on_close() {
    let mut e = closed_while_running();
    for _ in 0..2 {
        e.initializing();
        e.initialize_failed();
        let _ = run(&mut e, 0, silent);
    }
    assert_told_open_again(e);
}

/// The connection reported closed twice (an `onerror` and an `onclose`, or
/// a reconnect loop) before the next `initialize` answer: the session told
/// `unavailable` at the first close is still owed "open again" (the second
/// close adds to the sessions owed it, it does not replace them).
#[test]
fn a_second_close_does_not_forget_the_composers_told_unavailable_at_the_first() {
    let mut e = closed_while_running();
    e.connection_closed();
    let _ = run(&mut e, 0, silent);
    e.initializing();
    assert_told_open_again(e);
}
