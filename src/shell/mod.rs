//! The wasm shell: wasm-bindgen classes that drive the sans-IO core with
//! JS promises, timers and the transport the embedding app supplies.
//!
//! ```ignore
//! // JavaScript:
//! import { init, CodexhostSteering } from "renderer-steering";
//! await init();
//! const steering = new CodexhostSteering({ request: (m, p, o) => rpc.request(m, p, o) });
//! ```

mod acp;
mod arguments;
mod boundary;
mod codexhost;
mod convert;
mod desktop;
mod desktop_core;
mod driver;
mod failure;
mod hooks;
mod ids;
mod options;
mod timer;
mod transport;
mod types;

pub use acp::AcpSteering;
pub use codexhost::CodexhostSteering;
pub use desktop::{desktop_options, desktop_steer_text, hook_failure};
pub use desktop_core::DesktopCore;

use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated: makes panics readable in the
/// console (bad input never panics; this is for bugs).
///
/// ```js
/// await init(); // runs this once
/// ```
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        PANIC_LISTENER.with(|listener| {
            if let Some(listener) = listener.take() {
                // Caught import: a throwing listener cannot unwind through wasm.
                let _ = listener.call1(&JsValue::NULL, &JsValue::from_str(&info.to_string()));
            }
        });
    }));
}

// The wasm heap: talc, not std's default (dlmalloc): a smaller wasm and no
// slower per steer. Safe to
// build: no `unsafe` here, and the module is single-threaded (no atomics).
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

thread_local! {
    static PANIC_LISTENER: std::cell::Cell<Option<js_sys::Function>> = const { std::cell::Cell::new(None) };
}

/// Registers the function the package entry calls when the module is about
/// to trap (a bug: bad input never panics). The entry uses it to make every
/// later call fail fast with a clear error instead of a broken module.
///
/// ```js
/// __setPanicListener((message) => { dead = message; });
/// ```
#[wasm_bindgen(js_name = __setPanicListener)]
pub fn set_panic_listener(listener: js_sys::Function) {
    PANIC_LISTENER.with(|slot| slot.set(Some(listener)));
}

/// The package version.
///
/// ```ignore
/// console.log(version()); // "0.1.0"
/// ```
///
/// ```js
/// console.log(version());
/// ```
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
