//! See `tests/gaps_rules.rs`.

mod acp;
mod acp_lifecycle;
mod codexhost;
mod content;
mod driven;
