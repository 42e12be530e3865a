//! Reading the plain option objects JavaScript passes in: fields, callbacks,
//! timeouts and the stream role. One place for all three entry points.
//! Fields are read by `fieldOf` (`js/fields.js`, never throws): a throwing
//! getter or Proxy trap reads as absent, and so does a field only a shared
//! built-in prototype has (`Object.prototype.allowPromptHandoff = true`
//! turns nothing on); values are read through the front door. What a value
//! must be is the core's rule (`core::options`); here a value is only
//! described ([`given`]).

use js_sys::{Function, JsString};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(module = "/js/fields.js")]
extern "C" {
    #[wasm_bindgen(js_name = fieldOf)]
    fn field_of(object: &JsValue, key: &str) -> JsValue;
    #[wasm_bindgen(js_name = ownKeysOf)]
    fn own_keys_of(object: &JsValue, max_keys: u32, max_units: u32) -> JsValue;
}

use crate::core::error::OptionError;
use crate::core::given::{Given, SHOWN_TEXT_UNITS};
use crate::core::options::{optional, required, Accepts};
use crate::core::timeouts::TIMEOUT_KEYS;
use crate::core::Timeouts;

/// The shape `options.timeouts` takes, for its error.
const TIMEOUTS_SHAPE: &str = "{ decideMs?, steerMs?, requestMs? }";

/// Reads `key` of a JS object (undefined when absent, not an object, or unreadable).
pub(crate) fn field(object: &JsValue, key: &str) -> JsValue {
    if !object.is_object() && !object.is_function() {
        return JsValue::UNDEFINED;
    }
    field_of(object, key)
}

/// Reads an optional function field (`typeof` check: no `instanceof`, no trap).
pub(crate) fn function_field(object: &JsValue, key: &str) -> Option<Function> {
    let value = field(object, key);
    value.is_function().then(|| value.unchecked_into())
}

/// What a JS value is, for the core's checks and words: by `typeof` only,
/// so no page code (a getter, a Proxy trap, a `toString`) runs, and a long
/// string is never copied.
pub(crate) fn given(value: &JsValue) -> Given {
    if value.is_undefined() {
        Given::Undefined
    } else if value.is_null() {
        Given::Null
    } else if let Some(b) = value.as_bool() {
        Given::Bool(b)
    } else if let Some(n) = value.as_f64() {
        Given::Number(n)
    } else if let Some(text) = value.dyn_ref::<JsString>() {
        let units = text.length();
        if units > SHOWN_TEXT_UNITS {
            return Given::Text { shown: None, units };
        }
        Given::text(&String::from(text), units)
    } else if value.is_bigint() {
        Given::BigInt
    } else if value.is_symbol() {
        Given::Symbol
    } else if value.is_function() {
        Given::Function
    } else {
        Given::Object
    }
}

/// Refuses an `options` argument that is not an object (`shape` lists its
/// keys); `required` when the entry point cannot do without one.
pub(crate) fn check_options(options: &JsValue, shape: &'static str, needed: bool) -> Result<(), OptionError> {
    let given = given(options);
    if needed {
        return required("options", Accepts::Object(shape), &given);
    }
    optional("options", Accepts::Object(shape), &given).map(|_| ())
}

/// Reads an optional function option `options.<key>` (`shape` describes
/// its signature): `None` when absent, refused when not a function.
pub(crate) fn optional_function(options: &JsValue, key: &str, shape: &'static str) -> Result<Option<Function>, OptionError> {
    let value = field(options, key);
    let given = optional(&format!("options.{key}"), Accepts::Function(shape), &given(&value))?;
    Ok(given.then(|| value.unchecked_into()))
}

/// Reads an optional boolean option `options.<key>` (absent: false).
pub(crate) fn optional_flag(options: &JsValue, key: &str) -> Result<bool, OptionError> {
    let value = given(&field(options, key));
    optional(&format!("options.{key}"), Accepts::Boolean, &value)?;
    Ok(value == Given::Bool(true))
}

/// Reads `options.timeouts` (defaults when absent): an object whose keys
/// are bounds a timer can hold; an unknown key (a misspelling) is refused.
pub(crate) fn read_timeouts(options: &JsValue) -> Result<Timeouts, OptionError> {
    let raw = field(options, "timeouts");
    if !optional("options.timeouts", Accepts::Object(TIMEOUTS_SHAPE), &given(&raw))? {
        return Ok(Timeouts::default());
    }
    // One key past those it takes is enough to find an unknown one.
    let listed = own_keys_of(&raw, TIMEOUT_KEYS.len() as u32 + 1, SHOWN_TEXT_UNITS);
    if listed.is_undefined() {
        return Err(OptionError::Unreadable { option: "options.timeouts".into(), reason: "its keys cannot be listed".into() });
    }
    // `ownKeysOf` built this array of strings itself.
    let keys: Vec<String> = listed.unchecked_into::<js_sys::Array>().iter().filter_map(|key| key.as_string()).collect();
    Timeouts::from_given("options.timeouts", &keys, |key| given(&field(&raw, key)))
}

/// A refused option as the `Error` a constructor throws.
pub(crate) fn thrown(error: OptionError) -> JsError {
    JsError::new(&error.to_string())
}

/// True when `stream_role(threadId)` (called with `this`) says `follower`;
/// it may answer `"follower"` or `{ role: "follower" }`. A throwing callback
/// reads as "not a follower".
pub(crate) fn is_follower(stream_role: &Function, this: &JsValue, thread_id: &str) -> bool {
    let role = stream_role.call1(this, &JsValue::from_str(thread_id)).unwrap_or(JsValue::UNDEFINED);
    let role = if role.is_object() { field(&role, "role") } else { role };
    role == JsValue::from_str("follower") // compared in JS: a huge string is never copied
}
