//! The journal across a reload, against a model of the real hosts: random
//! steers (fresh ids and same-id retries) on a Codex-owned and an external
//! thread, each request meeting a random fate (answered, refused, lost,
//! cut by a disconnect that it may or may not have crossed, never written),
//! turns that end and start, time that passes; then the page reloads (a
//! new engine, the storage as the journal's writes and removals left it)
//! and recovers against the same host. Whatever the schedule: a message
//! the host applied is never reported not delivered, one the host never got
//! is never reported delivered, every record is written immediately before
//! the request that carries its message, no record survives whose outcome
//! was settled, and every record of an outcome still unknown survives the
//! reload and is recovered.
#![cfg(not(target_arch = "wasm32"))]

mod model_host;

use std::collections::{BTreeMap, BTreeSet};

use model_host::{words_of, ModelHost, THREADS};
use proptest::prelude::*;
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerRequest};
use renderer_steering::core::journal::{load, storage_key, JournalDialect, RecoveredEntry, RecoveredOutcome};
use renderer_steering::core::{Action, HostAnswer, OpId, OutgoingRequest, RpcError, Timeouts};

const PREFIX: &str = "rs:";

#[derive(Debug, Clone, Copy)]
enum Fate {
    /// The host processes it and its answer comes back.
    Answered,
    /// The host refuses it (a JSON-RPC error) without applying anything.
    Refused,
    /// The host processes it; the answer never comes (the engine's bound passes).
    Lost,
    /// The connection drops: every request in flight crossed it or not
    /// (`reached`), and each fails as a transport error; the host's
    /// receipts go with the connection.
    Disconnect { reached: bool },
    /// The transport refused it before writing anything.
    NotSent,
}

#[derive(Debug, Clone)]
enum Ev {
    Submit { thread: u8, message: u8 },
    Fate { index: u8, fate: Fate },
    EndTurn(u8),
    StartTurn(u8),
    Tick(u16),
}

fn fate() -> impl Strategy<Value = Fate> {
    prop_oneof![
        4 => Just(Fate::Answered),
        1 => Just(Fate::Refused),
        2 => Just(Fate::Lost),
        1 => any::<bool>().prop_map(|reached| Fate::Disconnect { reached }),
        1 => Just(Fate::NotSent),
    ]
}

fn ev() -> impl Strategy<Value = Ev> {
    prop_oneof![
        4 => ((0u8..2), (0u8..3)).prop_map(|(thread, message)| Ev::Submit { thread, message }),
        6 => (any::<u8>(), fate()).prop_map(|(index, fate)| Ev::Fate { index, fate }),
        1 => (0u8..2).prop_map(Ev::EndTurn),
        1 => (0u8..2).prop_map(Ev::StartTurn),
        1 => (0u16..40_000).prop_map(Ev::Tick),
    ]
}

/// What the page does at the reload.
#[derive(Debug, Clone)]
struct Reload {
    /// The requests still in flight crossed the wire before the page went.
    outstanding_reached: bool,
    /// Every turn ends before the new page recovers.
    end_turns: bool,
    /// The new page follows this thread (another window owns its stream).
    follows: Option<u8>,
    /// The host answers the recovery's reads (else they time out).
    answers_reads: bool,
}

fn reload() -> impl Strategy<Value = Reload> {
    (any::<bool>(), any::<bool>(), prop::option::weighted(0.25, 0u8..2), prop::bool::weighted(0.85)).prop_map(
        |(outstanding_reached, end_turns, follows, answers_reads)| Reload { outstanding_reached, end_turns, follows, answers_reads },
    )
}

/// One page: its engine, what it did, and the storage its journal writes to.
struct Page {
    engine: CodexhostEngine,
    actions: Vec<Action<CodexhostOutcome>>,
    /// Requests sent and not yet given a fate.
    in_flight: Vec<OutgoingRequest>,
}

impl Page {
    fn new() -> Self {
        let mut engine = CodexhostEngine::new(Timeouts::default());
        engine.enable_journal(PREFIX.into(), 0.0);
        Page { engine, actions: vec![], in_flight: vec![] }
    }

    /// Drains the engine: journal actions reach the storage, sends wait for their fate.
    fn drain(&mut self, storage: &mut BTreeMap<String, String>) {
        while let Some(action) = self.engine.poll_action() {
            match &action {
                Action::Journal { key, record: Some(text) } => {
                    storage.insert(key.clone(), text.clone());
                }
                Action::Journal { key, record: None } => {
                    storage.remove(key);
                }
                Action::Send(r) => self.in_flight.push(r.clone()),
                _ => {}
            }
            self.actions.push(action);
        }
    }
}

struct World {
    page: Page,
    host: ModelHost,
    storage: BTreeMap<String, String>,
    now: u64,
    /// The (thread, message id) each op submitted.
    ops: BTreeMap<OpId, (String, String)>,
}

impl World {
    fn apply(&mut self, e: &Ev) {
        match *e {
            Ev::Submit { thread, message } => {
                let (thread, _) = THREADS[thread as usize];
                let id = format!("m{message}");
                let turn = self.host.running(thread).map(str::to_string);
                let mut r = SteerRequest::text(thread, turn.as_deref(), &words_of(&id));
                r.client_user_message_id = Some(id.clone());
                if let Ok(submitted) = self.page.engine.steer(r, self.now) {
                    self.ops.insert(submitted.op(), (thread.to_string(), id));
                }
            }
            Ev::Fate { index, fate } => self.fate(index, fate),
            Ev::EndTurn(t) => self.host.end_turn(THREADS[t as usize].0),
            Ev::StartTurn(t) => {
                let thread = THREADS[t as usize].0;
                if self.host.running(thread).is_none() {
                    self.host.start_turn(thread, None);
                }
            }
            Ev::Tick(ms) => {
                self.now += ms as u64;
                self.page.engine.handle_timeout(self.now);
            }
        }
        self.page.drain(&mut self.storage);
    }

    fn fate(&mut self, index: u8, fate: Fate) {
        if self.page.in_flight.is_empty() {
            return;
        }
        let at = index as usize % self.page.in_flight.len();
        let (engine, now) = (&mut self.page.engine, self.now);
        match fate {
            Fate::Answered => {
                let r = self.page.in_flight.remove(at);
                let answer = self.host.handle(&r);
                engine.handle_answer(r.id, answer, now);
            }
            Fate::Refused => {
                let r = self.page.in_flight.remove(at);
                engine.handle_answer(r.id, HostAnswer::Error(RpcError::new(-32073, "harness failure")), now);
            }
            Fate::Lost => {
                let r = self.page.in_flight.remove(at);
                self.host.handle(&r);
            }
            Fate::NotSent => {
                let r = self.page.in_flight.remove(at);
                engine.handle_answer(r.id, HostAnswer::NotSent("socket closed".into()), now);
            }
            Fate::Disconnect { reached } => {
                for r in std::mem::take(&mut self.page.in_flight) {
                    if reached {
                        self.host.handle(&r);
                    }
                    engine.handle_answer(r.id, HostAnswer::Transport("connection lost".into()), now);
                }
                self.host.receipts.clear();
                engine.connection_replaced();
            }
        }
    }

    /// The reload: the old page goes (its requests in flight crossed the
    /// wire or not), a new one loads the journal and recovers.
    fn reload(&mut self, reload: &Reload) -> (Page, Vec<RecoveredEntry>) {
        for r in std::mem::take(&mut self.page.in_flight) {
            if reload.outstanding_reached {
                self.host.handle(&r);
            }
        }
        if reload.end_turns {
            for (thread, _) in THREADS {
                self.host.end_turn(thread);
            }
        }
        let mut page = Page::new();
        if let Some(t) = reload.follows {
            page.engine.set_follower(THREADS[t as usize].0, true);
        }
        let entries: Vec<(String, String)> = self.storage.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        let loaded = load(PREFIX, entries, self.now as f64);
        assert!(loaded.drop.is_empty(), "the journal wrote records its loader drops: {:?}", loaded.drop);
        let now = self.now + 1;
        let op = page.engine.recover(loaded.records, now);
        page.drain(&mut self.storage);
        for r in std::mem::take(&mut page.in_flight) {
            assert!(!r.carries_message && r.method == "thread/read", "recovery sent {r:?}");
            if reload.answers_reads {
                let answer = self.host.handle(&r);
                page.engine.handle_answer(r.id, answer, now);
            }
        }
        page.engine.handle_timeout(now + Timeouts::default().decide_ms);
        page.drain(&mut self.storage);
        let entries = page.actions.iter().find_map(|a| match a {
            Action::Complete { op: done, result: Ok(CodexhostOutcome::Recovered(entries)) } if *done == op => Some(entries.clone()),
            _ => None,
        });
        (page, entries.expect("recovery ends"))
    }
}

/// Every `Send` carrying a message comes immediately after the write of its record.
fn writes_precede_sends(actions: &[Action<CodexhostOutcome>]) -> Result<(), TestCaseError> {
    for (at, action) in actions.iter().enumerate() {
        let Action::Send(r) = action else { continue };
        if !r.carries_message {
            continue;
        }
        let p = r.params.value();
        let key =
            storage_key(PREFIX, JournalDialect::Codexhost, p["threadId"].as_str().unwrap(), p["clientUserMessageId"].as_str().unwrap());
        let written = at.checked_sub(1).map(|before| &actions[before]);
        prop_assert!(
            matches!(written, Some(Action::Journal { key: k, record: Some(_) }) if *k == key),
            "{} was sent without its record written just before it: {:?}",
            key,
            written
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn across_a_reload_no_outcome_is_lost_invented_or_kept_once_settled(events in prop::collection::vec(ev(), 1..60), reload in reload()) {
        let mut world = World { page: Page::new(), host: ModelHost::new(true), storage: BTreeMap::new(), now: 0, ops: BTreeMap::new() };
        for e in &events {
            world.apply(e);
        }
        writes_precede_sends(&world.page.actions)?;
        // Before the reload: a record stays only while its message's last attempt has no settled outcome.
        let mut last: BTreeMap<(String, String), bool> = BTreeMap::new();
        for action in &world.page.actions {
            if let Action::Complete { op, result } = action {
                if let Some(message) = world.ops.get(op) {
                    let settled = result.as_ref().err().is_none_or(|e| !e.outcome_unknown());
                    last.insert(message.clone(), settled);
                }
            }
        }
        let in_flight: BTreeSet<OpId> = world.ops.keys().copied().filter(|op| {
            !world.page.actions.iter().any(|a| matches!(a, Action::Complete { op: done, .. } if done == op))
        }).collect();
        for ((thread, id), settled) in &last {
            let key = storage_key(PREFIX, JournalDialect::Codexhost, thread, id);
            let running = in_flight.iter().any(|op| world.ops[op] == (thread.clone(), id.clone()));
            if *settled && !running {
                prop_assert!(!world.storage.contains_key(&key), "{} settled but its record stayed", key);
            }
            if !*settled && !running {
                prop_assert!(world.storage.contains_key(&key), "{} ended unknown but its record is gone", key);
            }
        }
        let kept: BTreeSet<String> = world.storage.keys().cloned().collect();
        let (_, entries) = world.reload(&reload);
        let followed = reload.follows.map(|t| THREADS[t as usize].0);
        let of_followed = |key: &str| followed.is_some_and(|t| key.contains(&format!("\"{t}\"")));
        for key in kept.iter().filter(|k| !of_followed(k)) {
            let reported = entries.iter().any(|e| storage_key(PREFIX, JournalDialect::Codexhost, &e.thread_id, &e.client_user_message_id) == *key);
            prop_assert!(reported, "{} was kept across the reload but not recovered", key);
        }
        for entry in &entries {
            let message = (entry.thread_id.clone(), entry.client_user_message_id.clone());
            prop_assert!(Some(entry.thread_id.as_str()) != followed, "a followed thread's record was recovered");
            match entry.outcome {
                RecoveredOutcome::NotDelivered => prop_assert!(!world.host.applied.contains_key(&message), "{:?} applied, reported not delivered", message),
                RecoveredOutcome::Delivered => prop_assert!(world.host.received.contains(&message), "{:?} never sent, reported delivered", message),
                RecoveredOutcome::Unknown => {}
            }
            let key = storage_key(PREFIX, JournalDialect::Codexhost, &entry.thread_id, &entry.client_user_message_id);
            prop_assert_eq!(world.storage.contains_key(&key), !entry.outcome.is_settled(), "{:?}", entry);
        }
        // After it: every record left is a followed thread's or one whose outcome is still unknown.
        for key in world.storage.keys() {
            let unknown = entries.iter().any(|e| {
                e.outcome == RecoveredOutcome::Unknown && storage_key(PREFIX, JournalDialect::Codexhost, &e.thread_id, &e.client_user_message_id) == *key
            });
            prop_assert!(unknown || of_followed(key), "{} survived the recovery without an unknown outcome", key);
        }
    }
}
