//! Invariants of the ACP engine over random interleavings of user sends,
//! prompt answers, steer answers, errors, duplicates and timeouts:
//! no message is sent twice, none is lost, no session has two steers in flight.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use renderer_steering::core::acp::{AcpEngine, AcpOutcome};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, Json, OpId, OutgoingRequest, RequestId, RpcError, Timeouts};
use serde_json::{json, Value};

#[derive(Debug, Clone)]
enum Ev {
    Send(u8),
    AppPrompt(u8),
    AppAnswer(u8, bool),
    Answer(u8, u8),
    Duplicate(u8),
    Tick(u16),
    Idle(u8),
    Replace(u8),
    Echo(u8),
}

fn ev() -> impl Strategy<Value = Ev> {
    prop_oneof![
        4 => (0u8..3).prop_map(Ev::Send),
        2 => (0u8..3).prop_map(Ev::AppPrompt),
        2 => ((0u8..3), any::<bool>()).prop_map(|(s, z)| Ev::AppAnswer(s, z)),
        5 => (any::<u8>(), any::<u8>()).prop_map(|(i, k)| Ev::Answer(i, k)),
        1 => any::<u8>().prop_map(Ev::Duplicate),
        1 => (0u16..12_000).prop_map(Ev::Tick),
        1 => (0u8..3).prop_map(Ev::Idle),
        1 => (0u8..3).prop_map(Ev::Replace),
        1 => (0u8..3).prop_map(Ev::Echo),
    ]
}

const INITS: [&str; 4] = [
    r#"{"_meta":{"steering":{"supported":true}}}"#,
    r#"{"agentCapabilities":{"session":{"inject":{"modes":["steer"],"pending":{"replace":true}}}}}"#,
    r#"{"agentCapabilities":{"_meta":{"claudeCode":{"promptQueueing":true}}}}"#,
    r#"{"agentCapabilities":{}}"#,
];

/// The message text of a message-carrying request.
fn words(r: &OutgoingRequest) -> Option<String> {
    let params = r.params.value();
    let content = params.get("prompt").or_else(|| params.get("content"))?;
    content[0]["text"].as_str().map(String::from)
}

fn err(code: i64, reason: Option<&str>) -> HostAnswer {
    HostAnswer::Error(RpcError { code, message: "e".into(), data: reason.map(|r| json!({ "reason": r }).into()) })
}

/// An answer for `r`; the bool says "provably not consumed" (it may be sent again).
fn answer_for(r: &OutgoingRequest, kind: u8, next_id: &mut u32) -> (HostAnswer, bool) {
    let ok = |v: Value| HostAnswer::Result(v.into());
    match (r.method, kind % 8) {
        ("_session/steering", 0 | 1) => (ok(json!({ "outcome": "injected" })), false),
        ("_session/steering", 2) => (ok(json!({ "outcome": "promptRequired", "reason": "noRunningTurn" })), true),
        ("_session/steering", 3) => (ok(json!({ "outcome": "startedNewTurn" })), false),
        ("_session/steering", 4) => (ok(json!({ "outcome": "failed" })), false),
        ("_session/steering", 5) => (err(-32601, None), true),
        ("session/inject", 0..=2) => {
            *next_id += 1;
            (ok(json!({ "messageId": format!("m{next_id}") })), false)
        }
        ("session/inject", 3) => (err(-32010, Some("no_running_turn")), true),
        ("session/inject", 4) => (err(-32601, None), true),
        ("session/prompt", 0..=4) => (ok(json!({ "stopReason": "end_turn", "usage": { "outputTokens": kind % 2 } })), false),
        ("session/prompt", 5) => (err(-32603, None), false),
        (_, 6) => (HostAnswer::Transport("closed".into()), false),
        (_, _) => (err(-32602, None), false),
    }
}

struct World {
    engine: AcpEngine,
    now: u64,
    outstanding: Vec<(OutgoingRequest, u8, u64)>,
    answered: Vec<RequestId>,
    /// op -> its words; words -> op
    ops: BTreeMap<OpId, (u8, Vec<Value>)>,
    /// words with a message-carrying request on the wire (or consumed).
    on_wire: BTreeSet<String>,
    consumed: BTreeSet<String>,
    completions: BTreeMap<OpId, usize>,
    app_prompts: [u32; 3],
    next_word: u32,
    next_msg: u32,
}

impl World {
    fn drain(&mut self) {
        while let Some(action) = self.engine.poll_action() {
            match action {
                Action::Send(r) => {
                    if let Some(w) = words(&r) {
                        assert!(!self.on_wire.contains(&w), "{w} sent while already on the wire");
                        assert!(!self.consumed.contains(&w), "{w} sent again after it may have been consumed");
                        self.on_wire.insert(w);
                    }
                    let session = r.params.value()["sessionId"].as_str().unwrap().as_bytes()[1] - b'0';
                    self.outstanding.push((r, session, self.now));
                    self.check_one_steer_per_session();
                }
                Action::Complete { op, result } => {
                    *self.completions.entry(op).or_default() += 1;
                    if let Err(e) = &result {
                        if let Some((_, content)) = self.ops.get(&op) {
                            if !matches!(result, Ok(AcpOutcome::Revoked { .. })) {
                                assert_eq!(&e.draft, content, "the draft comes back intact");
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn check_one_steer_per_session(&self) {
        for s in 0..3u8 {
            let steers = self
                .outstanding
                .iter()
                .filter(|(r, sess, _)| *sess == s && matches!(r.method, "session/inject" | "_session/steering"))
                .count();
            assert!(steers <= 1, "session {s} has {steers} steers in flight");
        }
    }

    fn answer(&mut self, index: usize, kind: u8) {
        if self.outstanding.is_empty() {
            return;
        }
        let (r, _, _) = self.outstanding.remove(index % self.outstanding.len());
        let (answer, not_consumed) = answer_for(&r, kind, &mut self.next_msg);
        if let Some(w) = words(&r) {
            self.on_wire.remove(&w);
            if !not_consumed {
                self.consumed.insert(w);
            }
        }
        self.answered.push(r.id);
        self.engine.handle_answer(r.id, answer, self.now);
    }

    fn apply(&mut self, ev: &Ev) {
        let sid = |s: u8| format!("s{s}");
        match *ev {
            Ev::Send(s) => {
                self.next_word += 1;
                let content = vec![json!({ "type": "text", "text": format!("w{}", self.next_word) })];
                if let Ok(op) = self.engine.send(&sid(s), content.clone(), self.now) {
                    self.ops.insert(op, (s, content));
                }
            }
            Ev::AppPrompt(s) => {
                self.app_prompts[s as usize] += 1;
                self.engine.prompt_sent(&sid(s));
            }
            Ev::AppAnswer(s, zero) => {
                if self.app_prompts[s as usize] > 0 {
                    self.app_prompts[s as usize] -= 1;
                    let usage = if zero { 0 } else { 7 };
                    self.engine.prompt_answered(
                        &sid(s),
                        &json!({ "stopReason": "end_turn", "usage": { "outputTokens": usage } }).into(),
                        self.now,
                    );
                }
            }
            Ev::Answer(i, k) => self.answer(i as usize, k),
            Ev::Duplicate(i) => {
                if !self.answered.is_empty() {
                    let id = self.answered[i as usize % self.answered.len()];
                    self.engine.handle_answer(id, HostAnswer::Result(json!({ "outcome": "injected" }).into()), self.now);
                }
            }
            Ev::Tick(ms) => {
                self.now += ms as u64;
                // The engine times out what is due; those answers are ignored
                // from now on and the message counts as possibly consumed.
                let now = self.now;
                let (due, live): (Vec<_>, Vec<_>) =
                    std::mem::take(&mut self.outstanding).into_iter().partition(|(r, _, at)| r.timeout_ms.is_some_and(|t| now >= at + t));
                self.outstanding = live;
                for (r, _, _) in due {
                    if let Some(w) = words(&r) {
                        self.on_wire.remove(&w);
                        self.consumed.insert(w);
                    }
                }
                self.engine.handle_timeout(self.now);
            }
            Ev::Idle(s) => self.engine.session_idle(&sid(s), self.now),
            Ev::Replace(s) => {
                // The engine drops the session's pending requests: they leave the
                // wire for it, and their messages count as possibly consumed.
                let (gone, live): (Vec<_>, Vec<_>) = std::mem::take(&mut self.outstanding).into_iter().partition(|(_, sess, _)| *sess == s);
                self.outstanding = live;
                for (r, _, _) in gone {
                    if let Some(w) = words(&r) {
                        self.on_wire.remove(&w);
                        self.consumed.insert(w);
                    }
                }
                self.engine.session_replaced(&sid(s));
            }
            Ev::Echo(s) => self.engine.update(
                &sid(s),
                &json!({ "sessionUpdate": "user_message", "messageId": format!("m{}", self.next_msg) }).into(),
                0,
            ),
        }
        self.drain();
    }

    /// Ends every turn and answers everything until nothing moves.
    fn settle_all(&mut self) {
        for _ in 0..200 {
            for s in 0..3u8 {
                while self.app_prompts[s as usize] > 0 {
                    self.apply(&Ev::AppAnswer(s, false));
                }
                self.apply(&Ev::Idle(s));
            }
            if self.outstanding.is_empty() {
                break;
            }
            self.apply(&Ev::Answer(0, 0));
        }
        // The agent delivers every accepted inject in the end (its echo).
        for m in 1..=self.next_msg {
            for s in 0..3u8 {
                self.engine.update(&format!("s{s}"), &json!({ "sessionUpdate": "user_message", "messageId": format!("m{m}") }).into(), 0);
            }
        }
        self.drain();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn no_duplicate_no_loss_one_steer_per_session(init in 0usize..4, events in prop::collection::vec(ev(), 1..40)) {
        let mut engine = AcpEngine::new(Timeouts::default(), true);
        engine.initialized(&Json::parse(INITS[init].into()).unwrap(), 0);
        let mut world = World { engine, now: 0, outstanding: vec![], answered: vec![], ops: BTreeMap::new(),
            on_wire: BTreeSet::new(), consumed: BTreeSet::new(), completions: BTreeMap::new(), app_prompts: [0; 3], next_word: 0, next_msg: 0 };
        for e in &events {
            world.apply(e);
        }
        world.settle_all();
        for op in world.ops.keys() {
            prop_assert_eq!(world.completions.get(op).copied().unwrap_or(0), 1, "op {:?} must end exactly once", op);
        }
        prop_assert_eq!(world.engine.live_state(), 0, "per-session state is dropped when done");
    }
}
