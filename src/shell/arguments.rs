//! One call's arguments, read by the front door (`js/boundary.js`
//! `readCall`) in a single crossing into a call record: the named fields as
//! one JSON object text (each within its own budget), the caller's own
//! `input` and `requestOptions` objects, and the hook functions. The engine
//! reads the text and the timeout; the rest stays in the record ([`Hooks`]).

use std::cell::RefCell;

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::boundary::{own_field, MAX_DEPTH};
use super::hooks::Hooks;

#[wasm_bindgen(module = "/js/boundary.js")]
extern "C" {
    #[wasm_bindgen(js_name = readCall, catch)]
    fn read_call_js(args: &JsValue, fields: &JsValue, max_depth: u32, hooks: &JsValue) -> Result<Array, JsValue>;
}

/// The fields of one kind of call: `(key, most UTF-16 units of its JSON)`.
pub(super) type FieldSpec = [(&'static str, u32)];

/// Why a field could not be read.
///
/// ```ignore
/// let refused = read_call(&args, &STEER_FIELDS, &hooks).fields.unwrap_err();
/// assert_eq!(refused.field, "input");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub(super) struct FieldRefused {
    /// The field being read.
    pub field: String,
    /// What is wrong, for a person.
    pub reason: String,
    /// Only the size is at fault.
    pub too_large: bool,
}

/// What [`read_call`] read.
#[derive(Debug)]
pub(super) struct CallArguments {
    /// The named fields as one JSON object text.
    pub fields: Result<String, FieldRefused>,
    /// `args.input`, the caller's own object (handed back on failure).
    pub input: JsValue,
    /// The call record: the hooks, with `args.requestOptions` for the
    /// request carrying the message.
    pub hooks: Hooks,
    /// `args.requestOptions.timeoutMs` as given (checked by the caller).
    pub timeout_ms: JsValue,
}

thread_local! {
    /// Each spec's JS array, built once (keys cross as strings only then).
    static SPECS: RefCell<Vec<(usize, JsValue)>> = const { RefCell::new(Vec::new()) };
}

fn spec_array(spec: &'static FieldSpec) -> JsValue {
    let address = spec.as_ptr() as usize;
    SPECS.with(|specs| {
        let mut specs = specs.borrow_mut();
        if let Some((_, array)) = specs.iter().find(|(a, _)| *a == address) {
            return array.clone();
        }
        let array: Array = spec.iter().map(|(key, units)| Array::of2(&JsValue::from_str(key), &JsValue::from(*units))).collect();
        specs.push((address, array.clone().into()));
        array.into()
    })
}

/// Reads `args` (fields per `spec`) and `hooks` in one crossing. Never throws.
pub(super) fn read_call(args: &JsValue, spec: &'static FieldSpec, hooks: &JsValue) -> CallArguments {
    let Ok(read) = read_call_js(args, &spec_array(spec), MAX_DEPTH, hooks) else {
        let refused = FieldRefused { field: String::new(), reason: "the arguments could not be read".into(), too_large: false };
        return CallArguments {
            fields: Err(refused),
            input: JsValue::UNDEFINED,
            hooks: Hooks::from_record(JsValue::UNDEFINED),
            timeout_ms: JsValue::UNDEFINED,
        };
    };
    let first = read.get(0);
    let fields = first.as_string().ok_or_else(|| FieldRefused {
        field: own_field(&first, "field").as_string().unwrap_or_default(),
        reason: own_field(&first, "reason").as_string().unwrap_or_else(|| "the value could not be read".into()),
        too_large: own_field(&first, "tooLarge").as_bool() == Some(true),
    });
    let timeout_ms = read.get(1);
    let hooks = Hooks::from_record(read.into());
    CallArguments { fields, input: hooks.input(), hooks, timeout_ms }
}
