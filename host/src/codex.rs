//! codexhost modes: new host (inspect + ownership + tag), old host (no
//! inspect), stock app-server (neither codexhost method). Follows
//! `docs/specs/codexhost-steering.md` from the host's side.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::conn::{Dialect, Outbox, Reply, RpcResult};
use crate::runner::{self, Renderer, TurnHandle};
use crate::script::Activity;

/// Which host this connection plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostKind {
    /// Text-aware inspect, ownership list, follows the delivery tag.
    New,
    /// No inspect; has ownership/list; follows the tag.
    Old,
    /// A stock app-server: neither codexhost method.
    Stock,
}

const EXTERNAL: &str = "thr-external";
const CODEX: &str = "thr-codex";

/// The codexhost dialect for one connection.
pub struct Codexhost {
    kind: HostKind,
    speed: f64,
    turns: BTreeMap<String, (String, TurnHandle)>,
    next_turn: u32,
    /// Answers already given per `clientUserMessageId` (codexhost hosts
    /// deduplicate by it; a stock app-server, like the real one, does not).
    receipts: BTreeMap<String, Value>,
    /// How often each message id was applied (read with `debug/deliveries`).
    deliveries: BTreeMap<String, u32>,
    /// Per thread, the turns and the message ids applied in each (for
    /// `thread/read` with `includeTurns`).
    history: BTreeMap<String, Vec<(String, Vec<String>)>>,
}

fn err(code: i64, message: &str) -> RpcResult {
    Err((code, message.to_string(), None))
}

fn text_of(input: &Value) -> Option<String> {
    let items = input.as_array()?;
    let mut text = String::new();
    for item in items {
        if item.get("type")?.as_str()? != "text" {
            return None;
        }
        text.push_str(item.get("text")?.as_str()?);
    }
    (!text.trim().is_empty()).then_some(text)
}

struct CodexRenderer {
    out: Outbox,
    thread: String,
    turn: String,
}

impl Renderer for CodexRenderer {
    fn text(&mut self, chunk: &str) {
        self.out.notify("item/agentMessage/delta", json!({ "threadId": self.thread, "turnId": self.turn, "delta": chunk }));
    }
    fn tool_started(&mut self, call: usize, title: &str) {
        self.out.notify("item/toolCall/started", json!({ "threadId": self.thread, "turnId": self.turn, "callId": call, "title": title }));
    }
    fn tool_progress(&mut self, call: usize, percent: u32) {
        self.out
            .notify("item/toolCall/progress", json!({ "threadId": self.thread, "turnId": self.turn, "callId": call, "percent": percent }));
    }
    fn tool_done(&mut self, call: usize, title: &str) {
        self.out.notify("item/toolCall/completed", json!({ "threadId": self.thread, "turnId": self.turn, "callId": call, "title": title }));
    }
    fn finished(&mut self, interrupted: bool) {
        let status = if interrupted { "interrupted" } else { "completed" };
        self.out.notify("turn/completed", json!({ "threadId": self.thread, "turnId": self.turn, "status": status }));
    }
}

impl Codexhost {
    /// A fresh connection; `speed` scales the script (2.0 = twice as fast).
    pub fn new(kind: HostKind, speed: f64) -> Self {
        Codexhost {
            kind,
            speed,
            turns: BTreeMap::new(),
            next_turn: 0,
            receipts: BTreeMap::new(),
            deliveries: BTreeMap::new(),
            history: BTreeMap::new(),
        }
    }

    fn unknown(&self, method: &str) -> RpcResult {
        match self.kind {
            HostKind::Stock => err(
                -32600,
                &format!("Invalid request: unknown variant `{method}`, expected one of `thread/read`, `turn/start`, `turn/steer`"),
            ),
            _ => err(-32601, "Method not found"),
        }
    }

    fn running(&self, thread: &str) -> Option<&(String, TurnHandle)> {
        self.turns.get(thread).filter(|(_, t)| t.running())
    }

    /// What inspect decides for a thread and a draft.
    fn decide(&self, thread: &str, text: &str) -> &'static str {
        if thread != EXTERNAL {
            return "official";
        }
        if text.trim_start().starts_with('/') {
            return "newTurn";
        }
        match self.running(thread).map(|(_, t)| t.activity()) {
            Some(Activity::Tool) => "activeTurn",
            _ => "newTurn",
        }
    }

    fn start_turn(&mut self, thread: &str, input: &Value, out: &Outbox) -> String {
        self.next_turn += 1;
        let turn = format!("turn-{}", self.next_turn);
        out.notify("turn/started", json!({ "threadId": thread, "turn": { "id": turn }, "input": input }));
        self.history.entry(thread.into()).or_default().push((turn.clone(), Vec::new()));
        let renderer = CodexRenderer { out: out.clone(), thread: thread.into(), turn: turn.clone() };
        self.turns.insert(thread.into(), (turn.clone(), runner::start(renderer, self.speed)));
        turn
    }

    /// Records that a message id was applied in the thread's latest turn.
    fn applied(&mut self, thread: &str, id: Option<&str>) {
        let Some(id) = id else { return };
        *self.deliveries.entry(id.into()).or_default() += 1;
        if let Some((_, ids)) = self.history.get_mut(thread).and_then(|turns| turns.last_mut()) {
            ids.push(id.into());
        }
    }

    /// `turn/steer`, deduplicated by `clientUserMessageId` on codexhost hosts.
    fn steer(&mut self, params: &Value, out: &Outbox) -> RpcResult {
        let id = params["clientUserMessageId"].as_str().map(String::from);
        if self.kind != HostKind::Stock {
            if let Some(receipt) = id.as_ref().and_then(|id| self.receipts.get(id)) {
                return Ok(receipt.clone());
            }
        }
        let answer = self.apply_steer(params, out)?;
        let thread = params["threadId"].as_str().unwrap_or_default();
        if let Some(id) = &id {
            self.receipts.insert(id.clone(), answer.clone());
        }
        // A newTurn steer is recorded in the turn it started (the latest).
        self.applied(thread, id.as_deref());
        Ok(answer)
    }

    fn apply_steer(&mut self, params: &Value, out: &Outbox) -> RpcResult {
        let thread = params["threadId"].as_str().unwrap_or_default().to_string();
        let Some(text) = text_of(&params["input"]) else { return err(-32602, "steering takes non-blank text input only") };
        let Some((turn, handle)) = self.running(&thread).cloned() else { return err(-32074, "expected turn is not the active one") };
        if params["expectedTurnId"].as_str() != Some(turn.as_str()) {
            return err(-32074, "expected turn is not the active one");
        }
        let delivery = match params.get("codexhostSteerDelivery").and_then(Value::as_str) {
            Some(tag @ ("activeTurn" | "newTurn")) if thread == EXTERNAL => tag,
            Some(_) if thread == EXTERNAL => return err(-32602, "unknown codexhostSteerDelivery"),
            None if thread == EXTERNAL => self.decide(&thread, &text),
            _ => "official",
        };
        match delivery {
            "newTurn" => {
                handle.stop();
                let new_turn = self.start_turn(&thread, &params["input"], out);
                Ok(json!({ "turnId": new_turn, "delivery": "newTurn" }))
            }
            "activeTurn" if handle.activity() != Activity::Tool => {
                err(-32074, "native steer rejected: the harness cannot take input right now")
            }
            _ => {
                out.notify("item/userMessage", json!({ "threadId": thread, "turnId": turn, "text": text, "delivery": delivery }));
                let mut answer = json!({ "turnId": turn });
                if delivery == "activeTurn" {
                    answer["delivery"] = json!("activeTurn");
                }
                Ok(answer)
            }
        }
    }
}

impl Dialect for Codexhost {
    fn handle(&mut self, method: &str, params: Value, out: &Outbox) -> Reply {
        let thread = params["threadId"].as_str().unwrap_or_default().to_string();
        Reply::Now(match method {
            "thread/list" => Ok(json!({ "data": [
                { "id": EXTERNAL, "title": "Claude Code (external harness)" },
                { "id": CODEX, "title": "Codex thread" } ] })),
            "codexhost/thread/steering/inspect" if self.kind == HostKind::New => {
                Ok(json!({ "delivery": self.decide(&thread, params["text"].as_str().unwrap_or_default()) }))
            }
            "codexhost/thread/ownership/list" if self.kind != HostKind::Stock => {
                let ids: Vec<&str> =
                    params["threadIds"].as_array().map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
                let unique: BTreeSet<&str> = ids.iter().copied().collect();
                if ids.is_empty() || ids.len() > 100 || unique.len() != ids.len() {
                    err(-32602, "threadIds must hold 1..100 unique ids")
                } else {
                    let rows: Vec<Value> = ids
                        .iter()
                        .map(|id| {
                            if *id == EXTERNAL {
                                json!({ "threadId": id, "owner": "external", "harnessId": "claude-code" })
                            } else {
                                json!({ "threadId": id, "owner": "codex" })
                            }
                        })
                        .collect();
                    Ok(json!({ "threads": rows }))
                }
            }
            "thread/read" => {
                let provider = if thread == EXTERNAL { "codexhost" } else { "openai" };
                let mut answer = json!({ "thread": { "id": thread, "modelProvider": provider, "cliVersion": if thread == EXTERNAL { "codexhost" } else { "0.50.0" } } });
                if params["includeTurns"] == json!(true) {
                    let running = self.running(&thread).map(|(turn, _)| turn.clone());
                    let turns: Vec<Value> =
                        self.history
                            .get(&thread)
                            .map(|turns| {
                                turns.iter().map(|(turn, ids)| json!({
                        "id": turn,
                        "status": if running.as_deref() == Some(turn.as_str()) { "inProgress" } else { "completed" },
                        "items": ids.iter().map(|id| json!({ "type": "userMessage", "clientId": id })).collect::<Vec<_>>(),
                    })).collect()
                            })
                            .unwrap_or_default();
                    answer["thread"]["turns"] = json!(turns);
                }
                Ok(answer)
            }
            "turn/start" => match text_of(&params["input"]) {
                None => err(-32602, "input must be non-blank text"),
                Some(_) if self.running(&thread).is_some() => err(-32072, "thread busy: another turn is running"),
                Some(_) => {
                    let turn = self.start_turn(&thread, &params["input"], out);
                    self.applied(&thread, params["clientUserMessageId"].as_str());
                    Ok(json!({ "turn": { "id": turn, "status": "inProgress", "items": [] } }))
                }
            },
            "debug/deliveries" => {
                let id = params["clientUserMessageId"].as_str().unwrap_or_default();
                Ok(json!({ "count": self.deliveries.get(id).copied().unwrap_or(0) }))
            }
            "turn/steer" => self.steer(&params, out),
            "turn/interrupt" => {
                if let Some((_, handle)) = self.running(&thread) {
                    handle.stop();
                }
                Ok(json!({}))
            }
            other => self.unknown(other),
        })
    }
}
