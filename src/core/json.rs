//! JSON the engine carries but does not look into: a draft, a pass-through
//! parameter, a host answer before a dialect reads the fields it needs, the
//! `data` of a JSON-RPC error. It stays text (serde_json's [`RawValue`]), so
//! no tree of the value is ever built: a dialect reads an answer straight
//! into its typed struct, and a draft is written back into a request as is.

use std::fmt;

use std::borrow::Cow;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, Serializer};
use serde_json::value::RawValue;

mod read_error;
pub use read_error::ReadError;

/// One JSON value kept as its text.
///
/// ```
/// use renderer_steering::core::Json;
/// let draft = Json::parse(r#"[{"type":"text","text":"use pnpm"}]"#.into()).unwrap();
/// assert_eq!(draft.text(), r#"[{"type":"text","text":"use pnpm"}]"#);
/// assert!(Json::parse("[1,".into()).is_err());
/// let params = Json::of(&("t", 1));
/// assert_eq!(params.text(), r#"["t",1]"#);
/// ```
#[derive(Clone)]
pub struct Json(Box<RawValue>);

impl Json {
    /// Checks that `text` is one JSON value and keeps it as it is (without
    /// surrounding whitespace).
    ///
    /// ```
    /// use renderer_steering::core::Json;
    /// assert_eq!(Json::parse("{\"a\":  1}".into()).unwrap().text(), "{\"a\":  1}");
    /// assert!(Json::parse("{} {}".into()).is_err());
    /// ```
    pub fn parse(text: String) -> Result<Json, ReadError> {
        RawValue::from_string(text).map(Json).map_err(|e| ReadError::new(&e, ""))
    }

    /// Writes a typed value as JSON (`null` if it cannot be written, which
    /// for the crate's own types never happens: they have string keys only).
    ///
    /// ```
    /// use renderer_steering::core::Json;
    /// assert_eq!(Json::of("a \"quote\"").text(), r#""a \"quote\"""#);
    /// ```
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Json {
        serde_json::value::to_raw_value(value).map(Json).unwrap_or_else(|_| Json::null())
    }

    /// The JSON `null`.
    ///
    /// ```
    /// assert_eq!(renderer_steering::core::Json::null().text(), "null");
    /// ```
    pub fn null() -> Json {
        Json::of(&())
    }

    /// The empty array `[]`: the draft of a call that had none.
    ///
    /// ```
    /// assert_eq!(renderer_steering::core::Json::no_items().text(), "[]");
    /// ```
    pub fn no_items() -> Json {
        Json::of(&[(); 0])
    }

    /// The JSON text, exactly as it was given or written.
    ///
    /// ```
    /// assert_eq!(renderer_steering::core::Json::of(&[1, 2]).text(), "[1,2]");
    /// ```
    pub fn text(&self) -> &str {
        self.0.get()
    }

    /// Reads the value into a typed struct (unknown fields are skipped, never
    /// built); a value of another shape is a [`ReadError`].
    ///
    /// ```
    /// use renderer_steering::core::Json;
    /// #[derive(serde::Deserialize)]
    /// struct Answer { delivery: String }
    /// let answer = Json::parse(r#"{"delivery":"activeTurn","extra":[1,2,3]}"#.into()).unwrap();
    /// assert_eq!(answer.read::<Answer>().unwrap().delivery, "activeTurn");
    /// assert!(answer.read::<Vec<u8>>().is_err());
    /// ```
    pub fn read<'a, T: Deserialize<'a>>(&'a self) -> Result<T, ReadError> {
        serde_json::from_str(self.0.get()).map_err(|e| ReadError::new(&e, self.0.get()))
    }

    /// The fields of an object, in order, each kept as text (`None` when the
    /// value is not an object).
    ///
    /// ```
    /// use renderer_steering::core::Json;
    /// let usage = Json::parse(r#"{"inputTokens": 0, "note": {"a": 1}}"#.into()).unwrap();
    /// let names: Vec<String> = usage.entries().unwrap().into_iter().map(|(k, _)| k).collect();
    /// assert_eq!(names, ["inputTokens", "note"]);
    /// assert!(Json::of(&[1]).entries().is_none());
    /// ```
    pub fn entries(&self) -> Option<Vec<(String, Json)>> {
        self.read::<Entries>().ok().map(|entries| entries.0)
    }

    /// One field of an object (the last one, as `JSON.parse` does, when a
    /// key repeats); `None` when absent or when the value is not an object.
    ///
    /// ```
    /// use renderer_steering::core::Json;
    /// let answer = Json::parse(r#"{"stopReason": "cancelled", "stopReason": "end_turn"}"#.into()).unwrap();
    /// assert_eq!(answer.field("stopReason").unwrap().text(), r#""end_turn""#);
    /// assert!(answer.field("usage").is_none());
    /// ```
    pub fn field(&self, key: &str) -> Option<Json> {
        self.entries()?.into_iter().rev().find(|(name, _)| name == key).map(|(_, value)| value)
    }

    /// The field at a path of keys (`at(&["a", "b"])` is `a.b`).
    ///
    /// ```
    /// use renderer_steering::core::Json;
    /// let caps = Json::of(&serde_json::json!({"session": {"inject": {"modes": ["steer"]}}}));
    /// assert_eq!(caps.at(&["session", "inject", "modes"]).unwrap().text(), r#"["steer"]"#);
    /// assert!(caps.at(&["session", "other"]).is_none());
    /// ```
    pub fn at(&self, path: &[&str]) -> Option<Json> {
        let (first, rest) = path.split_first()?;
        let field = self.field(first)?;
        if rest.is_empty() {
            return Some(field);
        }
        field.at(rest)
    }

    /// True only for the JSON `true` itself (capabilities are gated on
    /// `=== true`).
    ///
    /// ```
    /// use renderer_steering::core::Json;
    /// assert!(Json::of(&true).is_true());
    /// assert!(!Json::of(&"true").is_true() && !Json::of(&1).is_true());
    /// ```
    pub fn is_true(&self) -> bool {
        self.text() == "true"
    }

    /// The value as a `serde_json::Value` tree, for tests and tools (the
    /// engines never build one).
    ///
    /// ```
    /// use renderer_steering::core::Json;
    /// assert_eq!(Json::of(&[1]).value(), serde_json::json!([1]));
    /// ```
    pub fn value(&self) -> serde_json::Value {
        self.read().unwrap_or_default()
    }
}

/// An object's fields in order, read by one visitor (no map type is built).
struct Entries(Vec<(String, Json)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Entries, D::Error> {
        deserializer.deserialize_map(EntriesVisitor)
    }
}

struct EntriesVisitor;

impl<'de> Visitor<'de> for EntriesVisitor {
    type Value = Entries;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            entries.push((key.into_owned(), map.next_value::<Json>()?));
        }
        Ok(Entries(entries))
    }
}

impl PartialEq for Json {
    fn eq(&self, other: &Json) -> bool {
        self.text() == other.text()
    }
}

/// Compares by value, so tests can write `assert_eq!(params, json!({...}))`.
impl PartialEq<serde_json::Value> for Json {
    fn eq(&self, other: &serde_json::Value) -> bool {
        self.read::<serde_json::Value>().is_ok_and(|value| value == *other)
    }
}

/// Compares a draft with the array of items it was made from.
impl PartialEq<Vec<serde_json::Value>> for Json {
    fn eq(&self, other: &Vec<serde_json::Value>) -> bool {
        self.read::<Vec<serde_json::Value>>().is_ok_and(|value| value == *other)
    }
}

impl From<serde_json::Value> for Json {
    fn from(value: serde_json::Value) -> Json {
        Json::of(&value)
    }
}

impl From<Vec<serde_json::Value>> for Json {
    fn from(items: Vec<serde_json::Value>) -> Json {
        Json::of(&items)
    }
}

impl fmt::Debug for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(Json)
    }
}

#[cfg(test)]
mod tests {
    use super::Json;
    use serde_json::json;

    #[test]
    fn equality_is_by_text_between_jsons_and_by_value_against_a_tree() {
        let spaced = Json::parse("{ \"a\": 1 }".into()).unwrap();
        assert_ne!(spaced, Json::of(&json!({"a": 1})));
        assert_eq!(spaced, json!({"a": 1}));
        assert_eq!(Json::from(vec![json!(1)]), vec![json!(1)]);
        assert_ne!(Json::of(&1), json!(2));
        assert_ne!(Json::from(vec![json!(1)]), vec![json!(2)]);
    }

    #[test]
    fn debug_shows_the_text_and_a_non_object_has_no_entries_and_says_why() {
        assert_eq!(format!("{:?}", Json::of(&[1, 2])), "[1,2]");
        let refused = Json::of(&1).read::<super::Entries>().err().map(|e| e.to_string()).unwrap_or_default();
        assert_eq!(refused, "a field is missing or has another type or value (near `1`)");
    }

    #[test]
    fn a_read_error_quotes_the_one_line_text_before_the_fault() {
        let answer = Json::parse(r#"{"a": 1, "turnId": [] }"#.into()).unwrap();
        let refused = answer.read::<std::collections::BTreeMap<String, u8>>().unwrap_err().to_string();
        assert_eq!(refused, "a field is missing or has another type or value (near `{\"a\": 1, \"turnId\": `)");
        let unicode = Json::parse(r#"["ééééééééééééééééé", 1]"#.into()).unwrap();
        assert!(unicode.read::<Vec<String>>().unwrap_err().to_string().contains("é\", 1"), "cut on a character's boundary");
        let spread = Json::parse("{\n \"a\": []\n}".into()).unwrap();
        assert_eq!(
            spread.read::<std::collections::BTreeMap<String, u8>>().unwrap_err().to_string(),
            "a field is missing or has another type or value"
        );
        assert_eq!(Json::parse("[1,".into()).unwrap_err().to_string(), "it is not one JSON value");
    }

    #[test]
    fn a_field_of_a_struct_keeps_its_text_through_a_round_trip() {
        #[derive(serde::Serialize, serde::Deserialize)]
        struct Carrier {
            input: Json,
        }
        let carrier: Carrier = serde_json::from_str(r#"{"input": [ {"type":"text"} ]}"#).unwrap();
        assert_eq!(carrier.input.text(), r#"[ {"type":"text"} ]"#);
        assert_eq!(serde_json::to_string(&carrier).unwrap(), r#"{"input":[ {"type":"text"} ]}"#);
    }
}
