//! Validating a draft before anything is sent. Validation reads the draft and
//! never changes it, so the exact input can always be handed back.

use serde::Deserialize;
use serde_json::Value;

use super::error::Failure;

/// Largest draft the engine will send, measured as its JSON text (256 KiB).
/// Larger drafts are refused with [`InputError::TooLarge`](crate::core::error::InputError::TooLarge) before any request.
///
/// ```
/// assert_eq!(renderer_steering::core::content::MAX_DRAFT_BYTES, 262_144);
/// ```
pub const MAX_DRAFT_BYTES: usize = 256 * 1024;

#[derive(Deserialize)]
struct TypedBlock {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default, rename = "mimeType")]
    mime_type: Option<String>,
    #[serde(default)]
    data: Option<String>,
}

fn typed(item: &Value) -> Result<TypedBlock, Failure> {
    TypedBlock::deserialize(item).map_err(|e| Failure::invalid_input(format!("malformed content item: {e}")))
}

/// Refuses drafts larger than [`MAX_DRAFT_BYTES`].
///
/// ```
/// use renderer_steering::core::content::check_size;
/// let big = vec![serde_json::json!({"type": "text", "text": "x".repeat(300_000)})];
/// assert_eq!(check_size(&big).unwrap_err().kind(), "draftTooLarge");
/// ```
pub fn check_size(draft: &[Value]) -> Result<(), Failure> {
    let bytes = serde_json::to_vec(draft).map(|v| v.len()).unwrap_or(usize::MAX);
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
/// use serde_json::json;
/// let input = vec![json!({"type": "text", "text": "use "}), json!({"type": "text", "text": "pnpm"})];
/// assert_eq!(steer_text(&input).unwrap(), "use pnpm");
/// assert!(steer_text(&[json!({"type": "image", "url": "x"})]).is_err());
/// assert!(steer_text(&[json!({"type": "text", "text": "  "})]).is_err());
/// ```
pub fn steer_text(input: &[Value]) -> Result<String, Failure> {
    check_size(input)?;
    if input.is_empty() {
        return Err(Failure::invalid_input("steering needs at least one text item"));
    }
    let mut joined = String::new();
    for item in input {
        let block = typed(item)?;
        match (block.kind.as_str(), block.text) {
            ("text", Some(text)) => joined.push_str(&text),
            ("text", None) => {
                return Err(Failure::invalid_input("a text item has no text"))
            }
            (other, _) => {
                return Err(Failure::invalid_input(format!("steering accepts text only, not {other} items")))
            }
        }
    }
    if joined.trim().is_empty() {
        return Err(Failure::invalid_input("the message is blank"));
    }
    Ok(joined)
}

/// Checks ACP content blocks; image blocks need the agent's image capability.
///
/// ```
/// use renderer_steering::core::content::check_acp_blocks;
/// use serde_json::json;
/// let img = vec![json!({"type": "image", "mimeType": "image/png", "data": "AA=="})];
/// assert_eq!(check_acp_blocks(&img, false).unwrap_err().kind(), "imagesUnsupported");
/// assert!(check_acp_blocks(&img, true).is_ok());
/// ```
pub fn check_acp_blocks(content: &[Value], images_allowed: bool) -> Result<(), Failure> {
    check_size(content)?;
    if content.is_empty() {
        return Err(Failure::invalid_input("the message has no content"));
    }
    let mut has_substance = false;
    for item in content {
        let block = typed(item)?;
        match block.kind.as_str() {
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
            "audio" | "resource_link" | "resource" => has_substance = true,
            other => {
                return Err(Failure::invalid_input(format!("unknown content block type {other}")))
            }
        }
    }
    if !has_substance {
        return Err(Failure::invalid_input("the message is blank"));
    }
    Ok(())
}
