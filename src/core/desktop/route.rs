//! A newTurn's route, keyed by thread and message id: the desktop's own
//! `startTurn` presents the steer, and exactly one request carrying the
//! message may leave through the hook's `sendRequest`: its `turn/start`,
//! as a `turn/steer` tagged newTurn into the turn that ran at the decision
//! (plain when no turn ran), or the desktop's own `turn/steer` when its
//! `startTurn` handed the submission to its `steerTurn`. A second one, or
//! one that comes after the steer failed or the hook was disposed, is
//! refused. A route stays until its `startTurn` settled and its steer has
//! its result; when `startTurn` resolved before its request came, until
//! one steer bound after dispose.

use super::journal::Leaving;
use super::types::{Answer, Effect, Ended, ErrorFacts, Outgoing, Refusal, SteerId, Verdict};
use super::DesktopHook;
use crate::core::codexhost::Delivery;
use crate::core::Failure;

/// How a steer whose request may still leave was given up.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Abandoned {
    Timeout,
    Cancelled,
}

/// A newTurn route.
#[derive(Debug)]
pub(crate) struct Route {
    pub(crate) steer: SteerId,
    pub(crate) thread_id: String,
    pub(crate) message_id: String,
    /// The turn running at the decision (None: it had ended; a plain `turn/start`).
    pub(crate) expected_turn_id: Option<String>,
    pub(crate) deadline: u64,
    /// Its one request left.
    pub(crate) sent: bool,
    pub(crate) abandoned: Option<Abandoned>,
    /// The desktop's `startTurn` has not settled.
    pub(crate) start_out: bool,
    pub(crate) start_resolved: bool,
    /// The steer has its result.
    pub(crate) finished: bool,
    /// Its one request came (sent or refused).
    pub(crate) start_seen: bool,
    /// The desktop's `startTurn` handed the submission to its `steerTurn`.
    pub(crate) handed_to_steer: bool,
    /// How its one request ended (None: no end yet; `Some(None)`: accepted).
    pub(crate) done: Option<Option<Refusal>>,
}

/// The host's error answer is its refusal; any other failure may have delivered.
#[cfg_attr(feature = "size-first", optimize(size))]
pub(crate) fn answered(method: &str, facts: &ErrorFacts) -> Failure {
    match &facts.rpc {
        Some(rpc) => Failure::rpc(method, rpc.clone()),
        None => Failure::outcome_unknown(method, &facts.words),
    }
}

/// The requests that can carry a steer's message: the hook's core sees
/// these, and every other request of the desktop passes untouched.
///
/// ```
/// use renderer_steering::core::desktop::ROUTED_METHODS;
/// assert_eq!(ROUTED_METHODS, ["turn/start", "turn/steer"]);
/// ```
pub const ROUTED_METHODS: [&str; 2] = crate::core::codexhost::MESSAGE_METHODS;

/// The fields of a newTurn's `turn/start` its `turn/steer` keeps (with
/// `expectedTurnId` and the `newTurn` tag added); the rest are `turn/start`'s own.
///
/// ```
/// use renderer_steering::core::desktop::STEER_FIELDS_OF_START;
/// assert!(STEER_FIELDS_OF_START.contains(&"clientUserMessageId"));
/// ```
pub const STEER_FIELDS_OF_START: [&str; 5] =
    ["threadId", "input", "clientUserMessageId", "additionalContext", "responsesapiClientMetadata"];

impl DesktopHook {
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn route_mut(&mut self, thread_id: &str, message_id: &str) -> Option<&mut Route> {
        self.dialect.routes.iter_mut().find(|r| r.thread_id == thread_id && r.message_id == message_id)
    }

    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn route_by_steer(&mut self, steer: SteerId) -> Option<&mut Route> {
        self.dialect.routes.iter_mut().find(|r| r.steer == steer)
    }

    /// The route of `thread_id` and `message_id` while it is open (a later
    /// hook on the same manager waits for it).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::DesktopHook;
    /// assert_eq!(DesktopHook::new(1).open_route("t", "m"), None);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn open_route(&self, thread_id: &str, message_id: &str) -> Option<SteerId> {
        self.dialect.routes.iter().find(|r| r.thread_id == thread_id && r.message_id == message_id).map(|r| r.steer)
    }

    /// The `sendRequest` wrapper: what becomes of `method` carrying
    /// `message_id` (its `clientUserMessageId`) on `thread_id`, whose input
    /// array has identity `input`.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, Outgoing};
    /// assert_eq!(DesktopHook::new(1).request(0, "thread/list", "", None, 0), Outgoing::Pass);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn request(&mut self, now: u64, method: &str, thread_id: &str, message_id: Option<&str>, input: u64) -> Outgoing {
        self.request_into(now, method, thread_id, message_id, None, input)
    }

    /// [`Self::request`] with the request's `expectedTurnId` (the turn the
    /// message is meant for, which its journal record names).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, Outgoing};
    /// assert_eq!(DesktopHook::new(1).request_into(0, "turn/steer", "t", Some("m"), Some("turn-1".into()), 0), Outgoing::Pass);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn request_into(
        &mut self,
        now: u64,
        method: &str,
        thread_id: &str,
        message_id: Option<&str>,
        expected_turn_id: Option<String>,
        input: u64,
    ) -> Outgoing {
        if !ROUTED_METHODS.contains(&method) {
            return Outgoing::Pass;
        }
        let start = method == ROUTED_METHODS[0];
        let routed = self.route_mut(thread_id, message_id.unwrap_or("")).filter(|r| start || r.handed_to_steer);
        let plain = routed.as_ref().is_none_or(|r| r.expected_turn_id.is_none());
        let routed = routed.map(|r| r.steer);
        if start && plain {
            // A plain turn/start: a codexhost host deduplicates turn/steer only.
            self.left_as_start(thread_id);
        }
        if let Some(route) = routed {
            return self.routed(now, method, route);
        }
        let Some((steer, presented)) = self.dialect.tags.claim(thread_id, message_id, input) else { return Outgoing::Pass };
        if let Some(refusal) = self.resend_refused(steer, start, expected_turn_id.as_deref(), message_id) {
            return Outgoing::Refused(refusal);
        }
        if let Some(s) = self.ops.get_mut(&steer) {
            s.sent = true;
            s.sent_turn = expected_turn_id.clone().filter(|_| !start);
            if message_id.is_some() {
                s.sent_id = message_id.map(Into::into);
            }
        }
        self.journal_leaving(Leaving { steer, now, method, message_id, presented, expected_turn_id });
        // Only a turn/steer carries the tag; an official one goes untouched.
        Outgoing::Own(steer, (!start && presented != Delivery::Official).then_some(presented))
    }

    /// The one request of the route of `steer`, or its refusal.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn routed(&mut self, now: u64, method: &str, steer: SteerId) -> Outgoing {
        let (disposed, steer_ms) = (self.is_disposed(), self.timeouts.steer_ms);
        let Some(route) = self.route_by_steer(steer) else { return Outgoing::Pass };
        let id = Some(route.message_id.clone());
        if route.sent {
            let detail = format!("it already left once; a second {method} is not sent");
            return Outgoing::Refused(Refusal::new(Failure::outcome_unknown("turn/steer", &detail), id));
        }
        route.start_seen = true;
        let timed_out = route.abandoned == Some(Abandoned::Timeout) || (route.abandoned.is_none() && now >= route.deadline);
        if disposed || timed_out || route.abandoned.is_some() {
            self.release_route(steer);
            let failure = if timed_out && !disposed { Failure::timeout("startTurn", steer_ms) } else { Failure::disposed() };
            return Outgoing::Refused(Refusal::new(failure, id));
        }
        let (message_id, expected_turn_id) = (route.message_id.clone(), route.expected_turn_id.clone());
        let plain = expected_turn_id.is_none() && method == ROUTED_METHODS[0];
        if let Some(refusal) = self.resend_refused(steer, plain, expected_turn_id.as_deref(), Some(&message_id)) {
            return Outgoing::Refused(refusal);
        }
        if let Some(s) = self.ops.get_mut(&steer) {
            s.sent_turn = expected_turn_id.clone().filter(|_| !plain);
        }
        let Some(route) = self.route_by_steer(steer) else { return Outgoing::Pass };
        route.sent = true;
        let leaving_method = if expected_turn_id.is_some() { "turn/steer" } else { "turn/start" };
        let leaving =
            Leaving { steer, now, method: leaving_method, message_id: Some(&message_id), presented: Delivery::NewTurn, expected_turn_id };
        self.journal_leaving(leaving);
        let Some(route) = self.route_by_steer(steer) else { return Outgoing::Pass };
        match (method, route.expected_turn_id.clone()) {
            ("turn/start", None) => Outgoing::PlainStart(steer),
            (_, expected_turn_id) => Outgoing::Steer { route: steer, rewrite: method == "turn/start", expected_turn_id },
        }
    }

    /// The route's request threw when called: nothing was written. A
    /// `turn/steer` fails as `transport` (a plain `turn/start`'s throw is
    /// the desktop's own, handed on unchanged).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, ErrorFacts, SteerId};
    /// let r = DesktopHook::new(1).routed_threw(SteerId(9), &ErrorFacts::words("closed"));
    /// assert_eq!(r.failure.kind(), "transport");
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn routed_threw(&mut self, steer: SteerId, facts: &ErrorFacts) -> Refusal {
        let route = self.route_by_steer(steer);
        let id = route.as_ref().map(|r| r.message_id.clone());
        if let Some(route) = route {
            route.sent = false;
        }
        Refusal::new(Failure::transport("turn/steer", facts.words.clone()), id)
    }

    /// A plain `turn/start` of the route was answered (`None`) or failed:
    /// that decides the steer (the desktop gets its own answer untouched).
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, SteerId};
    /// DesktopHook::new(1).plain_start_ended(SteerId(9), None);
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn plain_start_ended(&mut self, steer: SteerId, failed: Option<&ErrorFacts>) {
        let Some(route) = self.route_by_steer(steer) else { return };
        let id = Some(route.message_id.clone());
        route.done = Some(failed.map(|facts| Refusal::new(answered("turn/start", facts), id)));
        self.dialect.effects.push(Effect::Done(steer));
    }

    /// How the route's `turn/steer` ended (bounded by the route's deadline):
    /// its answer, with a `turnId`, delivers the steer; anything else fails
    /// it (the host's error answer as its refusal, else `outcomeUnknown`).
    /// The desktop gets the answer (`Resolve`; a rewritten `turn/start`
    /// gets it as `{ turn }`) or the failure.
    ///
    /// ```
    /// # use renderer_steering::core::desktop::{DesktopHook, Ended, SteerId, Verdict};
    /// let v = DesktopHook::new(1).routed_ended(SteerId(9), Ended::Timeout, None);
    /// assert!(matches!(v, Verdict::Fail(r) if r.failure.kind() == "outcomeUnknown"));
    /// ```
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub fn routed_ended(&mut self, steer: SteerId, ended: Ended, answer: Option<Answer>) -> Verdict {
        let route = self.route_by_steer(steer);
        let (thread_id, id) = route.as_ref().map(|r| (r.thread_id.clone(), Some(r.message_id.clone()))).unwrap_or_default();
        let failure = match (&ended, &answer) {
            (Ended::Error(facts), _) => answered("turn/steer", facts),
            (Ended::Ok, Some(Answer { turn_id: Some(_), .. })) => {
                if let Some(route) = route {
                    route.done = Some(None);
                    self.dialect.effects.push(Effect::Done(steer));
                }
                let answer = answer.unwrap_or_default();
                self.answered(Delivery::NewTurn, &thread_id, id.as_deref(), answer);
                return Verdict::Resolve;
            }
            (Ended::Ok, _) => Failure::outcome_unknown("turn/steer", "the answer has no turnId"),
            (Ended::Timeout, _) => Failure::outcome_unknown("turn/steer", "no answer within the steer bound"),
            (Ended::Cancelled, _) => Failure::outcome_unknown("turn/steer", "disposed before the answer"),
        };
        let refusal = Refusal::new(failure, id);
        if let Some(route) = route {
            route.done = Some(Some(refusal.clone()));
            self.dialect.effects.push(Effect::Done(steer));
        }
        Verdict::Fail(refusal)
    }

    /// A same-id retry of an unknown outcome leaving otherwise than as a
    /// `turn/steer` into the turn the first attempt went to: refused, as the
    /// host deduplicates only that.
    #[cfg_attr(feature = "size-first", optimize(size))]
    fn resend_refused(&self, steer: SteerId, plain_start: bool, turn: Option<&str>, message_id: Option<&str>) -> Option<Refusal> {
        let into = self.ops.get(&steer)?.resend_into.as_ref()?;
        let same_turn = into.as_deref().is_none_or(|first| turn == Some(first));
        let detail = "not sent again: the first attempt may already be in the thread, and the host deduplicates it only as a turn/steer into the same turn";
        let method = if plain_start { "turn/start" } else { "turn/steer" };
        (plain_start || !same_turn).then(|| Refusal::new(Failure::outcome_unknown(method, detail), message_id.map(Into::into)))
    }

    /// Removes the route of `steer` once its request can no longer come: its
    /// `startTurn` settled and its steer has its result; a `startTurn` that
    /// resolved before any request came keeps it (refusing that request)
    /// until one steer bound after dispose.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn release_route(&mut self, steer: SteerId) {
        let late_over = self.dialect.late_over;
        let Some(at) = self.dialect.routes.iter().position(|r| r.steer == steer) else { return };
        let route = &self.dialect.routes[at];
        if route.start_out || !route.finished || (route.start_resolved && !route.sent && !route.start_seen && !late_over) {
            return;
        }
        self.dialect.routes.remove(at);
        self.actions.push_back(crate::core::Action::Released { op: steer });
        self.dialect.effects.push(Effect::Released(steer));
        self.restore_when_idle();
    }

    /// Tries to release every route (dispose, the late window's end).
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn release_routes(&mut self) {
        let steers: Vec<SteerId> = self.dialect.routes.iter().map(|r| r.steer).collect();
        for steer in steers {
            self.release_route(steer);
        }
    }

    /// The route's steer ended (given up): remembered, so its late request is refused.
    #[cfg_attr(feature = "size-first", optimize(size))]
    pub(crate) fn abandon(&mut self, steer: SteerId, how: Abandoned) {
        if let Some(route) = self.route_by_steer(steer) {
            route.abandoned = Some(how);
        }
    }
}
