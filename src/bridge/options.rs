//! The constructors' options as the front door read them: each field
//! described once ([`Described`]), `timeouts` with its keys, the journal's
//! and the desktop hook's options. What each must be is the core's rule
//! (`core::options`); this only applies it, for every entry in one place.

use serde::Deserialize;

use super::Described;
use crate::core::error::OptionError;
use crate::core::options::{optional, required, Accepts};
use crate::core::timeouts::TIMEOUT_KEYS;
use crate::core::Timeouts;

/// The prefix of the records' keys when the app names none.
///
/// ```
/// assert_eq!(renderer_steering::bridge::DEFAULT_JOURNAL_KEY, "renderer-steering:");
/// ```
pub const DEFAULT_JOURNAL_KEY: &str = "renderer-steering:";

/// The methods of Web Storage the journal calls.
pub(super) const JOURNAL_METHODS: [&str; 4] = ["getItem", "setItem", "removeItem", "key"];

const STORAGE: &str = "{ getItem, setItem, removeItem, key, length } (Web Storage, such as localStorage)";

/// The journal's prefix when the options ask for one: `journal` an object
/// with the Web Storage methods, `journalKey` a string, `onJournalError` a
/// function; each optional.
///
/// ```
/// use renderer_steering::bridge::{journal_prefix, OptionsRead};
/// let read: OptionsRead = serde_json::from_str(r#"{"options":{"t":"object"}}"#).unwrap();
/// assert_eq!(journal_prefix(&read).unwrap(), None);
/// ```
#[cfg_attr(feature = "size-first", optimize(size))]
pub fn journal_prefix(read: &OptionsRead) -> Result<Option<String>, OptionError> {
    let given = optional("options.journal", Accepts::Object(STORAGE), &read.field("journal").given())?;
    optional("options.journalKey", Accepts::Text, &read.field("journalKey").given())?;
    read.optional_function("onJournalError", "(error) => void")?;
    if !given {
        return Ok(None);
    }
    for method in JOURNAL_METHODS {
        let described = read.journal_method(method);
        if !described.is_function() {
            let option = format!("options.journal.{method}");
            return Err(OptionError::refused(option, Accepts::Function("of Web Storage"), described.given()));
        }
    }
    Ok(Some(read.field("journalKey").text().unwrap_or(DEFAULT_JOURNAL_KEY).to_string()))
}

/// The shape `options.timeouts` takes, for its error.
const TIMEOUTS_SHAPE: &str = "{ decideMs?, steerMs?, requestMs? }";

/// One constructor's options, read.
///
/// ```
/// use renderer_steering::bridge::OptionsRead;
/// let read: OptionsRead = serde_json::from_str(r#"{"options":{"t":"object"},"fields":[["request",{"t":"function"}]]}"#).unwrap();
/// assert!(read.check_shape("{ request }", true).is_ok());
/// assert!(read.required_function("request", "(m, p) => Promise").is_ok());
/// ```
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct OptionsRead {
    /// The `options` argument itself.
    options: Described,
    /// Its fields, `[name, value]` (a field left out is `undefined`).
    fields: Vec<(String, Described)>,
    /// The first keys of `options.timeouts` (`None`: they could not be listed).
    timeout_keys: Option<Vec<String>>,
    /// `options.timeouts`' fields, `[name, value]`.
    timeouts: Vec<(String, Described)>,
    /// `options.journal`'s Web Storage methods, `[name, value]`.
    journal_methods: Vec<(String, Described)>,
}

/// The value named `key` in `pairs` (`undefined` when left out).
#[cfg_attr(feature = "size-first", optimize(size))]
fn named(pairs: &[(String, Described)], key: &str) -> Described {
    pairs.iter().find(|(name, _)| name == key).map(|(_, value)| value.clone()).unwrap_or_default()
}

impl OptionsRead {
    /// `options.journal`'s method `name` as described.
    ///
    /// ```
    /// # use renderer_steering::bridge::OptionsRead;
    /// let read: OptionsRead = serde_json::from_str(r#"{"journalMethods":[["getItem",{"t":"function"}]]}"#).unwrap();
    /// assert!(read.journal_method("getItem").is_function());
    /// assert!(!read.journal_method("setItem").is_function(), "a method not read is undefined");
    /// ```
    pub fn journal_method(&self, name: &str) -> Described {
        named(&self.journal_methods, name)
    }

    /// The field `key` as described.
    ///
    /// ```
    /// # use renderer_steering::bridge::OptionsRead;
    /// # use renderer_steering::core::given::Given;
    /// let read: OptionsRead = serde_json::from_str(r#"{"fields":[["journalKey",{"t":"string","s":"app:"}]]}"#).unwrap();
    /// assert_eq!(read.field("journalKey").text(), Some("app:"));
    /// assert_eq!(read.field("journal").given(), Given::Undefined, "a field left out");
    /// ```
    pub fn field(&self, key: &str) -> Described {
        named(&self.fields, key)
    }

    /// Refuses an `options` argument that is not an object (`shape` lists
    /// its keys); `needed` when the entry point cannot do without one.
    ///
    /// ```
    /// # use renderer_steering::bridge::OptionsRead;
    /// let absent = OptionsRead::default();
    /// assert!(absent.check_shape("{ timeouts? }", false).is_ok(), "no options, where they are optional");
    /// let refused = absent.check_shape("{ request }", true).unwrap_err();
    /// assert_eq!(refused.to_string(), "options must be an object { request } (got undefined)");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn check_shape(&self, shape: &'static str, needed: bool) -> Result<(), OptionError> {
        let given = self.options.given();
        if needed {
            return required("options", Accepts::Object(shape), &given);
        }
        optional("options", Accepts::Object(shape), &given).map(|_| ())
    }

    /// `options.<key>` must be a function (`shape`: its signature).
    ///
    /// ```
    /// # use renderer_steering::bridge::OptionsRead;
    /// let read: OptionsRead = serde_json::from_str(r#"{"fields":[["request",{"t":"string","s":"x"}]]}"#).unwrap();
    /// let refused = read.required_function("request", "(method, params) => Promise").unwrap_err();
    /// assert_eq!(refused.to_string(), r#"options.request must be a function (method, params) => Promise (got "x")"#);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn required_function(&self, key: &str, shape: &'static str) -> Result<(), OptionError> {
        required(&format!("options.{key}"), Accepts::Function(shape), &self.field(key).given())
    }

    /// `options.<key>` is a function or absent; true when given.
    ///
    /// ```
    /// # use renderer_steering::bridge::OptionsRead;
    /// let fields = r#"{"fields":[["onReconcile",{"t":"function"}],["streamRole",{"t":"null"}]]}"#;
    /// let read: OptionsRead = serde_json::from_str(fields).unwrap();
    /// assert_eq!(read.optional_function("onReconcile", "(what) => void"), Ok(true));
    /// assert_eq!(read.optional_function("streamRole", "(threadId) => role"), Ok(false), "null is left out");
    /// assert!(read.optional_function("journal", "() => void").is_ok(), "undefined is left out");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn optional_function(&self, key: &str, shape: &'static str) -> Result<bool, OptionError> {
        optional(&format!("options.{key}"), Accepts::Function(shape), &self.field(key).given())
    }

    /// `options.<key>` is a boolean or absent; true only for `true`.
    ///
    /// ```
    /// # use renderer_steering::bridge::OptionsRead;
    /// let fields = r#"{"fields":[["allowPromptHandoff",{"t":"boolean","s":"true"}],["other",{"t":"string","s":"yes"}]]}"#;
    /// let read: OptionsRead = serde_json::from_str(fields).unwrap();
    /// assert_eq!(read.flag("allowPromptHandoff"), Ok(true));
    /// assert_eq!(read.flag("absent"), Ok(false));
    /// assert!(read.flag("other").is_err(), "a string is no flag");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn flag(&self, key: &str) -> Result<bool, OptionError> {
        let given = self.field(key).given();
        optional(&format!("options.{key}"), Accepts::Boolean, &given)?;
        Ok(given == crate::core::given::Given::Bool(true))
    }

    /// `options.timeouts` (defaults when absent): an object whose keys are
    /// bounds a timer can hold; an unknown key (a misspelling) is refused.
    ///
    /// ```
    /// # use renderer_steering::bridge::OptionsRead;
    /// # use renderer_steering::core::Timeouts;
    /// let timeouts = r#""fields":[["timeouts",{"t":"object"}]],"timeouts":[["decideMs",{"t":"number","n":500}]]"#;
    /// let read: OptionsRead = serde_json::from_str(&format!(r#"{{{timeouts},"timeoutKeys":["decideMs"]}}"#)).unwrap();
    /// assert_eq!(read.timeouts().map(|t| (t.decide_ms, t.steer_ms)), Ok((500, 30_000)));
    /// let misspelt: OptionsRead = serde_json::from_str(&format!(r#"{{{timeouts},"timeoutKeys":["decideMS"]}}"#)).unwrap();
    /// assert!(misspelt.timeouts().is_err_and(|e| e.to_string().contains("decideMS is not an option")));
    /// assert_eq!(OptionsRead::default().timeouts(), Ok(Timeouts::default()), "absent: the defaults");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn timeouts(&self) -> Result<Timeouts, OptionError> {
        if !optional("options.timeouts", Accepts::Object(TIMEOUTS_SHAPE), &self.field("timeouts").given())? {
            return Ok(Timeouts::default());
        }
        let Some(keys) = &self.timeout_keys else {
            return Err(OptionError::Unreadable { option: "options.timeouts".into(), reason: "its keys cannot be listed".into() });
        };
        Timeouts::from_given("options.timeouts", keys, |key| named(&self.timeouts, key).given())
    }
}

/// The keys of `options.timeouts` the front door lists: one past those it
/// takes is enough to find an unknown one.
///
/// ```
/// assert_eq!(renderer_steering::bridge::timeout_keys_read(), 4);
/// ```
pub fn timeout_keys_read() -> usize {
    TIMEOUT_KEYS.len() + 1
}

/// The desktop hook's options: an object or absent, `onReconcile` a function or absent.
#[cfg(feature = "desktop")]
#[cfg_attr(feature = "size-first", optimize(size))]
pub(super) fn desktop_options(read: &OptionsRead) -> Result<(), OptionError> {
    read.check_shape("{ timeouts?, onReconcile?, journal?, journalKey?, onJournalError? }", false)?;
    read.optional_function("onReconcile", "({ threadId, clientUserMessageId, presented, delivery, turnId }) => void")?;
    Ok(())
}
