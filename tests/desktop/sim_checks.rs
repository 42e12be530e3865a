//! The model desktop's checks on what the core tells it (its effects) and
//! at the end of a script (after dispose and time): every steer ended once,
//! the layer went once, no wait outlived dispose, journal records stay only
//! for unknown outcomes, and follow-ups are resumed once per accepted newTurn.

use std::collections::BTreeSet;

use renderer_steering::core::desktop::{Effect, Ended, FollowUpId};

use super::Sim;

impl Sim {
    pub(super) fn effects(&mut self) {
        for effect in self.hook.take_effects() {
            match effect {
                Effect::Expired(w) | Effect::Cancelled(w) => {
                    assert!(self.open_waits.remove(&w), "a wait ended twice or was never open: {w:?}");
                    let ended = if matches!(effect, Effect::Expired(_)) { Ended::Timeout } else { Ended::Cancelled };
                    self.wait_ended(w, ended);
                }
                Effect::Restore => {
                    assert!(self.disposed, "the layer went before dispose");
                    self.restored += 1;
                    assert_eq!(self.restored, 1, "the layer went twice");
                }
                Effect::Journal { key, record: Some(record) } => {
                    // A same-id attempt writes the same record again (one record per message key).
                    self.journal.insert(key, record);
                }
                Effect::Journal { key, record: None } => {
                    assert!(self.journal.remove(&key).is_some(), "a record removed that was never written: {key}");
                }
                Effect::Resume { paused_before, .. } => {
                    // Only the stop's own pause of this steer is named, never the user's.
                    let [FollowUpId::Text(steer)] = &paused_before[..] else { panic!("paused before: {paused_before:?}") };
                    *self.resumes.entry(steer.clone()).or_default() += 1;
                }
                Effect::Released(_) | Effect::Done(_) | Effect::Reconcile(_) => {}
            }
        }
    }

    /// Dispose, every desktop call settles, time passes: every steer has
    /// ended, and the layer went.
    pub(super) fn finish(mut self) {
        self.dispose();
        for at in 0..self.live.len() {
            self.advance(at as u8, 0);
        }
        self.tick(1_000);
        self.tick(1_000);
        for l in &self.live {
            assert_eq!(self.ends.get(&l.steer), Some(&1), "a steer never ended: {l:?}");
        }
        assert_eq!(self.restored, 1, "the layer stayed after dispose");
        // Follow-ups are resumed once for each accepted newTurn steer, and only then.
        assert!(self.resumes.values().all(|n| *n == 1), "follow-ups resumed twice: {:?}", self.resumes);
        assert_eq!(self.resumes.keys().cloned().collect::<BTreeSet<_>>(), self.resolved_new_turns, "resumes without an accepted newTurn");
        assert!(self.open_waits.is_empty(), "a wait outlived dispose");
        // A record stays only for a message whose outcome is unknown.
        assert!(
            self.journal.len() as u32 <= self.unknown_ends,
            "records kept {} > unknown outcomes {}",
            self.journal.len(),
            self.unknown_ends
        );
    }
}
