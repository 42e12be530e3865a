//! What the journal's rule suites share: the records, the storage keys,
//! a journal-keeping codexhost engine and the readers of its journal actions.
#![allow(dead_code)]

use super::{ok, run, silent, text, Log};
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, RecoveredEntry, SteerRequest};
use renderer_steering::core::journal::{storage_key, JournalDialect, JournalRecord, RecoveredOutcome, JOURNAL_VERSION};
use renderer_steering::core::{Action, HostAnswer, Json, OpId, Timeouts};
use serde_json::{json, Value};

pub const PREFIX: &str = "rs:";
/// `Date.now() - performance.now()` of the page.
pub const OFFSET: f64 = 1_700_000_000_000.25;
/// A wall-clock time at which the records below are fresh.
pub const WALL: f64 = 1_700_000_100_000.0;

pub fn words(id: &str) -> String {
    format!("words of {id}")
}

pub fn key(thread: &str, id: &str) -> String {
    storage_key(PREFIX, JournalDialect::Codexhost, thread, id)
}

pub fn record(dialect: JournalDialect, on: &str, id: &str, turn: Option<&str>, at: f64) -> JournalRecord {
    JournalRecord {
        v: JOURNAL_VERSION,
        dialect,
        key: on.into(),
        message_id: id.into(),
        expected_turn_id: turn.map(Into::into),
        method: if turn.is_some() { "turn/steer" } else { "turn/start" }.into(),
        draft: Json::from(text(&words(id))),
        presented: Some("official".into()),
        at,
    }
}

/// A codexhost record of `id` on `thread`, meant for `turn`, with its key.
pub fn stored(thread: &str, id: &str, turn: Option<&str>) -> (String, JournalRecord) {
    (key(thread, id), record(JournalDialect::Codexhost, thread, id, turn, WALL))
}

pub fn steer(thread: &str, turn: Option<&str>, id: &str) -> SteerRequest {
    let mut r = SteerRequest::text(thread, turn, &words(id));
    r.client_user_message_id = Some(id.into());
    r
}

pub fn codexhost() -> CodexhostEngine {
    let mut e = CodexhostEngine::new(Timeouts::default());
    e.enable_journal(PREFIX.into(), OFFSET);
    e
}

/// The journal's actions among `actions`: each key with the record's text
/// (a write) or `None` (a removal).
pub fn journal<O>(actions: &[Action<O>]) -> Vec<(String, Option<String>)> {
    actions
        .iter()
        .filter_map(|a| match a {
            Action::Journal { key, record } => Some((key.clone(), record.clone())),
            _ => None,
        })
        .collect()
}

pub fn removals<O>(actions: &[Action<O>]) -> Vec<String> {
    journal(actions).into_iter().filter(|(_, r)| r.is_none()).map(|(k, _)| k).collect()
}

pub fn writes<O>(actions: &[Action<O>]) -> Vec<(String, Value)> {
    journal(actions).into_iter().filter_map(|(k, r)| Some((k, serde_json::from_str(&r?).unwrap()))).collect()
}

/// A host for a Codex-owned thread: inspect answers `official`, a
/// `thread/read` with turns answers `read`, and the message's request `steer`.
pub fn host(read: Option<HostAnswer>, steer: Option<HostAnswer>) -> impl FnMut(&str, &Value) -> Option<HostAnswer> {
    move |method, _| match method {
        "codexhost/thread/steering/inspect" => ok(json!({ "delivery": "official" })),
        "thread/read" => read.clone(),
        _ => steer.clone(),
    }
}

/// Runs `e` against `host`; anything left unanswered times out.
pub fn settle<O: Clone, E: renderer_steering::core::Driven<Outcome = O>>(
    e: &mut E,
    host: impl FnMut(&str, &Value) -> Option<HostAnswer>,
) -> Log<O> {
    let mut log = run(e, 0, host);
    if let Some(deadline) = e.poll_timeout() {
        e.handle_timeout(deadline);
        log.actions.extend(run(e, deadline, silent).actions);
    }
    log
}

pub fn thread(id: &str, turns: Value) -> Option<HostAnswer> {
    ok(json!({ "thread": { "id": id, "turns": turns } }))
}

pub fn user_message(client_id: Option<&str>, words: &str) -> Value {
    json!({ "type": "userMessage", "clientId": client_id, "content": [{ "type": "text", "text": words }] })
}

pub fn recovered(log: &Log<CodexhostOutcome>, op: OpId) -> Vec<RecoveredEntry> {
    match log.completion(op) {
        Some(Action::Complete { result: Ok(CodexhostOutcome::Recovered(entries)), .. }) => entries.clone(),
        other => panic!("recovery did not end with its entries: {other:?}"),
    }
}

pub fn outcomes(entries: &[RecoveredEntry]) -> Vec<(&str, RecoveredOutcome)> {
    entries.iter().map(|e| (e.client_user_message_id.as_str(), e.outcome)).collect()
}
