//! `CodexhostSteering`: the codexhost engine driven from JavaScript.

use js_sys::{Function, Promise};
use serde::Deserialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::boundary::{read_draft, read_draft_text, read_id, read_json, MAX_ARGUMENT_UNITS, MAX_ID_UNITS};
use super::convert::to_js;
use super::options::{field, function_field, is_follower, read_timeouts};
use super::driver::{Driver, Hooks, RoleCheck};
use super::failure::to_js_error;
use super::ids::{now_ms, random_id};
use super::transport::Transport;
use super::types::{CodexhostOptions, DecideArgs, PresentationHooks, SteerArgs};
use crate::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerRequest};
use crate::core::timeouts::bound_from_ms;
use crate::core::{Failure, SteeringError, Trace};

fn rejected(failure: Failure, draft: Vec<Value>, original: &JsValue) -> Promise {
    Promise::reject(&to_js_error(&SteeringError::new(failure, draft, Trace::default()), original))
}

/// Steering for one codexhost connection.
#[wasm_bindgen]
pub struct CodexhostSteering {
    driver: Driver<CodexhostEngine>,
    stream_role: Option<Function>,
}

impl std::fmt::Debug for CodexhostSteering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodexhostSteering").finish_non_exhaustive()
    }
}


#[wasm_bindgen]
impl CodexhostSteering {
    /// `new CodexhostSteering({ request, timeouts?, streamRole? })`.
    ///
    /// ```js
    /// const steering = new CodexhostSteering({ request: (m, p, o) => rpc.request(m, p, o) });
    /// ```
    #[wasm_bindgen(constructor)]
    pub fn new(options: CodexhostOptions) -> Result<CodexhostSteering, JsError> {
        let options: JsValue = options.into();
        let transport = Transport::from_options(&options)?;
        let timeouts = read_timeouts(&options)?;
        let stream_role = function_field(&options, "streamRole");
        let role_check = stream_role.clone().map(|stream_role| RoleCheck {
            stream_role,
            key_of: |engine: &CodexhostEngine, id| engine.thread_of(id).map(String::from),
            set_follower: CodexhostEngine::set_follower,
        });
        let engine = CodexhostEngine::new(timeouts);
        Ok(CodexhostSteering { driver: Driver::new(engine, transport, role_check), stream_role })
    }

    /// Asks the host how `text` would be delivered on `threadId`; sends no steer.
    ///
    /// ```js
    /// const { delivery } = await steering.decide({ threadId, text: "use pnpm" });
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<Decision>")]
    pub fn decide(&self, args: DecideArgs) -> Promise {
        let args: JsValue = args.into();
        let read = read_id(&field(&args, "threadId"), "threadId")
            .map_err(Failure::invalid_input)
            .and_then(|thread| Ok((thread, read_draft_text(&field(&args, "text"))?)));
        let (thread_id, text) = match read {
            Ok(read) => read,
            Err(failure) => return rejected(failure, vec![], &JsValue::UNDEFINED),
        };
        let submitted = self.driver.with_engine(|e| e.decide(&thread_id, &text, now_ms()));
        match submitted {
            Err(error) => Promise::reject(&to_js_error(&error, &JsValue::UNDEFINED)),
            Ok(op) => self.driver.promise(op, None, outcome_to_js, JsValue::UNDEFINED),
        }
    }

    /// Steers the running turn: decide, present, send, reconcile. Rejects
    /// with a `SteeringError` whose `draft` is the input, untouched.
    ///
    /// ```js
    /// const { turnId, delivery } = await steering.steer({ threadId, expectedTurnId, input: [{ type: "text", text: "use pnpm" }] }, { present: show });
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<SteerResult>")]
    pub fn steer(&self, args: SteerArgs, hooks: Option<PresentationHooks>) -> Promise {
        let args: JsValue = args.into();
        let original = field(&args, "input");
        let draft = match read_draft(&original) {
            Ok(draft) => draft,
            Err(failure) => return rejected(failure, vec![], &original),
        };
        let request_options = field(&args, "requestOptions");
        // On a refusal the caller's own `input` is handed back (by identity).
        let mut request = match read_steer_request(&args, draft, &request_options) {
            Ok(request) => request,
            Err(reason) => return rejected(Failure::invalid_input(reason), vec![], &original),
        };
        if request.client_user_message_id.is_none() {
            request.client_user_message_id = Some(random_id());
        }
        if let Some(role) = &self.stream_role {
            let follower = is_follower(role, &JsValue::NULL, &request.thread_id);
            self.driver.with_engine(|e| e.set_follower(&request.thread_id, follower));
        }
        let hooks: JsValue = hooks.map(Into::into).unwrap_or(JsValue::UNDEFINED);
        let hooks = Hooks {
            present: function_field(&hooks, "present"),
            retract: function_field(&hooks, "retract"),
            reconcile: function_field(&hooks, "reconcile"),
            unconfirmed: function_field(&hooks, "unconfirmed"),
            request_options,
        };
        let submitted = self.driver.with_engine(|e| e.steer(request, now_ms()));
        match submitted {
            Err(error) => Promise::reject(&to_js_error(&error, &original)),
            Ok(submitted) => self.driver.promise(submitted.op(), Some(hooks), outcome_to_js, original),
        }
    }

    /// Rejects decisions and steers in progress with `disposed`; sends nothing more.
    ///
    /// ```js
    /// steering.dispose();
    /// ```
    pub fn dispose(&self) {
        self.driver.with_engine(|e| e.dispose());
        self.driver.pump();
    }

    /// The host connection was replaced: probe missing methods again.
    ///
    /// ```js
    /// socket.onreconnect = () => steering.connectionReplaced();
    /// ```
    #[wasm_bindgen(js_name = connectionReplaced)]
    pub fn connection_replaced(&self) {
        self.driver.with_engine(|e| e.connection_replaced());
    }

    /// Submissions, lanes and requests still held (0 once all settle).
    ///
    /// ```js
    /// console.assert(steering.liveState() === 0);
    /// ```
    #[wasm_bindgen(js_name = liveState)]
    pub fn live_state(&self) -> usize {
        self.driver.with_engine(|e| e.live_state())
    }
}

/// The steer arguments other than the draft (read through the front door;
/// `requestOptions` stays an opaque JS value, passed to `request` by identity).
fn read_steer_request(args: &JsValue, input: Vec<Value>, request_options: &JsValue) -> Result<SteerRequest, String> {
    const KEYS: [&str; 6] = [
        "threadId", "expectedTurnId", "clientUserMessageId", "pendingTurnStart", "additionalContext",
        "responsesapiClientMetadata",
    ];
    let mut rest = read_json(args, MAX_ARGUMENT_UNITS, Some(&KEYS)).map_err(|e| format!("steer arguments: {}", e.reason))?;
    let Some(fields) = rest.as_object_mut() else { return Err("steer arguments must be an object".into()) };
    fields.insert("input".into(), Value::Array(input));
    let mut request = SteerRequest::deserialize(rest).map_err(|e| format!("steer arguments: {e}"))?;
    for (what, id) in [("threadId", Some(&request.thread_id)), ("expectedTurnId", request.expected_turn_id.as_ref()), ("clientUserMessageId", request.client_user_message_id.as_ref())] {
        if id.is_some_and(|id| id.len() > MAX_ID_UNITS as usize) {
            return Err(format!("{what} is longer than {MAX_ID_UNITS} characters"));
        }
    }
    let timeout = field(request_options, "timeoutMs");
    if !timeout.is_undefined() {
        let ms = timeout.as_f64().ok_or("requestOptions.timeoutMs must be a number")?;
        request.steer_timeout_ms = Some(bound_from_ms(ms, "requestOptions.timeoutMs")?);
    }
    Ok(request)
}

fn outcome_to_js(outcome: &CodexhostOutcome) -> JsValue {
    match outcome {
        CodexhostOutcome::Decided(decision) => to_js(decision),
        CodexhostOutcome::Steered(steered) => to_js(steered),
    }
}
