//! The one boundary between the engines and their JavaScript driver: data
//! in, data out. Every call is `step(handle, input, payload)`: `input` is a
//! small JSON object naming what happened (a submission, a host's answer,
//! the timer, a query), `payload` the JSON text it carries (a draft the
//! front door read, an answer's result), and the answer is JSON text: the
//! call's own value or typed error, the steps to carry out in order, and
//! the next deadline. Handle 0 is the module itself (`open`, `close`,
//! `limits`, `failure`). Every input is one flat object ([`Input`]): `do`
//! names it.
//!
//! Nothing here knows JavaScript: the bridge builds and tests natively, and
//! the wasm shell only exports [`Bridge::step`].
//!
//! ```
//! use renderer_steering::bridge::Bridge;
//! let mut bridge = Bridge::default();
//! let opened = bridge.step(0, r#"{"do":"open","engine":"codexhost","options":{"options":{"t":"object"},"fields":[["request",{"t":"function"}]]}}"#, "");
//! assert_eq!(opened, r#"{"value":{"handle":1},"timer":null}"#);
//! let decided = bridge.step(1, r#"{"do":"decide","now":0,"threadId":{"t":"string","s":"t-1"},"text":{"t":"string","s":"use pnpm"}}"#, "");
//! assert!(decided.contains(r#""method":"codexhost/thread/steering/inspect""#));
//! assert!(decided.contains(r#""timer":10000"#), "every wait on the host is bounded");
//! ```

mod acp;
mod answer;
mod clock;
mod codexhost;
mod described;
#[cfg(feature = "desktop")]
mod desktop;
#[cfg(feature = "desktop")]
mod desktop_call;
mod failure;
#[cfg(feature = "desktop")]
mod follow_ups;
mod input;
mod journal;
mod limits;
mod options;
mod output;
mod role;

pub use answer::{host_answer, Refused, RefusedWhat};
pub use clock::{reading, Clock};
pub use described::Described;
#[cfg(feature = "desktop")]
pub use desktop::Rejection;
#[cfg(feature = "desktop")]
pub use desktop_call::{DesktopCall, DesktopOp, Facts};
pub use failure::failure;
#[cfg(feature = "desktop")]
pub use follow_ups::{follow_up_id, follow_ups};
pub use input::Input;
pub use limits::Limits;
pub use options::{journal_prefix, timeout_keys_read, OptionsRead, DEFAULT_JOURNAL_KEY};
pub use output::{Output, Step};
pub use role::RoleRead;

/// The longest wait the desktop hook arms (a timer holds at most 2^31 - 1 ms).
const MAX_WAIT_MS: u64 = (1 << 31) - 2;

/// One engine behind a handle.
#[derive(Debug)]
enum Session {
    #[cfg(feature = "codexhost")]
    Codexhost(codexhost::Session),
    #[cfg(feature = "acp")]
    Acp(acp::Session),
    #[cfg(feature = "desktop")]
    Desktop(desktop::Session),
}

/// Every engine the page made, by handle.
///
/// ```
/// use renderer_steering::bridge::Bridge;
/// let mut bridge = Bridge::default();
/// assert!(bridge.step(9, r#"{"do":"tick","now":0}"#, "").contains("thrown"), "no such engine");
/// ```
#[derive(Debug, Default)]
pub struct Bridge {
    sessions: Vec<Option<Session>>,
}

/// A new engine's handle, and its journal's prefix when it keeps one.
#[derive(Debug, serde::Serialize)]
struct Handle {
    handle: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    journal: Option<String>,
}

#[derive(Debug, serde::Serialize)]
struct OpenedAcp {
    handle: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    journal: Option<String>,
    #[serde(flatten)]
    opened: acp::Opened,
}

/// How far the wall clock is ahead of the engine's clock, so a record can
/// be dated in a time that outlives the page.
fn wall_offset(input: &Input) -> f64 {
    input.wall() - input.now()
}

impl Bridge {
    /// One call: `input` (JSON) with its `payload` (JSON text or ""), for
    /// the engine `handle` (0: the module). Answers JSON text ([`Output`]);
    /// never panics on any input.
    ///
    /// ```
    /// # use renderer_steering::bridge::Bridge;
    /// let mut bridge = Bridge::default();
    /// let options = r#"{"options":{"t":"object"},"fields":[["request",{"t":"function"}]]}"#;
    /// let opened = bridge.step(0, &format!(r#"{{"do":"open","engine":"codexhost","options":{options}}}"#), "");
    /// assert_eq!(opened, r#"{"value":{"handle":1},"timer":null}"#);
    /// assert_eq!(bridge.step(0, r#"{"do":"close","handle":1}"#, ""), r#"{"timer":null}"#, "nothing to return, nothing to do");
    /// assert!(bridge.step(1, "not json", "").starts_with(r#"{"thrown":"renderer-steering: the engine could not read its input"#));
    /// ```
    pub fn step(&mut self, handle: u32, input: &str, payload: &str) -> String {
        self.answer(handle, input, payload.to_string()).text()
    }

    fn answer(&mut self, handle: u32, input: &str, payload: String) -> Output {
        let input: Input = match serde_json::from_str(input) {
            Ok(input) => input,
            Err(e) => return Output::thrown(format!("renderer-steering: the engine could not read its input ({e})")),
        };
        if handle == 0 {
            return self.module(input, payload);
        }
        if input.what == "journalFailed" {
            return self.journal_failed(handle);
        }
        match self.sessions.get_mut(handle as usize - 1) {
            #[cfg(feature = "codexhost")]
            Some(Some(Session::Codexhost(session))) => session.step(input, payload),
            #[cfg(feature = "acp")]
            Some(Some(Session::Acp(session))) => session.step(input, payload),
            #[cfg(feature = "desktop")]
            Some(Some(Session::Desktop(session))) => session.step(input, payload),
            _ => Output::thrown("renderer-steering: this engine was freed"),
        }
    }

    /// What the module itself is asked: `open` (an engine from its
    /// constructor's options), `close`, `limits`, `failure` (a typed error
    /// when no engine is asked), `desktopOptions` (checked before the hook is built).
    #[cfg_attr(feature = "size-first", optimize(size))]
    #[cfg_attr(not(feature = "acp"), allow(unused_variables))]
    fn module(&mut self, mut input: Input, payload: String) -> Output {
        let read = input.options.take().unwrap_or_default();
        match (input.what.as_str(), input.engine.as_str()) {
            #[cfg(feature = "codexhost")]
            ("open", "codexhost") => match codexhost::Session::open(&read, wall_offset(&input)) {
                Ok(session) => {
                    let journal = session.journal();
                    Output::value(&Handle { handle: self.add(Session::Codexhost(session)), journal })
                }
                Err(e) => Output::thrown(e.to_string()),
            },
            #[cfg(feature = "acp")]
            ("open", "acp") => match acp::Session::open(&read, payload, wall_offset(&input)) {
                Ok((session, opened)) => {
                    let journal = session.journal();
                    Output::value(&OpenedAcp { handle: self.add(Session::Acp(session)), journal, opened })
                }
                Err(e) => Output::thrown(e.to_string()),
            },
            #[cfg(feature = "desktop")]
            ("open", "desktop") => {
                let (steer_ms, journal) = match self.sessions.get(input.handle.wrapping_sub(1) as usize) {
                    Some(Some(Session::Codexhost(decider))) => {
                        (decider.engine().timeouts().steer_ms.min(MAX_WAIT_MS), decider.journal_for_hook())
                    }
                    _ => return Output::thrown("renderer-steering: the desktop hook needs its codexhost engine"),
                };
                let hook = desktop::Session::new(steer_ms, journal, input.handle);
                Output::value(&Handle { handle: self.add(Session::Desktop(hook)), journal: None })
            }
            ("close", _) => {
                if let Some(slot) = self.sessions.get_mut(input.handle.wrapping_sub(1) as usize) {
                    *slot = None;
                }
                // A handle is reused: a hook over the freed engine shares no storage with the next.
                #[cfg(feature = "desktop")]
                for session in self.sessions.iter_mut().flatten() {
                    if let Session::Desktop(hook) = session {
                        if hook.decider == input.handle {
                            hook.decider = 0;
                        }
                    }
                }
                while matches!(self.sessions.last(), Some(None)) {
                    self.sessions.pop();
                }
                Output::default()
            }
            ("limits", _) => Output::value(&Limits::default()),
            ("failure", _) => match failure(&input) {
                Some(error) => Output::failed(&error),
                None => Output::thrown(format!("renderer-steering: no failure is of kind \"{}\"", input.kind)),
            },
            ("open", other) => Output::thrown(format!("renderer-steering: this entry has no {other} engine")),
            #[cfg(feature = "desktop")]
            ("desktopOptions", _) => match options::desktop_options(&read) {
                Ok(()) => Output::default(),
                Err(e) => Output::thrown(e.to_string()),
            },
            (other, _) => unknown(other),
        }
    }

    /// `journalFailed`: the app's storage threw. The journal of the engine
    /// `handle` is off from now on, and so is every journal over the same
    /// storage (a desktop hook's and its decider's), so nothing touches it
    /// again; the one step `journalError` tells the app, when a journal was
    /// on (the first failure only).
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn journal_failed(&mut self, handle: u32) -> Output {
        let root = match self.sessions.get(handle as usize - 1) {
            #[cfg(feature = "desktop")]
            Some(Some(Session::Desktop(hook))) => hook.decider,
            Some(Some(_)) => handle,
            _ => return Output::thrown("renderer-steering: this engine was freed"),
        };
        let mut was_on = false;
        for (index, slot) in self.sessions.iter_mut().enumerate() {
            let this = index as u32 + 1;
            was_on |= match slot {
                #[cfg(feature = "codexhost")]
                Some(Session::Codexhost(session)) if this == root => session.journal_failed(),
                #[cfg(feature = "acp")]
                Some(Session::Acp(session)) if this == root => session.journal_failed(),
                #[cfg(feature = "desktop")]
                Some(Session::Desktop(hook)) if this == handle || (root != 0 && hook.decider == root) => hook.journal_failed(),
                _ => false,
            };
        }
        Output { steps: if was_on { vec![Step::JournalError] } else { Vec::new() }, ..Output::default() }
    }

    /// Puts `session` in the first free slot; its handle.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn add(&mut self, session: Session) -> u32 {
        let free = self.sessions.iter().position(Option::is_none);
        let index = free.unwrap_or(self.sessions.len());
        if index == self.sessions.len() {
            self.sessions.push(None);
        }
        self.sessions[index] = Some(session);
        index as u32 + 1
    }

    /// Engines alive (for leak checks).
    ///
    /// ```
    /// # use renderer_steering::bridge::Bridge;
    /// assert_eq!(Bridge::default().live(), 0);
    /// ```
    pub fn live(&self) -> usize {
        self.sessions.iter().filter(|s| s.is_some()).count()
    }
}

/// An input the driver should never send: a bug of the driver, said plainly.
#[cfg_attr(feature = "size-first", optimize(size))]
fn unknown(what: &str) -> Output {
    Output::thrown(format!("renderer-steering: the engine does not take \"{what}\""))
}
