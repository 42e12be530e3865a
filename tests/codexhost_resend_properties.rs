//! "Never a duplicate" against a model of the real hosts: a codexhost host
//! that deduplicates the steers of its external threads by `threadId` +
//! `clientUserMessageId` (receipts per connection), records them in the
//! thread without their id (as the published host does), and forwards a
//! Codex-owned thread's steer verbatim to Codex, which applies a repeated id
//! again. Over random schedules of submissions (fresh ids and same-id
//! retries), lost answers, reconnects, turns that end and time that passes,
//! no message is ever applied twice.
#![cfg(not(target_arch = "wasm32"))]

mod model_host;

use model_host::{words_of, ModelHost, THREADS};
use proptest::prelude::*;
use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest};
use renderer_steering::core::{Action, HostAnswer, RequestId, Timeouts};

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
