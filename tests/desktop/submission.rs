//! What a `startTurn` call the hook asks for submits, read back from the
//! values it describes.

use renderer_steering::core::desktop::{Build, Call};

/// The `clientUserMessageId` of the submission a `startTurn` call builds.
pub fn submitted_id(call: &Call) -> Option<String> {
    let field = |b: &Build, key: &str| match b {
        Build::Object(entries) => entries.iter().find(|e| e.key == key).map(|e| e.value.clone()),
        _ => None,
    };
    let request = field(call.args.as_ref()?.get(1)?, "request")?;
    match field(&request, "clientUserMessageId")? {
        Build::Text(id) => Some(id),
        _ => None,
    }
}
