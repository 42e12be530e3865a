//! One `clientUserMessageId` is one delivery: what a resubmission does, the
//! bound on what is remembered, and what a thread read says.

use serde_json::json;

use super::{verify, RecentMessages, Remembered, Resubmission, Verified, RECENT_MESSAGES};
use crate::core::codexhost::wire::Delivery;
use crate::core::Json;

#[test]
fn an_unknown_outcome_is_remembered_with_the_turn_it_went_to() {
    let mut recent = RecentMessages::default();
    recent.remember(
        "t",
        "m",
        "w",
        Remembered::Unknown { deduplicated: false, turn_id: Some("turn-1".into()), presented: Delivery::Official },
    );
    assert_eq!(recent.resubmission("t", Some("m"), "w", None), Resubmission::Verify { turn_id: Some("turn-1".into()) });
}

#[test]
fn a_message_id_never_seen_is_sent_as_new() {
    assert_eq!(RecentMessages::default().resubmission("t", Some("m"), "w", None), Resubmission::New);
}

#[test]
fn an_unknown_outcome_on_a_deduplicating_host_is_sent_again_as_new_only_into_the_same_turn() {
    let mut recent = RecentMessages::default();
    let turn = Some("u".to_string());
    recent.remember("t", "m", "w", Remembered::Unknown { deduplicated: true, turn_id: turn.clone(), presented: Delivery::NewTurn });
    assert_eq!(recent.resubmission("t", Some("m"), "w", Some("u")), Resubmission::New);
    let verify = Resubmission::Verify { turn_id: turn };
    assert_eq!(recent.resubmission("t", Some("m"), "w", Some("v")), verify, "another turn: the host's receipt does not cover it");
    assert_eq!(recent.resubmission("t", Some("m"), "w", None), verify, "a turn/start is not deduplicated");
}

#[test]
fn remembering_many_ids_keeps_only_the_bound() {
    let mut recent = RecentMessages::default();
    for i in 0..2000 {
        recent.remember("t", &i.to_string(), "w", Remembered::Unknown { deduplicated: true, turn_id: None, presented: Delivery::Official });
    }
    assert_eq!(recent.len(), 256);
    assert_eq!(recent.indexed(), 256, "the hash index is bounded with the ring");
}

#[test]
fn ids_whose_hashes_collide_are_told_apart_and_forgetting_one_keeps_the_other() {
    let unknown = || Remembered::Unknown { deduplicated: false, turn_id: None, presented: Delivery::Official };
    let b_outcome = || Remembered::Unknown { deduplicated: false, turn_id: Some("u".into()), presented: Delivery::Official };
    let b_resubmitted = Resubmission::Verify { turn_id: Some("u".into()) };
    let mut recent = RecentMessages::default();
    recent.remember_colliding(7, "t", "a", unknown());
    recent.remember_colliding(7, "t", "b", b_outcome());
    assert_eq!(recent.indexed(), 1, "one hash, two ids");
    for i in 0..RECENT_MESSAGES - 2 {
        recent.remember("t", &format!("m-{i}"), "w", unknown());
    }
    assert_eq!(recent.len(), RECENT_MESSAGES, "full, nothing forgotten yet");
    recent.remember("t", "x", "w", unknown()); // forgets "a", the oldest
    assert_eq!(recent.indexed(), RECENT_MESSAGES, "b's hash, 254 others and x");
    // "b" shares the hash "a" had: it must still be found.
    assert_eq!(recent.resubmission_hashed(7, "t", "b", "", None), b_resubmitted);
    assert_eq!(recent.resubmission_hashed(7, "t", "a", "", None), Resubmission::New, "a was forgotten");
    recent.remember("t", "y", "w", unknown()); // forgets "b": the hash leaves the index
    assert_eq!(recent.resubmission_hashed(7, "t", "b", "", None), Resubmission::New);
    assert_eq!(recent.indexed(), RECENT_MESSAGES);
}

#[test]
fn an_unknown_outcome_without_deduplication_is_verified_on_its_own_thread_only() {
    let mut recent = RecentMessages::default();
    recent.remember("t", "m", "w", Remembered::Unknown { deduplicated: false, turn_id: Some("u".into()), presented: Delivery::Official });
    assert_eq!(recent.resubmission("t", Some("m"), "w", None), Resubmission::Verify { turn_id: Some("u".into()) });
    assert_eq!(recent.resubmission("other", Some("m"), "w", None), Resubmission::New);
}

#[test]
fn a_thread_read_shows_a_message_applied_still_running_or_not_applied() {
    let read = Json::from(json!({"thread": {"id": "t", "turns": [
        {"id": "u", "status": "inProgress", "items": [{"clientId": "m"}]},
        {"id": "v", "status": "completed", "items": []},
    ]}}));
    assert_eq!(verify(&read, "t", "m", "w", Some("u")), Some(Verified::Applied("u".into())));
    assert_eq!(verify(&read, "t", "other", "w", Some("u")), Some(Verified::StillRunning));
    assert_eq!(verify(&read, "t", "other", "w", Some("v")), Some(Verified::NotApplied));
    assert_eq!(verify(&read, "t", "other", "w", Some("gone")), None, "a turn not listed proves nothing");
    assert_eq!(verify(&read, "t2", "m", "w", Some("u")), None, "another thread's answer proves nothing");
    assert_eq!(verify(&Json::from(json!({"thread": {"id": "t", "turns": []}})), "t", "m", "w", None), Some(Verified::NotApplied));
    assert_eq!(verify(&Json::from(json!({"thread": {"id": "t"}})), "t", "m", "w", None), None, "no turns read: nothing is proven");
    assert_eq!(verify(&Json::null(), "t", "m", "w", None), None);
    let summary = json!({"thread": {"id": "t", "turns": [{"id": "v", "status": "completed", "itemsView": "summary", "items": []}]}});
    assert_eq!(verify(&Json::from(summary), "t", "m", "w", Some("v")), None, "a turn shown in part proves nothing");
    let full = json!({"thread": {"id": "t", "turns": [{"id": "v", "status": "completed", "itemsView": "full", "items": []}]}});
    assert_eq!(verify(&Json::from(full), "t", "m", "w", Some("v")), Some(Verified::NotApplied));
}

#[test]
fn a_message_recorded_without_its_id_is_found_by_its_words_in_its_turn_or_a_later_one() {
    let said = |text: &str| json!({"type": "userMessage", "clientId": null, "content": [{"type": "text", "text": text}]});
    // A newTurn steer: the host stopped turn u and opened n with the words, without the id.
    let replaced = json!({"thread": {"id": "t", "turns": [
        {"id": "a", "status": "completed", "items": [said("use pnpm")]},
        {"id": "u", "status": "interrupted", "items": []},
        {"id": "n", "status": "completed", "items": [said("use pnpm")]},
    ]}});
    let read = Json::from(replaced);
    assert_eq!(verify(&read, "t", "m", "use pnpm", Some("u")), Some(Verified::Applied("n".into())));
    assert_eq!(verify(&read, "t", "m", "use bun", Some("u")), Some(Verified::NotApplied), "other words are another message");
    let earlier_only = json!({"thread": {"id": "t", "turns": [
        {"id": "a", "status": "completed", "items": [said("use pnpm")]},
        {"id": "u", "status": "interrupted", "items": []},
    ]}});
    assert_eq!(
        verify(&Json::from(earlier_only), "t", "m", "use pnpm", Some("u")),
        Some(Verified::NotApplied),
        "the same words before the turn it went to are an earlier message"
    );
    let labelled = json!({"thread": {"id": "t", "turns": [
        {"id": "u", "status": "completed", "items": [{"type": "userMessage", "clientId": "other", "content": [{"type": "text", "text": "use pnpm"}]}]},
    ]}});
    assert_eq!(
        verify(&Json::from(labelled), "t", "m", "use pnpm", Some("u")),
        Some(Verified::NotApplied),
        "a message with another id is another message"
    );
}

#[test]
fn a_later_turn_that_still_runs_keeps_the_outcome_unknown() {
    // The replacement turn may not list the message yet.
    let read = json!({"thread": {"id": "t", "turns": [
        {"id": "u", "status": "interrupted", "items": []},
        {"id": "n", "status": "inProgress", "items": []},
    ]}});
    assert_eq!(verify(&Json::from(read), "t", "m", "use pnpm", Some("u")), Some(Verified::StillRunning));
}

#[test]
fn finished_message_ids_are_remembered_up_to_the_bound_oldest_forgotten_first() {
    let unknown = || Remembered::Unknown { deduplicated: false, turn_id: None, presented: Delivery::Official };
    let mut recent = RecentMessages::default();
    assert_eq!((recent.len(), recent.is_empty()), (0, true), "a new memory holds no id");
    recent.remember("t", "m-0", "w", unknown());
    assert_eq!((recent.len(), recent.is_empty()), (1, false));
    recent.remember("t", "m-0", "w", unknown());
    assert_eq!(recent.len(), 1, "the same id is one entry");
    for i in 1..RECENT_MESSAGES + 44 {
        recent.remember("t", &format!("m-{i}"), "w", unknown());
    }
    assert_eq!(recent.len(), RECENT_MESSAGES, "bounded at exactly {RECENT_MESSAGES}");
    assert_eq!(recent.resubmission("t", Some("m-0"), "w", None), Resubmission::New, "the oldest was forgotten");
    assert_eq!(recent.resubmission("t", Some("m-43"), "w", None), Resubmission::New);
    assert_eq!(recent.resubmission("t", Some("m-44"), "w", None), Resubmission::Verify { turn_id: None }, "the oldest kept");
    let newest = format!("m-{}", RECENT_MESSAGES + 43);
    assert_eq!(recent.resubmission("t", Some(&newest), "w", None), Resubmission::Verify { turn_id: None });
    // The ring has wrapped: a record is replaced in place, and only that one.
    let deduplicated = Remembered::Unknown { deduplicated: true, turn_id: Some("u".into()), presented: Delivery::NewTurn };
    recent.remember("t", &newest, "w", deduplicated);
    assert_eq!(recent.len(), RECENT_MESSAGES);
    assert_eq!(recent.resubmission("t", Some(&newest), "w", Some("u")), Resubmission::New);
    for i in 44..RECENT_MESSAGES + 43 {
        let id = format!("m-{i}");
        assert_eq!(recent.resubmission("t", Some(&id), "w", None), Resubmission::Verify { turn_id: None }, "{id} untouched");
    }
}

#[test]
fn an_id_remembered_with_one_text_and_resubmitted_with_another_is_a_reuse() {
    let mut recent = RecentMessages::default();
    let deduplicated = Remembered::Unknown { deduplicated: true, turn_id: Some("u".into()), presented: Delivery::NewTurn };
    recent.remember("t", "m", "use pnpm", deduplicated);
    assert_eq!(recent.resubmission("t", Some("m"), "use bun", Some("u")), Resubmission::ReusedForOtherText);
    assert_eq!(recent.resubmission("t", Some("m"), "use pnpm", Some("u")), Resubmission::New, "the same text: a retry");
    assert_eq!(recent.resubmission("u", Some("m"), "use bun", None), Resubmission::New, "another thread");
}

#[test]
fn delivered_ids_are_forgotten_before_unknown_outcomes() {
    let mut recent = RecentMessages::default();
    recent.remember("t", "unknown", "w", Remembered::Unknown { deduplicated: false, turn_id: None, presented: Delivery::Official });
    let delivered = || {
        Remembered::Delivered(crate::core::codexhost::SteerOutcome {
            turn_id: "turn-1".into(),
            delivery: crate::core::codexhost::Delivery::ActiveTurn,
            presented: crate::core::codexhost::Delivery::ActiveTurn,
            trace: Default::default(),
        })
    };
    for i in 0..RECENT_MESSAGES * 2 {
        recent.remember(&format!("thread-{i}"), "m", "w", delivered());
    }
    assert_eq!(recent.len(), RECENT_MESSAGES);
    assert_eq!(
        recent.resubmission("t", Some("unknown"), "w", None),
        Resubmission::Verify { turn_id: None },
        "still remembered after 512 deliveries"
    );
    for i in 0..RECENT_MESSAGES {
        recent.remember(
            "t",
            &format!("u-{i}"),
            "w",
            Remembered::Unknown { deduplicated: false, turn_id: None, presented: Delivery::Official },
        );
    }
    assert_eq!(recent.resubmission("t", Some("unknown"), "w", None), Resubmission::New, "only unknowns left: the oldest goes");
}
