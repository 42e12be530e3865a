//! Draft validation rules shared by both dialects: the size limit
//! is inclusive and measured on the draft's JSON text.
#![cfg(not(target_arch = "wasm32"))]

use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest};
use renderer_steering::core::content::check_size;

/// 256 KiB (`MAX_DRAFT_BYTES`), written out so the constant itself is pinned.
const LIMIT: usize = 262_144;
use renderer_steering::core::Timeouts;
use serde_json::{json, Value};

/// A one-item text draft whose JSON text is exactly `bytes` long.
fn draft_of(bytes: usize) -> Vec<Value> {
    let overhead = serde_json::to_vec(&[json!({ "type": "text", "text": "" })]).unwrap().len();
    let draft = vec![json!({ "type": "text", "text": "x".repeat(bytes - overhead) })];
    assert_eq!(serde_json::to_vec(&draft).unwrap().len(), bytes);
    draft
}

#[test]
fn a_draft_of_exactly_the_limit_is_accepted_one_byte_more_is_refused() {
    assert!(check_size(&draft_of(LIMIT).into()).is_ok());
    let error = check_size(&draft_of(LIMIT + 1).into()).unwrap_err();
    assert_eq!(error.kind(), "draftTooLarge");
    assert!(error.message().contains(&(LIMIT + 1).to_string()), "{}", error.message());
}

#[test]
fn a_codexhost_steer_of_exactly_the_limit_goes_out() {
    let mut e = CodexhostEngine::new(Timeouts::default());
    let mut r = SteerRequest::text("t", Some("turn-1"), "x");
    r.input = draft_of(LIMIT).into();
    assert!(e.steer(r.clone(), 0).is_ok());
    let mut e = CodexhostEngine::new(Timeouts::default());
    r.input = draft_of(LIMIT + 1).into();
    assert_eq!(e.steer(r, 0).unwrap_err().failure.kind(), "draftTooLarge");
}

#[test]
fn a_draft_that_is_no_array_is_refused_as_such_before_its_items_are_read() {
    use renderer_steering::core::content::{check_acp_blocks, not_an_array, steer_text};
    use renderer_steering::core::Json;
    let not_an_array = not_an_array().message();
    for draft in [Json::of("use pnpm"), Json::of(&json!({"type": "text", "text": "x"}))] {
        assert_eq!(steer_text(&draft).unwrap_err().message(), not_an_array);
        assert_eq!(check_acp_blocks(&draft, Default::default()).unwrap_err().message(), not_an_array);
    }
}
