//! Why a JSON value could not be read, in the package's words.

use std::fmt;

/// Why a JSON value could not be read as the type asked for: what kind of
/// fault, and the text where it was found. The parser's own sentences
/// ("invalid type: ...", a line and column) are not passed on; a sentence
/// of the package's own (a wire type's conversion refusing a value) is.
///
/// ```
/// use renderer_steering::core::Json;
/// let answer = Json::parse(r#"{"turnId": 5}"#.into()).unwrap();
/// #[derive(Debug, serde::Deserialize)]
/// struct Answer { #[serde(rename = "turnId")] turn_id: String }
/// let refused = answer.read::<Answer>().unwrap_err();
/// assert_eq!(refused.to_string(), "a field is missing or has another type or value (near `{\"turnId\": 5`)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// What is wrong, when the package said it (a wire type's own check).
    own: Option<String>,
    /// The value is JSON, but not of the shape asked for.
    shape: bool,
    /// Up to [`CONTEXT`] bytes of the text before the fault.
    near: String,
}

/// How much of the text before a fault a [`ReadError`] quotes.
const CONTEXT: usize = 24;

/// How serde and serde_json begin the sentences they write themselves
/// (`serde::de::Error`'s provided methods and the derives' messages).
const PARSER_SENTENCES: [&str; 9] = [
    "invalid type",
    "invalid value",
    "invalid length",
    "unknown variant",
    "unknown field",
    "missing field",
    "duplicate field",
    "data did not match",
    "can only flatten",
];

impl ReadError {
    /// The parser's `error` while reading `text`, in the package's words.
    // Once, not inlined into each type's `read` (there are dozens).
    #[inline(never)]
    pub(crate) fn new(error: &serde_json::Error, text: &str) -> ReadError {
        // The fault's place, `column` bytes into its line: quoted only on
        // the first line, the only one of the one-line JSON the front door
        // and the engine write.
        let end = if error.line() == 1 { error.column().min(text.len()) } else { 0 };
        let end = (0..=end).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let start = (end.saturating_sub(CONTEXT)..=end).find(|&i| text.is_char_boundary(i)).unwrap_or(end);
        // serde_json writes `<sentence> at line L column C` (no place when line is 0).
        let written = error.to_string();
        let digits = |n: usize| n.checked_ilog10().map_or(1, |log| log as usize + 1);
        let place = if error.line() == 0 { 0 } else { " at line  column ".len() + digits(error.line()) + digits(error.column()) };
        let sentence = written.get(..written.len().saturating_sub(place)).unwrap_or(&written);
        let own = error.is_data() && !PARSER_SENTENCES.iter().any(|p| sentence.starts_with(p));
        ReadError {
            own: own.then(|| sentence.to_string()),
            shape: error.is_data(),
            // `get`, not indexing: no panic path (and its message code) in the wasm.
            near: text.get(start..end).unwrap_or_default().to_string(),
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.own {
            Some(own) => f.write_str(own)?,
            None if self.shape => f.write_str("a field is missing or has another type or value")?,
            None => f.write_str("it is not one JSON value")?,
        }
        if !self.near.is_empty() {
            write!(f, " (near `{}`)", self.near)?;
        }
        Ok(())
    }
}

/// The sentence is the whole story.
///
/// ```
/// use std::error::Error;
/// let refused = renderer_steering::core::Json::of(&1).read::<String>().unwrap_err();
/// assert!(refused.source().is_none());
/// ```
impl std::error::Error for ReadError {}

#[cfg(test)]
mod tests {
    use crate::core::Json;

    #[test]
    fn a_wire_types_own_refusal_is_kept_and_the_parsers_sentences_are_not() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(try_from = "String")]
        struct Even;
        impl TryFrom<String> for Even {
            type Error = &'static str;
            fn try_from(_: String) -> Result<Even, &'static str> {
                Err("an even needs digits")
            }
        }
        let refused = Json::of(&["x"]).read::<Vec<Even>>().unwrap_err().to_string();
        assert_eq!(refused, "an even needs digits (near `[\"x\"]`)");
        let refused = Json::of(&5).read::<String>().unwrap_err().to_string();
        assert_eq!(refused, "a field is missing or has another type or value (near `5`)");
    }
}
