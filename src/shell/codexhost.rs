//! `CodexhostSteering`: the codexhost engine driven from JavaScript.

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

use super::arguments::{read_call, FieldRefused};
use super::boundary::{read_draft_text, read_id, MAX_ARGUMENT_UNITS, MAX_ID_UNITS};
use super::convert::to_js;
use super::driver::{Driver, RoleCheck};
use super::failure::to_js_error;
use super::ids::{now_ms, random_id};
use super::options::{check_options, field, given, is_follower, optional_function, read_timeouts, thrown};
use super::transport::Transport;
use super::types::{CodexhostOptions, DecideArgs, PresentationHooks, SteerArgs};
use crate::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerRequest};
use crate::core::content::MAX_DRAFT_BYTES;
use crate::core::error::OptionError;
use crate::core::given::Given;
use crate::core::options::{required, Accepts, STEER_ARGUMENTS};
use crate::core::timeouts::bound_from_ms;
use crate::core::{Failure, Json, ReadError, SteeringError, Trace};

fn rejected(failure: Failure, draft: Json, original: &JsValue) -> Promise {
    Promise::reject(&to_js_error(&SteeringError::new(failure, draft, Trace::default()), original))
}

/// Steering for one codexhost connection.
///
/// ```js
/// const steering = new CodexhostSteering({ request: (method, params) => rpc.request(method, params) });
/// const { turnId, delivery } = await steering.steer(
///   { threadId, expectedTurnId, input: [{ type: "text", text: "use pnpm" }] },
///   { present: (where) => showOptimistically(where), retract: () => unshow() },
/// );
/// ```
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
        check_options(&options, "{ request, timeouts?, streamRole? }", true).map_err(thrown)?;
        let transport = Transport::from_options(&options).map_err(thrown)?;
        let timeouts = read_timeouts(&options).map_err(thrown)?;
        let stream_role = optional_function(&options, "streamRole", "(threadId) => \"owner\" | \"follower\"").map_err(thrown)?;
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
            .map_err(Failure::from)
            .and_then(|thread| Ok((thread, read_draft_text(&field(&args, "text"))?)));
        let (thread_id, text) = match read {
            Ok(read) => read,
            Err(failure) => return rejected(failure, Json::no_items(), &JsValue::UNDEFINED),
        };
        let now = now_ms();
        let submitted = self.driver.with_engine(|e| e.decide(&thread_id, &text, now));
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
        let hooks: JsValue = hooks.map(Into::into).unwrap_or(JsValue::UNDEFINED);
        let read = read_call(&args.into(), &STEER_FIELDS, &hooks);
        // On a refusal the caller's own `input` is handed back (by identity).
        let mut request = match steer_request(read.fields, &read.timeout_ms) {
            Ok(request) => request,
            Err(failure) => return rejected(failure, Json::no_items(), &read.input),
        };
        if request.client_user_message_id.is_none() {
            request.client_user_message_id = Some(random_id());
        }
        if let Some(role) = &self.stream_role {
            let follower = is_follower(role, &JsValue::NULL, &request.thread_id);
            self.driver.with_engine(|e| e.set_follower(&request.thread_id, follower));
        }
        let now = now_ms();
        let submitted = self.driver.with_engine(|e| e.steer(request, now));
        match submitted {
            Err(error) => Promise::reject(&to_js_error(&error, &read.input)),
            Ok(submitted) => self.driver.promise(submitted.op(), Some(read.hooks), outcome_to_js, read.input),
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

    /// The steer bound in ms (for the desktop hook, which bounds the app's
    /// own calls by it; not part of the public types).
    ///
    /// ```js
    /// const ms = steering.__steerMs(); // 30000 unless options.timeouts.steerMs says otherwise
    /// ```
    #[wasm_bindgen(js_name = __steerMs, skip_typescript)]
    pub fn steer_ms(&self) -> f64 {
        self.driver.with_engine(|e| e.timeouts().steer_ms as f64)
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

/// Longest JSON text of an id field: every character escaped (`\uXXXX`).
const ID_FIELD_UNITS: u32 = 6 * MAX_ID_UNITS + 2;

/// The steer fields read through the front door, the draft first
/// (`requestOptions` stays an opaque JS value, passed to `request` by identity).
static STEER_FIELDS: [(&str, u32); 7] = [
    ("input", MAX_DRAFT_BYTES as u32),
    ("threadId", ID_FIELD_UNITS),
    ("expectedTurnId", ID_FIELD_UNITS),
    ("clientUserMessageId", ID_FIELD_UNITS),
    ("pendingTurnStart", 16),
    ("additionalContext", MAX_ARGUMENT_UNITS),
    ("responsesapiClientMetadata", MAX_ARGUMENT_UNITS),
];

/// The steer read from its fields' JSON text, or the typed refusal.
fn steer_request(fields: Result<String, FieldRefused>, timeout_ms: &JsValue) -> Result<SteerRequest, Failure> {
    let invalid = Failure::invalid_input;
    let text = fields.map_err(|refused| match refused.field.as_str() {
        "input" if refused.too_large => Failure::draft_too_large(MAX_DRAFT_BYTES + 1),
        "input" if refused.reason.starts_with("the draft") => invalid(refused.reason),
        "input" => invalid(format!("the draft cannot be read: {}", refused.reason)),
        field => invalid(format!("steer arguments: {field}: {}", refused.reason)),
    })?;
    // Explained only on failure: well-formed arguments are read once.
    let mut request: SteerRequest = match serde_json::from_str(&text) {
        Ok(request) => request,
        Err(e) => return Err(explain_steer(&text, &e)),
    };
    for (what, id) in [
        ("threadId", Some(&request.thread_id)),
        ("expectedTurnId", request.expected_turn_id.as_ref()),
        ("clientUserMessageId", request.client_user_message_id.as_ref()),
    ] {
        // Bytes first: a string of at most MAX_ID_UNITS bytes has no more units.
        let units = id.filter(|id| id.len() > MAX_ID_UNITS as usize).map(|id| id.encode_utf16().count());
        if let Some(units) = units.filter(|&units| units > MAX_ID_UNITS as usize) {
            let given = Given::Text { shown: None, units: u32::try_from(units).unwrap_or(u32::MAX) };
            return Err(OptionError::refused(what, Accepts::Id, given).into());
        }
    }
    if !timeout_ms.is_undefined() {
        required("requestOptions.timeoutMs", Accepts::Milliseconds, &given(timeout_ms))?;
        let bound = bound_from_ms(timeout_ms.as_f64().unwrap_or_default(), "requestOptions.timeoutMs").map_err(invalid)?;
        // 0 is "no timeout" to many clients (axios, fetch wrappers): steerMs stays in force.
        request.steer_timeout_ms = Some(bound).filter(|&ms| ms > 0);
    }
    Ok(request)
}

/// Why steer arguments the front door read could not be read as a steer
/// (`error`, the parser's), in the package's words: what they must be, and
/// the field and value just before the fault.
fn explain_steer(text: &str, error: &serde_json::Error) -> Failure {
    Failure::invalid_input(format!("{STEER_ARGUMENTS}: {}", ReadError::new(error, text)))
}

fn outcome_to_js(outcome: &CodexhostOutcome) -> JsValue {
    match outcome {
        CodexhostOutcome::Decided(decision) => to_js(decision),
        CodexhostOutcome::Steered(steered) => to_js(steered),
    }
}
