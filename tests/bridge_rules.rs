//! The boundary, driven as the JavaScript driver drives it: JSON in, JSON
//! out. Each rule here is one the driver relies on and does not decide.

use renderer_steering::bridge::Bridge;
use serde_json::{json, Value};

fn step(bridge: &mut Bridge, handle: u32, input: Value, payload: &str) -> Value {
    serde_json::from_str(&bridge.step(handle, &input.to_string(), payload)).expect("the bridge answers JSON")
}

fn text(s: &str) -> Value {
    json!({ "t": "string", "s": s })
}

fn codexhost(bridge: &mut Bridge) -> u32 {
    let read = json!({ "options": { "t": "object" }, "fields": [["request", { "t": "function" }]] });
    let out = step(bridge, 0, json!({ "do": "open", "engine": "codexhost", "options": read }), "");
    out["value"]["handle"].as_u64().expect("a handle") as u32
}

fn steer_fields(thread_id: &str) -> String {
    json!({ "threadId": thread_id, "expectedTurnId": "turn-1", "input": [{ "type": "text", "text": "use pnpm" }] }).to_string()
}

#[test]
fn decide_and_steer_refuse_the_same_thread_id_in_the_same_unit() {
    let mut bridge = Bridge::default();
    let handle = codexhost(&mut bridge);
    // 3,000 "é": 3,000 UTF-16 units (within 4,096), 6,000 bytes (beyond it).
    let long = "é".repeat(3000);
    let decided = step(&mut bridge, handle, json!({ "do": "decide", "now": 0, "threadId": text(&long), "text": text("x") }), "");
    assert!(decided["error"].is_null(), "decide takes it: {decided}");
    let steered = step(&mut bridge, handle, json!({ "do": "steer", "now": 0, "freshId": "m-1" }), &steer_fields(&long));
    assert!(steered["error"].is_null(), "steer takes it too: {steered}");
    // 5,000 "é": beyond 4,096 units: both refuse, naming the same bound.
    let longer = "é".repeat(5000);
    let described = json!({ "t": "string", "units": 5000 });
    let decided = step(&mut bridge, handle, json!({ "do": "decide", "now": 0, "threadId": described, "text": text("x") }), "");
    let steered = step(&mut bridge, handle, json!({ "do": "steer", "now": 0, "freshId": "m-2" }), &steer_fields(&longer));
    assert_eq!(decided["error"]["message"], steered["error"]["message"], "{decided} {steered}");
    assert_eq!(decided["error"]["kind"], "invalidInput");
}

#[test]
fn a_bad_option_is_thrown_in_the_package_words() {
    let mut bridge = Bridge::default();
    let read = json!({
        "options": { "t": "object" },
        "fields": [["request", { "t": "function" }], ["timeouts", { "t": "object" }]],
        "timeoutKeys": ["decideMs"],
        "timeouts": [["decideMs", { "t": "number", "n": -1 }]]
    });
    let out = step(&mut bridge, 0, json!({ "do": "open", "engine": "codexhost", "options": read }), "");
    assert_eq!(out["thrown"], "options.timeouts.decideMs must be a whole number of milliseconds from 0 to 2147483647 (got -1)");
    assert_eq!(bridge.live(), 0, "nothing is made for refused options");
}

#[test]
fn an_answer_comes_back_by_request_id_and_completes_the_submission() {
    let mut bridge = Bridge::default();
    let handle = codexhost(&mut bridge);
    let out = step(&mut bridge, handle, json!({ "do": "decide", "now": 0, "threadId": text("t-1"), "text": text("x") }), "");
    let op = out["value"]["op"].clone();
    let send = out["steps"].as_array().unwrap().iter().find(|s| s["do"] == "send").expect("a request").clone();
    let answer = json!({ "delivery": "official", "official": { "reason": "codexOwned" } }).to_string();
    let done = step(&mut bridge, handle, json!({ "do": "answer", "id": send["id"], "now": 5, "how": "result" }), &answer);
    let complete = done["steps"].as_array().unwrap().iter().find(|s| s["do"] == "complete").expect("completed").clone();
    assert_eq!(complete["op"], op);
    assert_eq!(complete["ok"]["delivery"], "official");
    assert_eq!(done["timer"], Value::Null, "nothing left to wait for");
}

#[test]
fn a_lost_answer_after_the_steer_left_is_outcome_unknown() {
    let mut bridge = Bridge::default();
    let handle = codexhost(&mut bridge);
    let out = step(&mut bridge, handle, json!({ "do": "steer", "now": 0, "freshId": "m-1" }), &steer_fields("t-1"));
    let probe = out["steps"].as_array().unwrap().iter().find(|s| s["do"] == "send").unwrap().clone();
    let answer = json!({ "delivery": "activeTurn" }).to_string();
    let out = step(&mut bridge, handle, json!({ "do": "answer", "id": probe["id"], "now": 1, "how": "result" }), &answer);
    let steer = out["steps"].as_array().unwrap().iter().find(|s| s["do"] == "send").expect("the steer").clone();
    assert_eq!(steer["method"], "turn/steer");
    assert_eq!(steer["message"], true);
    let out = step(
        &mut bridge,
        handle,
        json!({ "do": "answer", "id": steer["id"], "now": 2, "how": "rejected", "rejection": { "words": "socket closed" } }),
        "",
    );
    let complete = out["steps"].as_array().unwrap().iter().find(|s| s["do"] == "complete").unwrap().clone();
    assert_eq!(complete["error"]["kind"], "outcomeUnknown");
    assert_eq!(complete["error"]["clientUserMessageId"], "m-1");
}

#[test]
fn a_page_without_randomness_still_gets_distinct_message_ids() {
    let mut bridge = Bridge::default();
    let handle = codexhost(&mut bridge);
    let ids: Vec<Value> = ["t-1", "t-2"]
        .iter()
        .map(|thread| {
            let out = step(&mut bridge, handle, json!({ "do": "steer", "now": 0, "freshId": "" }), &steer_fields(thread));
            let probe = out["steps"].as_array().unwrap().iter().find(|s| s["do"] == "send").unwrap().clone();
            let answer = json!({ "delivery": "activeTurn" }).to_string();
            let out = step(&mut bridge, handle, json!({ "do": "answer", "id": probe["id"], "now": 1, "how": "result" }), &answer);
            let steer = out["steps"].as_array().unwrap().iter().find(|s| s["do"] == "send").unwrap().clone();
            steer["params"]["clientUserMessageId"].clone()
        })
        .collect();
    assert!(ids[0].as_str().is_some_and(|id| id.starts_with("local-")));
    assert_ne!(ids[0], ids[1]);
}

#[test]
fn a_late_answer_to_a_prompt_of_a_replaced_session_ends_no_later_prompt() {
    let mut bridge = Bridge::default();
    let read = json!({ "options": { "t": "object" }, "fields": [["request", { "t": "function" }], ["initialize", { "t": "object" }]] });
    let out = step(&mut bridge, 0, json!({ "do": "open", "engine": "acp", "options": read }), "{}");
    let handle = out["value"]["handle"].as_u64().unwrap() as u32;
    let old = step(&mut bridge, handle, json!({ "do": "promptSent", "sessionId": text("s") }), "")["value"].clone();
    step(&mut bridge, handle, json!({ "do": "sessionReplaced", "sessionId": text("s") }), "");
    let new = step(&mut bridge, handle, json!({ "do": "promptSent", "sessionId": text("s") }), "")["value"].clone();
    assert_ne!(old, new, "a new life of the session, a new token");
    let answer = json!({ "stopReason": "end_turn" }).to_string();
    let late = json!({ "do": "promptAnswered", "now": 1, "sessionId": text("s"), "token": { "t": "number", "n": old } });
    step(&mut bridge, handle, late, &answer);
    let mode = step(&mut bridge, handle, json!({ "do": "inputMode", "sessionId": text("s") }), "");
    assert_eq!(mode["value"]["mode"], "queue", "the new prompt still runs: messages wait for it");
    let current = json!({ "do": "promptAnswered", "now": 2, "sessionId": text("s"), "token": { "t": "number", "n": new } });
    step(&mut bridge, handle, current, &answer);
    let mode = step(&mut bridge, handle, json!({ "do": "inputMode", "sessionId": text("s") }), "");
    assert_eq!(mode["value"]["mode"], "idle");
}

#[test]
fn a_freed_handle_answers_that_it_was_freed_and_its_slot_is_reused() {
    let mut bridge = Bridge::default();
    let handle = codexhost(&mut bridge);
    step(&mut bridge, 0, json!({ "do": "close", "handle": handle }), "");
    assert_eq!(bridge.live(), 0);
    let out = step(&mut bridge, handle, json!({ "do": "tick", "now": 0 }), "");
    assert!(out["thrown"].as_str().is_some_and(|m| m.contains("freed")));
    assert_eq!(codexhost(&mut bridge), handle);
}

#[test]
fn a_refusal_without_an_engine_is_of_the_kind_asked_with_its_words() {
    let mut bridge = Bridge::default();
    let out = step(&mut bridge, 0, json!({ "do": "failure", "kind": "disposed", "detail": "ignored" }), "");
    assert_eq!((out["error"]["kind"].as_str(), out["error"]["message"].as_str()), (Some("disposed"), Some("disposed")));
    let out = step(&mut bridge, 0, json!({ "do": "failure", "kind": "invalidInput", "detail": "not an instance" }), "");
    assert_eq!((out["error"]["kind"].as_str(), out["error"]["message"].as_str()), (Some("invalidInput"), Some("not an instance")));
}

#[test]
fn input_the_driver_never_sends_is_refused_in_words_not_a_panic() {
    let mut bridge = Bridge::default();
    let handle = codexhost(&mut bridge);
    for (handle, input) in [
        (0, "not json"),
        (0, "{}"),
        (handle, r#"{"do":7}"#),
        (handle, r#"{"do":"answer","id":-1}"#),
        (handle, r#"{"do":"nope"}"#),
        (0, r#"{"do":"failure","kind":"dispose"}"#),
        (0, r#"{"do":"failure","kind":""}"#),
        (u32::MAX, "{}"),
    ] {
        let out: Value = serde_json::from_str(&bridge.step(handle, input, "\u{0}")).unwrap();
        assert!(out["thrown"].is_string(), "{input}: {out}");
    }
}

#[test]
fn the_desktop_hook_opens_over_its_decider_with_its_steer_bound() {
    let mut bridge = Bridge::default();
    let read = json!({
        "options": { "t": "object" },
        "fields": [["request", { "t": "function" }], ["timeouts", { "t": "object" }]],
        "timeoutKeys": ["steerMs"],
        "timeouts": [["steerMs", { "t": "number", "n": 1234 }]]
    });
    let decider = step(&mut bridge, 0, json!({ "do": "open", "engine": "codexhost", "options": read }), "")["value"]["handle"].clone();
    let hook = step(&mut bridge, 0, json!({ "do": "open", "engine": "desktop", "handle": decider }), "")["value"]["handle"]
        .as_u64()
        .unwrap() as u32;
    let input = json!({ "do": "call", "call": { "op": "steer", "now": 100, "input": 1, "threadId": "t-1", "text": "use pnpm" } });
    let admitted = step(&mut bridge, hook, input, "");
    assert_eq!(
        (admitted["value"]["reply"].clone(), admitted["steps"][0]["target"].clone()),
        (json!("promise"), json!("decide")),
        "{admitted}"
    );
    let decide = admitted["steps"][0]["id"].clone();
    let decided = json!({ "op": "settled", "now": 100, "call": decide, "ok": true, "facts": { "delivery": "activeTurn" } });
    let own = step(&mut bridge, hook, json!({ "do": "call", "call": decided }), "");
    assert_eq!(own["steps"][0]["target"], "ownSteer", "{own}");
    assert_eq!(own["timer"], 1334, "the desktop's own steer is bounded by the decider's steerMs");
    let missing = step(&mut bridge, 0, json!({ "do": "open", "engine": "desktop", "handle": 99 }), "");
    assert!(missing["thrown"].is_string());
}

fn desktop_hook(bridge: &mut Bridge) -> u32 {
    let decider = codexhost(bridge);
    step(bridge, 0, json!({ "do": "open", "engine": "desktop", "handle": decider }), "")["value"]["handle"].as_u64().unwrap() as u32
}

#[test]
fn the_follow_ups_to_resume_are_named_by_position_and_ids_compare_only_as_strings_or_safe_integers() {
    let mut bridge = Bridge::default();
    let hook = desktop_hook(&mut bridge);
    let stop = text("Interrupted before the steer was accepted.");
    let number = |n: f64| json!({ "t": "number", "n": n });
    let queue = json!([
        text("old"), stop, // paused before: stays
        text("new"), stop, // resumed
        number(7.0), stop, // resumed: the string "7" was paused before, not 7
        number(1.5), stop, // not an integer: no comparable id
        number(9_007_199_254_740_992.0), stop, // beyond a safe integer
        { "t": "object" }, stop,
        { "t": "string", "units": 5000 }, stop, // beyond the id bound
        text("user"), text("Paused by the user."),
        text("queued"), { "t": "null" },
        number(-3.0), stop, // resumed
    ]);
    let before = json!([text("old"), text("7")]);
    let out = step(&mut bridge, hook, json!({ "do": "unpause", "followUps": queue, "pausedBefore": before }), "");
    assert_eq!(out["value"], json!([1, 2, 9]), "{out}");
    let unread = step(&mut bridge, hook, json!({ "do": "unpause", "pausedBefore": [] }), "");
    assert_eq!(unread["value"], json!([]));
}

#[test]
fn a_desktop_call_is_read_by_its_op_and_named_facts_and_a_misspelt_one_is_refused_loudly() {
    let mut bridge = Bridge::default();
    let hook = desktop_hook(&mut bridge);
    let call = |facts: Value| json!({ "do": "call", "call": facts });
    let steer = json!({ "op": "steer", "input": 1, "threadId": "t", "text": "use pnpm", "argumentId": "m-1" });
    let out = step(&mut bridge, hook, call(steer.clone()), "");
    assert_eq!(out["value"]["reply"], "promise", "{out}");
    let joined = step(&mut bridge, hook, call(steer), "");
    assert_eq!((joined["value"]["reply"].clone(), joined["value"]["op"].clone()), (json!("promise"), out["value"]["op"].clone()));
    assert!(joined["steps"].is_null(), "a join asks nothing again: {joined}");
    for wrong in
        [json!({ "op": "stere", "threadId": "t" }), json!({ "op": "steer", "thread": "t" }), json!({ "op": "tick", "now": "soon" })]
    {
        let out = step(&mut bridge, hook, call(wrong.clone()), "");
        assert!(out["thrown"].as_str().is_some_and(|t| t.contains("could not read its input")), "{wrong}: {out}");
    }
}
