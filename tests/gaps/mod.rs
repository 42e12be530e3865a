//! See `tests/gaps_rules.rs`.

mod acp;
mod codexhost;
mod content;
mod flight;
mod requests;
mod sorted_map;
mod driven;
mod acp_lifecycle;
