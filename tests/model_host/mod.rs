//! A model of the real codexhost hosts for the property tests: one
//! Codex-owned and one external thread; a host that deduplicates the steers
//! of its external threads by `threadId` + `clientUserMessageId` (receipts
//! per connection), records them in the thread without their id (as the
//! published host does), and forwards a Codex-owned thread's steer verbatim
//! to Codex, which applies a repeated id again.
#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};

use renderer_steering::core::{HostAnswer, OutgoingRequest, RpcError};
use serde_json::{json, Value};

/// Thread 0 is Codex-owned, thread 1 external.
pub const THREADS: [(&str, bool); 2] = [("codex-thread", false), ("external-thread", true)];

#[derive(Debug, Default)]
pub struct Turn {
    pub id: String,
    pub running: bool,
    /// Messages applied in this turn: (id, words).
    pub messages: Vec<(String, String)>,
}

/// The host side: owners, turns, what was applied, and the external
/// threads' receipts (`clientUserMessageId` -> the turn it went to).
#[derive(Debug, Default)]
pub struct ModelHost {
    pub turns: BTreeMap<String, Vec<Turn>>,
    pub receipts: BTreeMap<(String, String), String>,
    /// How often each (thread, message id) was applied.
    pub applied: BTreeMap<(String, String), usize>,
    /// (thread, message id) of every request carrying a message it processed.
    pub received: BTreeSet<(String, String)>,
    next_turn: u32,
    inspect: bool,
}

impl ModelHost {
    /// A host with one running turn per thread; `inspect`: it answers
    /// `codexhost/thread/steering/inspect` (else refuses it as a stock host does).
    pub fn new(inspect: bool) -> Self {
        let mut host = ModelHost { inspect, ..ModelHost::default() };
        for (thread, _) in THREADS {
            host.start_turn(thread, None);
        }
        host
    }

    pub fn external(thread: &str) -> bool {
        THREADS.iter().any(|(t, external)| *t == thread && *external)
    }

    pub fn running(&self, thread: &str) -> Option<&str> {
        self.turns.get(thread)?.last().filter(|t| t.running).map(|t| t.id.as_str())
    }

    pub fn start_turn(&mut self, thread: &str, message: Option<&str>) -> String {
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

    pub fn apply(&mut self, thread: &str, message: &str) {
        *self.applied.entry((thread.to_string(), message.to_string())).or_default() += 1;
        let words = words_of(message);
        self.turns.get_mut(thread).and_then(|t| t.last_mut()).unwrap().messages.push((message.to_string(), words));
    }

    pub fn end_turn(&mut self, thread: &str) {
        if let Some(turn) = self.turns.get_mut(thread).and_then(|t| t.last_mut()) {
            turn.running = false;
        }
    }

    /// Processes one request as the real hosts do; the answer may then be lost.
    pub fn handle(&mut self, r: &OutgoingRequest) -> HostAnswer {
        let p = r.params.value();
        let thread = p["threadId"].as_str().or(p["threadIds"][0].as_str()).unwrap_or_default().to_string();
        let external = Self::external(&thread);
        let ok = |v: Value| HostAnswer::Result(v.into());
        if r.carries_message {
            self.received.insert((thread.clone(), p["clientUserMessageId"].as_str().unwrap_or_default().to_string()));
        }
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
pub fn words_of(id: &str) -> String {
    format!("words of {id}")
}
