//! Validating a draft before anything is sent. Validation reads the draft and
//! never changes it, so the exact input can always be handed back.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::error::Failure;
use super::json::Json;

/// Largest draft the engine will send, measured as its JSON text (256 KiB).
/// Larger drafts are refused with [`InputError::TooLarge`](crate::core::error::InputError::TooLarge) before any request.
///
/// ```
/// assert_eq!(renderer_steering::core::content::MAX_DRAFT_BYTES, 262_144);
/// ```
pub const MAX_DRAFT_BYTES: usize = 256 * 1024;

/// One item of a draft, as far as validation reads it (other fields are
/// skipped, and the draft itself is sent as it came).
#[derive(Deserialize)]
struct TypedBlock<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(default, rename = "mimeType", borrow)]
    mime_type: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    data: Option<Cow<'a, str>>,
}

/// Refuses a draft that is not a JSON array (of content items).
///
/// ```
/// use renderer_steering::core::content::check_array;
/// use renderer_steering::core::Json;
/// assert!(check_array(&Json::of(&[0; 0])).is_ok());
/// assert_eq!(check_array(&Json::of("use pnpm")).unwrap_err().kind(), "invalidInput");
/// ```
pub fn check_array(draft: &Json) -> Result<(), Failure> {
    if !draft.text().starts_with('[') {
        return Err(not_an_array());
    }
    Ok(())
}

/// The failure of a draft that is not an array (of content items).
///
/// ```
/// use renderer_steering::core::content::not_an_array;
/// assert_eq!(not_an_array().message(), "the draft must be an array of content items");
/// ```
pub fn not_an_array() -> Failure {
    Failure::invalid_input("the draft must be an array of content items")
}

/// Reads a draft's items; the draft must be a JSON array of objects. A
/// malformed item is named by the text just before the fault (its key and
/// value), not by a second reading of the draft.
fn typed(draft: &Json) -> Result<Vec<TypedBlock<'_>>, Failure> {
    check_array(draft)?;
    draft.read().map_err(|e| Failure::invalid_input(format!("{MALFORMED_ITEM}: {e}")))
}

/// What a content item must be, for the error that refuses one.
const MALFORMED_ITEM: &str = "a content item must be an object with a string type (and string text, mimeType and data when given)";

/// Refuses drafts larger than [`MAX_DRAFT_BYTES`].
///
/// ```
/// use renderer_steering::core::content::check_size;
/// use renderer_steering::core::Json;
/// let big = Json::from(vec![serde_json::json!({"type": "text", "text": "x".repeat(300_000)})]);
/// assert_eq!(check_size(&big).unwrap_err().kind(), "draftTooLarge");
/// ```
pub fn check_size(draft: &Json) -> Result<(), Failure> {
    let bytes = draft.text().len();
    if bytes > MAX_DRAFT_BYTES {
        return Err(Failure::draft_too_large(bytes));
    }
    Ok(())
}

/// A codexhost steer takes text items only; returns their concatenated text.
/// Refuses images, other items, no items and blank text.
///
/// ```
/// use renderer_steering::core::content::steer_text;
/// use renderer_steering::core::Json;
/// use serde_json::json;
/// let input = Json::of(&json!([{"type": "text", "text": "use "}, {"type": "text", "text": "pnpm"}]));
/// assert_eq!(steer_text(&input).unwrap(), "use pnpm");
/// assert!(steer_text(&Json::of(&json!([{"type": "image", "url": "x"}]))).is_err());
/// assert!(steer_text(&Json::of(&json!([{"type": "text", "text": "  "}]))).is_err());
/// ```
pub fn steer_text(input: &Json) -> Result<String, Failure> {
    check_size(input)?;
    let items = typed(input)?;
    if items.is_empty() {
        return Err(Failure::invalid_input("steering needs at least one text item"));
    }
    let mut joined = String::new();
    for block in items {
        match (block.kind.as_ref(), block.text) {
            ("text", Some(text)) => joined.push_str(&text),
            ("text", None) => return Err(Failure::invalid_input("a text item has no text")),
            (other, _) => return Err(Failure::invalid_input(format!("steering accepts text only, not {other} items"))),
        }
    }
    if joined.trim().is_empty() {
        return Err(Failure::invalid_input("the message is blank"));
    }
    Ok(joined)
}

/// The optional ACP content blocks an agent takes (its `initialize` answer's
/// `promptCapabilities`; an omitted capability means unsupported). Text and
/// `resource_link` blocks are always taken.
///
/// ```
/// use renderer_steering::core::content::PromptCapabilities;
/// assert_eq!(PromptCapabilities::default(), PromptCapabilities { image: false, audio: false, embedded_context: false });
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PromptCapabilities {
    /// `promptCapabilities.image === true`: `image` blocks.
    pub image: bool,
    /// `promptCapabilities.audio === true`: `audio` blocks.
    pub audio: bool,
    /// `promptCapabilities.embeddedContext === true`: `resource` blocks.
    pub embedded_context: bool,
}

/// Checks ACP content blocks against what the agent takes.
///
/// ```
/// use renderer_steering::core::content::{check_acp_blocks, PromptCapabilities};
/// use renderer_steering::core::Json;
/// let img = Json::of(&serde_json::json!([{"type": "image", "mimeType": "image/png", "data": "AA=="}]));
/// assert_eq!(check_acp_blocks(&img, PromptCapabilities::default()).unwrap_err().kind(), "imagesUnsupported");
/// assert!(check_acp_blocks(&img, PromptCapabilities { image: true, ..Default::default() }).is_ok());
/// let audio = Json::of(&serde_json::json!([{"type": "audio", "mimeType": "audio/wav", "data": "AA=="}]));
/// assert!(check_acp_blocks(&audio, PromptCapabilities::default()).unwrap_err().message().contains("promptCapabilities.audio"));
/// ```
pub fn check_acp_blocks(content: &Json, accepts: PromptCapabilities) -> Result<(), Failure> {
    let images_allowed = accepts.image;
    check_size(content)?;
    let items = typed(content)?;
    if items.is_empty() {
        return Err(Failure::invalid_input("the message has no content"));
    }
    let mut has_substance = false;
    for block in items {
        match block.kind.as_ref() {
            "text" => {
                let text = block.text.ok_or_else(|| Failure::invalid_input("a text block has no text"))?;
                has_substance |= !text.trim().is_empty();
            }
            "image" => {
                if !images_allowed {
                    return Err(Failure::images_unsupported());
                }
                if block.mime_type.is_none() || block.data.is_none() {
                    return Err(Failure::invalid_input("an image block needs mimeType and data"));
                }
                has_substance = true;
            }
            "audio" if !accepts.audio => {
                return Err(Failure::invalid_input("this agent does not take audio blocks (promptCapabilities.audio is not true)"));
            }
            "resource" if !accepts.embedded_context => {
                let reason = "this agent does not take resource blocks (promptCapabilities.embeddedContext is not true)";
                return Err(Failure::invalid_input(reason));
            }
            "audio" | "resource_link" | "resource" => has_substance = true,
            other => return Err(Failure::invalid_input(format!("unknown content block type {other}"))),
        }
    }
    if !has_substance {
        return Err(Failure::invalid_input("the message is blank"));
    }
    Ok(())
}

/// A draft of one text item, for callers that steer with a plain string.
///
/// ```
/// use renderer_steering::core::content::text_draft;
/// assert_eq!(text_draft("use pnpm").text(), r#"[{"type":"text","text":"use pnpm"}]"#);
/// ```
pub fn text_draft(text: &str) -> Json {
    #[derive(Serialize)]
    struct TextItem<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        text: &'a str,
    }
    Json::of(&[TextItem { kind: "text", text }])
}
