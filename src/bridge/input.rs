//! One input of the driver, whatever it is for: `do` names it and it carries
//! only the fields it takes (the rest read as absent). One flat shape for
//! every engine and the module, so the wasm holds one reader of it.

use serde::Deserialize;

use super::answer::Refused;
use super::described::Described;
#[cfg(feature = "desktop")]
use super::desktop_call::DesktopCall;
use super::options::OptionsRead;
use super::role::RoleRead;
use crate::core::RejectionFacts;

/// What happened, as the driver says it.
///
/// ```
/// use renderer_steering::bridge::Input;
/// let input: Input = serde_json::from_str(r#"{"do":"tick","now":12.5}"#).unwrap();
/// assert_eq!((input.what.as_str(), input.now()), ("tick", 12.5));
/// let input: Input = serde_json::from_str(r#"{"do":"tick","now":null}"#).unwrap();
/// assert!(input.now().is_nan(), "a broken page clock");
/// ```
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Input {
    /// The input's name (`steer`, `answer`, `tick`, `open`, ...).
    #[serde(rename = "do")]
    pub what: String,
    /// The clock's reading (`null`: the page's clock gave no number).
    now: Option<f64>,
    /// A thread id, described.
    pub thread_id: Described,
    /// A session id, described.
    pub session_id: Described,
    /// A message id, described.
    pub message_id: Described,
    /// `decide`'s text, described.
    pub text: Described,
    /// A prompt token, described.
    pub token: Described,
    /// `requestOptions.timeoutMs`, described.
    pub timeout_ms: Described,
    /// A fresh random id ("" when the page has none).
    pub fresh_id: String,
    /// What `streamRole` answered for the thread, when asked.
    pub role: Option<RoleRead>,
    /// `steer`: the caller gave a `reconcile` hook.
    pub reconcile_hook: bool,
    /// Why the front door could not read the payload's value.
    pub refused: Option<Refused>,
    /// A request id (an answer).
    pub id: u64,
    /// How a request settled: result, rejected, unreadable, notSent, timeout.
    pub how: String,
    /// What the driver read of a rejected request.
    pub rejection: Option<RejectionFacts>,
    /// Words for a failure.
    pub words: String,
    /// The connection an `initialize` wait belongs to.
    pub epoch: u32,
    /// The `initialize` promise resolved.
    pub ok: bool,
    /// One call of the desktop hook.
    #[cfg(feature = "desktop")]
    pub call: Option<DesktopCall>,
    /// `open`: which engine (`codexhost`, `acp`, `desktop`).
    pub engine: String,
    /// `open`: its options, read.
    pub options: Option<OptionsRead>,
    /// `close`: the engine's handle; `open` of the desktop hook: its decider's.
    pub handle: u32,
    /// `failure`: the kind.
    pub kind: String,
    /// `failure`: the words.
    pub detail: String,
    /// The wall clock (`Date.now()`), which journal records are dated by.
    wall: Option<f64>,
    /// `recover`: each thread the journal named, and what `streamRole`
    /// answered for it.
    pub roles: Vec<(String, Option<RoleRead>)>,
    /// The desktop's follow-up queue: `[id, pauseReason, ...]`, described
    /// (`null`: it could not be read).
    pub follow_ups: Option<Vec<Described>>,
    /// `unpause`: the ids the stop had paused before the steer, described.
    pub paused_before: Vec<Described>,
}

impl Input {
    /// The clock's reading; NaN when the page's clock gave none.
    ///
    /// ```
    /// # use renderer_steering::bridge::Input;
    /// let input: Input = serde_json::from_str(r#"{"do":"tick","now":40}"#).unwrap();
    /// assert_eq!(input.now(), 40.0);
    /// assert!(Input::default().now().is_nan(), "no reading given");
    /// ```
    pub fn now(&self) -> f64 {
        self.now.unwrap_or(f64::NAN)
    }

    /// The wall clock's reading; NaN when the page's clock gave none.
    ///
    /// ```
    /// # use renderer_steering::bridge::Input;
    /// let input: Input = serde_json::from_str(r#"{"do":"open","now":5,"wall":1700000000005}"#).unwrap();
    /// assert_eq!(input.wall() - input.now(), 1_700_000_000_000.0, "the wall clock's lead");
    /// assert!(Input::default().wall().is_nan(), "no reading given");
    /// ```
    pub fn wall(&self) -> f64 {
        self.wall.unwrap_or(f64::NAN)
    }
}
