//! The delivery decision: inspect -> ownership/list -> thread/read, with what
//! the connection has already taught us (missing methods, thread owners).

use std::collections::VecDeque;

use serde::de::DeserializeOwned;

use super::wire::{Delivery, InspectAnswer, Owner, OwnershipAnswer, ThreadParams, ThreadReadAnswer};
use crate::core::error::Failure;
use crate::core::json::Json;
use crate::core::requests::{FailedAnswer, HostAnswer};
use crate::core::sorted_map::{SortedMap, SortedSet};

/// A request the decision can make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Probe {
    /// `codexhost/thread/steering/inspect { threadId, text }`.
    Inspect,
    /// `codexhost/thread/ownership/list { threadIds: [threadId] }`.
    OwnershipList,
    /// `thread/read { threadId, includeTurns: false }` (native check).
    ThreadRead,
}

const CHAIN: [Probe; 3] = [Probe::Inspect, Probe::OwnershipList, Probe::ThreadRead];

impl Probe {
    /// JSON-RPC method.
    pub(crate) fn method(self) -> &'static str {
        match self {
            Probe::Inspect => "codexhost/thread/steering/inspect",
            Probe::OwnershipList => "codexhost/thread/ownership/list",
            Probe::ThreadRead => "thread/read",
        }
    }

    /// JSON-RPC params.
    pub(crate) fn params(self, thread_id: &str, text: &str) -> Json {
        match self {
            Probe::Inspect => Json::of(&ThreadParams { thread_id: Some(thread_id), text: Some(text), ..ThreadParams::default() }),
            Probe::OwnershipList => Json::of(&ThreadParams { thread_ids: Some([thread_id]), ..ThreadParams::default() }),
            Probe::ThreadRead => ThreadParams::read(thread_id, false),
        }
    }

    /// Trace name of the path this probe decides.
    pub(crate) fn path(self) -> &'static str {
        match self {
            Probe::Inspect => "inspect",
            Probe::OwnershipList => "ownershipList",
            Probe::ThreadRead => "threadRead",
        }
    }
}

/// What to do next while deciding.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Step {
    /// The delivery is known.
    Decided(Delivery),
    /// Send this probe.
    Ask(Probe),
    /// The decision failed; no steer follows.
    Fail(Failure),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KnownOwner {
    Codex,
    External,
}

/// Facts about one host connection: which methods it lacks and who owns the
/// threads we asked about (an owner never changes).
#[derive(Debug, Default)]
pub(crate) struct Knowledge {
    unsupported: SortedSet<&'static str>,
    /// A codexhost method answered on this connection: a codexhost host,
    /// which deduplicates the steers of its external threads (see
    /// [`Knowledge::deduplicates`]).
    codexhost: bool,
    /// Which connection this is (counts `connection_replaced`): an answer
    /// of an earlier one teaches owners, never what the current one lacks
    /// or whether it deduplicates.
    connection: u32,
    owners: SortedMap<String, KnownOwner>,
    /// Insertion order, so the cache stays bounded (oldest forgotten first).
    order: VecDeque<String>,
}

/// How many thread owners a connection remembers.
///
/// ```
/// assert_eq!(renderer_steering::core::codexhost::OWNER_CACHE, 4096);
/// ```
pub const OWNER_CACHE: usize = 4096;

fn parse<T: DeserializeOwned>(probe: Probe, value: &Json) -> Result<T, Failure> {
    value.read().map_err(|e| Failure::malformed(probe.method(), e.to_string()))
}

impl Knowledge {
    /// The first step for a thread: a cached owner decides with no round
    /// trip (codex threads always; external threads only when the host has
    /// no live inspect), otherwise the first probe the host supports.
    pub(crate) fn first_step(&self, thread_id: &str) -> Step {
        match self.cached(thread_id) {
            Some(delivery) => Step::Decided(delivery),
            None => self.next_probe_from(0),
        }
    }

    /// What the cached owner decides without a round trip, if anything.
    fn cached(&self, thread_id: &str) -> Option<Delivery> {
        match self.owners.get(thread_id) {
            Some(KnownOwner::Codex) => Some(Delivery::Official),
            Some(KnownOwner::External) if self.lacks(Probe::Inspect) => Some(Delivery::NewTurn),
            _ => None,
        }
    }

    fn lacks(&self, probe: Probe) -> bool {
        self.unsupported.contains(probe.method())
    }

    fn next_probe_from(&self, start: usize) -> Step {
        CHAIN[start..].iter().find(|p| !self.lacks(**p)).map(|p| Step::Ask(*p)).unwrap_or(Step::Fail(Failure::ownership_unknown()))
    }

    /// Learns from one probe's answer (asked on connection `asked_on`, see
    /// [`Knowledge::connection`]) and says what comes next.
    pub(crate) fn learn(&mut self, probe: Probe, thread_id: &str, answer: &HostAnswer, timeout_ms: Option<u64>, asked_on: u32) -> Step {
        let method = probe.method();
        let current = asked_on == self.connection;
        let value = match answer.result() {
            Ok(value) => value,
            Err(FailedAnswer::Error(error)) if probe != Probe::ThreadRead && error.is_unsupported(method) => {
                if current {
                    self.unsupported.insert(method);
                }
                // After a reconnect the owner may be known while the new host's
                // missing inspect is not yet: the owner decides, no ownership/list.
                if let Some(delivery) = self.cached(thread_id) {
                    return Step::Decided(delivery);
                }
                let index = CHAIN.iter().position(|p| *p == probe).unwrap_or(CHAIN.len());
                return self.next_probe_from(index + 1);
            }
            Err(failed) => return Step::Fail(failed.failure(method, timeout_ms)),
        };
        self.codexhost |= current && probe != Probe::ThreadRead;
        match self.read(probe, thread_id, value) {
            Ok(step) => step,
            Err(failure) => Step::Fail(failure),
        }
    }

    fn read(&mut self, probe: Probe, thread_id: &str, value: &Json) -> Result<Step, Failure> {
        let owner = match probe {
            Probe::Inspect => {
                let answer: InspectAnswer = parse(probe, value)?;
                if answer.delivery == Delivery::Official {
                    self.remember(thread_id, KnownOwner::Codex);
                }
                return Ok(Step::Decided(answer.delivery));
            }
            Probe::OwnershipList => {
                let answer: OwnershipAnswer = parse(probe, value)?;
                let row = answer
                    .threads
                    .into_iter()
                    .find(|r| r.thread_id == thread_id)
                    .ok_or_else(|| Failure::malformed(probe.method(), "the thread is not in the answer"))?;
                match row.owner {
                    Owner::Codex => KnownOwner::Codex,
                    Owner::External { .. } => KnownOwner::External,
                }
            }
            Probe::ThreadRead => {
                let answer: ThreadReadAnswer = parse(probe, value)?;
                if !answer.is_native(thread_id) {
                    return Err(Failure::ownership_unknown());
                }
                KnownOwner::Codex
            }
        };
        self.remember(thread_id, owner);
        Ok(Step::Decided(match owner {
            KnownOwner::Codex => Delivery::Official,
            KnownOwner::External => Delivery::NewTurn,
        }))
    }

    fn remember(&mut self, thread_id: &str, owner: KnownOwner) {
        if self.owners.insert(thread_id.to_string(), owner).is_none() {
            self.order.push_back(thread_id.to_string());
            if self.order.len() > OWNER_CACHE {
                if let Some(oldest) = self.order.pop_front() {
                    self.owners.remove(&oldest);
                }
            }
        }
    }

    /// How many thread owners are remembered.
    pub(crate) fn remembered(&self) -> usize {
        self.owners.len()
    }

    /// Forgets what the old connection lacked (owners are kept: they never change).
    pub(crate) fn connection_replaced(&mut self) {
        self.unsupported.clear();
        self.codexhost = false;
        self.connection = self.connection.wrapping_add(1);
    }

    /// The current connection's number (requests record it when they leave).
    pub(crate) fn connection(&self) -> u32 {
        self.connection
    }

    /// Whether a `turn/steer` delivered as `delivery` and resent with the same
    /// `clientUserMessageId` on this connection is applied once by the host.
    /// Only a codexhost host (an inspect or ownership answer showed one on
    /// this connection) deduplicates, and only the steers of its external
    /// threads (`activeTurn`, `newTurn`): a Codex-owned thread's steer
    /// (`official`) goes verbatim to Codex, which applies a repeated id again.
    pub(crate) fn deduplicates(&self, delivery: Delivery) -> bool {
        self.codexhost && delivery != Delivery::Official
    }
}

#[cfg(test)]
mod tests;
