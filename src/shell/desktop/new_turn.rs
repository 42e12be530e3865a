//! The desktop hook's newTurn path: the steer is presented through the
//! desktop's own `startTurn`, whose `turn/start` leaves as a `turn/steer`
//! tagged `newTurn` (every wait bounded, dispose-aware); follow-ups the stop
//! paused are resumed.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use super::{paused_ids, reject, unpause_messages, Hook, Route, Waited, PAUSE_REASON};
use crate::core::{Failure, Json, RpcError};
use crate::shell::boundary::{own_field, read_id, read_typed, report, MAX_ARGUMENT_UNITS, MAX_ID_UNITS};
use crate::shell::convert::to_js;
use crate::shell::ids::random_id;
use crate::shell::options::{field, function_field};

impl Hook {
    /// The desktop's `submissionHost` answer for `thread_id` (`None` when absent or unreadable).
    fn ask_host(&self, host: &JsValue, method: &str, thread_id: &str) -> Option<JsValue> {
        function_field(host, method).and_then(|f| f.call1(host, &JsValue::from_str(thread_id)).ok())
    }

    pub(super) async fn new_turn(self: Rc<Self>, thread_id: String, args: Array) -> Result<JsValue, JsValue> {
        let input = args.get(1);
        let restore = args.get(2);
        let host = self.submission_host();
        let expected = self.ask_host(&host, "getActiveTurnId", &thread_id).and_then(|v| read_id(&v, "turn id").ok());
        let Some(expected_turn_id) = expected else {
            let detail = "the desktop's submission binding is missing: a new turn cannot be started";
            return Err(reject(Failure::missing_binding(detail), &input));
        };
        if self.ask_host(&host, "hasPendingTurnStart", &thread_id).and_then(|v| v.as_bool()) == Some(true) {
            return Err(reject(Failure::pending_turn_start(), &input));
        }
        if !(args.get(7).is_null() || args.get(7).is_undefined()) {
            return Err(reject(Failure::invalid_input("a steer cannot replace a tool response"), &input));
        }
        let context = field(&restore, "context");
        if !context.is_object() {
            return Err(reject(Failure::invalid_input("restoreMessage.context must be an object"), &input));
        }
        let message_id = read_id(&args.get(5), "messageId")
            .or_else(|_| read_id(&field(&restore, "id"), "restoreMessage.id"))
            .unwrap_or_else(|_| random_id());
        let or_null = |v: JsValue| if v.is_undefined() { JsValue::NULL } else { v };
        let or_empty = |v: JsValue| if v.is_undefined() || v.is_null() { Array::new().into() } else { v };
        let request = object(&[
            ("threadId", JsValue::from_str(&thread_id)),
            ("input", input.clone()),
            ("clientUserMessageId", JsValue::from_str(&message_id)),
            ("additionalContext", args.get(6)),
            ("responsesapiClientMetadata", field(&restore, "responsesapiClientMetadata")),
            ("cwd", field(&restore, "cwd")),
            ("serviceTier", args.get(3)),
            ("model", JsValue::NULL),
            ("effort", JsValue::NULL),
            ("collaborationMode", or_null(field(&context, "collaborationMode"))),
        ]);
        let start_context = object(&[
            ("attachments", or_empty(args.get(4))),
            ("commentAttachments", or_empty(field(&context, "commentAttachments"))),
            ("mcpAppModelContextAttachments", field(&context, "mcpAppModelContextAttachments")),
            ("useAppServerPermissionDefault", JsValue::TRUE),
        ]);
        let submission = object(&[("request", request), ("context", start_context)]);
        let Some(start) = function_field(&self.manager, "startTurn") else {
            return Err(reject(Failure::missing_binding("startTurn is missing"), &input));
        };
        let paused_before = self.paused_follow_ups(&thread_id).await;
        let key = (thread_id.clone(), message_id);
        let sent = Rc::new(Cell::new(false));
        self.routes.borrow_mut().insert(key.clone(), Route { expected_turn_id, sent: sent.clone() });
        let waited = self.bounded(start.call3(&self.manager, &thread_id.clone().into(), &submission, &args.get(8))).await;
        self.routes.borrow_mut().remove(&key);
        // Before the rewritten steer left, nothing can have arrived: a plain failure.
        let unanswered = |detail: &str| if sent.get() { Failure::outcome_unknown("startTurn", detail) } else { Failure::disposed() };
        self.restore_when_idle();
        let result = match waited {
            Waited::Ok(value) => Ok(value),
            Waited::Error(error) if is_steering_error(&error) => Err(error),
            Waited::Error(error) => Err(reject(Failure::transport("startTurn", describe(&error)), &input)),
            // The rewritten turn/steer may have left: never a plain failure.
            Waited::Timeout if !sent.get() => {
                Err(reject(Failure::timeout("startTurn", self.steer_ms), &input))
            }
            Waited::Timeout => Err(reject(unanswered("no answer within the steer bound"), &input)),
            Waited::Cancelled => Err(reject(unanswered("disposed before the answer"), &input)),
        };
        if result.is_ok() {
            self.resume_follow_ups(&thread_id, &paused_before).await;
        }
        result
    }

    /// Ids of follow-ups paused with the steer's reason (best effort, bounded).
    async fn paused_follow_ups(&self, thread_id: &str) -> JsValue {
        let coordinator = self.coordinator();
        if let Some(load) = function_field(&coordinator, "loadMessages") {
            let _ = self.bounded(load.call1(&coordinator, &thread_id.into())).await;
        }
        let Some(read) = function_field(&coordinator, "readMessages") else { return Array::new().into() };
        let messages = match self.bounded(read.call1(&coordinator, &thread_id.into())).await {
            Waited::Ok(messages) => messages,
            _ => JsValue::UNDEFINED,
        };
        paused_ids(&messages, PAUSE_REASON).unwrap_or_else(|_| Array::new().into())
    }

    /// Un-pauses follow-ups the stop paused (not those paused before); a
    /// failure is logged, never turned into a failed delivery.
    async fn resume_follow_ups(&self, thread_id: &str, paused_before: &JsValue) {
        let coordinator = self.coordinator();
        let Some(mutate) = function_field(&coordinator, "mutate") else { return };
        let Ok(unpause) = unpause_messages(PAUSE_REASON, paused_before) else { return };
        match self.bounded(mutate.call2(&coordinator, &thread_id.into(), &unpause)).await {
            Waited::Ok(_) => {}
            Waited::Error(e) => report("could not resume follow-ups", &e),
            Waited::Timeout | Waited::Cancelled => report("resuming follow-ups did not finish", &JsValue::UNDEFINED),
        }
    }

    /// The `turn/start` of a newTurn presentation goes out as a tagged
    /// `turn/steer`; its `{ turnId }` answer comes back as `{ turn }`.
    pub(super) fn rewrite_start(self: Rc<Self>, params: JsValue, options: JsValue, expected_turn_id: String, sent: Rc<Cell<bool>>) -> Promise {
        future_to_promise(async move {
            let input = field(&params, "input");
            if self.disposed.get() {
                return Err(reject(Failure::disposed(), &input));
            }
            let mut steer: Vec<(&str, JsValue)> = ["threadId", "input", "clientUserMessageId", "additionalContext", "responsesapiClientMetadata"]
                .into_iter()
                .map(|key| (key, field(&params, key)))
                .filter(|(_, value)| !value.is_undefined() && !value.is_null())
                .collect();
            steer.push(("expectedTurnId", expected_turn_id.into()));
            steer.push(("codexhostSteerDelivery", "newTurn".into()));
            sent.set(true);
            let sent = self.original_send.call3(&self.manager, &"turn/steer".into(), &object(&steer), &options);
            let thrown_now = sent.is_err();
            let answer = match self.bounded(sent).await {
                Waited::Ok(answer) => answer,
                // Thrown synchronously: nothing was written.
                Waited::Error(error) if thrown_now => {
                    return Err(reject(Failure::transport("turn/steer", describe(&error)), &input))
                }
                Waited::Error(error) => {
                    let failure = match rpc_error(&error) {
                        Some(error) => Failure::rpc("turn/steer", error),
                        None => Failure::outcome_unknown("turn/steer", &describe(&error)),
                    };
                    return Err(reject(failure, &input));
                }
                Waited::Timeout => return Err(reject(Failure::outcome_unknown("turn/steer", "no answer within the steer bound"), &input)),
                Waited::Cancelled => return Err(reject(Failure::outcome_unknown("turn/steer", "disposed before the answer"), &input)),
            };
            let turn_id = read_typed::<TurnIdAnswer>(&answer, MAX_ARGUMENT_UNITS, Some(&["turnId"])).map(|a| a.turn_id);
            let Some(turn_id) = turn_id.ok().filter(|t| !t.is_empty()) else {
                return Err(reject(Failure::outcome_unknown("turn/steer", "the answer has no turnId"), &input));
            };
            Ok(to_js(&StartedTurn { turn: TurnState { id: &turn_id, status: "inProgress", items: [], error: () } }))
        })
    }
}

/// What `startTurn` resolves with, as the desktop's own `turn/start` would:
/// `{ turn: { id, status: "inProgress", items: [], error: null } }`.
#[derive(serde::Serialize)]
struct StartedTurn<'a> {
    turn: TurnState<'a>,
}

#[derive(serde::Serialize)]
struct TurnState<'a> {
    id: &'a str,
    status: &'static str,
    items: [(); 0],
    error: (),
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct TurnIdAnswer {
    turn_id: String,
}

/// A plain object of this module's own making.
fn object(entries: &[(&str, JsValue)]) -> JsValue {
    let object = Object::new();
    for (key, value) in entries {
        let _ = Reflect::set(&object, &JsValue::from_str(key), value);
    }
    object.into()
}

/// A rejection this hook made itself (passed through unchanged).
fn is_steering_error(error: &JsValue) -> bool {
    error.is_object() && own_field(error, "name") == JsValue::from_str("SteeringError")
}

/// Reads `{ code, message, data? }` from a rejection through the front door.
fn rpc_error(error: &JsValue) -> Option<RpcError> {
    #[derive(serde::Deserialize)]
    struct Shape {
        code: i64,
        #[serde(default)]
        message: String,
        #[serde(default)]
        data: Option<Json>,
    }
    let shape: Shape = read_typed(error, MAX_ARGUMENT_UNITS, Some(&["code", "message", "data"])).ok()?;
    Some(RpcError { code: shape.code, message: shape.message, data: shape.data })
}

/// A short description of any thrown value (read in JS, never throws).
fn describe(error: &JsValue) -> String {
    read_typed::<String>(error, MAX_ID_UNITS, None).unwrap_or_else(|_| {
        own_field(error, "message").as_string().map(|m| m.chars().take(1000).collect()).unwrap_or_else(|| "the call failed".into())
    })
}
