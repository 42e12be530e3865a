//! The engine base every dialect shares (the desktop hook's included), in the style of rustls'
//! `ConnectionCommon<Side>`: [`Engine<D>`] holds what every dialect needs
//! (pending requests, the action queue, the ops in flight, the lanes, the op
//! counter, the disposed flag) and implements [`Driven`](crate::core::Driven)
//! once; a [`Dialect`] supplies only what differs (what an answer means, what
//! dispose does to an op, extra state it holds).
//!
//! - `base.rs`: the shared state, op ids, issuing a request, and the one
//!   place that finishes an op;
//! - `dialect.rs`: the per-dialect hooks;
//! - `polling.rs`: the driver's four calls and the single `Driven` impl;
//! - `journal.rs`: the journal's records of messages, written before their
//!   request and removed once their outcome is settled.

mod base;
mod dialect;
mod journal;
mod polling;

pub(crate) use base::Engine;
pub(crate) use dialect::Dialect;
pub(crate) use journal::Carried;
