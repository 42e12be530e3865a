//! `AcpSteering`'s engine behind the boundary: its options, the app's
//! reports of the connection (`initialize`, prompts, updates, sessions) and
//! sends, revokes and replaces in; steps out.

use serde::Deserialize;

use super::answer::{Refused, Settled};
use super::clock::Clock;
use super::codexhost::Op;
use super::described::Described;
use super::options::OptionsRead;
use super::output::Output;
use crate::core::acp::{AcpEngine, PromptToken};
use crate::core::content::{check_array, MAX_DRAFT_BYTES};
use crate::core::error::OptionError;
use crate::core::given::Given;
use crate::core::options::{optional, required, Accepts};
use crate::core::{Failure, Json, OpId, SteeringError, Trace};

/// What the driver hands an ACP engine. `session_id` and `message_id` are
/// described ids; a draft or a host value is the payload, or `refused`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub(super) enum Input {
    /// `initialized(answer)`, or the constructor's `initialize` answer.
    Initialized {
        #[serde(deserialize_with = "super::reading")]
        now: f64,
        #[serde(default)]
        refused: Option<Refused>,
    },
    /// The constructor's `initialize` promise settled (`ok`: with an
    /// answer, the payload), in connection `epoch`.
    InitializeSettled {
        #[serde(deserialize_with = "super::reading")]
        now: f64,
        epoch: u32,
        ok: bool,
    },
    /// `send(sessionId, content, hooks)`.
    Send {
        #[serde(deserialize_with = "super::reading")]
        now: f64,
        session_id: Described,
        #[serde(default)]
        refused: Option<Refused>,
    },
    /// `revoke(sessionId, messageId)`.
    Revoke {
        #[serde(deserialize_with = "super::reading")]
        now: f64,
        session_id: Described,
        message_id: Described,
    },
    /// `replace(sessionId, messageId, content)`.
    Replace {
        #[serde(deserialize_with = "super::reading")]
        now: f64,
        session_id: Described,
        message_id: Described,
        #[serde(default)]
        refused: Option<Refused>,
    },
    /// `promptSent(sessionId)`.
    PromptSent { session_id: Described },
    /// `cancelSent(sessionId)`.
    CancelSent { session_id: Described },
    /// `promptAnswered(sessionId, answer, token?)`.
    PromptAnswered {
        #[serde(deserialize_with = "super::reading")]
        now: f64,
        session_id: Described,
        #[serde(default)]
        token: Described,
        #[serde(default)]
        refused: Option<Refused>,
    },
    /// `update(sessionId, update)`.
    Update {
        session_id: Described,
        #[serde(default)]
        refused: Option<Refused>,
    },
    /// `sessionIdle(sessionId)`.
    SessionIdle {
        #[serde(deserialize_with = "super::reading")]
        now: f64,
        session_id: Described,
    },
    /// `sessionReplaced(sessionId)`.
    SessionReplaced { session_id: Described },
    /// `sessionClosed(sessionId)`.
    SessionClosed { session_id: Described },
    /// `connectionClosed()`.
    ConnectionClosed {},
    /// `inputMode(sessionId)`.
    #[allow(clippy::enum_variant_names, reason = "named after the method it stands for")]
    InputMode { session_id: Described },
    /// `queued(sessionId)`.
    Queued { session_id: Described },
    /// A host call settled.
    Answer(Settled),
    /// The timer fired.
    Tick {
        #[serde(deserialize_with = "super::reading")]
        now: f64,
    },
    /// `dispose()`.
    Dispose {},
    /// `liveState()`.
    LiveState {},
}

/// One ACP engine and its connection count.
#[derive(Debug)]
pub(super) struct Session {
    engine: AcpEngine,
    clock: Clock,
    /// Counts `connectionClosed()`: an `initialize` answer of an earlier
    /// connection that settles late opens nothing.
    epoch: u32,
}

/// What the constructor tells the driver.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Opened {
    /// Wait this long for the `initialize` promise, then report it
    /// (`initializeSettled` with this `epoch`); absent: nothing to wait for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub await_initialize_ms: Option<u64>,
    /// The connection the wait belongs to.
    pub epoch: u32,
}

const SHAPE: &str = "{ request, initialize?, allowPromptHandoff?, timeouts? }";

fn typed(failure: Failure) -> SteeringError {
    SteeringError::new(failure, Json::no_items(), Trace::default())
}

/// A session or message id, or the typed error.
fn id(value: &Described, what: &str) -> Result<String, SteeringError> {
    required(what, Accepts::Id, &value.given()).map_err(|e: OptionError| typed(e.into()))?;
    Ok(value.text().unwrap_or_default().to_string())
}

/// A draft (content blocks) from the payload, within [`MAX_DRAFT_BYTES`].
fn draft(refused: Option<Refused>, payload: String) -> Result<Json, SteeringError> {
    if let Some(refused) = refused {
        if refused.too_large {
            return Err(typed(Failure::draft_too_large(MAX_DRAFT_BYTES + 1)));
        }
        if refused.reason.starts_with("the draft") {
            return Err(typed(Failure::invalid_input(refused.reason)));
        }
        return Err(typed(Failure::invalid_input(format!("the draft cannot be read: {}", refused.reason))));
    }
    let draft = Json::parse(payload).map_err(|e| typed(Failure::invalid_input(format!("the draft cannot be read: {e}"))))?;
    check_array(&draft).map_err(typed)?;
    Ok(draft)
}

/// A host value the app relays (an `initialize` or prompt answer, an update).
fn host_value(refused: Option<Refused>, payload: String, what: &str) -> Result<Json, SteeringError> {
    let reason = match refused {
        Some(refused) => refused.reason,
        None => match Json::parse(payload) {
            Ok(value) => return Ok(value),
            Err(e) => e.to_string(),
        },
    };
    Err(typed(Failure::invalid_input(format!("{what} cannot be read: {reason}"))))
}

fn submitted(result: Result<OpId, SteeringError>) -> Output {
    match result {
        Ok(op) => Output::value(&Op { op: op.0 }),
        Err(error) => Output::failed(&error),
    }
}

impl Session {
    /// A session from the constructor's options; `initialize` applied at
    /// once when it is the answer itself (the payload).
    pub(super) fn open(read: &OptionsRead, payload: String) -> Result<(Session, Opened), OptionError> {
        read.check_shape(SHAPE, true)?;
        read.required_function("request", "(method, params, options?) => Promise")?;
        let initialize = read.field("initialize");
        optional("options.initialize", Accepts::AnswerOrPromise, &initialize.given())?;
        let allow = read.flag("allowPromptHandoff")?;
        let timeouts = read.timeouts()?;
        let mut session = Session { engine: AcpEngine::new(timeouts, allow), clock: Clock::default(), epoch: 0 };
        let mut opened = Opened { await_initialize_ms: None, epoch: 0 };
        if initialize.is_thenable() {
            // Sends wait for the answer (bounded by requestMs) instead of
            // failing `unavailable` while it is on its way.
            session.engine.initializing();
            opened.await_initialize_ms = Some(timeouts.request_ms);
        } else if !payload.is_empty() {
            // The answer itself: applied now, so a send right after the
            // constructor already sees what the agent advertised.
            if let Ok(answer) = Json::parse(payload) {
                session.engine.initialized(&answer, 0);
            }
        }
        Ok((session, opened))
    }

    /// One step.
    pub(super) fn step(&mut self, input: Input, payload: String) -> Output {
        let out = match self.apply(input, payload) {
            Ok(out) => out,
            Err(error) => Output::failed(&error),
        };
        out.drain(&mut self.engine, |_, _| None)
    }

    fn apply(&mut self, input: Input, payload: String) -> Result<Output, SteeringError> {
        let engine = &mut self.engine;
        let clock = &mut self.clock;
        let none = Output::default();
        Ok(match input {
            Input::Initialized { now, refused } => {
                let answer = host_value(refused, payload, "the initialize answer")?;
                engine.initialized(&answer, clock.reading(now));
                none
            }
            Input::InitializeSettled { now, epoch, ok } => {
                if epoch == self.epoch {
                    // Refused, unreadable or no answer in time: the waiting
                    // messages are handed back and input is `unavailable`.
                    match ok.then(|| Json::parse(payload).ok()).flatten() {
                        Some(answer) => engine.initialized(&answer, clock.reading(now)),
                        None => engine.initialize_failed(),
                    }
                }
                none
            }
            Input::Send { now, session_id, refused } => {
                let session_id = id(&session_id, "sessionId")?;
                let content = draft(refused, payload)?;
                submitted(engine.send(&session_id, content, clock.reading(now)))
            }
            Input::Revoke { now, session_id, message_id } => {
                let (session_id, message_id) = (id(&session_id, "sessionId")?, id(&message_id, "messageId")?);
                submitted(engine.revoke(&session_id, &message_id, clock.reading(now)))
            }
            Input::Replace { now, session_id, message_id, refused } => {
                let (session_id, message_id) = (id(&session_id, "sessionId")?, id(&message_id, "messageId")?);
                let content = draft(refused, payload)?;
                submitted(engine.replace(&session_id, &message_id, content, clock.reading(now)))
            }
            Input::PromptSent { session_id } => Output::value(&engine.prompt_sent(&id(&session_id, "sessionId")?).0),
            Input::CancelSent { session_id } => {
                engine.cancel_sent(&id(&session_id, "sessionId")?);
                none
            }
            Input::PromptAnswered { now, session_id, token, refused } => {
                let session_id = id(&session_id, "sessionId")?;
                let token = match token.given() {
                    Given::Undefined => None,
                    Given::Number(n) if Accepts::PromptToken.admits(&Given::Number(n)) => Some(PromptToken(n as u64)),
                    given => return Err(typed(OptionError::refused("token", Accepts::PromptToken, given).into())),
                };
                let answer = host_value(refused, payload, "the prompt answer")?;
                Output::value(&engine.prompt_answered_for(&session_id, token, &answer, clock.reading(now)))
            }
            Input::Update { session_id, refused } => {
                let session_id = id(&session_id, "sessionId")?;
                let update = host_value(refused, payload, "the update")?;
                engine.update(&session_id, &update);
                none
            }
            Input::SessionIdle { now, session_id } => {
                engine.session_idle(&id(&session_id, "sessionId")?, clock.reading(now));
                none
            }
            Input::SessionReplaced { session_id } => {
                engine.session_replaced(&id(&session_id, "sessionId")?);
                none
            }
            Input::SessionClosed { session_id } => {
                engine.session_closed(&id(&session_id, "sessionId")?);
                none
            }
            Input::ConnectionClosed {} => {
                self.epoch = self.epoch.wrapping_add(1);
                engine.connection_closed();
                none
            }
            Input::InputMode { session_id } => Output::value(&engine.composer(&id(&session_id, "sessionId")?)),
            Input::Queued { session_id } => Output::value(&engine.composer(&id(&session_id, "sessionId")?).queued),
            Input::Answer(settled) => {
                let now = clock.reading(settled.now);
                let id = crate::core::RequestId(settled.id);
                engine.handle_answer(id, settled.answer(payload), now);
                none
            }
            Input::Tick { now } => {
                engine.handle_timeout(clock.reading(now));
                none
            }
            Input::Dispose {} => {
                engine.dispose();
                none
            }
            Input::LiveState {} => Output::value(&engine.live_state()),
        })
    }
}
