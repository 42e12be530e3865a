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
mod codexhost;
mod convert;
mod desktop;
mod driver;
mod failure;
mod ids;
mod options;
mod transport;
mod types;

pub use acp::AcpSteering;
pub use codexhost::CodexhostSteering;
pub use desktop::{install_desktop_steering, DesktopSteering};

use wasm_bindgen::prelude::*;

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
