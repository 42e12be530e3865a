//! `AcpSteering`'s engine behind the boundary: its options, the app's
//! reports of the connection (`initialize`, prompts, updates, sessions) and
//! sends, revokes and replaces in; steps out.

use super::answer::{host_answer, Refused};
use super::clock::Clock;
use super::codexhost::Op;
use super::described::Described;
use super::input::Input;
use super::journal::{listing, Pending};
use super::options::journal_prefix;
use super::options::OptionsRead;
use super::output::{Output, Step};
use super::unknown;
use crate::core::acp::{AcpEngine, PromptToken};
use crate::core::content::check_array;
use crate::core::error::OptionError;
use crate::core::given::Given;
use crate::core::options::{optional, required, Accepts};
use crate::core::{Failure, Json, OpId, SteeringError, Trace};

/// One ACP engine and its connection count.
#[derive(Debug)]
pub(super) struct Session {
    engine: AcpEngine,
    clock: Clock,
    /// Counts `connectionClosed()`: an `initialize` answer of an earlier
    /// connection that settles late opens nothing.
    epoch: u32,
    /// The journal's prefix, when the app gave one.
    journal: Option<String>,
    /// The records `recoverRead` found.
    pending: Pending,
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

const SHAPE: &str = "{ request, initialize?, allowPromptHandoff?, timeouts?, journal?, journalKey?, onJournalError? }";

#[cfg_attr(feature = "size-first", optimize(size))]
fn typed(failure: Failure) -> SteeringError {
    SteeringError::new(failure, Json::no_items(), Trace::default())
}

/// A session or message id, or the typed error.
#[cfg_attr(feature = "size-first", optimize(size))]
fn id(value: &Described, what: &str) -> Result<String, SteeringError> {
    required(what, Accepts::Id, &value.given()).map_err(|e: OptionError| typed(e.into()))?;
    Ok(value.text().unwrap_or_default().to_string())
}

/// A draft (content blocks) from the payload, within [`MAX_DRAFT_BYTES`].
#[cfg_attr(feature = "size-first", optimize(size))]
fn draft(refused: Option<Refused>, payload: String) -> Result<Json, SteeringError> {
    if let Some(refused) = refused {
        return Err(typed(refused.draft_failure()));
    }
    let draft = Json::parse(payload).map_err(|e| typed(Failure::invalid_input(format!("the draft cannot be read: {e}"))))?;
    check_array(&draft).map_err(typed)?;
    Ok(draft)
}

/// A host value the app relays (an `initialize` or prompt answer, an update).
#[cfg_attr(feature = "size-first", optimize(size))]
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
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn open(read: &OptionsRead, payload: String, wall_offset: f64) -> Result<(Session, Opened), OptionError> {
        read.check_shape(SHAPE, true)?;
        read.required_function("request", "(method, params, options?) => Promise")?;
        let initialize = read.field("initialize");
        optional("options.initialize", Accepts::AnswerOrPromise, &initialize.given())?;
        let allow = read.flag("allowPromptHandoff")?;
        let timeouts = read.timeouts()?;
        let journal = journal_prefix(read)?;
        let mut engine = AcpEngine::new(timeouts, allow);
        if let Some(prefix) = &journal {
            engine.enable_journal(prefix.clone(), wall_offset);
        }
        let mut session = Session { engine, clock: Clock::default(), epoch: 0, journal, pending: Pending::default() };
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

    /// The journal's prefix, when it keeps one.
    pub(super) fn journal(&self) -> Option<String> {
        self.journal.clone()
    }

    /// The app's storage failed: the journal is off; true when it was on.
    pub(super) fn journal_failed(&mut self) -> bool {
        self.engine.journal_failed()
    }

    /// One step.
    pub(super) fn step(&mut self, input: Input, payload: String) -> Output {
        let out = match self.apply(input, payload) {
            Ok(out) => out,
            Err(error) => Output::failed(&error),
        };
        let mut out = out.drain(&mut self.engine, |_, _| None);
        // `recover()` answers its entries, as codexhost's does (the outcome
        // itself carries them beside its `kind`).
        for step in &mut out.steps {
            if let Step::Complete { ok: Some(outcome), .. } = step {
                if outcome.field("kind").is_some_and(|kind| kind.text() == "\"recovered\"") {
                    *outcome = outcome.field("entries").unwrap_or_else(Json::no_items);
                }
            }
        }
        out
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    fn apply(&mut self, input: Input, payload: String) -> Result<Output, SteeringError> {
        let engine = &mut self.engine;
        // The journal's prefix while it is on: what recovery lists and reads.
        let journal_on = self.journal.as_deref().filter(|_| engine.journal_on());
        let now = self.clock.reading(input.now());
        let none = Output::default();
        let session = || id(&input.session_id, "sessionId");
        Ok(match input.what.as_str() {
            "initialized" => {
                let answer = host_value(input.refused, payload, "the initialize answer")?;
                engine.initialized(&answer, now);
                none
            }
            "initializeSettled" => {
                if input.epoch == self.epoch {
                    // Refused, unreadable or no answer in time: the waiting
                    // messages are handed back and input is `unavailable`.
                    match input.ok.then(|| Json::parse(payload).ok()).flatten() {
                        Some(answer) => engine.initialized(&answer, now),
                        None => engine.initialize_failed(),
                    }
                }
                none
            }
            "send" => {
                let session_id = session()?;
                let content = draft(input.refused, payload)?;
                submitted(engine.send(&session_id, content, now))
            }
            "revoke" => {
                let (session_id, message_id) = (session()?, id(&input.message_id, "messageId")?);
                submitted(engine.revoke(&session_id, &message_id, now))
            }
            "replace" => {
                let (session_id, message_id) = (session()?, id(&input.message_id, "messageId")?);
                let content = draft(input.refused, payload)?;
                submitted(engine.replace(&session_id, &message_id, content, now))
            }
            "promptSent" => Output::value(&engine.prompt_sent(&session()?).0),
            "cancelSent" => {
                engine.cancel_sent(&session()?);
                none
            }
            "promptAnswered" => {
                let session_id = session()?;
                let token = match input.token.given() {
                    Given::Undefined => None,
                    Given::Number(n) if Accepts::PromptToken.admits(&Given::Number(n)) => Some(PromptToken(n as u64)),
                    given => return Err(typed(OptionError::refused("token", Accepts::PromptToken, given).into())),
                };
                let answer = host_value(input.refused, payload, "the prompt answer")?;
                Output::value(&engine.prompt_answered_for(&session_id, token, &answer, now))
            }
            "update" => {
                let session_id = session()?;
                let update = host_value(input.refused, payload, "the update")?;
                engine.update(&session_id, &update, now);
                none
            }
            "sessionIdle" => {
                engine.session_idle(&session()?, now);
                none
            }
            "sessionReplaced" => {
                engine.session_replaced(&session()?);
                none
            }
            "sessionClosed" => {
                engine.session_closed(&session()?);
                none
            }
            "connectionClosed" => {
                self.epoch = self.epoch.wrapping_add(1);
                engine.connection_closed();
                none
            }
            "inputMode" => Output::value(&engine.composer(&session()?)),
            "queued" => Output::value(&engine.composer(&session()?).queued),
            "answer" => {
                engine.handle_answer(crate::core::RequestId(input.id), host_answer(&input, payload), now);
                none
            }
            "tick" => {
                engine.handle_timeout(now);
                none
            }
            "dispose" => {
                engine.dispose();
                none
            }
            "liveState" => Output::value(&engine.live_state()),
            "recoverList" => listing(journal_on),
            "recoverRead" => self.pending.read(journal_on, &input, &payload),
            "recover" => submitted(Ok(engine.recover(self.pending.take(), now))),
            "forget" => {
                engine.forget(&id(&input.message_id, "messageId")?);
                none
            }
            other => unknown(other),
        })
    }
}
