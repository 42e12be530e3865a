//! What one step hands back to the driver, as JSON text: the call's own
//! answer (a value, a typed error, or an error a constructor throws), the
//! actions to carry out in order, and the instant to call back at.

use serde::Serialize;

use crate::core::error::ErrorReport;
use crate::core::{Action, Driven, Json, SteeringError};

/// One action for the driver: send a request, run a presentation hook,
/// settle a submission, tell the app of a change, or write the journal.
///
/// ```
/// use renderer_steering::bridge::Step;
/// let text = serde_json::to_string(&Step::Retract { op: 3 }).unwrap();
/// assert_eq!(text, r#"{"do":"retract","op":3}"#);
/// ```
#[derive(Debug, Serialize)]
#[serde(tag = "do", rename_all = "camelCase")]
pub enum Step {
    /// Call the app's `request(method, params)`; `message`: it carries the
    /// user's message (the caller's request options go with it); `key`: the
    /// thread whose stream role to ask before the answer is handed back.
    Send {
        /// Request id: the answer comes back with it.
        id: u64,
        /// The submission it serves.
        op: u64,
        /// JSON-RPC method.
        method: &'static str,
        /// JSON-RPC params.
        params: Json,
        /// Carries the user's message.
        message: bool,
        /// The thread whose stream role is asked before the answer is fed.
        #[serde(skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
    /// `present(shown)`.
    Present {
        /// The submission.
        op: u64,
        /// What to show.
        shown: &'static str,
    },
    /// `accepted(shown)`: the agent took the message as pending input.
    Accepted {
        /// The submission.
        op: u64,
        /// The path that took it.
        shown: &'static str,
    },
    /// `reconcile(from, to)`: asked only of a caller who gave that hook
    /// (the others get `retract()` then `present(to)`).
    Reconcile {
        /// The submission.
        op: u64,
        /// What was shown.
        from: &'static str,
        /// Where it went.
        to: &'static str,
    },
    /// `retract()`.
    Retract {
        /// The submission.
        op: u64,
    },
    /// `unconfirmed(shown)`.
    Unconfirmed {
        /// The submission.
        op: u64,
        /// What is shown.
        shown: &'static str,
    },
    /// Settle the submission's promises: `ok` resolves, `error` rejects.
    Complete {
        /// The submission.
        op: u64,
        /// The outcome.
        #[serde(skip_serializing_if = "Option::is_none")]
        ok: Option<Json>,
        /// The failure.
        #[serde(skip_serializing_if = "Option::is_none")]
        error: Option<ErrorReport>,
    },
    /// Write `record` (JSON text) at `key` in the app's journal; without
    /// `record`, remove `key`. Carried out in order: a record is written
    /// before the request carrying its message.
    Journal {
        /// The storage key.
        key: String,
        /// The record's text.
        #[serde(skip_serializing_if = "Option::is_none")]
        record: Option<String>,
    },
    /// Tell the app its journal's storage failed (`onJournalError(error)`,
    /// with what the storage threw); steering goes on without the journal.
    JournalError,
    #[cfg(feature = "desktop")]
    /// The desktop hook: make this call and report it ([`Action::Call`]).
    Call(crate::core::desktop::Call),
    #[cfg(feature = "desktop")]
    /// The desktop hook: `onReconcile(what)`.
    Delivered(crate::core::desktop::Reconcile),
    #[cfg(feature = "desktop")]
    /// The desktop hook: take its prototype layer out.
    Restore,
    #[cfg(feature = "desktop")]
    /// The desktop hook: a newTurn route is gone.
    Released {
        /// The route's steer.
        op: u64,
    },
    #[cfg(feature = "desktop")]
    /// Log `what`, with what `call` threw or rejected with.
    Report {
        /// What failed.
        what: &'static str,
        /// The call whose error goes with it.
        #[serde(skip_serializing_if = "Option::is_none")]
        call: Option<u64>,
    },
    /// `onChange(key, state)`.
    Changed {
        /// Thread or session.
        key: String,
        /// What a composer shows now.
        state: Json,
    },
}

impl Step {
    /// The driver's form of an engine action (`key_of` names a request's
    /// thread when the driver asks stream roles).
    ///
    /// ```
    /// # use renderer_steering::bridge::Step;
    /// # use renderer_steering::core::{Action, OpId, OutgoingRequest, RequestId};
    /// let (id, op, params) = (RequestId(4), OpId(1), serde_json::json!({}).into());
    /// let request = OutgoingRequest { id, op, method: "turn/steer", params, timeout_ms: None, carries_message: true };
    /// let step = Step::of(Action::<()>::Send(request), |id| Some(format!("thread-of-{id}")));
    /// assert!(matches!(step, Step::Send { id: 4, op: 1, message: true, key: Some(ref key), .. } if key == "thread-of-4"));
    /// ```
    pub fn of<O: Serialize>(action: Action<O>, key_of: impl Fn(u64) -> Option<String>) -> Step {
        match action {
            Action::Send(request) => Step::Send {
                id: request.id.0,
                op: request.op.0,
                method: request.method,
                key: key_of(request.id.0),
                params: request.params,
                message: request.carries_message,
            },
            Action::Present { op, presentation } => Step::Present { op: op.0, shown: presentation },
            Action::Accepted { op, presentation } => Step::Accepted { op: op.0, shown: presentation },
            Action::Reconcile { op, from, to } => Step::Reconcile { op: op.0, from, to },
            Action::Retract { op } => Step::Retract { op: op.0 },
            Action::Unconfirmed { op, presentation } => Step::Unconfirmed { op: op.0, shown: presentation },
            Action::Complete { op, result: Ok(outcome) } => Step::Complete { op: op.0, ok: Some(Json::of(&outcome)), error: None },
            Action::Complete { op, result: Err(error) } => Step::Complete { op: op.0, ok: None, error: Some(error.to_report()) },
            Action::Changed { key, state } => Step::Changed { key, state: Json::of(&state) },
            Action::Journal { key, record } => Step::Journal { key, record },
            #[cfg(feature = "desktop")]
            Action::Call(call) => Step::Call(call),
            #[cfg(feature = "desktop")]
            Action::Delivered(what) => Step::Delivered(what),
            #[cfg(feature = "desktop")]
            Action::Restore => Step::Restore,
            #[cfg(feature = "desktop")]
            Action::Released { op } => Step::Released { op: op.0 },
            #[cfg(feature = "desktop")]
            Action::Report { what, call } => Step::Report { what, call: call.map(|c| c.0) },
        }
    }
}

/// The answer to one step.
///
/// ```
/// use renderer_steering::bridge::Output;
/// let text = Output::value(&7).text();
/// assert_eq!(text, r#"{"value":7,"timer":null}"#);
/// ```
#[derive(Debug, Default, Serialize)]
pub struct Output {
    /// What the call returns (a submission's `{ op }`, a query's answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<Json>,
    /// The `SteeringError` the call fails with (its promise rejects, or a
    /// synchronous method throws it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorReport>,
    /// The message of the plain `Error` a constructor throws.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thrown: Option<String>,
    /// What to carry out, in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
    /// When to step again with `tick` (engine ms), if ever.
    pub timer: Option<u64>,
}

impl Output {
    /// An output answering `value`.
    ///
    /// ```
    /// # use renderer_steering::bridge::Output;
    /// let output = Output::value("t-1");
    /// assert!(output.error.is_none() && output.thrown.is_none() && output.steps.is_empty());
    /// assert_eq!(output.text(), r#"{"value":"t-1","timer":null}"#);
    /// ```
    pub fn value<T: Serialize + ?Sized>(value: &T) -> Output {
        Output { value: Some(Json::of(value)), ..Output::default() }
    }

    /// An output failing with `error`.
    ///
    /// ```
    /// # use renderer_steering::bridge::Output;
    /// # use renderer_steering::core::{Failure, Json, SteeringError};
    /// let e = SteeringError::new(Failure::busy(), Json::no_items(), Default::default());
    /// assert!(Output::failed(&e).text().contains(r#""kind":"busy""#));
    /// ```
    pub fn failed(error: &SteeringError) -> Output {
        Output { error: Some(error.to_report()), ..Output::default() }
    }

    /// An output whose constructor throws `message`.
    ///
    /// ```
    /// # use renderer_steering::bridge::Output;
    /// let text = Output::thrown("renderer-steering: no such engine").text();
    /// assert_eq!(text, r#"{"thrown":"renderer-steering: no such engine","timer":null}"#);
    /// ```
    pub fn thrown(message: impl Into<String>) -> Output {
        Output { thrown: Some(message.into()), ..Output::default() }
    }

    /// Drains `engine`'s actions into this output, and reads its next deadline.
    ///
    /// ```
    /// # use renderer_steering::bridge::Output;
    /// # use renderer_steering::core::codexhost::CodexhostEngine;
    /// let mut engine = CodexhostEngine::new(Default::default());
    /// assert!(engine.decide("t-1", "use pnpm", 0).is_ok());
    /// let output = Output::default().drain(&mut engine, |_, _| None);
    /// assert_eq!((output.steps.len(), output.timer), (1, Some(10_000)), "the probe to send, bounded by decideMs");
    /// assert!(Output::default().drain(&mut engine, |_, _| None).steps.is_empty(), "drained once");
    /// ```
    pub fn drain<E: Driven>(mut self, engine: &mut E, key_of: impl Fn(&E, u64) -> Option<String>) -> Output
    where
        E::Outcome: Serialize,
    {
        while let Some(action) = engine.poll_action() {
            let step = Step::of(action, |id| key_of(engine, id));
            self.steps.push(step);
        }
        self.timer = engine.poll_timeout();
        self
    }

    /// The JSON text the driver reads.
    ///
    /// ```
    /// # use renderer_steering::bridge::{Output, Step};
    /// assert_eq!(Output::default().text(), r#"{"timer":null}"#, "nothing to return, nothing to do");
    /// let output = Output { steps: vec![Step::Retract { op: 3 }], timer: Some(250), ..Output::default() };
    /// assert_eq!(output.text(), r#"{"steps":[{"do":"retract","op":3}],"timer":250}"#);
    /// ```
    pub fn text(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|_| String::from(r#"{"thrown":"renderer-steering: an answer could not be written","timer":null}"#))
    }
}
