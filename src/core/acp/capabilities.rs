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

/// The ACP version a connection speaks, read from the `initialize` answer's
/// `protocolVersion` (2 is the v2 preview; anything else is read as v1).
///
/// ```
/// use renderer_steering::core::acp::Protocol;
/// assert_eq!(Protocol::V2.as_str(), "v2");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// ACP v1: a turn runs while a `session/prompt` is unanswered.
    #[default]
    V1,
    /// ACP v2 (preview): `session/prompt` answers `{ messageId }` at
    /// insertion; the turn's state comes as `state_update`.
    V2,
}

impl Protocol {
    /// Wire name.
    ///
    /// ```
    /// # use renderer_steering::core::acp::Protocol;
    /// assert_eq!(Protocol::V1.as_str(), "v1");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::V1 => "v1",
            Protocol::V2 => "v2",
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
    /// The negotiated version.
    pub protocol: Protocol,
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

/// A v2 capability: an object present (`{}`), not omitted nor `null`.
fn is_object(value: Option<&Json>, path: &[&str]) -> bool {
    value.and_then(|v| v.at(path)).is_some_and(|v| v.entries().is_some())
}

impl Capabilities {
    /// Reads the answer; anything missing or of the wrong type means "not
    /// offered". v1 flags are `true`; v2 capabilities are objects, moved
    /// from `agentCapabilities` to `capabilities` (with `session.prompt`
    /// for the content types). On v2 the concurrent-prompt handoff is never
    /// a path: a prompt sent while work runs is held or inserted as a
    /// message of its own, not a steer.
    ///
    /// ```
    /// # use renderer_steering::core::acp::{Capabilities, Protocol, SteerPath};
    /// let init: renderer_steering::core::Json = serde_json::json!({ "agentCapabilities": { "_meta": { "claudeCode": { "promptQueueing": true } } } }).into();
    /// assert_eq!(Capabilities::from_initialize(&init, false).path, SteerPath::Queue, "handoff is off unless allowed");
    /// assert_eq!(Capabilities::from_initialize(&init, true).path, SteerPath::PromptHandoff);
    /// let v2: renderer_steering::core::Json = serde_json::json!({ "protocolVersion": 2,
    ///     "capabilities": { "session": { "prompt": { "image": {} } } } }).into();
    /// let caps = Capabilities::from_initialize(&v2, false);
    /// assert_eq!(caps.protocol, Protocol::V2);
    /// assert!(caps.prompt.image && !caps.prompt.audio);
    /// ```
    pub fn from_initialize(answer: &Json, allow_prompt_handoff: bool) -> Capabilities {
        let protocol = match answer.field("protocolVersion").and_then(|v| v.read::<u64>().ok()) {
            Some(2) => Protocol::V2,
            _ => Protocol::V1,
        };
        let v2 = protocol == Protocol::V2;
        let caps = answer.field(if v2 { "capabilities" } else { "agentCapabilities" });
        let caps = caps.as_ref();
        let flag = |value: Option<&Json>, path: &[&str]| if v2 { is_object(value, path) } else { is_true(value, path) };
        let inject = caps.and_then(|c| c.at(&["session", "inject"]));
        let modes = inject.as_ref().and_then(|i| i.field("modes")).and_then(|m| m.read::<Vec<Json>>().ok());
        let steers = modes.is_some_and(|modes| modes.iter().any(|m| m.read::<String>().is_ok_and(|m| m == "steer")));
        let replace = is_true(inject.as_ref(), &["pending", "replace"]) || v2 && is_object(inject.as_ref(), &["pending", "replace"]);
        let extension = is_true(Some(answer), &["_meta", "steering", "supported"]) || is_true(caps, &["_meta", "steering", "supported"]);
        let handoff = allow_prompt_handoff && !v2 && is_true(caps, &["_meta", "claudeCode", "promptQueueing"]);
        let offered = [
            steers.then_some(SteerPath::Inject { replace }),
            extension.then_some(SteerPath::SteeringExtension),
            handoff.then_some(SteerPath::PromptHandoff),
        ];
        let path = offered.iter().flatten().next().copied().unwrap_or(SteerPath::Queue);
        let prompt_caps = if v2 { &["session", "prompt"][..] } else { &["promptCapabilities"][..] };
        let prompt_cap = |name: &str| flag(caps, &[prompt_caps, &[name]].concat());
        let prompt =
            PromptCapabilities { image: prompt_cap("image"), audio: prompt_cap("audio"), embedded_context: prompt_cap("embeddedContext") };
        Capabilities { protocol, path, prompt, offered }
    }
}
