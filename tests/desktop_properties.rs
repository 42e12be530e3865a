//! The desktop path as a model-based property: random schedules of steers
//! (three paths, hosts that do and do not deduplicate), the desktop's own
//! calls settling in any order, its requests (by id or by input), answers
//! that come, fail or never come, time and dispose, driven through the core
//! by a model desktop (`desktop/sim.rs`) that checks every steer ends once,
//! one steer in flight per thread, never a duplicate, one request per
//! route, every wait ends once, and the layer goes once after dispose.
#![cfg(not(target_arch = "wasm32"))]

#[path = "desktop/sim.rs"]
mod sim;

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn any_schedule_keeps_the_desktop_rules(script in prop::collection::vec(any::<u8>(), 0..300)) {
        sim::Sim::run(&script);
    }
}
