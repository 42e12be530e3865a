//! The wasm shell: the bridge exported to JavaScript, and nothing else. The
//! module imports none of the package's JavaScript; data goes in and data
//! comes out, so no JavaScript runs while Rust holds any state.
//!
//! ```js
//! // JavaScript (the package's driver, js/driver/engine.js, does this):
//! const answer = JSON.parse(step(0, JSON.stringify({ limits: {} }), ""));
//! ```

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use crate::bridge::Bridge;

// The wasm heap: talc, not std's default (dlmalloc): a smaller wasm and no
// slower per steer. Safe to build: no `unsafe` here, and the module is
// single-threaded (no atomics).
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

thread_local! {
    static BRIDGE: RefCell<Bridge> = RefCell::new(Bridge::default());
}

/// Runs once when the module is instantiated: makes panics readable in the
/// console (bad input never panics; this is for bugs).
///
/// ```js
/// await init(); // runs this once
/// ```
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// One call of an engine (`handle`; 0 is the module): `input` names what
/// happened, `payload` is the JSON text it carries; answers JSON text (see
/// `bridge`). The borrow is never held while JavaScript runs: nothing here
/// calls JavaScript.
///
/// ```js
/// const { value } = JSON.parse(step(0, '{"limits":{}}', ""));
/// ```
#[wasm_bindgen]
pub fn step(handle: u32, input: &str, payload: &str) -> String {
    BRIDGE.with(|bridge| bridge.borrow_mut().step(handle, input, payload))
}

/// The package version.
///
/// ```js
/// console.log(version()); // "0.1.0"
/// ```
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
