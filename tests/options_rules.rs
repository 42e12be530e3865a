//! A caller's value the package does not take is refused in the package's
//! own words: the option (or field) by name, what it takes and what it got,
//! never the JSON parser's vocabulary.
#![cfg(not(target_arch = "wasm32"))]

use renderer_steering::core::acp::AcpEngine;
use renderer_steering::core::content::{check_acp_blocks, steer_text, PromptCapabilities};
use renderer_steering::core::error::OptionError;
use renderer_steering::core::given::Given;
use renderer_steering::core::options::{optional, Accepts};
use renderer_steering::core::timeouts::bound_from_ms;
use renderer_steering::core::{HostAnswer, Json, Timeouts};
use serde_json::json;

/// What serde and serde_json say in their errors.
const PARSER_WORDS: [&str; 7] = ["invalid type", "invalid value", "expected u64", "at line", "column", "missing field", "unknown field"];

fn assert_own_words(message: &str) {
    for phrase in PARSER_WORDS {
        assert!(!message.contains(phrase), "{message:?} carries the parser's {phrase:?}");
    }
}

/// The bad values of the Node tests, as the shell describes them.
fn bad_numbers() -> Vec<(Given, &'static str)> {
    vec![
        (Given::Number(-1.0), "-1"),
        (Given::Number(1e300), "1e300"),
        (Given::Number(f64::NAN), "NaN"),
        (Given::Number(f64::INFINITY), "Infinity"),
        (Given::Number(2f64.powi(31)), "2147483648"),
        (Given::Number(2f64.powi(53)), "9007199254740992"),
        (Given::Number(0.5), "0.5"),
        (Given::text("10s", 3), "\"10s\""),
        (Given::Text { shown: None, units: 1_000_000 }, "a string of 1000000 characters"),
        (Given::Object, "an object"),
        (Given::Bool(true), "true"),
        (Given::BigInt, "a BigInt"),
        (Given::Symbol, "a Symbol"),
        (Given::Function, "a function"),
    ]
}

#[test]
fn each_bound_names_itself_its_range_and_the_value_it_got() {
    for key in ["decideMs", "steerMs", "requestMs"] {
        for (bad, shown) in bad_numbers() {
            let keys = [key.to_string()];
            let refused = Timeouts::from_given("options.timeouts", &keys, |k| if k == key { bad.clone() } else { Given::Undefined });
            let message = refused.unwrap_err().to_string();
            assert_eq!(
                message,
                format!("options.timeouts.{key} must be a whole number of milliseconds from 0 to 2147483647 (got {shown})")
            );
            assert_own_words(&message);
        }
    }
}

#[test]
fn bounds_left_out_or_null_keep_their_defaults_and_good_ones_are_taken() {
    let keys: Vec<String> = ["decideMs", "steerMs", "requestMs"].map(String::from).to_vec();
    let read = Timeouts::from_given("options.timeouts", &keys, |k| match k {
        "decideMs" => Given::Null,
        "steerMs" => Given::Number(2_147_483_647.0),
        _ => Given::Number(0.0),
    });
    assert_eq!(read, Ok(Timeouts { decide_ms: 10_000, steer_ms: 2_147_483_647, request_ms: 0 }));
}

#[test]
fn a_misspelled_bound_is_refused_naming_the_ones_there_are() {
    let keys = ["decideMs".to_string(), "decideMS".to_string()];
    let refused = Timeouts::from_given("options.timeouts", &keys, |_| Given::Number(1.0)).unwrap_err();
    assert!(matches!(&refused, OptionError::Unknown { key, .. } if key == "decideMS"));
    assert_eq!(refused.to_string(), "options.timeouts.decideMS is not an option: options.timeouts takes decideMs, steerMs and requestMs");
}

#[test]
fn an_option_of_the_wrong_type_names_what_it_takes() {
    let cases = [
        (
            "options.request",
            Accepts::Function("(method, params, options?) => Promise"),
            Given::text("rpc", 3),
            "a function (method, params, options?) => Promise",
            "\"rpc\"",
        ),
        ("options.allowPromptHandoff", Accepts::Boolean, Given::text("true", 4), "true or false", "\"true\""),
        (
            "options.initialize",
            Accepts::AnswerOrPromise,
            Given::Number(-1.0),
            "the agent's initialize answer (an object) or a promise of it",
            "-1",
        ),
        (
            "options.timeouts",
            Accepts::Object("{ decideMs?, steerMs?, requestMs? }"),
            Given::Number(1e300),
            "an object { decideMs?, steerMs?, requestMs? }",
            "1e300",
        ),
    ];
    for (option, accepts, given, takes, got) in cases {
        let message = optional(option, accepts, &given).unwrap_err().to_string();
        assert_eq!(message, format!("{option} must be {takes} (got {got})"));
        assert_own_words(&message);
        assert_eq!(optional(option, accepts, &Given::Undefined), Ok(false), "{option} may be left out");
    }
}

#[test]
fn a_malformed_draft_item_is_named_by_the_key_and_value_before_the_fault() {
    let item = "a content item must be an object with a string type (and string text, mimeType and data when given)";
    // As the front door writes a draft: one line, keys in the caller's order.
    let cases = [
        (r#"[{"type":"text","text":5}]"#, r#""text":5`)"#),
        (r#"[{"type":"text","text":"a"},7]"#, r#""text":"a"},7`)"#),
        (r#"[{"type":"image","mimeType":1,"data":"AA=="}]"#, r#""mimeType":1`)"#),
    ];
    for (draft, fault) in cases {
        let draft = Json::parse(draft.into()).unwrap();
        let steer = steer_text(&draft).unwrap_err();
        assert_eq!(steer.kind(), "invalidInput");
        let message = steer.message();
        assert!(message.starts_with(&format!("{item}: a field is missing or has another type or value (near `")), "{message}");
        assert!(message.ends_with(fault), "the key and value at the fault: {message}");
        let acp = check_acp_blocks(&draft, PromptCapabilities { image: true, ..Default::default() }).unwrap_err();
        assert_eq!(acp.message(), steer.message());
        assert_own_words(&acp.message());
    }
    let untyped = steer_text(&Json::of(&json!([{ "text": "a" }]))).unwrap_err().message();
    assert!(untyped.starts_with(item) && untyped.ends_with(r#"(near `[{"text":"a"}`)"#), "{untyped}");
}

#[test]
fn a_request_bound_names_its_range_and_the_value() {
    let refused = bound_from_ms(-1.0, "requestOptions.timeoutMs").unwrap_err();
    assert_eq!(refused, "requestOptions.timeoutMs must be a number of milliseconds from 0 to 2147483647 (got -1)");
    assert_own_words(&bound_from_ms(1e300, "requestOptions.timeoutMs").unwrap_err());
}

#[test]
fn an_unreadable_host_answer_is_told_in_the_packages_words() {
    let mut e = AcpEngine::new(Timeouts::default(), false);
    e.initialized(&json!({}).into(), 0);
    e.send("s", vec![json!({ "type": "text", "text": "hi" })], 0).unwrap();
    let sent = std::iter::from_fn(|| e.poll_action()).find_map(|a| match a {
        renderer_steering::core::Action::Send(r) => Some(r.id),
        _ => None,
    });
    e.handle_answer(sent.unwrap(), HostAnswer::Result(json!({ "stopReason": 5 }).into()), 1);
    let failed = std::iter::from_fn(|| e.poll_action())
        .find_map(|a| match a {
            renderer_steering::core::Action::Complete { result: Err(err), .. } => Some(err),
            _ => None,
        })
        .unwrap();
    assert_eq!(failed.failure.kind(), "outcomeUnknown");
    let message = failed.failure.message();
    assert!(message.contains("a field is missing or has another type or value (near `{\"stopReason\":5`)"), "{message}");
    assert_own_words(&message);
}
