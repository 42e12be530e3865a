//! The engine's side of the journal, the same for every dialect (the
//! desktop hook's included): the record
//! written immediately before the request that carries a message, its
//! removal once that message's outcome is settled, and the records the
//! engine knows are stored (for `forget` and the count bound).

use std::collections::VecDeque;

use super::{Dialect, Engine};
use crate::core::action::{Action, OpId};
use crate::core::journal::{storage_key, JournalRecord, JOURNAL_VERSION, MAX_RECORDS, MAX_RECORD_BYTES};
use crate::core::json::Json;

/// The journal of one engine: where its records go, and those it knows of.
#[derive(Debug)]
pub(crate) struct Book {
    prefix: String,
    /// Added to the engine's `now` to date a record in wall-clock time.
    wall_offset_ms: f64,
    /// Records known to be stored, oldest first.
    known: VecDeque<Known>,
}

/// A record the engine knows is stored.
#[derive(Debug)]
struct Known {
    storage_key: String,
    message_id: String,
    /// The op whose request it records, while that op runs: its end
    /// settles the record or leaves it.
    writer: Option<OpId>,
}

/// What the journal keeps of a message whose request is about to be written.
#[derive(Debug)]
pub(crate) struct Carried<'a> {
    /// The thread or session.
    pub(crate) key: &'a str,
    /// The message's id.
    pub(crate) message_id: &'a str,
    /// The turn it is meant for (codexhost `turn/steer`).
    pub(crate) expected_turn_id: Option<&'a str>,
    /// The user's content items.
    pub(crate) draft: &'a Json,
    /// What is shown of it.
    pub(crate) presented: Option<&'a str>,
}

impl Book {
    /// Notes `storage_key` as stored (written by `writer`, if an op runs for
    /// it), the newest; returns the keys it no longer keeps ([`Book::trim`]).
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn keep(&mut self, storage_key: String, message_id: &str, writer: Option<OpId>) -> Vec<String> {
        self.known.retain(|k| k.storage_key != storage_key);
        self.known.push_back(Known { storage_key, message_id: message_id.into(), writer });
        self.trim()
    }

    /// The keys no longer kept to stay within [`MAX_RECORDS`]: the oldest
    /// no op is writing (a record being written goes once its op ends).
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn trim(&mut self) -> Vec<String> {
        let mut gone = Vec::new();
        while self.known.len() > MAX_RECORDS {
            let Some(oldest) = self.known.iter().position(|k| k.writer.is_none()) else { break };
            gone.extend(self.known.remove(oldest).map(|k| k.storage_key));
        }
        gone
    }

    /// Forgets the records that match; returns their keys.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn take(&mut self, mut matches: impl FnMut(&Known) -> bool) -> Vec<String> {
        let mut taken = Vec::new();
        self.known.retain(|k| {
            let hit = matches(k);
            if hit {
                taken.push(k.storage_key.clone());
            }
            !hit
        });
        taken
    }
}

impl<D: Dialect> Engine<D> {
    /// Turns the journal on: from now on a record of each message is written
    /// (as [`Action::Journal`]) immediately before the request that carries
    /// it, under `prefix`, and removed once the message's outcome is settled
    /// (delivered, refused by the host, or failed before it left); it stays
    /// while the outcome is unknown. `wall_offset_ms` turns the engine's
    /// `now` into wall-clock time (`Date.now() - performance.now()`).
    ///
    /// ```
    /// use renderer_steering::core::codexhost::{CodexhostEngine, SteerRequest};
    /// use renderer_steering::core::{Action, HostAnswer};
    /// let mut e = CodexhostEngine::new(Default::default());
    /// e.enable_journal("rs:".into(), 1_000.0);
    /// let mut steer = SteerRequest::text("t", Some("turn-1"), "use pnpm");
    /// steer.client_user_message_id = Some("m1".into());
    /// e.steer(steer, 5).unwrap();
    /// let probe = match e.poll_action() { Some(Action::Send(r)) => r.id, other => panic!("{other:?}") };
    /// e.handle_answer(probe, HostAnswer::Result(serde_json::json!({"delivery": "official"}).into()), 5);
    /// let actions: Vec<_> = std::iter::from_fn(|| e.poll_action()).collect();
    /// assert!(matches!(&actions[1], Action::Journal { record: Some(text), .. } if text.contains(r#""at":1005.0"#)));
    /// assert!(matches!(&actions[2], Action::Send(r) if r.carries_message));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn enable_journal(&mut self, prefix: String, wall_offset_ms: f64) {
        self.journal = Some(Book { prefix, wall_offset_ms, known: VecDeque::new() });
    }

    /// The app's storage failed (a write, a removal or a listing threw): the
    /// journal is off from now on, so the storage is not touched again (a
    /// storage that failed once, a full quota or a private window, is not
    /// trusted with a record whose removal might fail next), and steering
    /// goes on without it. True when it was on: the app is told of this
    /// failure, the first, and of no later one.
    ///
    /// ```
    /// use renderer_steering::core::codexhost::CodexhostEngine;
    /// let mut e = CodexhostEngine::new(Default::default());
    /// assert!(!e.journal_failed(), "no journal: nothing to tell");
    /// e.enable_journal("rs:".into(), 0.0);
    /// assert!(e.journal_failed(), "the first failure is told");
    /// assert!(!e.journal_failed(), "and no later one");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn journal_failed(&mut self) -> bool {
        self.journal.take().is_some()
    }

    /// Removes every record of `message_id` this engine knows of: those it
    /// wrote and those handed to `recover`. The user has dealt with the
    /// message; its record is no longer needed.
    ///
    /// ```
    /// use renderer_steering::core::acp::AcpEngine;
    /// use renderer_steering::core::journal::{storage_key, JournalDialect, JournalRecord};
    /// use renderer_steering::core::{Action, Json};
    /// let mut e = AcpEngine::new(Default::default(), false);
    /// e.enable_journal("rs:".into(), 0.0);
    /// let record = JournalRecord { v: 1, dialect: JournalDialect::Acp, key: "s".into(), message_id: "m".into(),
    ///     expected_turn_id: None, method: "session/prompt".into(), draft: Json::no_items(), presented: None, at: 0.0 };
    /// let key = storage_key("rs:", JournalDialect::Acp, "s", "m");
    /// e.recover(vec![(key.clone(), record)], 0);
    /// while e.poll_action().is_some() {}
    /// e.forget("m");
    /// assert_eq!(e.poll_action(), Some(Action::Journal { key, record: None }));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn forget(&mut self, message_id: &str) {
        let Some(book) = &mut self.journal else { return };
        for key in book.take(|k| k.message_id == message_id) {
            self.push(Action::Journal { key, record: None });
        }
    }

    /// Registers the request that carries a message and queues its
    /// [`Action::Send`], with the message's record written immediately
    /// before it when the journal is on (and the message is `carried`: a
    /// message without an id is not journaled).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn request_message(
        &mut self,
        op: OpId,
        method: &'static str,
        params: Json,
        timeout_ms: Option<u64>,
        carried: Option<Carried<'_>>,
        now: u64,
    ) {
        if let Some(carried) = carried {
            self.journal_write(op, method, carried, now);
        }
        self.issue(op, method, params, timeout_ms, true, now);
    }

    /// Whether the journal is on (a record is worth building).
    pub(crate) fn journal_on(&self) -> bool {
        self.journal.is_some()
    }

    /// Writes the record of the message `carried` (by `op`, whose end
    /// settles it or leaves it) when the journal is on; a record the loader
    /// would refuse is not written at all.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn journal_write(&mut self, op: OpId, method: &str, carried: Carried<'_>, now: u64) {
        let Some(book) = &mut self.journal else { return };
        let message_id = carried.message_id;
        let record = JournalRecord {
            v: JOURNAL_VERSION,
            dialect: D::JOURNAL,
            key: carried.key.into(),
            message_id: message_id.into(),
            expected_turn_id: carried.expected_turn_id.map(Into::into),
            method: method.into(),
            draft: carried.draft.clone(),
            presented: carried.presented.map(Into::into),
            at: now as f64 + book.wall_offset_ms,
        };
        let text = record.to_text();
        if text.len() > MAX_RECORD_BYTES {
            return;
        }
        let key = storage_key(&book.prefix, D::JOURNAL, carried.key, message_id);
        for gone in book.keep(key.clone(), message_id, Some(op)) {
            self.push(Action::Journal { key: gone, record: None });
        }
        self.push(Action::Journal { key, record: Some(text) });
    }

    /// The id the journal gives a message that has none of its own (ACP):
    /// the wall-clock offset names this page, the op the message in it, so
    /// two windows or two page loads do not share one. `None` while the
    /// journal is off.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn journal_message_id(&self, op: OpId) -> Option<String> {
        self.journal.as_ref().map(|book| format!("{}-{}", book.wall_offset_ms, op.0))
    }

    /// `op` ended: the record it wrote goes when its message's outcome is
    /// `settled`, and otherwise stays (no op writes it any more).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn journal_ended(&mut self, op: OpId, settled: bool) {
        let Some(book) = &mut self.journal else { return };
        let gone = if settled {
            book.take(|k| k.writer == Some(op))
        } else {
            for known in book.known.iter_mut().filter(|k| k.writer == Some(op)) {
                known.writer = None;
            }
            book.trim()
        };
        for key in gone {
            self.push(Action::Journal { key, record: None });
        }
    }

    /// The message `message_id` on `key` is settled, whichever op wrote its
    /// record: the record goes.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn journal_settled(&mut self, key: &str, message_id: &str) {
        let Some(book) = &mut self.journal else { return };
        let settled = storage_key(&book.prefix, D::JOURNAL, key, message_id);
        for key in book.take(|k| k.storage_key == settled) {
            self.push(Action::Journal { key, record: None });
        }
    }

    /// The records handed to `recover` that are this engine's to recover:
    /// its dialect's, and not the message of a request this engine is
    /// writing now (that op settles it). Each is known from now on (for
    /// `forget`).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn journal_adopt(&mut self, records: Vec<(String, JournalRecord)>) -> Vec<(String, JournalRecord)> {
        let mut adopted = Vec::new();
        let mut gone = Vec::new();
        for (key, record) in records {
            if record.dialect != D::JOURNAL {
                continue;
            }
            if let Some(book) = &mut self.journal {
                if book.known.iter().any(|k| k.storage_key == key && k.writer.is_some()) {
                    continue;
                }
                gone.extend(book.keep(key.clone(), &record.message_id, None));
            }
            adopted.push((key, record));
        }
        // Past the count bound the oldest go, and are not recovered either.
        adopted.retain(|(key, _)| !gone.contains(key));
        for key in gone {
            self.push(Action::Journal { key, record: None });
        }
        adopted
    }

    /// A recovered record's outcome is settled: it goes.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn journal_remove(&mut self, storage_key: String) {
        if let Some(book) = &mut self.journal {
            book.take(|k| k.storage_key == storage_key);
        }
        self.push(Action::Journal { key: storage_key, record: None });
    }
}
