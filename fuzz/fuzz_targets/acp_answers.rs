//! Every ACP answer and notification the core decodes, fuzzed: the
//! `initialize` answer, steer answers, prompt answers and session updates.
#![no_main]

use libfuzzer_sys::fuzz_target;
use renderer_steering::core::acp::AcpEngine;
use renderer_steering::core::HostAnswer;
use renderer_steering::core::{Action, Json, Timeouts};
use serde_json::json;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.split(|b| *b == 0xFE);
    let init = parts.next().and_then(|p| Json::parse(String::from_utf8_lossy(p).into_owned()).ok()).unwrap_or_else(|| json!({}).into());
    let mut engine = AcpEngine::new(Timeouts::default(), true);
    engine.initialized(&init, 0);
    engine.prompt_sent("s");
    let _ = engine.send("s", vec![json!({ "type": "text", "text": "steer" })], 0);
    let _ = engine.send("s", vec![json!({ "type": "image", "mimeType": "image/png", "data": "AA==" })], 0);
    let rest: Vec<u8> = parts.flat_map(|p| p.iter().copied().chain([0xFF])).collect();
    let mut answers = common::answers(&rest);
    for round in 0..64u64 {
        let mut pending = vec![];
        while let Some(action) = engine.poll_action() {
            if let Action::Send(r) = action {
                pending.push(r.id);
            }
        }
        let Some(answer) = answers.next() else { break };
        if let HostAnswer::Result(value) = &answer {
            engine.update("s", value, 0);
            if round % 3 == 0 {
                engine.prompt_answered("s", value, round);
            }
        }
        match pending.first() {
            Some(id) => engine.handle_answer(*id, answer, round),
            None => engine.handle_timeout(round * 10_000),
        }
        if round % 7 == 6 {
            let _ = engine.send("s", vec![json!({ "type": "text", "text": format!("more {round}") })], round);
        }
    }
});
