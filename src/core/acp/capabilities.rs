//! What an ACP agent offers, read from its `initialize` answer. Capabilities
//! are gated on exact values (`=== true`); nothing is probed with a request.

use crate::core::content::PromptCapabilities;
use crate::core::json::Json;

/// How steers reach this agent, in order of preference.
///
/// ```
/// use renderer_steering::core::acp::SteerPath;
/// assert_eq!(SteerPath::Queue.as_str(), "queue");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SteerPath {
    /// ACP v2 `session/inject` with mode `steer`.
    Inject {
        /// The agent allows `session/replace_inject`.
        replace: bool,
    },
    /// The `_session/steering` extension.
    SteeringExtension,
    /// A second `session/prompt` while the first is open (app opt-in).
    PromptHandoff,
    /// No steering: wait for the running turn to end.
    Queue,
}

impl SteerPath {
    /// Trace name.
    ///
    /// ```
    /// # use renderer_steering::core::acp::SteerPath;
    /// assert_eq!(SteerPath::Inject { replace: false }.as_str(), "inject");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            SteerPath::Inject { .. } => "inject",
            SteerPath::SteeringExtension => "steeringExtension",
            SteerPath::PromptHandoff => "promptHandoff",
            SteerPath::Queue => "queue",
        }
    }
}

/// The parts of an `initialize` answer the engine uses.
///
/// ```
/// use renderer_steering::core::acp::{Capabilities, SteerPath};
/// let init = serde_json::json!({ "protocolVersion": 1, "_meta": { "steering": { "supported": true } },
///     "agentCapabilities": { "promptCapabilities": { "image": true } } });
/// let caps = Capabilities::from_initialize(&init.into(), false);
/// assert_eq!(caps.path, SteerPath::SteeringExtension);
/// assert!(caps.prompt.image && !caps.prompt.audio);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// The preferred steering path.
    pub path: SteerPath,
    /// The optional content blocks it takes (`promptCapabilities`).
    pub prompt: PromptCapabilities,
    /// Every advertised path, most preferred first (`path` is the first):
    /// when one answers `-32601` the engine falls to the next.
    pub offered: [Option<SteerPath>; 3],
}

fn is_true(value: Option<&Json>, path: &[&str]) -> bool {
    value.and_then(|v| v.at(path)).is_some_and(|v| v.is_true())
}

impl Capabilities {
    /// Reads the answer; anything missing or of the wrong type means "not offered".
    ///
    /// ```
    /// # use renderer_steering::core::acp::{Capabilities, SteerPath};
    /// let init: renderer_steering::core::Json = serde_json::json!({ "agentCapabilities": { "_meta": { "claudeCode": { "promptQueueing": true } } } }).into();
    /// assert_eq!(Capabilities::from_initialize(&init, false).path, SteerPath::Queue, "handoff is off unless allowed");
    /// assert_eq!(Capabilities::from_initialize(&init, true).path, SteerPath::PromptHandoff);
    /// ```
    pub fn from_initialize(answer: &Json, allow_prompt_handoff: bool) -> Capabilities {
        let caps = answer.field("agentCapabilities");
        let caps = caps.as_ref();
        let inject = caps.and_then(|c| c.at(&["session", "inject"]));
        let modes = inject.as_ref().and_then(|i| i.field("modes")).and_then(|m| m.read::<Vec<Json>>().ok());
        let steers = modes.is_some_and(|modes| modes.iter().any(|m| m.read::<String>().is_ok_and(|m| m == "steer")));
        let extension = is_true(Some(answer), &["_meta", "steering", "supported"]) || is_true(caps, &["_meta", "steering", "supported"]);
        let handoff = allow_prompt_handoff && is_true(caps, &["_meta", "claudeCode", "promptQueueing"]);
        let offered = [
            steers.then(|| SteerPath::Inject { replace: is_true(inject.as_ref(), &["pending", "replace"]) }),
            extension.then_some(SteerPath::SteeringExtension),
            handoff.then_some(SteerPath::PromptHandoff),
        ];
        let path = offered.iter().flatten().next().copied().unwrap_or(SteerPath::Queue);
        let prompt = PromptCapabilities {
            image: is_true(caps, &["promptCapabilities", "image"]),
            audio: is_true(caps, &["promptCapabilities", "audio"]),
            embedded_context: is_true(caps, &["promptCapabilities", "embeddedContext"]),
        };
        Capabilities { path, prompt, offered }
    }
}
