//! `CodexhostSteering`: the codexhost engine driven from JavaScript.

use js_sys::{Function, Promise};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, to_js, typed_from_js};
use super::options::{field, function_field, is_follower, read_timeouts};
use super::driver::{Driver, Hooks};
use super::failure::to_js_error;
use super::ids::{now_ms, random_id};
use super::transport::Transport;
use super::types::{CodexhostOptions, DecideArgs, PresentationHooks, SteerArgs};
use crate::core::codexhost::{CodexhostEngine, CodexhostOutcome, SteerRequest};
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
        let before_answer = stream_role.clone().map(|role| {
            Box::new(move |engine: &mut CodexhostEngine, id| {
                if let Some(thread) = engine.thread_of(id).map(String::from) {
                    engine.set_follower(&thread, is_follower(&role, &JsValue::NULL, &thread));
                }
            }) as Box<dyn Fn(&mut CodexhostEngine, _)>
        });
        let engine = CodexhostEngine::new(timeouts);
        Ok(CodexhostSteering { driver: Driver::new(engine, transport, before_answer), stream_role })
    }

    /// Asks the host how `text` would be delivered on `threadId`; sends no steer.
    ///
    /// ```js
    /// const { delivery } = await steering.decide({ threadId, text: "use pnpm" });
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Promise<Decision>")]
    pub fn decide(&self, args: DecideArgs) -> Promise {
        let args: JsValue = args.into();
        let (Some(thread_id), Some(text)) = (field(&args, "threadId").as_string(), field(&args, "text").as_string()) else {
            let reason = "decide needs { threadId: string, text: string }".to_string();
            return rejected(Failure::InvalidInput { reason }, vec![], &JsValue::UNDEFINED);
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
        let mut request: SteerRequest = match typed_from_js(args.clone()) {
            Ok(request) => request,
            Err(e) => {
                let draft = from_js(original.clone()).ok().and_then(|v| v.as_array().cloned()).unwrap_or_default();
                return rejected(Failure::InvalidInput { reason: format!("steer arguments: {e}") }, draft, &original);
            }
        };
        let request_options = field(&args, "requestOptions");
        request.steer_timeout_ms = field(&request_options, "timeoutMs").as_f64().filter(|t| *t >= 0.0).map(|t| t as u64);
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

fn outcome_to_js(outcome: &CodexhostOutcome) -> JsValue {
    match outcome {
        CodexhostOutcome::Decided(decision) => to_js(decision),
        CodexhostOutcome::Steered(steered) => to_js(steered),
    }
}
