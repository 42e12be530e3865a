//! Random schedules of the desktop hook's core (`core::desktop`), driven
//! through the hook's order by the model desktop of the property test
//! (`tests/desktop/sim.rs`): no panics, and every rule it checks holds (each
//! promise ends once, one steer per thread, never a duplicate, one request
//! per route, calls and results name what the driver holds, the layer goes
//! once after dispose).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/desktop/sim.rs"]
mod sim;

fuzz_target!(|data: &[u8]| {
    sim::Sim::run(data);
});
