//! "Never a duplicate" over random fault schedules: a model host
//! that really applies messages, answers lost, delayed, duplicated,
//! refused, never written and connections lost at every point, and a user
//! who retries every unconfirmed message with its id. Invariants: no
//! message id is ever applied twice; every submission ends exactly once;
//! a message the host applied never ends in a plain failure (it is
//! delivered or `outcomeUnknown`); every failure hands the draft back.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use proptest::prelude::*;
use renderer_steering::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerRequest, Submitted};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, OpId, OutgoingRequest, RpcError, Timeouts};
use serde_json::{json, Value};

#[derive(Debug, Clone, Copy)]
enum Fault {
    Answer,
    /// Applied, the answer never comes.
    Lose,
    /// Applied, answered twice.
    Duplicate,
    /// A JSON-RPC error: not applied.
    Refuse,
    /// The transport threw before writing: not applied.
    NotSent,
    /// Connection lost: applied or not.
    Disconnect(bool),
}

#[derive(Debug, Clone)]
enum Ev {
    Submit(u8, u8),
    Deliver(u8, Fault),
    Tick(u16),
    EndTurn,
}

fn fault() -> impl Strategy<Value = Fault> {
    prop_oneof![
        4 => Just(Fault::Answer),
        2 => Just(Fault::Lose),
        1 => Just(Fault::Duplicate),
        1 => Just(Fault::Refuse),
        1 => Just(Fault::NotSent),
        1 => any::<bool>().prop_map(Fault::Disconnect),
    ]
}

fn ev() -> impl Strategy<Value = Ev> {
    prop_oneof![
        3 => ((0u8..2), (0u8..4)).prop_map(|(t, m)| Ev::Submit(t, m)),
        6 => (any::<u8>(), fault()).prop_map(|(i, f)| Ev::Deliver(i, f)),
        2 => (0u16..40_000).prop_map(Ev::Tick),
        1 => Just(Ev::EndTurn),
    ]
}

/// The host: codexhost (dedupes by id) or a stock app-server (does not).
struct Host {
    dedupes: bool,
    turn_running: BTreeMap<String, bool>,
    applied: BTreeMap<String, u32>,
    receipts: BTreeMap<String, Value>,
}

impl Host {
    fn running(&self, thread: &str) -> bool {
        self.turn_running.get(thread).copied().unwrap_or(true)
    }

    /// The answer, and whether the message was applied.
    fn handle(&mut self, r: &OutgoingRequest) -> (HostAnswer, bool) {
        let params = r.params.value();
        let thread = params["threadId"].as_str().unwrap_or_default().to_string();
        let unknown = |m: &str| HostAnswer::Error(RpcError::new(-32600, format!("Invalid request: unknown variant `{m}`")));
        match r.method {
            "codexhost/thread/steering/inspect" if self.dedupes => (HostAnswer::Result(json!({ "delivery": "activeTurn" }).into()), false),
            "thread/read" if params["includeTurns"] == json!(true) => {
                let items: Vec<Value> = self.applied.keys().map(|id| json!({ "clientId": id })).collect();
                let status = if self.running(&thread) { "inProgress" } else { "completed" };
                (HostAnswer::Result(json!({ "thread": { "turns": [{ "id": "turn-1", "status": status, "items": items }] } }).into()), false)
            }
            "thread/read" => {
                (HostAnswer::Result(json!({ "thread": { "modelProvider": "openai", "cliVersion": "0.171.0" } }).into()), false)
            }
            "turn/steer" | "turn/start" => {
                let id = params["clientUserMessageId"].as_str().unwrap_or_default().to_string();
                if let Some(receipt) = self.receipts.get(&id).filter(|_| self.dedupes) {
                    return (HostAnswer::Result(receipt.clone().into()), false);
                }
                if r.method == "turn/steer" && !self.running(&thread) {
                    return (HostAnswer::Error(RpcError::new(-32600, "no active turn to steer")), false);
                }
                *self.applied.entry(id.clone()).or_default() += 1;
                let answer = if r.method == "turn/steer" { json!({ "turnId": "turn-1" }) } else { json!({ "turn": { "id": "turn-2" } }) };
                self.receipts.insert(id, answer.clone());
                (HostAnswer::Result(answer.into()), true)
            }
            other => (unknown(other), false),
        }
    }
}

struct World {
    engine: CodexhostEngine,
    host: Host,
    now: u64,
    outstanding: Vec<OutgoingRequest>,
    ops: BTreeMap<OpId, (renderer_steering::core::Json, String)>,
    applied_for: BTreeMap<OpId, bool>,
    completions: BTreeMap<OpId, usize>,
}

impl World {
    fn drain(&mut self) {
        while let Some(action) = self.engine.poll_action() {
            match action {
                Action::Send(r) => self.outstanding.push(r),
                Action::Complete { op, result } => {
                    *self.completions.entry(op).or_default() += 1;
                    let (draft, id) = self.ops[&op].clone();
                    match result {
                        Ok(CodexhostOutcome::Steered(_)) => {}
                        Ok(other) => panic!("a steer ended as {other:?}"),
                        Err(error) => {
                            assert_eq!(error.draft, draft, "the draft is handed back intact");
                            let applied = self.applied_for.get(&op).copied().unwrap_or(false);
                            assert!(!applied || error.outcome_unknown(), "an applied message never ends as a plain failure: {error:?}");
                            if error.outcome_unknown() {
                                assert_eq!(error.message_id.as_deref(), Some(id.as_str()));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn deliver(&mut self, index: u8, fault: Fault) {
        if self.outstanding.is_empty() {
            return;
        }
        let r = self.outstanding.remove(index as usize % self.outstanding.len());
        let (answer, applied) = match fault {
            Fault::Refuse => (HostAnswer::Error(RpcError::new(-32074, "refused")), false),
            Fault::NotSent => (HostAnswer::NotSent("socket closed".into()), false),
            Fault::Disconnect(false) => (HostAnswer::Transport("connection lost".into()), false),
            _ => self.host.handle(&r),
        };
        if applied {
            self.applied_for.insert(r.op, true);
        }
        match fault {
            Fault::Lose => {}
            Fault::Disconnect(true) => self.engine.handle_answer(r.id, HostAnswer::Transport("connection lost".into()), self.now),
            Fault::Duplicate => {
                self.engine.handle_answer(r.id, answer.clone(), self.now);
                self.engine.handle_answer(r.id, answer, self.now);
            }
            _ => self.engine.handle_answer(r.id, answer, self.now),
        }
        self.drain();
    }
}

fn run(events: Vec<Ev>, dedupes: bool) {
    let host = Host { dedupes, turn_running: BTreeMap::new(), applied: BTreeMap::new(), receipts: BTreeMap::new() };
    let engine = CodexhostEngine::new(Timeouts { decide_ms: 1_000, steer_ms: 5_000, request_ms: 1_000 });
    let mut w = World {
        engine,
        host,
        now: 0,
        outstanding: vec![],
        ops: BTreeMap::new(),
        applied_for: BTreeMap::new(),
        completions: BTreeMap::new(),
    };
    for event in events {
        match event {
            Ev::Submit(t, m) => {
                let thread = format!("t{t}");
                let id = format!("{thread}-m{m}");
                let mut r = SteerRequest::text(&thread, Some("turn-1"), &format!("message {m}"));
                r.client_user_message_id = Some(id.clone());
                let draft = r.input.clone();
                if let Ok(Submitted::Started(op)) = w.engine.steer(r, w.now) {
                    w.ops.insert(op, (draft, id));
                }
                w.drain();
            }
            Ev::Deliver(i, f) => w.deliver(i, f),
            Ev::Tick(ms) => {
                w.now += u64::from(ms);
                w.engine.handle_timeout(w.now);
                w.drain();
            }
            Ev::EndTurn => {
                for t in ["t0", "t1"] {
                    w.host.turn_running.insert(t.into(), false);
                }
            }
        }
    }
    // Everything still out is lost; time passes every bound.
    w.outstanding.clear();
    w.now += 1_000_000;
    w.engine.handle_timeout(w.now);
    w.drain();
    for (id, count) in &w.host.applied {
        assert!(*count <= 1, "message {id} applied {count} times");
    }
    for op in w.ops.keys() {
        assert_eq!(w.completions.get(op), Some(&1), "{op:?} ends exactly once");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, ..ProptestConfig::default() })]

    #[test]
    fn a_deduplicating_host_never_applies_a_message_twice(events in prop::collection::vec(ev(), 1..80)) {
        run(events, true);
    }

    #[test]
    fn a_host_without_dedupe_never_applies_a_message_twice(events in prop::collection::vec(ev(), 1..80)) {
        run(events, false);
    }
}
