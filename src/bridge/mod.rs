//! The one boundary between the engines and their JavaScript driver: data
//! in, data out. Every call is `step(handle, input, payload)`: `input` is a
//! small JSON object naming what happened (a submission, a host's answer,
//! the timer, a query), `payload` the JSON text it carries (a draft the
//! front door read, an answer's result), and the answer is JSON text: the
//! call's own value or typed error, the steps to carry out in order, and
//! the next deadline. Handle 0 is the module itself (`open`, `close`,
//! `limits`, `failure`).
//!
//! Nothing here knows JavaScript: the bridge builds and tests natively, and
//! the wasm shell only exports [`Bridge::step`].
//!
//! ```
//! use renderer_steering::bridge::Bridge;
//! let mut bridge = Bridge::default();
//! let opened = bridge.step(0, r#"{"open":{"codexhost":{"options":{"t":"object"},"fields":{"request":{"t":"function"}}}}}"#, "");
//! assert_eq!(opened, r#"{"value":{"handle":1},"timer":null}"#);
//! let decided = bridge.step(1, r#"{"decide":{"now":0,"threadId":{"t":"string","s":"t-1"},"text":{"t":"string","s":"use pnpm"}}}"#, "");
//! assert!(decided.contains(r#""method":"codexhost/thread/steering/inspect""#));
//! assert!(decided.contains(r#""timer":10000"#), "every wait on the host is bounded");
//! ```

mod acp;
mod answer;
mod clock;
mod codexhost;
mod described;
mod desktop;
mod failure;
mod limits;
mod options;
mod output;

pub use answer::{Refused, Settled};
pub use clock::{reading, Clock};
pub use described::Described;
pub use desktop::Rejection;
pub use failure::Refusal;
pub use limits::Limits;
pub use options::{timeout_keys_read, OptionsRead};
pub use output::{Output, Step};

use serde::Deserialize;

/// The longest wait the desktop hook arms (a timer holds at most 2^31 - 1 ms).
const MAX_WAIT_MS: u64 = (1 << 31) - 2;

/// One engine behind a handle.
#[derive(Debug)]
enum Session {
    Codexhost(codexhost::Session),
    Acp(acp::Session),
    Desktop(desktop::Session),
}

/// What the module itself is asked (handle 0).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
enum ModuleInput {
    /// A new engine from its constructor's options.
    Open(Open),
    /// The engine is gone: its handle is freed.
    Close { handle: u32 },
    /// The front door's read limits.
    Limits {},
    /// A typed error the driver fails a call with (a method called on no
    /// live instance, a desktop failure).
    Failure(Refusal),
    /// The desktop hook's options, checked before anything is built.
    DesktopOptions(OptionsRead),
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
enum Open {
    Codexhost(OptionsRead),
    Acp(OptionsRead),
    /// The desktop hook over the codexhost engine `decider` (its steer bound).
    Desktop {
        decider: u32,
    },
}

/// Every engine the page made, by handle.
///
/// ```
/// use renderer_steering::bridge::Bridge;
/// let mut bridge = Bridge::default();
/// assert!(bridge.step(9, r#"{"tick":{"now":0}}"#, "").contains("thrown"), "no such engine");
/// ```
#[derive(Debug, Default)]
pub struct Bridge {
    sessions: Vec<Option<Session>>,
}

#[derive(Debug, serde::Serialize)]
struct Handle {
    handle: u32,
}

#[derive(Debug, serde::Serialize)]
struct OpenedAcp {
    handle: u32,
    #[serde(flatten)]
    opened: acp::Opened,
}

impl Bridge {
    /// One call: `input` (JSON) with its `payload` (JSON text or ""), for
    /// the engine `handle` (0: the module). Answers JSON text ([`Output`]);
    /// never panics on any input.
    pub fn step(&mut self, handle: u32, input: &str, payload: &str) -> String {
        self.answer(handle, input, payload.to_string()).text()
    }

    fn answer(&mut self, handle: u32, input: &str, payload: String) -> Output {
        if handle == 0 {
            return match serde_json::from_str::<ModuleInput>(input) {
                Ok(input) => self.module(input, payload),
                Err(e) => unreadable(&e),
            };
        }
        let Some(Some(session)) = self.sessions.get_mut(handle as usize - 1) else {
            return Output::thrown("renderer-steering: this engine was freed");
        };
        let read = match session {
            Session::Codexhost(session) => serde_json::from_str(input).map(|input| session.step(input, payload)),
            Session::Acp(session) => serde_json::from_str(input).map(|input| session.step(input, payload)),
            Session::Desktop(session) => serde_json::from_str(input).map(|input| session.step(input, payload)),
        };
        read.unwrap_or_else(|e| unreadable(&e))
    }

    fn module(&mut self, input: ModuleInput, payload: String) -> Output {
        match input {
            ModuleInput::Open(Open::Codexhost(read)) => match codexhost::Session::open(&read) {
                Ok(session) => Output::value(&Handle { handle: self.add(Session::Codexhost(session)) }),
                Err(e) => Output::thrown(e.to_string()),
            },
            ModuleInput::Open(Open::Acp(read)) => match acp::Session::open(&read, payload) {
                Ok((session, opened)) => Output::value(&OpenedAcp { handle: self.add(Session::Acp(session)), opened }),
                Err(e) => Output::thrown(e.to_string()),
            },
            ModuleInput::Open(Open::Desktop { decider }) => {
                let steer_ms = match self.sessions.get(decider.wrapping_sub(1) as usize) {
                    Some(Some(Session::Codexhost(decider))) => decider.engine().timeouts().steer_ms.min(MAX_WAIT_MS),
                    _ => return Output::thrown("renderer-steering: the desktop hook needs its codexhost engine"),
                };
                Output::value(&Handle { handle: self.add(Session::Desktop(desktop::Session::new(steer_ms))) })
            }
            ModuleInput::Close { handle } => {
                if let Some(slot) = self.sessions.get_mut(handle.wrapping_sub(1) as usize) {
                    *slot = None;
                }
                while matches!(self.sessions.last(), Some(None)) {
                    self.sessions.pop();
                }
                Output::default()
            }
            ModuleInput::Limits {} => Output::value(&Limits::default()),
            ModuleInput::Failure(refusal) => Output::failed(&refusal.error()),
            ModuleInput::DesktopOptions(read) => match desktop_options(&read) {
                Ok(()) => Output::default(),
                Err(e) => Output::thrown(e.to_string()),
            },
        }
    }

    /// Puts `session` in the first free slot; its handle.
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

/// The desktop hook's options: an object or absent, `onReconcile` a function or absent.
fn desktop_options(read: &OptionsRead) -> Result<(), crate::core::error::OptionError> {
    read.check_shape("{ timeouts?, onReconcile? }", false)?;
    read.optional_function("onReconcile", "({ threadId, clientUserMessageId, presented, delivery, turnId }) => void")?;
    Ok(())
}

/// Input the driver should never send: a bug of the driver, said plainly.
fn unreadable(error: &serde_json::Error) -> Output {
    Output::thrown(format!("renderer-steering: the engine could not read its input ({error})"))
}
