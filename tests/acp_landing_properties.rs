//! Invariants of `_session/steering` against a model agent that behaves as
//! the shipped ones do: `injected` queues the text as pending input, the
//! model reads pending input at its next break point (on v2 the agent then
//! echoes it under a fresh id), a cancel drops what is still pending, and a
//! turn that ends otherwise has read it. Over random schedules, on v1 and
//! v2: nothing is sent twice, every message ends once, a message reported
//! delivered reached the model exactly once, and one the agent dropped is
//! never reported delivered: it ends unknown with its draft.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use renderer_steering::core::acp::{AcpEngine, AcpOutcome};
use renderer_steering::core::{Action, HostAnswer, OpId, OutgoingRequest, Timeouts};
use serde_json::{json, Value};

#[derive(Debug, Clone)]
enum Ev {
    StartTurn,
    Send,
    AnswerSteer(u8),
    LoseSteer(u8),
    ModelReads,
    Cancel,
    EndTurn,
    Tick(u16),
}

fn ev() -> impl Strategy<Value = Ev> {
    prop_oneof![
        2 => Just(Ev::StartTurn),
        4 => Just(Ev::Send),
        4 => any::<u8>().prop_map(Ev::AnswerSteer),
        1 => any::<u8>().prop_map(Ev::LoseSteer),
        2 => Just(Ev::ModelReads),
        1 => Just(Ev::Cancel),
        2 => Just(Ev::EndTurn),
        1 => (0u16..12_000).prop_map(Ev::Tick),
    ]
}

/// How a message ended: its outcome, or its failure's kind and draft.
type Ended = Result<AcpOutcome, (String, Value)>;

struct Agent {
    v2: bool,
    engine: AcpEngine,
    now: u64,
    turn: bool,
    /// Accepted steers not yet read by the model.
    pending: Vec<String>,
    /// Unanswered steering requests: (request, words, sent at).
    steers: Vec<(OutgoingRequest, String, u64)>,
    /// Words on the wire or delivered: never sent again.
    sent: BTreeSet<String>,
    /// How many times the model read each message.
    read: BTreeMap<String, u32>,
    /// Messages the agent dropped (pending when a cancel came).
    dropped: BTreeSet<String>,
    ops: BTreeMap<OpId, String>,
    ends: BTreeMap<OpId, Vec<Ended>>,
    next_word: u32,
    next_echo: u32,
}

fn words_of(r: &OutgoingRequest) -> String {
    r.params.value()["prompt"][0]["text"].as_str().unwrap().to_string()
}

impl Agent {
    fn drain(&mut self) {
        while let Some(action) = self.engine.poll_action() {
            match action {
                Action::Send(r) => {
                    let words = words_of(&r);
                    assert!(self.sent.insert(words.clone()), "{words} sent twice");
                    match r.method {
                        "_session/steering" => self.steers.push((r, words, self.now)),
                        // A prompt of ours is read by the model and answered at once
                        // (v1: a short turn; v2: its insertion).
                        "session/prompt" => {
                            *self.read.entry(words).or_default() += 1;
                            let answer =
                                if self.v2 { json!({ "messageId": format!("p{}", r.id.0) }) } else { json!({ "stopReason": "end_turn" }) };
                            self.engine.handle_answer(r.id, HostAnswer::Result(answer.into()), self.now);
                        }
                        other => panic!("unexpected {other}"),
                    }
                }
                Action::Complete { op, result } => {
                    let ended = result.map_err(|e| (e.failure.kind().to_string(), e.draft.value()));
                    self.ends.entry(op).or_default().push(ended);
                }
                _ => {}
            }
        }
    }

    fn model_reads(&mut self) {
        for words in std::mem::take(&mut self.pending) {
            *self.read.entry(words.clone()).or_default() += 1;
            if self.v2 {
                self.next_echo += 1;
                let echo = json!({ "sessionUpdate": "user_message_chunk", "messageId": format!("e{}", self.next_echo),
                    "content": { "type": "text", "text": words } });
                self.engine.update("s", &echo.into(), self.now);
            }
        }
    }

    fn end_turn(&mut self, stop_reason: &str) {
        if !self.turn {
            return;
        }
        self.turn = false;
        if self.v2 {
            self.engine.update(
                "s",
                &json!({ "sessionUpdate": "state_update", "state": "idle", "stopReason": stop_reason }).into(),
                self.now,
            );
        } else {
            self.engine.prompt_answered("s", &json!({ "stopReason": stop_reason }).into(), self.now);
        }
    }

    fn apply(&mut self, ev: &Ev) {
        match *ev {
            Ev::StartTurn if !self.turn => {
                self.turn = true;
                if self.v2 {
                    self.engine.update("s", &json!({ "sessionUpdate": "state_update", "state": "running" }).into(), self.now);
                } else {
                    self.engine.prompt_sent("s");
                }
            }
            Ev::StartTurn => {}
            Ev::Send => {
                self.next_word += 1;
                let words = format!("w{}", self.next_word);
                if let Ok(op) = self.engine.send("s", vec![json!({ "type": "text", "text": words })], self.now) {
                    self.ops.insert(op, words);
                }
            }
            Ev::AnswerSteer(i) if !self.steers.is_empty() => {
                let (r, words, _) = self.steers.remove(i as usize % self.steers.len());
                let answer = if self.turn {
                    self.pending.push(words);
                    json!({ "outcome": "injected" })
                } else {
                    self.sent.remove(&words); // nothing consumed: it may go again, as a prompt
                    json!({ "outcome": "promptRequired", "reason": "noRunningTurn" })
                };
                self.engine.handle_answer(r.id, HostAnswer::Result(answer.into()), self.now);
            }
            Ev::LoseSteer(i) if !self.steers.is_empty() => {
                // The agent took it in, but its answer never comes back.
                let (_, words, _) = self.steers.remove(i as usize % self.steers.len());
                if self.turn {
                    self.pending.push(words);
                }
            }
            Ev::AnswerSteer(_) | Ev::LoseSteer(_) => {}
            Ev::ModelReads => self.model_reads(),
            Ev::Cancel => {
                if self.turn {
                    self.engine.cancel_sent("s");
                    self.dropped.extend(std::mem::take(&mut self.pending));
                    self.end_turn("cancelled");
                }
            }
            Ev::EndTurn => {
                self.model_reads();
                self.end_turn("end_turn");
            }
            Ev::Tick(ms) => {
                self.now += ms as u64;
                self.engine.handle_timeout(self.now);
            }
        }
        self.drain();
    }

    fn settle(&mut self) {
        for _ in 0..50 {
            let steers = self.steers.len();
            for _ in 0..steers {
                self.apply(&Ev::AnswerSteer(0));
            }
            self.apply(&Ev::EndTurn);
            self.apply(&Ev::Tick(11_000));
            if self.steers.is_empty() && self.engine.live_state() == 0 {
                break;
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_steer_reported_delivered_reached_the_model_once_and_a_dropped_one_is_never_reported_delivered(
        v2 in any::<bool>(), events in prop::collection::vec(ev(), 1..40)
    ) {
        let init = if v2 {
            json!({ "protocolVersion": 2, "capabilities": {}, "_meta": { "steering": { "supported": true } } })
        } else {
            json!({ "protocolVersion": 1, "_meta": { "steering": { "supported": true } } })
        };
        let mut engine = AcpEngine::new(Timeouts::default(), false);
        engine.initialized(&init.into(), 0);
        let mut agent = Agent { v2, engine, now: 0, turn: false, pending: vec![], steers: vec![], sent: BTreeSet::new(),
            read: BTreeMap::new(), dropped: BTreeSet::new(), ops: BTreeMap::new(), ends: BTreeMap::new(), next_word: 0, next_echo: 0 };
        for e in &events {
            agent.apply(e);
        }
        agent.settle();
        for (op, words) in &agent.ops {
            let ends = agent.ends.get(op).cloned().unwrap_or_default();
            prop_assert_eq!(ends.len(), 1, "{} must end exactly once: {:?}", words, ends);
            let read = agent.read.get(words).copied().unwrap_or(0);
            prop_assert!(read <= 1, "{} reached the model {} times", words, read);
            match &ends[0] {
                Ok(AcpOutcome::Injected { .. }) | Ok(AcpOutcome::Prompted { .. }) => {
                    prop_assert_eq!(read, 1, "{} reported delivered but the model never read it", words);
                }
                Ok(AcpOutcome::HandedBack { draft, .. }) => {
                    prop_assert_eq!(read, 0, "{} handed back after the model read it", words);
                    prop_assert_eq!(draft.value(), json!([{ "type": "text", "text": words }]));
                }
                Ok(other) => prop_assert!(false, "unexpected {:?}", other),
                Err((kind, draft)) => {
                    prop_assert_eq!(draft, &json!([{ "type": "text", "text": words }]), "the draft comes back intact");
                    if agent.dropped.contains(words) {
                        prop_assert_eq!(kind.as_str(), "outcomeUnknown", "{} was accepted, then dropped", words);
                    }
                }
            }
        }
        prop_assert_eq!(agent.engine.live_state(), 0);
    }
}
