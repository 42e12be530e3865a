//! A value a caller gave (an option, an id, a bound), as the package
//! describes it in an error: enough to recognise it, never
//! the whole of a huge value, and in JavaScript's own notation (`NaN`,
//! `1e300`, `undefined`), as the caller wrote it in JavaScript.

use std::fmt;

use super::json::Json;

/// Longest string shown in full (in UTF-16 units); a longer one is
/// described by its length, so a megabyte of text is never copied into an
/// error message.
///
/// ```
/// assert_eq!(renderer_steering::core::given::SHOWN_TEXT_UNITS, 64);
/// ```
pub const SHOWN_TEXT_UNITS: u32 = 64;

/// What a caller gave, by its JavaScript type.
///
/// ```
/// use renderer_steering::core::given::Given;
/// assert_eq!(Given::Number(-1.0).to_string(), "-1");
/// assert_eq!(Given::Number(1e300).to_string(), "1e300");
/// assert_eq!(Given::Number(f64::NAN).to_string(), "NaN");
/// assert_eq!(Given::text("10s", 3).to_string(), "\"10s\"");
/// assert_eq!(Given::text("", 100_000).to_string(), "a string of 100000 characters");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum Given {
    /// `undefined`: not given.
    Undefined,
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number (`NaN` and the infinities included).
    Number(f64),
    /// A string: its text when at most [`SHOWN_TEXT_UNITS`] long.
    Text {
        /// The text, when short enough to show.
        shown: Option<String>,
        /// Its length in UTF-16 units.
        units: u32,
    },
    /// A BigInt.
    BigInt,
    /// A Symbol.
    Symbol,
    /// A function.
    Function,
    /// Any other object.
    Object,
}

impl Given {
    /// A string of `units` UTF-16 units; `text` is shown only when it is
    /// at most [`SHOWN_TEXT_UNITS`] long.
    ///
    /// ```
    /// # use renderer_steering::core::given::Given;
    /// assert_eq!(Given::text("abc", 3), Given::Text { shown: Some("abc".into()), units: 3 });
    /// ```
    pub fn text(text: &str, units: u32) -> Given {
        Given::Text { shown: (units <= SHOWN_TEXT_UNITS).then(|| text.to_string()), units }
    }

    /// True for `undefined` and `null`: an optional value left out.
    ///
    /// ```
    /// # use renderer_steering::core::given::Given;
    /// assert!(Given::Null.is_absent() && Given::Undefined.is_absent());
    /// assert!(!Given::Bool(false).is_absent());
    /// ```
    pub fn is_absent(&self) -> bool {
        matches!(self, Given::Undefined | Given::Null)
    }
}

impl fmt::Display for Given {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Given::Undefined => f.write_str("undefined"),
            Given::Null => f.write_str("null"),
            Given::Bool(b) => write!(f, "{b}"),
            Given::Number(n) => write_js_number(*n, f),
            Given::Text { shown: Some(text), .. } => f.write_str(Json::of(text.as_str()).text()),
            Given::Text { shown: None, units } => write!(f, "a string of {units} characters"),
            Given::BigInt => f.write_str("a BigInt"),
            Given::Symbol => f.write_str("a Symbol"),
            Given::Function => f.write_str("a function"),
            Given::Object => f.write_str("an object"),
        }
    }
}

/// Writes a number as JavaScript writes it (`NaN`, `Infinity`, `-0` as
/// `0`, plain digits for 1e-6 <= |n| < 1e21), and in exponent notation
/// outside that range as a caller types it (`1e300`, `1.5e-7`): both are
/// the shortest digits that read back as `n`, so the exponent form is
/// those digits moved around the point (done by hand: the formatter's own
/// exponent notation costs more wasm than this).
fn write_js_number(n: f64, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if n.is_nan() {
        return f.write_str("NaN");
    }
    if n < 0.0 {
        f.write_str("-")?;
    }
    let magnitude = n.abs();
    if magnitude.is_infinite() {
        return f.write_str("Infinity");
    }
    if magnitude == 0.0 || (1e-6..1e21).contains(&magnitude) {
        return write!(f, "{magnitude}");
    }
    // All digits with at most one point: where the point is says the exponent.
    let plain = magnitude.to_string();
    let point = plain.bytes().position(|b| b == b'.').unwrap_or(plain.len());
    let digits: Vec<u8> = plain.bytes().filter(u8::is_ascii_digit).collect();
    let first = digits.iter().position(|&d| d != b'0').unwrap_or(0);
    let last = digits.iter().rposition(|&d| d != b'0').unwrap_or(first);
    for (i, &digit) in digits.iter().enumerate().take(last + 1).skip(first) {
        if i == first + 1 {
            f.write_str(".")?;
        }
        write!(f, "{}", digit as char)?;
    }
    write!(f, "e{}", point as i64 - 1 - first as i64)
}

#[cfg(test)]
mod tests {
    use super::{write_js_number, Given};

    struct Js(f64);
    impl std::fmt::Display for Js {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write_js_number(self.0, f)
        }
    }

    #[test]
    fn numbers_are_written_as_javascript_writes_them() {
        for (n, js) in [
            (-1.0, "-1"),
            (1e300, "1e300"),
            (-1e300, "-1e300"),
            (1.5e-7, "1.5e-7"),
            (-1.25e-10, "-1.25e-10"),
            (1.7976931348623157e308, "1.7976931348623157e308"),
            (5e-324, "5e-324"),
            (1.2345e22, "1.2345e22"),
            (1e-6, "0.000001"),
            (1e21, "1e21"),
            (1e20, "100000000000000000000"),
            (2f64.powi(53), "9007199254740992"),
            (0.5, "0.5"),
            (-0.0, "0"),
            (f64::NEG_INFINITY, "-Infinity"),
        ] {
            assert_eq!(Js(n).to_string(), js, "{n}");
        }
    }

    #[test]
    fn a_short_string_is_shown_quoted_and_a_long_one_by_its_length() {
        assert_eq!(Given::text("a\"b", 3).to_string(), r#""a\"b""#);
        assert_eq!(Given::text("", 65).to_string(), "a string of 65 characters");
    }
}
