//! The desktop path as a model-based property: random schedules of steers
//! (three paths, hosts that do and do not deduplicate), the calls the hook
//! asks for returning, throwing, missing, settling in any order or never,
//! the desktop's own requests (by id or by input, while its `steerTurn` or
//! `startTurn` runs or later), time and dispose, driven through the hook's
//! order by a model desktop (`desktop/sim.rs`) that checks every promise
//! ends once, one steer in flight per thread, never a duplicate, one
//! request per route, calls and results naming what the driver holds, and
//! the layer goes once after dispose. Three schedules are kept by name: cases
//! the random ones reach rarely.
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

/// An activeTurn steer whose desktop `steerTurn` sends its `turn/steer` at
/// once, and the desktop's own `sendRequest` throws when the hook calls it.
#[test]
fn an_own_request_whose_send_request_throws_keeps_the_desktop_rules() {
    sim::Sim::run(&[0, 0, 0, 0, 0, 4, 0, 2, 0, 0, 6, 0]);
}

/// A steer decided while the window became a follower (the desktop's own
/// steer, whose end is the steer's), then the same submission again.
#[test]
fn the_same_submission_after_a_followers_steer_keeps_the_desktop_rules() {
    sim::Sim::run(&[0, 0, 0, 0, 0, 4, 0, 248, 3, 0, 0, 0, 0]);
}

/// A stray request of the desktop with the very input array a same-id
/// retry now holds: it is the retry's, and so is the record its unknown
/// outcome keeps.
#[test]
fn a_request_with_a_retrys_input_array_is_the_retrys_and_keeps_its_record() {
    sim::Sim::run(&[
        33, 134, 1, 0, 158, 174, 5, 220, 9, 1, 33, 0, 139, 2, 1, 0, 164, 164, 164, 164, 164, 164, 164, 164, 164, 164, 189, 59, 5, 1, 33, 0,
        139, 2, 0, 158, 164, 164, 164, 164, 164, 164, 164, 164, 164, 164, 164, 164, 164, 164, 164, 183, 33, 139, 250, 255, 255, 255, 9, 0,
        169, 59, 164, 164, 164, 164, 164, 164, 164, 164, 164, 164, 164, 183,
    ]);
}
