//! Message ids that finished recently, so one `clientUserMessageId` is one
//! delivery: resubmitting an id that was delivered resolves with the earlier
//! result and sends nothing; resubmitting an id whose outcome is unknown is
//! re-sent with the same id only where the host deduplicates by it, and
//! otherwise only after the thread shows it was not applied.

use std::collections::VecDeque;

use serde::Deserialize;

use super::outcome::SteerOutcome;
use super::wire::Delivery;
use crate::core::json::Json;
use crate::core::sorted_map::SortedMap;

/// How many finished message ids an engine remembers (delivered ids are
/// forgotten before unknown outcomes, each the oldest first).
/// A retry comes seconds after its failure, well within 256 later messages.
/// The table is a ring (remembering shifts nothing) with a sorted index of
/// key hashes: a new id, the common case, is ruled out by one binary search
/// over 256 integers; only a known hash is looked up in the ring, newest first.
///
/// ```
/// assert_eq!(renderer_steering::core::codexhost::RECENT_MESSAGES, 256);
/// ```
pub const RECENT_MESSAGES: usize = 256;

/// What became of a message id.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Remembered {
    /// The host confirmed it.
    Delivered(SteerOutcome),
    /// It was written and no definite answer came.
    Unknown {
        /// Written as a `turn/steer` of an external thread on a codexhost
        /// host, on the connection still in use: the host deduplicates its
        /// `clientUserMessageId` when the retry steers the same turn.
        deduplicated: bool,
        /// The turn it was steered into, when one ran.
        turn_id: Option<String>,
        /// How it was shown (a retry that sends nothing keeps showing it
        /// so; a retry that finds it applied reports it so).
        presented: Delivery,
    },
}

/// What a resubmission of an id should do.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Resubmission {
    /// Never seen (or forgotten, or deduplicated by the host): send it.
    New,
    /// Delivered before: resolve with this, send nothing.
    AlreadyDelivered(SteerOutcome),
    /// The id was used before for a different text (the host would refuse
    /// it with -32602): refused before anything is sent, the draft handed back.
    ReusedForOtherText,
    /// Outcome unknown on a host that does not deduplicate: read the thread
    /// (`thread/read` with turns) before anything is sent again.
    Verify {
        /// The turn the unconfirmed steer went to.
        turn_id: Option<String>,
    },
}

/// The bounded memory of finished message ids, per thread.
#[derive(Debug, Default)]
pub(crate) struct RecentMessages {
    /// Oldest first.
    ring: VecDeque<Entry>,
    /// How many ring entries have each key hash: an id never seen (every
    /// new message) is ruled out by one binary search, without touching the ring.
    hashes: SortedMap<u64, u32>,
}

/// One remembered id; `hash` is compared first, so a lookup over the whole
/// ring is a scan of integers.
#[derive(Debug)]
struct Entry {
    hash: u64,
    thread_id: String,
    message_id: String,
    /// FNV-1a of the text the id carried.
    text_hash: u64,
    what: Remembered,
}

/// FNV-1a over `parts`, each followed by a separator (so `("ab","c")` and
/// `("a","bc")` differ).
fn fnv(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &byte in part.as_bytes().iter().chain(&[0xff]) {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

fn key_hash(thread_id: &str, message_id: &str) -> u64 {
    fnv(&[thread_id, message_id])
}

impl RecentMessages {
    /// Records what became of `message_id`, which carried `text`, on
    /// `thread_id` (replacing an earlier record).
    pub(crate) fn remember(&mut self, thread_id: &str, message_id: &str, text: &str, what: Remembered) {
        self.remember_hashed(key_hash(thread_id, message_id), thread_id, message_id, text, what);
    }

    fn remember_hashed(&mut self, hash: u64, thread_id: &str, message_id: &str, text: &str, what: Remembered) {
        let text_hash = fnv(&[text]);
        match self.position(hash, thread_id, message_id) {
            Some(at) => {
                self.ring[at].what = what;
                self.ring[at].text_hash = text_hash;
            }
            None => {
                if self.ring.len() == RECENT_MESSAGES {
                    // The oldest delivered id goes first: an unknown outcome
                    // is what a late retry needs (forgotten, it would be sent
                    // as new, unverified), so it goes only for a newer unknown
                    // outcome, never for a delivery (which is then not kept).
                    let delivered = self.ring.iter().position(|e| matches!(e.what, Remembered::Delivered(_)));
                    if delivered.is_none() && matches!(what, Remembered::Delivered(_)) {
                        return;
                    }
                    if let Some(gone) = self.ring.remove(delivered.unwrap_or(0)) {
                        self.forget_hash(gone.hash);
                    }
                }
                *self.hashes.get_or_insert_with(hash, || 0) += 1;
                self.ring.push_back(Entry { hash, thread_id: thread_id.into(), message_id: message_id.into(), text_hash, what });
            }
        }
    }

    fn forget_hash(&mut self, hash: u64) {
        let left = self.hashes.get_mut(&hash).map(|count| {
            *count -= 1;
            *count
        });
        if left == Some(0) {
            self.hashes.remove(&hash);
        }
    }

    fn position(&self, hash: u64, thread_id: &str, message_id: &str) -> Option<usize> {
        if !self.hashes.contains_key(&hash) {
            return None;
        }
        // Newest first: a retry follows its failure closely. A plain loop
        // (the size-optimised build calls, not inlines, an iterator's closure).
        let (older, newer) = self.ring.as_slices();
        let found = |slice: &[Entry]| {
            let mut at = slice.len();
            while at > 0 {
                at -= 1;
                let entry = &slice[at];
                if entry.hash == hash && entry.message_id == message_id && entry.thread_id == thread_id {
                    return Some(at);
                }
            }
            None
        };
        found(newer).map(|at| older.len() + at).or_else(|| found(older))
    }

    /// What a new submission of `message_id` with `text` on `thread_id`,
    /// steering `expected_turn_id` (`None`: a `turn/start`), should do.
    pub(crate) fn resubmission(
        &self,
        thread_id: &str,
        message_id: Option<&str>,
        text: &str,
        expected_turn_id: Option<&str>,
    ) -> Resubmission {
        let Some(message_id) = message_id else { return Resubmission::New };
        self.resubmission_hashed(key_hash(thread_id, message_id), thread_id, message_id, text, expected_turn_id)
    }

    fn resubmission_hashed(
        &self,
        hash: u64,
        thread_id: &str,
        message_id: &str,
        text: &str,
        expected_turn_id: Option<&str>,
    ) -> Resubmission {
        let entry = self.position(hash, thread_id, message_id).map(|at| &self.ring[at]);
        if entry.is_some_and(|entry| entry.text_hash != fnv(&[text])) {
            return Resubmission::ReusedForOtherText;
        }
        match entry.map(|entry| &entry.what) {
            Some(Remembered::Delivered(outcome)) => Resubmission::AlreadyDelivered(outcome.clone()),
            // The host returns the first attempt's result only for the same
            // id, input and `expectedTurnId`: any other resend could apply it again.
            Some(Remembered::Unknown { deduplicated: true, turn_id: Some(turn), .. }) if expected_turn_id == Some(turn.as_str()) => {
                Resubmission::New
            }
            Some(Remembered::Unknown { turn_id, .. }) => Resubmission::Verify { turn_id: turn_id.clone() },
            None => Resubmission::New,
        }
    }

    /// The record of `message_id` on `thread_id` when it was written and
    /// what became of it is still unknown.
    pub(crate) fn unknown(&self, thread_id: &str, message_id: &str) -> Option<Remembered> {
        let at = self.position(key_hash(thread_id, message_id), thread_id, message_id)?;
        Some(self.ring[at].what.clone()).filter(|what| matches!(what, Remembered::Unknown { .. }))
    }

    /// Forgets `message_id` on `thread_id`: its thread showed it was not applied.
    pub(crate) fn forget(&mut self, thread_id: &str, message_id: &str) {
        let at = self.position(key_hash(thread_id, message_id), thread_id, message_id);
        if let Some(gone) = at.and_then(|at| self.ring.remove(at)) {
            self.forget_hash(gone.hash);
        }
    }

    /// The connection was replaced: no unknown outcome counts as
    /// deduplicated by the host any more (the new one may not deduplicate),
    /// so its retry reads the thread first.
    pub(crate) fn connection_replaced(&mut self) {
        for entry in &mut self.ring {
            if let Remembered::Unknown { deduplicated, .. } = &mut entry.what {
                *deduplicated = false;
            }
        }
    }

    /// True when `message_id` on `thread_id` was written and what became of
    /// it is still unknown.
    pub(crate) fn is_unknown(&self, thread_id: &str, message_id: &str) -> bool {
        let at = self.position(key_hash(thread_id, message_id), thread_id, message_id);
        at.is_some_and(|at| matches!(self.ring[at].what, Remembered::Unknown { .. }))
    }

    /// Ids remembered.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.ring.len()
    }

    /// Distinct key hashes indexed (never more than the ids remembered).
    #[cfg(test)]
    pub(crate) fn indexed(&self) -> usize {
        self.hashes.len()
    }

    /// Remembers under a chosen hash, so a test can make two ids collide.
    #[cfg(test)]
    pub(crate) fn remember_colliding(&mut self, hash: u64, thread_id: &str, message_id: &str, what: Remembered) {
        self.remember_hashed(hash, thread_id, message_id, "", what);
    }

    /// True when nothing is remembered.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.ring.is_empty()
    }
}

/// What the thread says about an unconfirmed message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verified {
    /// A turn holds a user message with that id (the turn's id).
    Applied(String),
    /// Not found, but the turn it went to still runs: a steer accepted during
    /// a tool call is only recorded at the model's next request, so "not
    /// found" proves nothing yet.
    StillRunning,
    /// Not found and that turn has ended: it was not applied.
    NotApplied,
}

#[derive(Deserialize)]
struct ThreadRead {
    thread: ThreadTurns,
}

/// `turns` is required: a thread read without them (a host that ignored
/// `includeTurns`) proves nothing, so the outcome stays unknown; an empty
/// list is a thread whose turns hold no such message.
#[derive(Deserialize)]
struct ThreadTurns {
    id: String,
    turns: Vec<TurnItems>,
}

#[derive(Deserialize)]
struct TurnItems {
    id: String,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    items: Vec<ClientItem>,
    /// `full`, `summary` or `notLoaded` (Codex 0.171.0): only a full view
    /// lists every item, so only it can show a message is not there.
    #[serde(default, rename = "itemsView")]
    items_view: Option<String>,
}

#[derive(Deserialize)]
struct ClientItem {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default, rename = "clientId")]
    client_id: Option<String>,
    /// Kept as text: only a user message's is read (other items may hold
    /// content of other shapes).
    #[serde(default)]
    content: Option<Json>,
}

#[derive(Deserialize)]
struct TextPart {
    #[serde(default)]
    text: Option<String>,
}

impl ClientItem {
    /// A user message recorded without a `clientId` whose text items join to `text`.
    fn is_unlabelled_user_message(&self, text: &str) -> bool {
        if self.kind.as_deref() != Some("userMessage") || self.client_id.is_some() {
            return false;
        }
        let Some(parts) = self.content.as_ref().and_then(|c| c.read::<Vec<TextPart>>().ok()) else { return false };
        let mut joined = String::new();
        for part in &parts {
            joined.push_str(part.text.as_deref().unwrap_or_default());
        }
        joined == text
    }
}

/// A turn's `status` (`TurnStatus` of the app-server protocol); anything
/// else (missing, a value a newer host added) proves nothing.
fn turn_status(status: Option<&str>) -> Option<Verified> {
    match status? {
        "inProgress" => Some(Verified::StillRunning),
        "completed" | "interrupted" | "failed" => Some(Verified::NotApplied),
        _ => None,
    }
}

/// Reads a `thread/read { includeTurns: true }` answer of `thread_id` for
/// `message_id` with the words `text`, steered into `turn_id` (`None`: a
/// `turn/start`). `None` when the answer proves nothing: unreadable, another
/// thread, the turn not listed, or a turn shown in part or with an unknown
/// status; the outcome then stays unknown.
///
/// A user message with that `clientId` anywhere is the message. A host that
/// records a steered message without its id (the published codexhost host's
/// external threads) is read by its words: a user message with no
/// `clientId` and the same text, in the turn it went to or a later one (a
/// `newTurn` steer opens the next turn with it). "Not applied" is proven only
/// once that turn and every later one have ended without it: a later turn
/// that still runs may be the replacement that has not listed it yet.
pub(crate) fn verify(answer: &Json, thread_id: &str, message_id: &str, text: &str, turn_id: Option<&str>) -> Option<Verified> {
    let read: ThreadRead = answer.read().ok()?;
    if read.thread.id != thread_id {
        return None;
    }
    let turns = read.thread.turns;
    if let Some(turn) = turns.iter().find(|t| t.items.iter().any(|i| i.client_id.as_deref() == Some(message_id))) {
        return Some(Verified::Applied(turn.id.clone()));
    }
    let from = match turn_id {
        Some(turn_id) => turns.iter().position(|t| t.id == turn_id)?,
        None => 0,
    };
    let later = &turns[from..];
    if let Some(turn) = later.iter().find(|t| t.items.iter().any(|i| i.is_unlabelled_user_message(text))) {
        return Some(Verified::Applied(turn.id.clone()));
    }
    if turns.iter().any(|t| t.items_view.as_deref().is_some_and(|view| view != "full")) {
        return None; // a turn shown in part may hold it
    }
    // A `turn/start` or a steer: the turn it opened or went to may not list
    // it yet while it runs (a start answers `items: []`; a steer accepted
    // during a tool call is recorded at the model's next request).
    let mut verdict = Some(Verified::NotApplied);
    for turn in later {
        match turn_status(turn.status.as_deref()) {
            Some(Verified::StillRunning) => return Some(Verified::StillRunning),
            None => verdict = None,
            _ => {}
        }
    }
    verdict
}

#[cfg(test)]
mod tests;
