//! `AcpSteering`: the ACP engine driven from JavaScript.

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::boundary::{read_draft, read_id, read_json, MAX_RELAYED_UNITS};
use super::convert::to_js;
use super::driver::Driver;
use super::failure::to_js_error;
use super::hooks::Hooks;
use super::ids::now_ms;
use super::options::{check_options, field, function_field, given, optional_flag, read_timeouts, thrown as refused};
use super::transport::{self, Transport};
use super::types::{AcpOptions, AcpSendHooks, ChangeCallback, ContentBlocks, InitializeAnswer, JsonObject};
use crate::core::acp::{AcpEngine, AcpOutcome};
use crate::core::error::OptionError;
use crate::core::options::{optional, Accepts};
use crate::core::HostAnswer;
use crate::core::{Failure, Json, OpId, SteeringError, Trace};

/// The fields of a `session/update`'s `update` the engine reads.
const UPDATE_FIELDS: [&str; 2] = ["sessionUpdate", "messageId"];
/// The fields of an `initialize` answer the engine reads.
const INITIALIZE_FIELDS: [&str; 3] = ["protocolVersion", "agentCapabilities", "_meta"];
/// The fields of a `session/prompt` answer the engine reads.
const PROMPT_ANSWER_FIELDS: [&str; 3] = ["stopReason", "usage", "_meta"];

/// Steering for one ACP connection.
///
/// ```js
/// const steering = new AcpSteering({ request: (method, params) => conn.request(method, params) });
/// steering.initialized(initializeAnswer); // what the agent advertised
/// const outcome = await steering.send(sessionId, [{ type: "text", text: "use pnpm" }]);
/// ```
#[wasm_bindgen]
pub struct AcpSteering {
    driver: Driver<AcpEngine>,
    /// Counts `connectionClosed()` calls: an `initialize` answer of an
    /// earlier connection that settles late is not applied.
    connection: std::rc::Rc<std::cell::Cell<u32>>,
}

impl std::fmt::Debug for AcpSteering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AcpSteering").finish_non_exhaustive()
    }
}

fn invalid(reason: String) -> SteeringError {
    SteeringError::new(Failure::invalid_input(reason), Json::no_items(), Trace::default())
}

fn blocks(content: &JsValue) -> Result<Json, SteeringError> {
    read_draft(content).map_err(|failure| SteeringError::new(failure, Json::no_items(), Trace::default()))
}

/// A session or message id, or the typed error a promise rejects with.
fn id(value: &JsValue, what: &str) -> Result<String, SteeringError> {
    read_id(value, what).map_err(|e: OptionError| SteeringError::new(e.into(), Json::no_items(), Trace::default()))
}

/// For synchronous methods: the `SteeringError` thrown (by the glue, after
/// wasm returned) for a bad argument.
fn thrown(error: SteeringError) -> JsValue {
    to_js_error(&error, &JsValue::UNDEFINED)
}

/// Host data the app relays (an `initialize` or prompt answer, an update).
fn host_value(value: &JsValue, what: &str, keys: Option<&[&str]>) -> Result<Json, SteeringError> {
    read_json(value, MAX_RELAYED_UNITS, keys).map_err(|e| invalid(format!("{what} cannot be read: {}", e.reason)))
}

#[wasm_bindgen]
impl AcpSteering {
    /// `new AcpSteering({ request, initialize?, allowPromptHandoff?, timeouts? })`.
    ///
    /// ```js
    /// const acp = new AcpSteering({ request, initialize: conn.request("initialize", {}) });
    /// ```
    #[wasm_bindgen(constructor)]
    pub fn new(options: AcpOptions) -> Result<AcpSteering, JsError> {
        let options: JsValue = options.into();
        check_options(&options, "{ request, initialize?, allowPromptHandoff?, timeouts? }", true).map_err(refused)?;
        let transport = Transport::from_options(&options).map_err(refused)?;
        let initialize = field(&options, "initialize");
        optional("options.initialize", Accepts::AnswerOrPromise, &given(&initialize)).map_err(refused)?;
        let allow = optional_flag(&options, "allowPromptHandoff").map_err(refused)?;
        let timeouts = read_timeouts(&options).map_err(refused)?;
        let request_ms = timeouts.request_ms;
        let engine = AcpEngine::new(timeouts, allow);
        let steering = AcpSteering { driver: Driver::new(engine, transport, None), connection: Default::default() };
        if function_field(&initialize, "then").is_none() && initialize.is_object() {
            // The answer itself: applied now, so a send right after the
            // constructor already sees what the agent advertised.
            if let Ok(answer) = host_value(&initialize, "the initialize answer", Some(&INITIALIZE_FIELDS)) {
                let now = now_ms();
                steering.feed(|e| e.initialized(&answer, now));
            }
        } else if !initialize.is_undefined() && !initialize.is_null() {
            // Sends wait for the answer (bounded by requestMs) instead of
            // failing `unavailable` while it is on its way.
            steering.driver.with_engine(|e| e.initializing());
            let driver = steering.driver.clone();
            let (connection, opened) = (steering.connection.clone(), steering.connection.get());
            transport::settle(&initialize, request_ms, move |answer| {
                if connection.get() != opened {
                    return; // that connection closed meanwhile: its answer opens nothing
                }
                let now = now_ms();
                match answer {
                    HostAnswer::Result(answer) => driver.with_engine(|e| e.initialized(&answer, now)),
                    // Refused, unreadable or no answer in time: the waiting
                    // messages are handed back and input is `unavailable`.
                    _ => driver.with_engine(|e| e.initialize_failed()),
                }
                driver.pump();
            });
        }
        Ok(steering)
    }

    /// The `initialize` answer (again, after a reconnect).
    ///
    /// ```js
    /// acp.initialized(await conn.request("initialize", {}));
    /// ```
    pub fn initialized(&self, answer: InitializeAnswer) -> Result<(), JsValue> {
        let answer = host_value(&answer.into(), "the initialize answer", Some(&INITIALIZE_FIELDS)).map_err(thrown)?;
        let now = now_ms();
        self.feed(|e| e.initialized(&answer, now));
        Ok(())
    }

    /// Sends a message: steered into the running turn, queued, or prompted.
    ///
    /// ```js
    /// const outcome = await acp.send("sess-1", [{ type: "text", text: "use pnpm" }], { unconfirmed: markUnconfirmed });
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<AcpOutcome>")]
    pub fn send(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue,
        content: ContentBlocks,
        hooks: Option<AcpSendHooks>,
    ) -> Promise {
        let hooks: JsValue = hooks.map(Into::into).unwrap_or(JsValue::UNDEFINED);
        // Read before the engine takes the message: a getter that calls back
        // (dispose, free, connectionClosed) must run while nothing is
        // submitted, or the message would end before its promise waits.
        let hooks = Hooks::unconfirmed_only(&hooks);
        let original: JsValue = content.into();
        let submitted = id(&session_id, "sessionId").and_then(|session_id| {
            let content = blocks(&original)?;
            let now = now_ms();
            // No JavaScript runs between the engine taking it and `promise`.
            self.driver.with_engine(|e| e.send(&session_id, content, now))
        });
        match submitted {
            Ok(op) => self.driver.promise(op, Some(hooks), |outcome: &AcpOutcome| to_js(outcome), original),
            Err(error) => Promise::reject(&to_js_error(&error, &original)),
        }
    }

    /// Revokes an accepted, undelivered inject; resolves with its content.
    ///
    /// ```js
    /// const { draft } = await acp.revoke("sess-1", outcome.messageId);
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<RevokeOutcome>")]
    pub fn revoke(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] message_id: JsValue,
    ) -> Promise {
        let submitted = id(&session_id, "sessionId").and_then(|session_id| {
            let message_id = id(&message_id, "messageId")?;
            let now = now_ms();
            self.driver.with_engine(|e| e.revoke(&session_id, &message_id, now))
        });
        self.settle(submitted, JsValue::UNDEFINED)
    }

    /// Replaces an accepted, undelivered inject (when the agent allows it).
    ///
    /// ```js
    /// await acp.replace("sess-1", outcome.messageId, [{ type: "text", text: "use yarn" }]);
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<ReplaceOutcome>")]
    pub fn replace(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] message_id: JsValue,
        content: ContentBlocks,
    ) -> Promise {
        let original: JsValue = content.into();
        let submitted = id(&session_id, "sessionId").and_then(|session_id| {
            let message_id = id(&message_id, "messageId")?;
            let content = blocks(&original)?;
            let now = now_ms();
            self.driver.with_engine(|e| e.replace(&session_id, &message_id, content, now))
        });
        self.settle(submitted, original)
    }

    /// The app sent its own `session/prompt`.
    ///
    /// ```js
    /// acp.promptSent("sess-1");
    /// ```
    #[wasm_bindgen(js_name = promptSent)]
    pub fn prompt_sent(&self, #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue) -> Result<(), JsValue> {
        let session_id = id(&session_id, "sessionId").map_err(thrown)?;
        self.feed(|e| e.prompt_sent(&session_id));
        Ok(())
    }

    /// The app sent `session/cancel` (the user pressed Stop): messages
    /// still waiting are handed back now (`handedBack`, `turnCancelled`),
    /// whatever `stopReason` the turn then ends with.
    ///
    /// ```js
    /// conn.notify("session/cancel", { sessionId: "sess-1" });
    /// acp.cancelSent("sess-1");
    /// ```
    #[wasm_bindgen(js_name = cancelSent)]
    pub fn cancel_sent(&self, #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue) -> Result<(), JsValue> {
        let session_id = id(&session_id, "sessionId").map_err(thrown)?;
        self.feed(|e| e.cancel_sent(&session_id));
        Ok(())
    }

    /// The app's `session/prompt` was answered; `superseded` says a folded
    /// handoff made this answer not the turn's answer.
    ///
    /// ```js
    /// const { superseded } = acp.promptAnswered("sess-1", { stopReason: "end_turn" });
    /// ```
    #[wasm_bindgen(js_name = promptAnswered, unchecked_return_type = "PromptVerdict")]
    pub fn prompt_answered(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue,
        answer: JsonObject,
    ) -> Result<JsValue, JsValue> {
        let session_id = id(&session_id, "sessionId").map_err(thrown)?;
        let answer = host_value(&answer.into(), "the prompt answer", Some(&PROMPT_ANSWER_FIELDS)).map_err(thrown)?;
        let now = now_ms();
        let verdict = self.feed(|e| e.prompt_answered(&session_id, &answer, now));
        Ok(to_js(&verdict))
    }

    /// A `session/update` notification's `update` object.
    ///
    /// ```js
    /// acp.update(params.sessionId, params.update);
    /// ```
    pub fn update(&self, #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue, update: JsonObject) -> Result<(), JsValue> {
        let session_id = id(&session_id, "sessionId").map_err(thrown)?;
        // Only the fields the engine reads cross (a tool's output can be megabytes).
        let update = host_value(&update.into(), "the update", Some(&UPDATE_FIELDS)).map_err(thrown)?;
        self.feed(|e| e.update(&session_id, &update));
        Ok(())
    }

    /// The turn the agent started itself has ended.
    ///
    /// ```js
    /// acp.sessionIdle("sess-1");
    /// ```
    #[wasm_bindgen(js_name = sessionIdle)]
    pub fn session_idle(&self, #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue) -> Result<(), JsValue> {
        let session_id = id(&session_id, "sessionId").map_err(thrown)?;
        let now = now_ms();
        self.feed(|e| e.session_idle(&session_id, now));
        Ok(())
    }

    /// `session/new` or `session/load` replaced the session.
    ///
    /// ```js
    /// acp.sessionReplaced("sess-1");
    /// ```
    #[wasm_bindgen(js_name = sessionReplaced)]
    pub fn session_replaced(&self, #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue) -> Result<(), JsValue> {
        let session_id = id(&session_id, "sessionId").map_err(thrown)?;
        self.feed(|e| e.session_replaced(&session_id));
        Ok(())
    }

    /// The session was closed.
    ///
    /// ```js
    /// acp.sessionClosed("sess-1");
    /// ```
    #[wasm_bindgen(js_name = sessionClosed)]
    pub fn session_closed(&self, #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue) -> Result<(), JsValue> {
        let session_id = id(&session_id, "sessionId").map_err(thrown)?;
        self.feed(|e| e.session_closed(&session_id));
        Ok(())
    }

    /// The connection closed: pending messages are handed back.
    ///
    /// ```js
    /// socket.onclose = () => acp.connectionClosed();
    /// ```
    #[wasm_bindgen(js_name = connectionClosed)]
    pub fn connection_closed(&self) {
        self.connection.set(self.connection.get().wrapping_add(1));
        self.feed(|e| e.connection_closed());
    }

    /// The composer state: mode, hint, queued messages, pending injects.
    ///
    /// ```js
    /// const { mode, hint } = acp.inputMode("sess-1");
    /// ```
    #[wasm_bindgen(js_name = inputMode, unchecked_return_type = "ComposerState")]
    pub fn input_mode(&self, #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue) -> Result<JsValue, JsValue> {
        let session_id = id(&session_id, "sessionId").map_err(thrown)?;
        Ok(to_js(&self.driver.with_engine(|e| e.composer(&session_id))))
    }

    /// Queued messages of a session, oldest first (for chips).
    ///
    /// ```js
    /// const chips = acp.queued("sess-1").map((content) => content[0].text);
    /// ```
    #[wasm_bindgen(unchecked_return_type = "ContentBlock[][]")]
    pub fn queued(&self, #[wasm_bindgen(unchecked_param_type = "string")] session_id: JsValue) -> Result<JsValue, JsValue> {
        let session_id = id(&session_id, "sessionId").map_err(thrown)?;
        Ok(to_js(&self.driver.with_engine(|e| e.composer(&session_id).queued)))
    }

    /// Calls `callback(sessionId, state)` whenever a session's composer state changes.
    ///
    /// ```js
    /// acp.onChange((sessionId, state) => composer.render(state));
    /// ```
    #[wasm_bindgen(js_name = onChange)]
    pub fn on_change(&self, callback: Option<ChangeCallback>) {
        let callback = callback.map(JsValue::from).filter(JsValue::is_function).map(JsCast::unchecked_into::<Function>);
        self.driver.set_on_changed(callback);
    }

    /// Rejects everything pending with `disposed`; sends nothing more.
    ///
    /// ```js
    /// acp.dispose();
    /// ```
    pub fn dispose(&self) {
        self.feed(|e| e.dispose());
    }

    /// Ops, sessions and requests still held (0 once all settle).
    ///
    /// ```js
    /// console.assert(acp.liveState() === 0);
    /// ```
    #[wasm_bindgen(js_name = liveState)]
    pub fn live_state(&self) -> usize {
        self.driver.with_engine(|e| e.live_state())
    }

    fn feed<R>(&self, f: impl FnOnce(&mut AcpEngine) -> R) -> R {
        let result = self.driver.with_engine(f);
        self.driver.pump();
        result
    }

    /// A promise for the op; failures hand back `original` (the caller's content) itself.
    fn settle(&self, submitted: Result<OpId, SteeringError>, original: JsValue) -> Promise {
        match submitted {
            Ok(op) => self.driver.promise(op, None, |outcome: &AcpOutcome| to_js(outcome), original),
            Err(error) => Promise::reject(&to_js_error(&error, &original)),
        }
    }
}
