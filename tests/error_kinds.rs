//! The error kinds JavaScript sees are exactly the Rust ones: the
//! `SteeringErrorKind` union of the `.d.ts` against [`Failure::KINDS`], and
//! `KINDS` against the kinds constructed failures report.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use renderer_steering::core::{Failure, RpcError};

fn read(path: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The string literals of `export type SteeringErrorKind = ... ;` in `source`.
fn union_members(source: &str) -> Vec<String> {
    let start = source.find("export type SteeringErrorKind =").expect("the union is declared");
    let body = &source[start..];
    let body = &body["export type SteeringErrorKind =".len()..body.find(';').expect("the union ends with ;")];
    body.split('|')
        .map(str::trim)
        .filter(|member| !member.is_empty())
        .map(|member| {
            let quoted = member.strip_prefix('"').and_then(|m| m.strip_suffix('"'));
            quoted.unwrap_or_else(|| panic!("not a string literal in the union: {member}")).to_string()
        })
        .collect()
}

fn set<'a>(items: impl IntoIterator<Item = &'a str>) -> BTreeSet<&'a str> {
    items.into_iter().collect()
}

/// One failure of each kind, built the way the engines build them.
fn one_of_each() -> Vec<Failure> {
    vec![
        Failure::invalid_input("blank"),
        Failure::draft_too_large(300_000),
        Failure::images_unsupported(),
        Failure::busy(),
        Failure::pending_turn_start(),
        Failure::disposed(),
        Failure::unavailable(),
        Failure::session_replaced(),
        Failure::ownership_unknown(),
        Failure::follower(),
        Failure::missing_binding("startTurn is missing"),
        Failure::rpc("turn/steer", RpcError::new(-32074, "not active")),
        Failure::malformed("thread/read", "no thread"),
        Failure::timeout("thread/read", 10),
        Failure::transport("turn/steer", "closed"),
        Failure::outcome_unknown("turn/steer", "lost"),
    ]
}

#[test]
fn the_typescript_union_is_the_rust_list_of_kinds() {
    let members = union_members(&read("src/shell/types.rs"));
    let typescript = set(members.iter().map(String::as_str));
    assert_eq!(typescript.len(), members.len(), "a kind is listed twice in the union: {members:?}");
    let rust = set(Failure::KINDS.iter().copied());
    let missing: Vec<_> = rust.difference(&typescript).collect();
    let unknown: Vec<_> = typescript.difference(&rust).collect();
    assert!(missing.is_empty(), "kinds missing from SteeringErrorKind in src/shell/types.rs: {missing:?}");
    assert!(unknown.is_empty(), "SteeringErrorKind in src/shell/types.rs names kinds Rust never produces: {unknown:?}");
}

#[test]
fn the_package_types_take_the_union_from_the_generated_bindings() {
    let index = read("js/index.d.ts");
    assert!(!index.contains("type SteeringErrorKind"), "js/index.d.ts must not declare its own SteeringErrorKind");
    let from_bindings = index
        .split("from \"./renderer_steering.js\"")
        .any(|before| before.rsplit("import type {").next().is_some_and(|names| names.contains("SteeringErrorKind")));
    assert!(from_bindings, "js/index.d.ts imports SteeringErrorKind from the generated bindings");
    assert!(index.contains("kind: K;"), "SteeringError.kind is typed by the union");
}

#[test]
fn every_listed_kind_is_produced_and_every_produced_kind_is_listed() {
    let failures = one_of_each();
    let produced = set(failures.iter().map(Failure::kind));
    assert_eq!(produced.len(), failures.len(), "two constructors give the same kind");
    assert_eq!(produced, set(Failure::KINDS.iter().copied()));
    assert_eq!(set(Failure::KINDS.iter().copied()).len(), Failure::KINDS.len(), "KINDS lists a kind twice");
}

#[test]
fn display_is_the_message_and_only_host_errors_carry_a_code() {
    for failure in one_of_each() {
        assert_eq!(failure.to_string(), failure.message(), "{failure:?}");
        assert!(!failure.message().is_empty(), "{failure:?}");
        assert_eq!(failure.code().is_some(), failure.kind() == "host", "{failure:?}");
        let error: &dyn std::error::Error = &failure;
        assert!(error.source().is_none(), "the sentence already says it all: {failure:?}");
    }
}

#[test]
fn the_union_parser_reads_what_it_should() {
    let members = union_members("x\nexport type SteeringErrorKind =\n  | \"a\" | \"b\"\n  | \"c\";\nexport interface Y {}");
    assert_eq!(members, ["a", "b", "c"]);
}
