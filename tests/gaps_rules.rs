//! Rules that mutation testing (scripts/mutants.sh) showed no other test
//! pins, one module per area. One test binary, so each mutant links once.
#![cfg(not(target_arch = "wasm32"))]

mod common;
mod gaps;
