//! The front door: every page or host value the engine reads goes through
//! `js/boundary.js`, which reads it in JavaScript under try/catch and hands
//! over JSON text within a size and depth limit, or a refusal. Every import
//! is also declared `catch`, so even a broken page cannot unwind through
//! wasm. Ids are checked to be strings of bounded length before a byte is
//! copied.

use js_sys::{JsString, Reflect};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::options::given;
use crate::core::content::{check_array, MAX_DRAFT_BYTES};
use crate::core::error::OptionError;
use crate::core::options::{required, Accepts};
use crate::core::{Failure, Json, ReadError};

/// Deepest nesting read from any value (serde_json's own limit is 128).
pub(super) const MAX_DEPTH: u32 = 64;
/// Largest host answer read (UTF-16 units of JSON text).
pub(super) const MAX_ANSWER_UNITS: u32 = 16 * 1024 * 1024;
/// Largest answer the app relays synchronously (`initialize`, a prompt's
/// answer, an update's read fields): small objects, refused fast when not.
pub(super) const MAX_RELAYED_UNITS: u32 = 1024 * 1024;
/// Largest caller value other than the draft (context, metadata, options).
pub(super) const MAX_ARGUMENT_UNITS: u32 = 1024 * 1024;
/// Longest id (thread, session, message, turn) accepted.
pub(super) const MAX_ID_UNITS: u32 = crate::core::options::MAX_ID_UNITS;

#[wasm_bindgen(module = "/js/json-text.js")]
extern "C" {
    #[wasm_bindgen(js_name = jsonText, catch)]
    fn json_text(value: &JsValue, max_units: u32, max_depth: u32, keys: &JsValue) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/js/boundary.js")]
extern "C" {
    #[wasm_bindgen(js_name = callHost, catch)]
    pub(crate) fn call_host(
        request: &js_sys::Function,
        method: &str,
        params_text: &str,
        record: &JsValue,
        max_units: u32,
        max_depth: u32,
        deliver: &JsValue,
        id: f64,
    ) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = settleAnswer, catch)]
    pub(crate) fn settle_answer(value: &JsValue, max_units: u32, max_depth: u32, give_up_ms: f64, done: &JsValue) -> Result<(), JsValue>;
    #[wasm_bindgen(js_name = deferred)]
    pub(crate) fn deferred() -> js_sys::Array;
    #[wasm_bindgen(js_name = parseJson, catch)]
    pub(crate) fn parse_json(text: &str) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = report, catch)]
    fn report_js(what: &str, error: &JsValue) -> Result<(), JsValue>;
}

/// Why a value could not be read.
///
/// ```ignore
/// let refused = read_json(&cyclic, 1024, None).unwrap_err();
/// assert!(refused.reason.contains("cycle"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Refused {
    /// What is wrong, for a person.
    pub reason: String,
    /// Only the size is at fault (more than the limit).
    pub too_large: bool,
}

impl Refused {
    fn new(reason: impl Into<String>) -> Self {
        Refused { reason: reason.into(), too_large: false }
    }
}

/// Reads a field of an object this module built itself (never a foreign one).
pub(crate) fn own_field(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// `value` as JSON text within `max_units`; `keys` limits the top-level keys read.
pub(super) fn read_text(value: &JsValue, max_units: u32, keys: Option<&[&str]>) -> Result<String, Refused> {
    let keys = keys.map(|keys| keys.iter().map(|k| JsValue::from_str(k)).collect::<js_sys::Array>());
    let keys = keys.map(JsValue::from).unwrap_or(JsValue::UNDEFINED);
    let read = json_text(value, max_units, MAX_DEPTH, &keys).map_err(|_| Refused::new("the value could not be read"))?;
    if let Some(text) = read.as_string() {
        return Ok(text);
    }
    let reason = own_field(&read, "reason").as_string().unwrap_or_else(|| "the value could not be read".into());
    Err(Refused { reason, too_large: own_field(&read, "tooLarge").as_bool() == Some(true) })
}

/// `value` as a JSON value (see [`read_text`]).
pub(super) fn read_json(value: &JsValue, max_units: u32, keys: Option<&[&str]>) -> Result<Json, Refused> {
    let text = read_text(value, max_units, keys)?;
    Json::parse(text).map_err(|e| Refused::new(e.to_string()))
}

/// `value` read into a typed Rust value (see [`read_text`]).
pub(super) fn read_typed<T: DeserializeOwned>(value: &JsValue, max_units: u32, keys: Option<&[&str]>) -> Result<T, Refused> {
    let text = read_text(value, max_units, keys)?;
    serde_json::from_str(&text).map_err(|e| Refused::new(ReadError::new(&e, &text).to_string()))
}

/// A string id of at most [`MAX_ID_UNITS`] units; `what` names it in the error.
pub(super) fn read_id(value: &JsValue, what: &str) -> Result<String, OptionError> {
    // Described before a byte is copied: a long string only by its length.
    required(what, Accepts::Id, &given(value))?;
    Ok(value.as_string().unwrap_or_default())
}

/// Logs a failure of app code (a hook, the desktop); never throws.
pub(super) fn report(what: &str, error: &JsValue) {
    let _ = report_js(what, error);
}

/// The caller's draft (an array of content items) within
/// [`MAX_DRAFT_BYTES`]; a refusal is already the typed failure.
///
/// ```ignore
/// let draft = read_draft(&input)?; // Err(Failure::draft_too_large(..)) for 300 KiB
/// ```
pub(super) fn read_draft(value: &JsValue) -> Result<Json, Failure> {
    match read_json(value, MAX_DRAFT_BYTES as u32, None) {
        Ok(draft) => check_array(&draft).map(|()| draft),
        Err(refused) if refused.too_large => Err(Failure::draft_too_large(MAX_DRAFT_BYTES + 1)),
        Err(refused) => Err(Failure::invalid_input(format!("the draft cannot be read: {}", refused.reason))),
    }
}

/// A draft given as one string (`decide`'s `text`), bounded like a draft.
pub(super) fn read_draft_text(value: &JsValue) -> Result<String, Failure> {
    let Some(text) = value.dyn_ref::<JsString>() else {
        return Err(OptionError::refused("text", Accepts::Text, given(value)).into());
    };
    if text.length() as usize > MAX_DRAFT_BYTES {
        return Err(Failure::draft_too_large(MAX_DRAFT_BYTES + 1));
    }
    Ok(String::from(text))
}
