//! What each caller-given value accepts, and the checks that refuse the
//! rest in the package's own words ([`OptionError`]): the constructors'
//! options, a steer's argument fields, a draft's items. A value is checked
//! by its type and range here; the shell only says what it is ([`Given`]).

use std::fmt;

use serde_json::value::RawValue;

use super::error::OptionError;
use super::given::Given;
use super::json::Json;
use super::timeouts::MAX_TIMEOUT_MS;

/// Longest id (thread, session, message, turn) accepted, in UTF-16 units.
///
/// ```
/// assert_eq!(renderer_steering::core::options::MAX_ID_UNITS, 4096);
/// ```
pub const MAX_ID_UNITS: u32 = 4096;

/// What an option or field takes.
///
/// ```
/// use renderer_steering::core::{given::Given, options::Accepts};
/// assert!(Accepts::WholeMilliseconds.admits(&Given::Number(5000.0)));
/// assert!(!Accepts::WholeMilliseconds.admits(&Given::Number(0.5)));
/// assert_eq!(Accepts::Boolean.to_string(), "true or false");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Accepts {
    /// A whole number of milliseconds a timer can hold (0 to [`MAX_TIMEOUT_MS`]).
    WholeMilliseconds,
    /// A number of milliseconds a timer can hold (fractions are cut off).
    Milliseconds,
    /// A function; its shape, for the reader.
    Function(&'static str),
    /// `true` or `false`.
    Boolean,
    /// An object; its keys, for the reader.
    Object(&'static str),
    /// An ACP agent's `initialize` answer (an object) or a promise of it.
    AnswerOrPromise,
    /// A string of at most [`MAX_ID_UNITS`] characters.
    Id,
    /// An id or `null`.
    IdOrNull,
    /// A string.
    Text,
    /// A string or `null`.
    TextOrNull,
    /// A content item: an object with a string `type`.
    ContentItem,
    /// A draft: an array of content items.
    ContentItems,
    /// Any JSON value.
    Anything,
}

impl Accepts {
    /// Whether `given` is a value this takes.
    ///
    /// ```
    /// # use renderer_steering::core::{given::Given, options::Accepts};
    /// assert!(Accepts::Id.admits(&Given::text("t", 1)));
    /// assert!(!Accepts::Id.admits(&Given::Null));
    /// assert!(Accepts::IdOrNull.admits(&Given::Null));
    /// ```
    pub fn admits(self, given: &Given) -> bool {
        let short = |units: u32| units <= MAX_ID_UNITS;
        match (self, given) {
            (Accepts::WholeMilliseconds, Given::Number(n)) => in_timer_range(*n) && n.fract() == 0.0,
            (Accepts::Milliseconds, Given::Number(n)) => in_timer_range(*n),
            (Accepts::Function(_), Given::Function) => true,
            (Accepts::Boolean, Given::Bool(_)) => true,
            (Accepts::Object(_) | Accepts::AnswerOrPromise | Accepts::ContentItem, Given::Object) => true,
            (Accepts::Id | Accepts::IdOrNull, Given::Text { units, .. }) => short(*units),
            (Accepts::IdOrNull | Accepts::TextOrNull, Given::Null) => true,
            (Accepts::Text | Accepts::TextOrNull, Given::Text { .. }) => true,
            (Accepts::ContentItems, Given::Array) | (Accepts::Anything, _) => true,
            _ => false,
        }
    }
}

fn in_timer_range(ms: f64) -> bool {
    (0.0..=MAX_TIMEOUT_MS as f64).contains(&ms)
}

impl fmt::Display for Accepts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Accepts::WholeMilliseconds => write!(f, "a whole number of milliseconds from 0 to {MAX_TIMEOUT_MS}"),
            Accepts::Milliseconds => write!(f, "a number of milliseconds from 0 to {MAX_TIMEOUT_MS}"),
            Accepts::Function(shape) => write!(f, "a function {shape}"),
            Accepts::Boolean => f.write_str("true or false"),
            Accepts::Object(keys) => write!(f, "an object {keys}"),
            Accepts::AnswerOrPromise => f.write_str("the agent's initialize answer (an object) or a promise of it"),
            Accepts::Id => write!(f, "a string of at most {MAX_ID_UNITS} characters"),
            Accepts::IdOrNull => write!(f, "a string of at most {MAX_ID_UNITS} characters, or null"),
            Accepts::Text => f.write_str("a string"),
            Accepts::TextOrNull => f.write_str("a string or null"),
            Accepts::ContentItem => f.write_str("an object with a string type, such as { type: \"text\", text }"),
            Accepts::ContentItems => f.write_str("an array of content items"),
            Accepts::Anything => f.write_str("any JSON value"),
        }
    }
}

/// Checks an optional value: `Ok(false)` when absent (`undefined` or
/// `null`), `Ok(true)` when given and taken.
///
/// ```
/// use renderer_steering::core::{given::Given, options::{optional, Accepts}};
/// assert_eq!(optional("options.streamRole", Accepts::Function("(threadId) => role"), &Given::Undefined), Ok(false));
/// assert!(optional("options.streamRole", Accepts::Function("(threadId) => role"), &Given::Number(1.0)).is_err());
/// ```
pub fn optional(option: &str, accepts: Accepts, given: &Given) -> Result<bool, OptionError> {
    if given.is_absent() {
        return Ok(false);
    }
    required(option, accepts, given).map(|()| true)
}

/// Checks a value that must be given.
///
/// ```
/// use renderer_steering::core::{given::Given, options::{required, Accepts}};
/// let refused = required("options.request", Accepts::Function("(method, params) => Promise"), &Given::Undefined).unwrap_err();
/// assert_eq!(refused.to_string(), "options.request must be a function (method, params) => Promise (got undefined)");
/// ```
pub fn required(option: &str, accepts: Accepts, given: &Given) -> Result<(), OptionError> {
    if accepts.admits(given) {
        return Ok(());
    }
    Err(OptionError::refused(option, accepts, given.clone()))
}

/// One field of an object read as JSON text, and what it takes.
#[derive(Debug, Clone, Copy)]
pub struct FieldRule {
    /// The key.
    pub key: &'static str,
    /// What its value may be.
    pub accepts: Accepts,
    /// Whether it must be there.
    pub required: bool,
}

/// The fields of a steer's arguments the engine reads (`input`, the
/// draft, is checked as a draft).
pub const STEER_ARGUMENTS: &[FieldRule] = &[
    FieldRule { key: "threadId", accepts: Accepts::Id, required: true },
    FieldRule { key: "expectedTurnId", accepts: Accepts::IdOrNull, required: false },
    FieldRule { key: "clientUserMessageId", accepts: Accepts::IdOrNull, required: false },
    FieldRule { key: "pendingTurnStart", accepts: Accepts::Boolean, required: false },
];

/// The fields of a draft's item that validation reads.
const CONTENT_ITEM: &[FieldRule] = &[
    FieldRule { key: "type", accepts: Accepts::Text, required: true },
    FieldRule { key: "text", accepts: Accepts::TextOrNull, required: false },
    FieldRule { key: "mimeType", accepts: Accepts::TextOrNull, required: false },
    FieldRule { key: "data", accepts: Accepts::TextOrNull, required: false },
];

/// The first field of the JSON object `fields` that breaks a rule, named
/// by `name(key)`; `None` when every rule holds (or `fields` is no object).
///
/// ```
/// use renderer_steering::core::{options::{explain_fields, STEER_ARGUMENTS}, Json};
/// let args = Json::of(&serde_json::json!({ "threadId": 5 }));
/// let refused = explain_fields(&args, STEER_ARGUMENTS, &|key| key.to_string()).unwrap();
/// assert_eq!(refused.to_string(), "threadId must be a string of at most 4096 characters (got 5)");
/// ```
// One copy for every caller: it only runs when a read already failed.
#[inline(never)]
pub fn explain_fields(fields: &Json, rules: &[FieldRule], name: &dyn Fn(&str) -> String) -> Option<OptionError> {
    let entries = fields.entries()?;
    rules.iter().find_map(|rule| {
        // The last of a repeated key counts, as in `JSON.parse`.
        let given = entries.iter().rev().find(|(key, _)| key == rule.key).map(|(_, value)| Given::of_json(value));
        let given = given.unwrap_or(Given::Undefined);
        if given == Given::Undefined && !rule.required {
            return None;
        }
        required(&name(rule.key), rule.accepts, &given).err()
    })
}

/// Why a draft (a JSON array) cannot be read as content items: the first
/// item that is not an object with a string `type`, or whose `text`,
/// `mimeType` or `data` is not a string.
///
/// ```
/// use renderer_steering::core::{options::explain_items, Json};
/// let draft = Json::of(&serde_json::json!([{ "type": "text", "text": 5 }]));
/// assert_eq!(explain_items(&draft).to_string(), "the text of content item 0 must be a string or null (got 5)");
/// ```
pub fn explain_items(draft: &Json) -> OptionError {
    let unreadable = || OptionError::Unreadable { option: "the draft".into(), reason: "an item repeats a key".into() };
    let Ok(items) = draft.read::<Vec<&RawValue>>() else {
        return OptionError::refused("the draft", Accepts::ContentItems, Given::of_json(draft));
    };
    for (i, item) in items.iter().enumerate() {
        let given = Given::of_json_text(item.get());
        if given != Given::Object {
            return OptionError::refused(format!("content item {i}"), Accepts::ContentItem, given);
        }
        let item = Json::parse(item.get().to_string()).unwrap_or_else(|_| Json::null());
        if let Some(refused) = explain_fields(&item, CONTENT_ITEM, &|key| format!("the {key} of content item {i}")) {
            return refused;
        }
    }
    unreadable()
}
