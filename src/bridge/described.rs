//! A caller's value as the JavaScript front door describes it: by its
//! `typeof`, with a string's text only when it is within the length the
//! reader asked for, so no page code runs and a huge string is never copied.

use serde::Deserialize;

use crate::core::given::Given;

/// `{ "t": type, "s"?: text, "n"?: number, "units"?: length }`.
///
/// ```
/// use renderer_steering::bridge::Described;
/// use renderer_steering::core::given::Given;
/// let d: Described = serde_json::from_str(r#"{"t":"number","s":"NaN"}"#).unwrap();
/// assert!(matches!(d.given(), Given::Number(n) if n.is_nan()));
/// let d: Described = serde_json::from_str(r#"{"t":"string","units":100000}"#).unwrap();
/// assert_eq!(d.given().to_string(), "a string of 100000 characters");
/// ```
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Described {
    /// `typeof` the value, with `null`, `thenable` (an object whose `then` is
    /// a function) and `undefined` (also when left out) of their own.
    #[serde(default)]
    t: String,
    /// A string's text (when short enough), or a number JSON cannot hold
    /// (`NaN`, `Infinity`, `-Infinity`).
    #[serde(default)]
    s: Option<String>,
    /// A finite number.
    #[serde(default)]
    n: Option<f64>,
    /// A string's length in UTF-16 units.
    #[serde(default)]
    units: Option<u32>,
}

impl Described {
    /// What the value is, in the core's terms.
    ///
    /// ```
    /// # use renderer_steering::bridge::Described;
    /// # use renderer_steering::core::given::Given;
    /// assert_eq!(Described::default().given(), Given::Undefined);
    /// ```
    pub fn given(&self) -> Given {
        match self.t.as_str() {
            "null" => Given::Null,
            "boolean" => Given::Bool(self.s.as_deref() == Some("true")),
            "number" => Given::Number(self.number()),
            "string" => {
                let units = self.units.unwrap_or_else(|| self.s.as_deref().map_or(0, |s| s.encode_utf16().count() as u32));
                match &self.s {
                    Some(text) => Given::text(text, units),
                    None => Given::Text { shown: None, units },
                }
            }
            "bigint" => Given::BigInt,
            "symbol" => Given::Symbol,
            "function" => Given::Function,
            "object" | "thenable" => Given::Object,
            _ => Given::Undefined,
        }
    }

    fn number(&self) -> f64 {
        match (self.n, self.s.as_deref()) {
            (Some(n), _) => n,
            (None, Some("Infinity")) => f64::INFINITY,
            (None, Some("-Infinity")) => f64::NEG_INFINITY,
            _ => f64::NAN,
        }
    }

    /// The string, when the value is one and was read whole.
    ///
    /// ```
    /// # use renderer_steering::bridge::Described;
    /// let d: Described = serde_json::from_str(r#"{"t":"string","s":"t-1"}"#).unwrap();
    /// assert_eq!(d.text(), Some("t-1"));
    /// ```
    pub fn text(&self) -> Option<&str> {
        (self.t == "string").then_some(self.s.as_deref()).flatten()
    }

    /// True for an object whose `then` is a function (a promise).
    ///
    /// ```
    /// # use renderer_steering::bridge::Described;
    /// let d: Described = serde_json::from_str(r#"{"t":"thenable"}"#).unwrap();
    /// assert!(d.is_thenable());
    /// ```
    pub fn is_thenable(&self) -> bool {
        self.t == "thenable"
    }

    /// True for a function.
    ///
    /// ```
    /// # use renderer_steering::bridge::Described;
    /// assert!(!Described::default().is_function());
    /// ```
    pub fn is_function(&self) -> bool {
        self.t == "function"
    }
}
