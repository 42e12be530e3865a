//! `CodexhostSteering`'s engine behind the boundary: its constructor's
//! options, `decide`, `steer` and the host's answers in; steps out.

use super::answer::{host_answer, Refused};
use super::clock::Clock;
use super::described::Described;
use super::input::Input;
use super::journal::{listing, Pending};
use super::options::journal_prefix;
use super::options::OptionsRead;
use super::output::Output;
use super::role::RoleRead;
use super::unknown;
use crate::core::codexhost::{CodexhostEngine, SteerRequest};
use crate::core::content::MAX_DRAFT_BYTES;
use crate::core::error::OptionError;
use crate::core::given::Given;
use crate::core::options::{required, Accepts, MAX_ID_UNITS, STEER_ARGUMENTS};
use crate::core::timeouts::bound_from_ms;
use crate::core::{Failure, Json, ReadError, RequestId, SteeringError, Trace};

/// One codexhost engine and what its driver needs of it.
#[derive(Debug)]
pub(super) struct Session {
    engine: CodexhostEngine,
    clock: Clock,
    /// The app gave `streamRole`: each answer names its thread to ask about.
    asks_roles: bool,
    /// Ids made here when the page has no randomness.
    local_ids: u64,
    /// The journal's prefix, when the app gave one, and how far the wall
    /// clock is ahead of the engine's.
    journal: Option<String>,
    wall_offset: f64,
    /// The records `recoverRead` found.
    pending: Pending,
}

/// The options' shape, for their errors.
const SHAPE: &str = "{ request, timeouts?, streamRole?, journal?, journalKey?, onJournalError? }";

impl Session {
    /// A session from the constructor's options, or the message it throws.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(super) fn open(read: &OptionsRead, wall_offset: f64) -> Result<Session, OptionError> {
        read.check_shape(SHAPE, true)?;
        read.required_function("request", "(method, params, options?) => Promise")?;
        let timeouts = read.timeouts()?;
        let asks_roles = read.optional_function("streamRole", "(threadId) => \"owner\" | \"follower\"")?;
        let journal = journal_prefix(read)?;
        let mut engine = CodexhostEngine::new(timeouts);
        if let Some(prefix) = &journal {
            engine.enable_journal(prefix.clone(), wall_offset);
        }
        Ok(Session { engine, clock: Clock::default(), asks_roles, local_ids: 0, journal, wall_offset, pending: Pending::default() })
    }

    /// The journal's prefix, when it keeps one.
    pub(super) fn journal(&self) -> Option<String> {
        self.journal.clone()
    }

    /// The journal's prefix and the wall clock's offset (for the desktop
    /// hook over this engine, which writes the same records).
    pub(super) fn journal_for_hook(&self) -> Option<(String, f64)> {
        self.journal.clone().map(|prefix| (prefix, self.wall_offset))
    }

    /// The journal's prefix while the journal is on.
    fn listing(&self) -> Option<&str> {
        self.journal.as_deref().filter(|_| self.engine.journal_on())
    }

    /// The app's storage failed: the journal is off; true when it was on.
    pub(super) fn journal_failed(&mut self) -> bool {
        self.engine.journal_failed()
    }

    /// The engine (the desktop hook reads its steer bound).
    pub(super) fn engine(&self) -> &CodexhostEngine {
        &self.engine
    }

    /// One step: `decide`, `steer` (the payload: the read fields' JSON
    /// text), `answer`, `tick`, `dispose`, `connectionReplaced`, `liveState`.
    pub(super) fn step(&mut self, input: Input, payload: String) -> Output {
        let out = match input.what.as_str() {
            "decide" => {
                let now = self.clock.reading(input.now());
                match decide_args(&input.thread_id, &input.text) {
                    Err(failure) => Output::failed(&SteeringError::new(failure, Json::no_items(), Trace::default())),
                    Ok((thread_id, text)) => match self.engine.decide(&thread_id, &text, now) {
                        Ok(op) => Output::value(&Op { op: op.0 }),
                        Err(error) => Output::failed(&error),
                    },
                }
            }
            "steer" => {
                let now = self.clock.reading(input.now());
                let read = match input.refused {
                    Some(refused) => Err(refused),
                    None => Ok(payload),
                };
                match steer_request(read, &input.timeout_ms) {
                    Err(failure) => Output::failed(&SteeringError::new(failure, Json::no_items(), Trace::default())),
                    Ok(mut request) => {
                        if request.client_user_message_id.is_none() {
                            request.client_user_message_id = Some(self.fresh(input.fresh_id, now));
                        }
                        if let Some(follower) = input.role.as_ref().map(RoleRead::follows) {
                            self.engine.set_follower(&request.thread_id, follower);
                        }
                        request.reconciles = input.reconcile_hook;
                        match self.engine.steer(request, now) {
                            Ok(submitted) => Output::value(&Op { op: submitted.op().0 }),
                            Err(error) => Output::failed(&error),
                        }
                    }
                }
            }
            "answer" => {
                let now = self.clock.reading(input.now());
                let id = RequestId(input.id);
                if let Some(follower) = input.role.as_ref().map(RoleRead::follows) {
                    if let Some(thread) = self.engine.thread_of(id).map(String::from) {
                        self.engine.set_follower(&thread, follower);
                    }
                }
                self.engine.handle_answer(id, host_answer(&input, payload), now);
                Output::default()
            }
            "tick" => {
                let now = self.clock.reading(input.now());
                self.engine.handle_timeout(now);
                Output::default()
            }
            "dispose" => {
                self.engine.dispose();
                Output::default()
            }
            "connectionReplaced" => {
                self.engine.connection_replaced();
                Output::default()
            }
            "liveState" => Output::value(&self.engine.live_state()),
            "recoverList" => listing(self.listing()),
            "recoverRead" => {
                let prefix = self.listing().map(String::from);
                self.pending.read(prefix.as_deref(), &input, &payload)
            }
            "recover" => {
                let now = self.clock.reading(input.now());
                for (thread, role) in &input.roles {
                    if role.as_ref().is_some_and(RoleRead::follows) {
                        self.engine.set_follower(thread, true);
                    }
                }
                Output::value(&Op { op: self.engine.recover(self.pending.take(), now).0 })
            }
            "forget" => match required("clientUserMessageId", Accepts::Id, &input.message_id.given()) {
                Ok(()) => {
                    self.engine.forget(input.message_id.text().unwrap_or_default());
                    Output::default()
                }
                Err(refused) => Output::failed(&SteeringError::new(refused.into(), Json::no_items(), Trace::default())),
            },
            other => return unknown(other),
        };
        let asks_roles = self.asks_roles;
        out.drain(&mut self.engine, |engine, id| if asks_roles { engine.thread_of(RequestId(id)).map(String::from) } else { None })
    }

    /// The driver's random id, or one made here when the page has none.
    fn fresh(&mut self, fresh_id: String, now: u64) -> String {
        if !fresh_id.is_empty() {
            return fresh_id;
        }
        self.local_ids += 1;
        format!("local-{now}-{}", self.local_ids)
    }
}

/// A submission's handle, which its steps name.
#[derive(Debug, serde::Serialize)]
pub(super) struct Op {
    pub op: u64,
}

/// `decide`'s thread id and text, or the typed refusal.
#[cfg_attr(feature = "size-first", optimize(size))]
fn decide_args(thread_id: &Described, text: &Described) -> Result<(String, String), Failure> {
    required("threadId", Accepts::Id, &thread_id.given())?;
    let thread_id = thread_id.text().unwrap_or_default().to_string();
    match text.given() {
        Given::Text { units, .. } if units as usize > MAX_DRAFT_BYTES => Err(Failure::draft_too_large(MAX_DRAFT_BYTES + 1)),
        Given::Text { .. } => Ok((thread_id, text.text().unwrap_or_default().to_string())),
        given => Err(crate::core::error::OptionError::refused("text", Accepts::Text, given).into()),
    }
}

/// The steer read from its fields' JSON text, or the typed refusal.
fn steer_request(fields: Result<String, Refused>, timeout_ms: &Described) -> Result<SteerRequest, Failure> {
    let invalid = Failure::invalid_input;
    let text = fields.map_err(|refused| match refused.field.as_str() {
        "input" => refused.draft_failure(),
        "" => invalid(format!("steer arguments: {}", refused.reason)),
        field => invalid(format!("steer arguments: {field}: {}", refused.reason)),
    })?;
    // Explained only on failure: well-formed arguments are read once.
    let mut request: SteerRequest = match serde_json::from_str(&text) {
        Ok(request) => request,
        Err(e) => return Err(invalid(format!("{STEER_ARGUMENTS}: {}", ReadError::new(&e, &text)))),
    };
    for (what, id) in [
        ("threadId", Some(&request.thread_id)),
        ("expectedTurnId", request.expected_turn_id.as_ref()),
        ("clientUserMessageId", request.client_user_message_id.as_ref()),
    ] {
        // Bytes first: a string of at most MAX_ID_UNITS bytes has no more units.
        let units = id.filter(|id| id.len() > MAX_ID_UNITS as usize).map(|id| id.encode_utf16().count());
        if let Some(units) = units.filter(|&units| units > MAX_ID_UNITS as usize) {
            let given = Given::Text { shown: None, units: u32::try_from(units).unwrap_or(u32::MAX) };
            return Err(OptionError::refused(what, Accepts::Id, given).into());
        }
    }
    let timeout = timeout_ms.given();
    if timeout != Given::Undefined {
        required("requestOptions.timeoutMs", Accepts::Milliseconds, &timeout)?;
        let ms = if let Given::Number(ms) = timeout { ms } else { 0.0 };
        let bound = bound_from_ms(ms, "requestOptions.timeoutMs").map_err(invalid)?;
        // 0 is "no timeout" to many clients (axios, fetch wrappers): steerMs stays in force.
        request.steer_timeout_ms = Some(bound).filter(|&ms| ms > 0);
    }
    Ok(request)
}
