//! The error kinds JavaScript sees are exactly the Rust ones: the
//! `SteeringErrorKind` union of the `.d.ts` against [`Failure::KINDS`]
//! (`KINDS` against every variant is a unit test beside `Failure`, whose
//! list of one failure per variant cannot miss one).

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use renderer_steering::core::Failure;

fn read(path: &str) -> String {
    fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The string literals of `export type SteeringErrorKind = ... ;` in `source`.
fn union_members(source: &str) -> Vec<String> {
    list_members(source, "export type SteeringErrorKind =", ';', '|')
}

/// The string literals between `opening` and the next `end` in `source`, split at `separator`.
fn list_members(source: &str, opening: &str, end: char, separator: char) -> Vec<String> {
    let start = source.find(opening).unwrap_or_else(|| panic!("{opening} is declared"));
    let body = &source[start..];
    let body = &body[opening.len()..body.find(end).expect("the list ends")];
    body.split(separator)
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

#[test]
fn the_typescript_union_is_the_rust_list_of_kinds() {
    let members = union_members(&read("js/index.d.ts"));
    let typescript = set(members.iter().map(String::as_str));
    assert_eq!(typescript.len(), members.len(), "a kind is listed twice in the union: {members:?}");
    let rust = set(Failure::KINDS.iter().copied());
    let missing: Vec<_> = rust.difference(&typescript).collect();
    let unknown: Vec<_> = typescript.difference(&rust).collect();
    assert!(missing.is_empty(), "kinds missing from SteeringErrorKind in js/index.d.ts: {missing:?}");
    assert!(unknown.is_empty(), "SteeringErrorKind in js/index.d.ts names kinds Rust never produces: {unknown:?}");
}

#[test]
fn the_error_class_is_typed_by_the_union() {
    let index = read("js/index.d.ts");
    assert_eq!(index.matches("export type SteeringErrorKind").count(), 1, "one declaration of the union");
    assert!(index.contains("kind: SteeringErrorKind;"), "SteeringError.kind is typed by the union");
}

#[test]
fn the_union_parser_reads_what_it_should() {
    let members = union_members("x\nexport type SteeringErrorKind =\n  | \"a\" | \"b\"\n  | \"c\";\nexport interface Y {}");
    assert_eq!(members, ["a", "b", "c"]);
}

#[test]
fn the_kinds_is_steering_error_accepts_are_the_rust_list() {
    // js/driver/steering-error.js KINDS: a look-alike error from another copy of the
    // package is accepted only with a known kind.
    let members = list_members(&read("js/driver/steering-error.js"), "export const KINDS = Object.freeze([", ']', ',');
    assert_eq!(set(members.iter().map(String::as_str)), set(Failure::KINDS.iter().copied()));
    assert_eq!(members.len(), Failure::KINDS.len());
}
