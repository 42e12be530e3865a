//! Which rejection is the host's answer and which means no answer came:
//! the rule that decides between a definite refusal (safe to send again)
//! and an unknown outcome (never resent).
#![cfg(not(target_arch = "wasm32"))]

use renderer_steering::core::{HostAnswer, RejectionFacts, CLIENT_CODES};

fn object(code: i64) -> RejectionFacts {
    RejectionFacts { object: true, code: Some(code), message: "refused".into(), ..RejectionFacts::words("refused") }
}

fn is_answer(facts: &RejectionFacts) -> bool {
    matches!(facts.host_answer(String::new()), HostAnswer::Error(_))
}

#[test]
fn an_object_with_a_negative_integer_code_is_the_hosts_error_answer_with_its_message_and_data() {
    let HostAnswer::Error(error) = object(-32074).host_answer(r#"{"turnId":"t-1"}"#.into()) else { panic!("an answer") };
    assert_eq!((error.code, error.message.as_str()), (-32074, "refused"));
    assert_eq!(error.data.map(|d| d.value()), Some(serde_json::json!({ "turnId": "t-1" })));
}

#[test]
fn error_data_that_is_not_json_is_dropped_not_the_answer() {
    let HostAnswer::Error(error) = object(-32000).host_answer("{not json".into()) else { panic!("an answer") };
    assert!(error.data.is_none());
}

#[test]
fn a_dom_exception_is_no_answer_whatever_its_code() {
    assert!(!is_answer(&RejectionFacts { dom_exception: true, ..object(-32000) }));
}

#[test]
fn an_error_named_as_an_abort_or_a_timeout_is_no_answer() {
    for name in ["AbortError", "TimeoutError"] {
        assert!(!is_answer(&RejectionFacts { name: Some(name.into()), ..object(-32000) }), "{name}");
    }
    assert!(is_answer(&RejectionFacts { name: Some("Error".into()), ..object(-32000) }), "other names do not matter");
}

#[test]
fn a_positive_or_missing_code_is_no_answer() {
    assert!(!is_answer(&object(1006)), "a WebSocket close code");
    assert!(!is_answer(&object(0)));
    assert!(!is_answer(&RejectionFacts { code: None, ..object(0) }));
}

#[test]
fn the_codes_clients_make_up_are_no_answer() {
    // Named here, not read from the list: each one is a rule of its own.
    for code in [-32099, -32098, -32097, -32096, -32800] {
        assert!(!is_answer(&object(code)), "{code}");
        assert!(CLIENT_CODES.contains(&code), "{code}");
    }
    assert!(is_answer(&object(-32095)) && is_answer(&object(-32100)), "their neighbours are the host's");
}

#[test]
fn a_thrown_string_or_number_is_no_answer_and_keeps_its_words() {
    let HostAnswer::Transport(words) = RejectionFacts::words("socket closed").host_answer(String::new()) else { panic!() };
    assert_eq!(words, "socket closed");
    assert!(!is_answer(&RejectionFacts { object: false, ..object(-32000) }));
}

#[test]
fn request_cancelled_is_a_cancel_only_on_an_object_that_is_no_abort() {
    assert!(matches!(object(-32800).host_answer(String::new()), HostAnswer::Cancelled(_)));
    let aborted = RejectionFacts { name: Some("AbortError".into()), ..object(-32800) };
    assert!(matches!(aborted.host_answer(String::new()), HostAnswer::Transport(_)));
    let dom = RejectionFacts { dom_exception: true, ..object(-32800) };
    assert!(matches!(dom.host_answer(String::new()), HostAnswer::Transport(_)));
}
