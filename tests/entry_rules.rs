//! What an entry's wasm can open: only the dialects its features name (the
//! desktop hook brings the codexhost engine it decides with). Run once per
//! feature set (scripts/test-all.sh); the default build opens all three.
#![cfg(not(target_arch = "wasm32"))]

use renderer_steering::bridge::Bridge;

const OPTIONS: &str = r#""options":{"options":{"t":"object"},"fields":[["request",{"t":"function"}]]}"#;

fn open(bridge: &mut Bridge, engine: &str, handle: u32) -> String {
    bridge.step(0, &format!(r#"{{"do":"open","engine":"{engine}","handle":{handle},{OPTIONS}}}"#), "")
}

fn opens(answer: &str) -> bool {
    answer.contains(r#""handle":"#) && !answer.contains("thrown")
}

#[test]
fn an_entry_opens_exactly_the_dialects_it_was_built_with() {
    let mut bridge = Bridge::default();
    let codexhost = open(&mut bridge, "codexhost", 0);
    assert_eq!(opens(&codexhost), cfg!(feature = "codexhost"), "{codexhost}");
    let acp = open(&mut bridge, "acp", 0);
    assert_eq!(opens(&acp), cfg!(feature = "acp"), "{acp}");
    if !cfg!(feature = "acp") {
        assert!(acp.contains("this entry has no acp engine"), "said plainly: {acp}");
    }
    let desktop = open(&mut bridge, "desktop", 1);
    assert_eq!(opens(&desktop), cfg!(feature = "desktop"), "{desktop}");
}
