//! Rules that no test pinned until mutation testing (issue 15) showed the
//! gap, one module per area. One test binary, so each mutant links once.
#![cfg(not(target_arch = "wasm32"))]

mod common;
mod gaps;
