//! ACP agent modes: `_session/steering` (honours or ignores the opt-in), the
//! concurrent-prompt handoff (folded or deferred), and ACP v2 inject
//! (revoke / replace). Follows `docs/specs/acp-steering.md` from the agent's side.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tokio::sync::oneshot;

use crate::conn::{Dialect, Outbox, Reply, RpcResult};
use crate::runner::{self, Renderer, TurnHandle};

/// Which agent this connection plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentKind {
    /// `_session/steering`; `honour_opt_in: false` starts turns itself when idle.
    SteeringExtension { honour_opt_in: bool },
    /// Accepts a second `session/prompt` while one is open.
    PromptHandoff { folded: bool },
    /// ACP v2 `session/inject` with revoke and replace.
    Inject,
}

#[derive(Default)]
struct Session {
    turn: Option<TurnHandle>,
    waiters: Vec<oneshot::Sender<RpcResult>>,
    deferred: VecDeque<(Value, oneshot::Sender<RpcResult>)>,
    pending: BTreeMap<String, Value>,
    delivered: BTreeSet<String>,
    words: u32,
}

#[derive(Default)]
struct Shared {
    sessions: BTreeMap<String, Session>,
    next_id: u32,
}

type SharedState = Arc<Mutex<Shared>>;

/// The ACP dialect for one connection.
pub struct Acp {
    kind: AgentKind,
    speed: f64,
    shared: SharedState,
    /// How often each message text was applied by `_session/steering`
    /// (ACP carries no message id; read with `debug/deliveries { text }`).
    deliveries: std::collections::BTreeMap<String, u32>,
}

fn err(code: i64, message: &str, reason: Option<&str>) -> RpcResult {
    Err((code, message.to_string(), reason.map(|r| json!({ "reason": r }))))
}

struct AcpRenderer {
    out: Outbox,
    session: String,
    shared: SharedState,
    speed: f64,
}

impl AcpRenderer {
    fn update(&self, update: Value) {
        self.out.notify("session/update", json!({ "sessionId": self.session, "update": update }));
    }

    fn deliver_pending(&mut self) {
        let pending: Vec<(String, Value)> = {
            let mut shared = self.shared.lock().expect("state lock");
            let session = shared.sessions.entry(self.session.clone()).or_default();
            let taken = std::mem::take(&mut session.pending);
            session.delivered.extend(taken.keys().cloned());
            taken.into_iter().collect()
        };
        for (id, content) in pending {
            self.update(json!({ "sessionUpdate": "user_message", "messageId": id, "content": content }));
        }
    }
}

impl Renderer for AcpRenderer {
    fn text(&mut self, chunk: &str) {
        if let Some(s) = self.shared.lock().expect("state lock").sessions.get_mut(&self.session) {
            s.words += 1;
        }
        self.update(json!({ "sessionUpdate": "agent_message_chunk", "content": { "type": "text", "text": chunk } }));
    }
    fn tool_started(&mut self, call: usize, title: &str) {
        self.update(json!({ "sessionUpdate": "tool_call", "toolCallId": format!("call-{call}"), "title": title, "status": "in_progress" }));
    }
    fn tool_progress(&mut self, call: usize, percent: u32) {
        self.update(json!({ "sessionUpdate": "tool_call_update", "toolCallId": format!("call-{call}"), "status": "in_progress", "_meta": { "percent": percent } }));
    }
    fn tool_done(&mut self, call: usize, _title: &str) {
        self.update(json!({ "sessionUpdate": "tool_call_update", "toolCallId": format!("call-{call}"), "status": "completed" }));
    }
    fn break_point(&mut self) {
        self.deliver_pending();
    }
    fn finished(&mut self, interrupted: bool) {
        self.deliver_pending();
        let (waiters, next, words) = {
            let mut shared = self.shared.lock().expect("state lock");
            let session = shared.sessions.entry(self.session.clone()).or_default();
            session.turn = None;
            (std::mem::take(&mut session.waiters), session.deferred.pop_front(), std::mem::take(&mut session.words))
        };
        let stop = if interrupted { "cancelled" } else { "end_turn" };
        for waiter in waiters {
            let _ = waiter.send(Ok(json!({ "stopReason": stop, "usage": { "outputTokens": words } })));
        }
        self.update(json!({ "sessionUpdate": "turn_end", "stopReason": stop }));
        if let Some((prompt, waiter)) = next {
            start_turn(&self.out, &self.shared, &self.session, self.speed, Some(&prompt), Some(waiter));
        }
    }
}

fn start_turn(
    out: &Outbox,
    shared: &SharedState,
    session: &str,
    speed: f64,
    prompt: Option<&Value>,
    waiter: Option<oneshot::Sender<RpcResult>>,
) {
    if let Some(prompt) = prompt {
        out.notify("session/update", json!({ "sessionId": session, "update": { "sessionUpdate": "user_message", "content": prompt } }));
    }
    let renderer = AcpRenderer { out: out.clone(), session: session.into(), shared: shared.clone(), speed };
    let handle = runner::start(renderer, speed);
    let mut state = shared.lock().expect("state lock");
    let s = state.sessions.entry(session.into()).or_default();
    s.turn = Some(handle);
    s.waiters.extend(waiter);
}

impl Acp {
    /// A fresh connection; `speed` scales the script.
    pub fn new(kind: AgentKind, speed: f64) -> Self {
        Acp { kind, speed, shared: Arc::default(), deliveries: Default::default() }
    }

    fn initialize(&self) -> Value {
        let mut caps = json!({ "promptCapabilities": { "image": false, "audio": false, "embeddedContext": false } });
        let mut answer = json!({ "protocolVersion": 1, "agentInfo": { "name": "steering-host", "version": env!("CARGO_PKG_VERSION") } });
        match self.kind {
            AgentKind::SteeringExtension { .. } => answer["_meta"] = json!({ "steering": { "supported": true } }),
            AgentKind::PromptHandoff { .. } => caps["_meta"] = json!({ "claudeCode": { "promptQueueing": true } }),
            AgentKind::Inject => caps["session"] = json!({ "inject": { "modes": ["queue", "steer"], "pending": { "replace": true } } }),
        }
        answer["agentCapabilities"] = caps;
        answer
    }

    fn running(&self, session: &str) -> bool {
        self.shared.lock().expect("state lock").sessions.get(session).and_then(|s| s.turn.as_ref()).is_some_and(TurnHandle::running)
    }

    fn new_id(&self, prefix: &str) -> String {
        let mut shared = self.shared.lock().expect("state lock");
        shared.next_id += 1;
        format!("{prefix}-{}", shared.next_id)
    }

    fn prompt(&mut self, session: &str, prompt: Value, out: &Outbox) -> Reply {
        let (tx, rx) = oneshot::channel();
        if !self.running(session) {
            start_turn(out, &self.shared, session, self.speed, Some(&prompt), Some(tx));
            return Reply::Later(rx);
        }
        match self.kind {
            AgentKind::PromptHandoff { folded: true } => {
                // The first prompt answers early; this one carries the turn's answer.
                let early = {
                    let mut shared = self.shared.lock().expect("state lock");
                    let s = shared.sessions.entry(session.into()).or_default();
                    let early = std::mem::take(&mut s.waiters);
                    s.waiters.push(tx);
                    early
                };
                for waiter in early {
                    let _ = waiter.send(Ok(json!({ "stopReason": "end_turn", "usage": { "outputTokens": 0 } })));
                }
                out.notify(
                    "session/update",
                    json!({ "sessionId": session, "update": { "sessionUpdate": "user_message", "content": prompt } }),
                );
                Reply::Later(rx)
            }
            AgentKind::PromptHandoff { folded: false } => {
                self.shared.lock().expect("state lock").sessions.entry(session.into()).or_default().deferred.push_back((prompt, tx));
                Reply::Later(rx)
            }
            _ => Reply::Now(err(-32600, "session busy: a prompt is already running", None)),
        }
    }

    fn steering(&mut self, params: &Value, out: &Outbox) -> RpcResult {
        let AgentKind::SteeringExtension { honour_opt_in } = self.kind else { return err(-32601, "Method not found", None) };
        let (Some(session), Some(prompt)) = (params["sessionId"].as_str(), params["prompt"].as_array()) else {
            return err(-32602, "sessionId must be a string and prompt an array", None);
        };
        let behaviour = params.get("_meta").and_then(|m| m.get("steering")).and_then(|s| s.get("idleBehavior"));
        if behaviour.is_some_and(|b| b != "promptRequired") {
            return err(-32602, "idleBehavior must be \"promptRequired\"", None);
        }
        if prompt.iter().any(|b| b["type"] == "image") {
            return err(-32600, "this model has no image input", None);
        }
        if self.running(session) {
            let text: String = prompt.iter().filter_map(|b| b["text"].as_str()).collect();
            *self.deliveries.entry(text).or_default() += 1;
            out.notify("session/update", json!({ "sessionId": session, "update": { "sessionUpdate": "user_message", "content": prompt } }));
            return Ok(json!({ "outcome": "injected" }));
        }
        if behaviour.is_some() && honour_opt_in {
            return Ok(json!({ "outcome": "promptRequired", "reason": "noRunningTurn" }));
        }
        start_turn(out, &self.shared, session, self.speed, Some(&params["prompt"]), None);
        Ok(json!({ "outcome": "startedNewTurn" }))
    }

    fn pending_op(&mut self, method: &str, params: &Value) -> RpcResult {
        if self.kind != AgentKind::Inject {
            return err(-32601, "Method not found", None);
        }
        let session = params["sessionId"].as_str().unwrap_or_default().to_string();
        let id = params["messageId"].as_str().unwrap_or_default().to_string();
        let new_id = self.new_id("msg");
        let mut shared = self.shared.lock().expect("state lock");
        let s = shared.sessions.entry(session).or_default();
        if s.delivered.contains(&id) {
            return err(-32010, "Inject precondition failed", Some("already_delivered"));
        }
        if s.pending.remove(&id).is_none() {
            return err(-32002, "Unknown message id", Some("unknown_message_id"));
        }
        if method == "session/replace_inject" {
            s.pending.insert(new_id.clone(), params["content"].clone());
            return Ok(json!({ "messageId": new_id }));
        }
        Ok(json!({}))
    }
}

impl Dialect for Acp {
    fn handle(&mut self, method: &str, params: Value, out: &Outbox) -> Reply {
        let session = params["sessionId"].as_str().unwrap_or_default().to_string();
        match method {
            "initialize" => Reply::Now(Ok(self.initialize())),
            "session/new" => Reply::Now(Ok(json!({ "sessionId": self.new_id("sess") }))),
            "session/prompt" => match params["prompt"].as_array() {
                Some(_) if !session.is_empty() => self.prompt(&session, params["prompt"].clone(), out),
                _ => Reply::Now(err(-32602, "sessionId and prompt are required", None)),
            },
            "_session/steering" => Reply::Now(self.steering(&params, out)),
            "session/inject" if self.kind == AgentKind::Inject => {
                if !self.running(&session) {
                    return Reply::Now(err(-32010, "Inject precondition failed", Some("no_running_turn")));
                }
                let id = self.new_id("msg");
                self.shared
                    .lock()
                    .expect("state lock")
                    .sessions
                    .entry(session)
                    .or_default()
                    .pending
                    .insert(id.clone(), params["content"].clone());
                Reply::Now(Ok(json!({ "messageId": id })))
            }
            "session/revoke_inject" | "session/replace_inject" => Reply::Now(self.pending_op(method, &params)),
            "debug/deliveries" => {
                let count = self.deliveries.get(params["text"].as_str().unwrap_or_default()).copied().unwrap_or(0);
                Reply::Now(Ok(json!({ "count": count })))
            }
            "session/cancel" => {
                if let Some(turn) = self.shared.lock().expect("state lock").sessions.get(&session).and_then(|s| s.turn.clone()) {
                    turn.stop();
                }
                Reply::None
            }
            _ => Reply::Now(err(-32601, "Method not found", None)),
        }
    }
}
