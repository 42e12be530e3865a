//! Every codexhost answer the core decodes, fuzzed: probes and the steer's
//! answer come from the input. Nothing may panic; the submission ends once.
#![no_main]

use libfuzzer_sys::fuzz_target;
use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest};
use renderer_steering::core::{Action, Timeouts};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let mut engine = CodexhostEngine::new(Timeouts::default());
    let (running, text) = match data.first() {
        Some(b) if b % 2 == 0 => (Some("turn-1"), "use pnpm"),
        Some(_) => (None, "/compact"),
        None => return,
    };
    let Ok(op) = engine.steer(SteerRequest::text("t", running, text), 0) else { return };
    let mut answers = common::answers(&data[1..]);
    let mut completions = 0;
    let mut now = 0;
    loop {
        let mut pending = vec![];
        while let Some(action) = engine.poll_action() {
            match action {
                Action::Send(r) => pending.push(r.id),
                Action::Complete { op: done, .. } => {
                    assert_eq!(done, op.op());
                    completions += 1;
                }
                _ => {}
            }
        }
        if pending.is_empty() {
            break;
        }
        for id in pending {
            now += 1;
            match answers.next() {
                Some(answer) => engine.handle_answer(id, answer, now),
                None => engine.handle_timeout(u64::MAX),
            }
        }
    }
    assert_eq!(completions, 1);
    assert_eq!(engine.live_state(), 0);
});
