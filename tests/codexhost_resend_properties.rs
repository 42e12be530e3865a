//! "Never a duplicate" against a model of the real hosts: a codexhost host
//! that deduplicates the steers of its external threads by `threadId` +
//! `clientUserMessageId` (receipts per connection), records them in the
//! thread without their id (as the published host does), and forwards a
//! Codex-owned thread's steer verbatim to Codex, which applies a repeated id
//! again. Over random schedules of submissions (fresh ids and same-id
//! retries), lost answers, reconnects, turns that end and time that passes,
//! no message is ever applied twice.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use proptest::prelude::*;
use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest};
use renderer_steering::core::{Action, HostAnswer, OutgoingRequest, RequestId, RpcError, Timeouts};
use serde_json::{json, Value};

/// Thread 0 is Codex-owned, thread 1 external.
const THREADS: [(&str, bool); 2] = [("codex-thread", false), ("external-thread", true)];

#[derive(Debug, Clone)]
enum Ev {
    /// Submit message `m` (its id and words are fixed, so a repeat is a retry) on a thread.
    Submit {
        thread: u8,
        message: u8,
    },
    /// The oldest answer in flight reaches the engine, or is lost.
    Answer {
        index: u8,
        lost: bool,
    },
    /// A thread's running turn ends.
    EndTurn(u8),
    /// A new turn starts on a thread that has none.
    StartTurn(u8),
    /// The connection is replaced: answers in flight are lost, the host's receipts gone.
    Reconnect,
    Tick(u16),
}

fn ev() -> impl Strategy<Value = Ev> {
    prop_oneof![
        4 => ((0u8..2), (0u8..3)).prop_map(|(thread, message)| Ev::Submit { thread, message }),
        6 => (any::<u8>(), prop::bool::weighted(0.4)).prop_map(|(index, lost)| Ev::Answer { index, lost }),
        1 => (0u8..2).prop_map(Ev::EndTurn),
        1 => (0u8..2).prop_map(Ev::StartTurn),
        1 => (0u16..40_000).prop_map(Ev::Tick),
        1 => Just(Ev::Reconnect),
    ]
}

#[derive(Debug, Default)]
struct Turn {
    id: String,
    running: bool,
    /// Messages applied in this turn: (id, words).
    messages: Vec<(String, String)>,
}

/// The host side: owners, turns, what was applied, and the external
/// threads' receipts (`clientUserMessageId` -> the turn it went to).
#[derive(Debug, Default)]
struct ModelHost {
    turns: BTreeMap<String, Vec<Turn>>,
    receipts: BTreeMap<(String, String), String>,
    applied: BTreeMap<(String, String), usize>,
    next_turn: u32,
    inspect: bool,
}

impl ModelHost {
    fn new(inspect: bool) -> Self {
        let mut host = ModelHost { inspect, ..ModelHost::default() };
        for (thread, _) in THREADS {
            host.start_turn(thread, None);
        }
        host
    }

    fn external(thread: &str) -> bool {
        THREADS.iter().any(|(t, external)| *t == thread && *external)
    }

    fn running(&self, thread: &str) -> Option<&str> {
        self.turns.get(thread)?.last().filter(|t| t.running).map(|t| t.id.as_str())
    }

    fn start_turn(&mut self, thread: &str, message: Option<&str>) -> String {
        self.next_turn += 1;
        let id = format!("turn-{}", self.next_turn);
        let turns = self.turns.entry(thread.to_string()).or_default();
        if let Some(last) = turns.last_mut() {
            last.running = false;
        }
        turns.push(Turn { id: id.clone(), running: true, messages: vec![] });
        if let Some(m) = message {
            self.apply(thread, m);
        }
        id
    }

    fn apply(&mut self, thread: &str, message: &str) {
        *self.applied.entry((thread.to_string(), message.to_string())).or_default() += 1;
        let words = words_of(message);
        self.turns.get_mut(thread).and_then(|t| t.last_mut()).unwrap().messages.push((message.to_string(), words));
    }

    fn end_turn(&mut self, thread: &str) {
        if let Some(turn) = self.turns.get_mut(thread).and_then(|t| t.last_mut()) {
            turn.running = false;
        }
    }

    /// Processes one request as the real hosts do; the answer may then be lost.
    fn handle(&mut self, r: &OutgoingRequest) -> HostAnswer {
        let p = r.params.value();
        let thread = p["threadId"].as_str().or(p["threadIds"][0].as_str()).unwrap_or_default().to_string();
        let external = Self::external(&thread);
        let ok = |v: Value| HostAnswer::Result(v.into());
        match r.method {
            "codexhost/thread/steering/inspect" if self.inspect => ok(json!({ "delivery": if external { "newTurn" } else { "official" } })),
            "codexhost/thread/steering/inspect" => {
                HostAnswer::Error(RpcError::new(-32600, "Invalid request: unknown variant `codexhost/thread/steering/inspect`"))
            }
            "codexhost/thread/ownership/list" if external => {
                ok(json!({ "threads": [{ "threadId": thread, "owner": "external", "harnessId": "claude-code" }] }))
            }
            "codexhost/thread/ownership/list" => ok(json!({ "threads": [{ "threadId": thread, "owner": "codex" }] })),
            "thread/read" => {
                let turns: Vec<Value> = self.turns[&thread]
                    .iter()
                    .map(|t| {
                        // An external thread's messages are recorded without their id.
                        let items: Vec<Value> = t
                            .messages
                            .iter()
                            .map(|(id, words)| {
                                let client_id = if external { Value::Null } else { json!(id) };
                                json!({ "type": "userMessage", "clientId": client_id, "content": [{ "type": "text", "text": words }] })
                            })
                            .collect();
                        json!({ "id": t.id, "status": if t.running { "inProgress" } else { "completed" }, "items": items })
                    })
                    .collect();
                ok(json!({ "thread": { "id": thread, "modelProvider": "mock", "cliVersion": "0.171.0", "turns": turns } }))
            }
            "turn/steer" => {
                let message = p["clientUserMessageId"].as_str().unwrap_or_default().to_string();
                let key = (thread.clone(), message.clone());
                if external {
                    if let Some(turn) = self.receipts.get(&key) {
                        return ok(json!({ "turnId": turn }));
                    }
                }
                if self.running(&thread) != p["expectedTurnId"].as_str() {
                    return HostAnswer::Error(RpcError::new(-32074, "expected turn is not the active one"));
                }
                let turn = if external {
                    let turn = self.start_turn(&thread, Some(&message));
                    self.receipts.insert(key, turn.clone());
                    turn
                } else {
                    self.apply(&thread, &message);
                    self.running(&thread).unwrap_or_default().to_string()
                };
                ok(json!({ "turnId": turn }))
            }
            "turn/start" => {
                if self.running(&thread).is_some() {
                    return HostAnswer::Error(RpcError::new(-32072, "another turn is running"));
                }
                let message = p["clientUserMessageId"].as_str().unwrap_or_default().to_string();
                ok(json!({ "turn": { "id": self.start_turn(&thread, Some(&message)), "status": "inProgress", "items": [] } }))
            }
            other => HostAnswer::Error(RpcError::new(-32601, format!("no {other}"))),
        }
    }
}

/// The words message `id` carries (fixed, so a repeat is a retry).
fn words_of(id: &str) -> String {
    format!("words of {id}")
}

struct World {
    engine: CodexhostEngine,
    host: ModelHost,
    now: u64,
    /// Answers the host produced, not yet delivered or lost.
    in_flight: Vec<(RequestId, HostAnswer)>,
}

impl World {
    fn drain(&mut self) {
        while let Some(action) = self.engine.poll_action() {
            if let Action::Send(r) = action {
                let answer = self.host.handle(&r);
                self.in_flight.push((r.id, answer));
            }
        }
    }

    fn apply(&mut self, e: &Ev) {
        match *e {
            Ev::Submit { thread, message } => {
                let (thread, _) = THREADS[thread as usize];
                let turn = self.host.running(thread).map(str::to_string);
                let mut r = SteerRequest::text(thread, turn.as_deref(), &words_of(&format!("m{message}")));
                r.client_user_message_id = Some(format!("m{message}"));
                let _ = self.engine.steer(r, self.now);
            }
            Ev::Answer { index, lost } => {
                if !self.in_flight.is_empty() {
                    let (id, answer) = self.in_flight.remove(index as usize % self.in_flight.len());
                    if !lost {
                        self.engine.handle_answer(id, answer, self.now);
                    }
                }
            }
            Ev::EndTurn(t) => self.host.end_turn(THREADS[t as usize].0),
            Ev::StartTurn(t) => {
                let thread = THREADS[t as usize].0;
                if self.host.running(thread).is_none() {
                    self.host.start_turn(thread, None);
                }
            }
            Ev::Reconnect => {
                self.in_flight.clear();
                self.host.receipts.clear();
                self.engine.connection_replaced();
            }
            Ev::Tick(ms) => {
                self.now += ms as u64;
                self.engine.handle_timeout(self.now);
            }
        }
        self.drain();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_message_is_applied_twice_whoever_owns_the_thread(inspect in any::<bool>(), events in prop::collection::vec(ev(), 1..60)) {
        let mut world = World { engine: CodexhostEngine::new(Timeouts::default()), host: ModelHost::new(inspect), now: 0, in_flight: vec![] };
        for e in &events {
            world.apply(e);
        }
        for ((thread, message), times) in &world.host.applied {
            prop_assert!(*times <= 1, "{} applied {} times on {}", message, times, thread);
        }
    }
}
