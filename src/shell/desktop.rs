//! What the desktop hook (`js/desktop*.js`, plain JavaScript over the public
//! `CodexhostSteering.decide`) asks of the engine: the text a desktop steer
//! carries, read by the core's own rule, and its typed failures, built by
//! the core's own `Failure` (one place for every error's kind, code and
//! words). The hook's prototype layer, waits and request rewriting live in
//! JavaScript, where the app's objects are.

use wasm_bindgen::prelude::*;

use super::boundary::{own_field, read_draft, read_typed, MAX_ARGUMENT_UNITS, MAX_ID_UNITS};
use super::failure::to_js_error;
use super::options::{check_options, field, optional_function, thrown};
use crate::core::content::steer_text;
use crate::core::{Failure, Json, RpcError, SteeringError, Trace};

/// The text a desktop `steerTurn` input steers with (its text items
/// joined), or `undefined` when the hook does not handle it (unreadable,
/// too large, not text, blank): then the desktop's own path takes it.
///
/// ```js
/// __steerText([{ type: "text", text: "use pnpm" }]); // "use pnpm"
/// __steerText([{ type: "image", url }]);              // undefined
/// ```
#[wasm_bindgen(js_name = __steerText, skip_typescript)]
pub fn desktop_steer_text(input: JsValue) -> Option<String> {
    read_draft(&input).ok().and_then(|draft| steer_text(&draft).ok())
}

/// `installDesktopSteering`'s `options` checked (absent, or an object
/// whose `onReconcile` is absent or a function; refused in the package's
/// words otherwise), read once: `[timeouts, onReconcile]`. The hook's
/// decider reads and checks `timeouts` as `options.timeouts`.
///
/// ```js
/// const read = __desktopOptions(options);
/// const decider = new CodexhostSteering({ request, timeouts: read[0] });
/// ```
#[wasm_bindgen(js_name = __desktopOptions, skip_typescript)]
pub fn desktop_options(options: JsValue) -> Result<js_sys::Array, JsError> {
    check_options(&options, "{ timeouts?, onReconcile? }", false).map_err(thrown)?;
    let on_reconcile = optional_function(&options, "onReconcile", RECONCILE_SHAPE).map_err(thrown)?;
    let on_reconcile = on_reconcile.map_or(JsValue::UNDEFINED, JsValue::from);
    Ok(js_sys::Array::of2(&field(&options, "timeouts"), &on_reconcile))
}

/// The shape `options.onReconcile` takes, for its error.
const RECONCILE_SHAPE: &str = "({ threadId, clientUserMessageId, presented, delivery, turnId }) => void";

/// The `SteeringError` one of the hook's own failures rejects with; its
/// `draft` is `input`, the desktop's own array, by identity. `kind` names
/// the failure; `detail` is its words, the bound in ms (`timeout`) or the
/// value the app or host threw (`transport`, `answered`):
/// - `outcomeUnknown`, `missingBinding`, `invalidInput`: `detail` is the words;
/// - `pendingTurnStart`, `disposed`: no detail;
/// - `timeout`: `detail` is the bound in ms;
/// - `transport`: the call threw before anything was written;
/// - `lost`: the call failed after the message may have left (`outcomeUnknown`);
/// - `answered`: the call rejected: a JSON-RPC error answer (`{ code,
///   message, data? }`) is the host's refusal, anything else may have been
///   delivered and is `outcomeUnknown`.
///
/// ```js
/// throw __hookFailure("outcomeUnknown", "steerTurn", "no answer within the steer bound", input);
/// ```
#[wasm_bindgen(js_name = __hookFailure, skip_typescript)]
pub fn hook_failure(kind: &str, method: &str, detail: JsValue, input: JsValue) -> JsValue {
    let words = || detail.as_string().unwrap_or_default();
    let failure = match kind {
        "outcomeUnknown" => Failure::outcome_unknown(method, &words()),
        "missingBinding" => Failure::missing_binding(words()),
        "invalidInput" => Failure::invalid_input(words()),
        "pendingTurnStart" => Failure::pending_turn_start(),
        "busy" => Failure::busy(),
        "timeout" => Failure::timeout(method, detail.as_f64().unwrap_or(0.0) as u64),
        "transport" => Failure::transport(method, describe(&detail)),
        "lost" => Failure::outcome_unknown(method, &describe(&detail)),
        "answered" => match rpc_error(&detail) {
            Some(error) => Failure::rpc(method, error),
            None => Failure::outcome_unknown(method, &describe(&detail)),
        },
        _ => Failure::disposed(),
    };
    // `draft` is `input` itself (by identity, `to_js_error`), so it is not read here.
    to_js_error(&SteeringError::new(failure, Json::no_items(), Trace::default()), &input)
}

#[wasm_bindgen(module = "/js/boundary.js")]
extern "C" {
    #[wasm_bindgen(js_name = isErrorAnswer, catch)]
    fn is_error_answer(error: &JsValue) -> Result<bool, JsValue>;
}

/// Reads `{ code, message, data? }` from a rejection through the front door
/// (`None` unless it is the host's error answer: a `DOMException` with its
/// number `code` means no answer came).
pub(super) fn rpc_error(error: &JsValue) -> Option<RpcError> {
    if is_error_answer(error) != Ok(true) {
        return None;
    }
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
pub(super) fn describe(error: &JsValue) -> String {
    read_typed::<String>(error, MAX_ID_UNITS, None).unwrap_or_else(|_| {
        own_field(error, "message").as_string().map(|m| m.chars().take(1000).collect()).unwrap_or_else(|| "the call failed".into())
    })
}
