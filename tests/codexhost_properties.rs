//! Invariants of the codexhost engine over random schedules of steers,
//! decisions, host answers (good, bad, malformed, duplicate), timeouts,
//! follower changes and dispose.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use proptest::prelude::*;
use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest, Submitted};
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, OpId, OutgoingRequest, RequestId, RpcError, Timeouts};
use serde_json::{json, Value};

#[derive(Debug, Clone)]
enum Ev {
    Steer(u8, bool, bool),
    Decide(u8),
    Answer(u8, u8),
    Duplicate(u8),
    Tick(u16),
    Follower(u8, bool),
    Dispose,
}

fn ev() -> impl Strategy<Value = Ev> {
    prop_oneof![
        5 => ((0u8..3), any::<bool>(), any::<bool>()).prop_map(|(t, reuse, running)| Ev::Steer(t, reuse, running)),
        1 => (0u8..3).prop_map(Ev::Decide),
        6 => (any::<u8>(), any::<u8>()).prop_map(|(i, k)| Ev::Answer(i, k)),
        1 => any::<u8>().prop_map(Ev::Duplicate),
        1 => (0u16..40_000).prop_map(Ev::Tick),
        1 => ((0u8..3), any::<bool>()).prop_map(|(t, f)| Ev::Follower(t, f)),
        1 => Just(Ev::Dispose),
    ]
}

fn answer_for(r: &OutgoingRequest, kind: u8) -> HostAnswer {
    let ok = |v: Value| HostAnswer::Result(v.into());
    let params = r.params.value();
    let thread = params.get("threadId").cloned().unwrap_or_else(|| params["threadIds"][0].clone());
    match (r.method, kind % 10) {
        ("codexhost/thread/steering/inspect", 0) => ok(json!({ "delivery": "official" })),
        ("codexhost/thread/steering/inspect", 1) => ok(json!({ "delivery": "activeTurn" })),
        ("codexhost/thread/steering/inspect", 2) => ok(json!({ "delivery": "newTurn" })),
        ("codexhost/thread/ownership/list", 0 | 1) => {
            ok(json!({ "threads": [{ "threadId": thread, "owner": "external", "harnessId": "h" }] }))
        }
        ("codexhost/thread/ownership/list", 2) => ok(json!({ "threads": [{ "threadId": thread, "owner": "codex" }] })),
        ("thread/read", 0..=2) => ok(json!({ "thread": { "id": thread, "modelProvider": "openai", "cliVersion": "1" } })),
        ("turn/steer", 0..=2) => ok(json!({ "turnId": "turn-2", "delivery": if kind % 2 == 0 { "newTurn" } else { "activeTurn" } })),
        ("turn/start", 0..=2) => ok(json!({ "turn": { "id": "turn-3" } })),
        (_, 3) => HostAnswer::Error(RpcError::new(-32601, "Method not found")),
        (m, 4) => HostAnswer::Error(RpcError::new(-32600, format!("Invalid request: unknown variant `{m}`"))),
        (_, 5) => HostAnswer::Error(RpcError::new(-32074, "not active")),
        (_, 6) => HostAnswer::Transport("closed".into()),
        (_, 7) => ok(json!({ "delivery": "sideways", "turnId": 7 })),
        (_, 8) => ok(json!(null)),
        _ => HostAnswer::Unreadable("undefined".into()),
    }
}

struct World {
    engine: CodexhostEngine,
    now: u64,
    outstanding: Vec<(OutgoingRequest, u64)>,
    answered: Vec<RequestId>,
    ops: BTreeMap<OpId, (String, renderer_steering::core::Json, bool)>,
    message_sends: BTreeMap<OpId, usize>,
    completions: BTreeMap<OpId, usize>,
    words: u32,
}

impl World {
    fn thread_of(&self, r: &OutgoingRequest) -> String {
        self.ops[&r.op].0.clone()
    }

    fn drain(&mut self) {
        while let Some(action) = self.engine.poll_action() {
            match action {
                Action::Send(r) => {
                    assert!(!self.completions.contains_key(&r.op), "nothing is sent for a finished submission");
                    if r.carries_message {
                        let sends = self.message_sends.entry(r.op).or_default();
                        *sends += 1;
                        assert_eq!(*sends, 1, "a message is sent at most once");
                        let thread = self.thread_of(&r);
                        let in_flight = self.outstanding.iter().filter(|(o, _)| o.carries_message && self.thread_of(o) == thread).count();
                        assert_eq!(in_flight, 0, "one steer in flight per thread");
                    }
                    self.outstanding.push((r, self.now));
                }
                Action::Complete { op, result } => {
                    *self.completions.entry(op).or_default() += 1;
                    if let Err(e) = result {
                        let (_, draft, _) = &self.ops[&op];
                        assert_eq!(&e.draft, draft, "the draft comes back intact");
                    }
                }
                _ => {}
            }
        }
        let done = &self.completions;
        self.outstanding.retain(|(r, _)| !done.contains_key(&r.op));
    }

    fn apply(&mut self, e: &Ev) {
        match *e {
            Ev::Steer(t, reuse, running) => {
                self.words += 1;
                let text = if reuse { "same".to_string() } else { format!("w{}", self.words) };
                let mut r = SteerRequest::text(&format!("t{t}"), running.then_some("turn-1"), &text);
                r.client_user_message_id = Some(if reuse { "fixed".into() } else { format!("m{}", self.words) });
                let input = r.input.clone();
                match self.engine.steer(r, self.now) {
                    Ok(Submitted::Started(op)) => {
                        self.ops.insert(op, (format!("t{t}"), input, true));
                    }
                    Ok(Submitted::Joined(op)) => assert_eq!(self.ops[&op].1, input, "only the same input joins"),
                    Err(e) => assert_eq!(e.draft, input),
                }
            }
            Ev::Decide(t) => {
                if let Ok(op) = self.engine.decide(&format!("t{t}"), "x", self.now) {
                    self.ops.insert(op, (format!("t{t}"), renderer_steering::core::content::text_draft("x"), false));
                }
            }
            Ev::Answer(i, k) => {
                if !self.outstanding.is_empty() {
                    let (r, _) = self.outstanding.remove(i as usize % self.outstanding.len());
                    self.answered.push(r.id);
                    self.engine.handle_answer(r.id, answer_for(&r, k), self.now);
                }
            }
            Ev::Duplicate(i) => {
                if !self.answered.is_empty() {
                    let id = self.answered[i as usize % self.answered.len()];
                    self.engine.handle_answer(
                        id,
                        HostAnswer::Result(json!({ "turnId": "dup", "delivery": "activeTurn" }).into()),
                        self.now,
                    );
                }
            }
            Ev::Tick(ms) => {
                self.now += ms as u64;
                self.engine.handle_timeout(self.now);
                let now = self.now;
                self.outstanding.retain(|(r, at)| r.timeout_ms.is_none_or(|t| now < at + t));
            }
            Ev::Follower(t, f) => self.engine.set_follower(&format!("t{t}"), f),
            Ev::Dispose => {
                self.engine.dispose();
                self.outstanding.clear();
            }
        }
        self.drain();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn at_most_once_one_in_flight_one_outcome_draft_back(events in prop::collection::vec(ev(), 1..40)) {
        let mut world = World { engine: CodexhostEngine::new(Timeouts::default()), now: 0, outstanding: vec![], answered: vec![],
            ops: BTreeMap::new(), message_sends: BTreeMap::new(), completions: BTreeMap::new(), words: 0 };
        for e in &events {
            world.apply(e);
        }
        for _ in 0..10 {
            world.apply(&Ev::Answer(0, 1));
        }
        world.apply(&Ev::Tick(40_000));
        for op in world.ops.keys() {
            prop_assert_eq!(world.completions.get(op).copied().unwrap_or(0), 1, "op {:?} ends exactly once", op);
        }
        prop_assert_eq!(world.engine.live_state(), 0);
    }
}
