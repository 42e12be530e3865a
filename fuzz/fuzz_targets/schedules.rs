//! Random input sequences for both state machines: submissions, answers of
//! every kind, duplicates, time, lifecycle events, dispose. No panics, and
//! every submission ends exactly once.
#![no_main]

use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use renderer_steering::core::acp::AcpEngine;
use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest, Submitted};
use renderer_steering::core::Driven;
use renderer_steering::core::{Action, OpId, RequestId, Timeouts};
use serde_json::json;

#[path = "common.rs"]
mod common;

fn drain<E: Driven>(engine: &mut E, pending: &mut Vec<RequestId>, ends: &mut BTreeMap<OpId, u32>) {
    while let Some(action) = engine.poll_action() {
        match action {
            Action::Send(r) => pending.push(r.id),
            Action::Complete { op, .. } => *ends.entry(op).or_default() += 1,
            _ => {}
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, script)) = data.split_first() else { return };
    let mut ends = BTreeMap::new();
    let mut started = vec![];
    let mut pending = vec![];
    let mut now = 0u64;
    if which % 2 == 0 {
        let mut e = CodexhostEngine::new(Timeouts::default());
        for chunk in script.chunks(3) {
            let (op, a, b) = (chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0));
            match op % 6 {
                0 => {
                    let mut r = SteerRequest::text(&format!("t{}", a % 3), (b % 2 == 0).then_some("turn-1"), "x");
                    r.client_user_message_id = Some(format!("m{}", b % 2));
                    if let Ok(Submitted::Started(op)) = e.steer(r, now) {
                        started.push(op);
                    }
                }
                1 if !pending.is_empty() => {
                    let id = pending.remove(a as usize % pending.len());
                    e.handle_answer(id, common::answer(&[b, b'{', b'}']), now);
                }
                2 => {
                    now += u64::from(a) * 500;
                    e.handle_timeout(now);
                }
                3 => e.set_follower(&format!("t{}", a % 3), b % 2 == 0),
                4 => e.handle_answer(RequestId(u64::from(a)), common::answer(&[b]), now),
                _ if a == 255 => e.dispose(),
                _ => {
                    if let Ok(op) = e.decide(&format!("t{}", a % 3), "y", now) {
                        started.push(op);
                    }
                }
            }
            drain(&mut e, &mut pending, &mut ends);
        }
        e.handle_timeout(u64::MAX);
        drain(&mut e, &mut pending, &mut ends);
        assert_eq!(e.live_state(), 0);
    } else {
        let mut e = AcpEngine::new(Timeouts::default(), which % 4 == 1);
        let inits = [
            json!({ "_meta": { "steering": { "supported": true } } }),
            json!({ "agentCapabilities": { "session": { "inject": { "modes": ["steer"], "pending": { "replace": true } } } } }),
            json!({ "agentCapabilities": { "_meta": { "claudeCode": { "promptQueueing": true } } } }),
            json!({}),
        ];
        e.initialized(&inits[(which as usize / 2) % 4].clone().into(), 0);
        for chunk in script.chunks(3) {
            let (op, a, b) = (chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0));
            let session = format!("s{}", a % 2);
            match op % 8 {
                0 => {
                    if let Ok(op) = e.send(&session, vec![json!({ "type": "text", "text": "x" })], now) {
                        started.push(op);
                    }
                }
                1 if !pending.is_empty() => {
                    let id = pending.remove(a as usize % pending.len());
                    let payloads: [&[u8]; 4] = [
                        br#"{"outcome":"injected"}"#,
                        br#"{"messageId":"m1"}"#,
                        br#"{"stopReason":"end_turn"}"#,
                        br#"{"outcome":"promptRequired"}"#,
                    ];
                    let mut bytes = vec![b % 8];
                    bytes.extend_from_slice(payloads[(b / 8) as usize % 4]);
                    e.handle_answer(id, common::answer(&bytes), now);
                }
                2 => {
                    e.prompt_sent(&session);
                }
                3 => {
                    e.prompt_answered(&session, &json!({ "stopReason": "end_turn", "usage": { "outputTokens": b % 2 } }).into(), now);
                }
                4 => {
                    now += u64::from(a) * 500;
                    e.handle_timeout(now);
                }
                5 => e.session_idle(&session, now),
                6 if b % 4 == 0 => e.session_replaced(&session),
                6 => e.update(&session, &json!({ "sessionUpdate": "user_message", "messageId": "m1" }).into(), 0),
                _ => {
                    if let Ok(op) = e.revoke(&session, "m1", now) {
                        started.push(op);
                    }
                }
            }
            drain(&mut e, &mut pending, &mut ends);
        }
    }
    for (op, count) in ends {
        assert_eq!(count, 1, "op {op:?} ended {count} times");
    }
});
