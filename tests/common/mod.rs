//! Test harness: runs an engine against a scripted host until it is quiet.
#![allow(dead_code)]

pub mod acp;
pub mod codexhost;
pub mod journal;

use renderer_steering::core::acp::AcpEngine;
use renderer_steering::core::codexhost::SteerRequest;
use renderer_steering::core::Driven;
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, OpId, OutgoingRequest, RequestId, RpcError, SteeringError, Timeouts};
use serde_json::{json, Value};

/// A request the engine sent, with its params read into a tree so tests can
/// index them (`sent[0].params["prompt"]`).
#[derive(Debug, Clone)]
pub struct Sent {
    pub id: RequestId,
    pub op: OpId,
    pub method: &'static str,
    pub params: Value,
    pub timeout_ms: Option<u64>,
    pub carries_message: bool,
}

impl From<&OutgoingRequest> for Sent {
    fn from(r: &OutgoingRequest) -> Sent {
        Sent {
            id: r.id,
            op: r.op,
            method: r.method,
            params: r.params.value(),
            timeout_ms: r.timeout_ms,
            carries_message: r.carries_message,
        }
    }
}

/// Everything an engine did in one run.
#[derive(Debug)]
pub struct Log<O> {
    pub sent: Vec<Sent>,
    pub actions: Vec<Action<O>>,
}

impl<O: Clone> Log<O> {
    pub fn methods(&self) -> Vec<&'static str> {
        self.sent.iter().map(|r| r.method).collect()
    }
    pub fn completion(&self, op: OpId) -> Option<&Action<O>> {
        self.actions.iter().find(|a| matches!(a, Action::Complete { op: o, .. } if *o == op))
    }
    pub fn presented(&self) -> Vec<&'static str> {
        self.actions
            .iter()
            .filter_map(|a| match a {
                Action::Present { presentation, .. } => Some(*presentation),
                _ => None,
            })
            .collect()
    }
    /// The submissions an agent accepted as pending input, in order.
    pub fn accepted(&self) -> Vec<OpId> {
        self.actions.iter().filter_map(|a| if let Action::Accepted { op, .. } = a { Some(*op) } else { None }).collect()
    }
    pub fn has_retract(&self) -> bool {
        self.actions.iter().any(|a| matches!(a, Action::Retract { .. }))
    }
}

/// Drains actions; answers every request with `host(method, params)`
/// (`None` = never answers) until nothing more happens.
pub fn run<E: Driven>(engine: &mut E, now: u64, mut host: impl FnMut(&str, &Value) -> Option<HostAnswer>) -> Log<E::Outcome>
where
    E::Outcome: Clone,
{
    let mut log = Log { sent: vec![], actions: vec![] };
    loop {
        let mut answers = vec![];
        while let Some(action) = engine.poll_action() {
            if let Action::Send(request) = &action {
                let sent = Sent::from(request);
                let answer = host(sent.method, &sent.params);
                log.sent.push(sent);
                if let Some(answer) = answer {
                    answers.push((request.id, answer));
                }
            }
            log.actions.push(action);
        }
        if answers.is_empty() {
            return log;
        }
        for (id, answer) in answers {
            engine.handle_answer(id, answer, now);
        }
    }
}

pub fn ok(v: Value) -> Option<HostAnswer> {
    Some(HostAnswer::Result(v.into()))
}

pub fn err(code: i64, message: &str) -> Option<HostAnswer> {
    Some(HostAnswer::Error(RpcError::new(code, message)))
}

pub fn unknown_variant(method: &str) -> Option<HostAnswer> {
    err(-32600, &format!("Invalid request: unknown variant `{method}`, expected one of `thread/read`"))
}

/// One text content block / item.
pub fn text(t: &str) -> Vec<Value> {
    vec![json!({ "type": "text", "text": t })]
}

/// An ACP engine that read `init` as its `initialize` answer.
pub fn acp_engine(init: Value, handoff: bool) -> AcpEngine {
    let mut e = AcpEngine::new(Timeouts::default(), handoff);
    e.initialized(&init.into(), 0);
    e
}

/// How submission `op` ended in `log` (`None`: not yet).
pub fn done<O: Clone>(log: &Log<O>, op: OpId) -> Option<Result<O, SteeringError>> {
    match log.completion(op) {
        Some(Action::Complete { result, .. }) => Some(result.clone()),
        _ => None,
    }
}

/// A host that never answers.
pub fn silent(_: &str, _: &Value) -> Option<HostAnswer> {
    None
}

/// A codexhost steer of "use pnpm" on `thread` during turn u1, with the message id `id`.
pub fn steer_with_id(thread: &str, id: &str) -> SteerRequest {
    let mut r = SteerRequest::text(thread, Some("u1"), "use pnpm");
    r.client_user_message_id = Some(id.into());
    r
}

/// A stock app-server: no codexhost method, no dedupe. Turn u1 of thread t
/// still runs and lists no message; every `turn/steer` is counted in
/// `steers` and left unanswered.
pub fn stock_host(steers: &mut usize) -> impl FnMut(&str, &Value) -> Option<HostAnswer> + '_ {
    move |method, params| match method {
        "thread/read" if params["includeTurns"] == json!(true) => {
            ok(json!({ "thread": { "id": "t", "turns": [{ "id": "u1", "status": "inProgress", "items": [] }] } }))
        }
        "thread/read" => ok(json!({ "thread": { "id": "t", "modelProvider": "openai", "cliVersion": "0.171.0" } })),
        "turn/steer" => {
            *steers += 1;
            None
        }
        other => unknown_variant(other),
    }
}
