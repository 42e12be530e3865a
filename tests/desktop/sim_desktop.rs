//! The model desktop's side of its calls: each call the hook asks for is
//! made as the script says (what the desktop does while it runs, what it
//! returns, whether it settles later and how), and the requests its own
//! `steerTurn` and `startTurn` send, at once or later.

use renderer_steering::core::desktop::{
    Call, ErrorFacts, FollowUp, FollowUpId, Reply, RequestCall, Returned, SteerCall, SteerId, Target, ValueFacts, PAUSE_REASON,
};
use renderer_steering::core::RpcError;

use super::submission::submitted_id;
use super::{Later, Made, Pending, Route, Sim, STEER_MS};

/// A failure of the desktop, as the script picks it (`id`: what this package's error carries).
fn error(k: u8, id: Option<String>) -> ErrorFacts {
    match k % 4 {
        0 => ErrorFacts::words("socket closed"),
        1 => ErrorFacts { rpc: Some(RpcError::new(-32074, "turn not active")), ..ErrorFacts::words("turn not active") },
        2 => ErrorFacts { package_error: Some(true), message_id: id, ..ErrorFacts::words("outcome unknown") },
        _ => ErrorFacts { package_error: Some(false), ..ErrorFacts::words("ours") },
    }
}

/// What a call returns when it is not the desktop's steer or start: a value, a throw, or nothing there.
fn plain(k: u8, throws: bool, misses: bool) -> Returned {
    match k % 8 {
        6 if throws => Returned::Threw(error(k / 8, None)),
        7 if misses => Returned::Missing,
        _ => Returned::Value(ValueFacts::default()),
    }
}

impl Sim {
    /// Makes `call` as the model desktop and reports what it returned.
    pub(super) fn make(&mut self, call: Call) {
        self.check_call(&call);
        let (k, n) = (self.script.next(), self.script.next());
        let made = Made {
            of: call.of,
            target: call.target,
            returned: false,
            threw: false,
            missing: false,
            resolved: false,
            rejected: false,
            error: None,
        };
        assert!(self.made.insert(call.id, made).is_none(), "a call id given twice: {call:?}");
        let returned = match call.target {
            Target::Decide => plain(k, true, false),
            Target::OwnSteer => self.own_steer(&call, k, n),
            Target::OwnSend => plain(k, true, false),
            Target::StartTurn => self.start_turn(&call, k, n),
            Target::Coordinator(_) => plain(k, true, true),
            Target::SubmissionHost("hasPendingTurnStart") => match k % 16 {
                15 => Returned::Value(ValueFacts { yes: true, ..ValueFacts::default() }),
                14 => Returned::Threw(ErrorFacts::words("no host")),
                13 => Returned::Missing,
                _ => Returned::Value(ValueFacts::default()),
            },
            Target::SubmissionHost(_) => match k % 8 {
                0..=3 => Returned::Value(ValueFacts { turn_id: Some("turn-1".into()), ..ValueFacts::default() }),
                4 | 5 => Returned::Value(ValueFacts { absent: true, ..ValueFacts::default() }),
                6 => Returned::Value(ValueFacts::default()),
                _ => Returned::Threw(ErrorFacts::words("no host")),
            },
            Target::Below => match k % 8 {
                5 | 6 => Returned::Value(ValueFacts { yes: true, ..ValueFacts::default() }),
                7 => Returned::Missing,
                _ => Returned::Value(ValueFacts::default()),
            },
        };
        let m = self.made.get_mut(&call.id).expect("made");
        match &returned {
            Returned::Value(_) => m.returned = true,
            Returned::Threw(facts) => (m.threw, m.error) = (true, Some(facts.clone())),
            Returned::Missing => m.missing = true,
        }
        let follower_returned = call.target == Target::OwnSteer && m.returned;
        if let Some(o) = self.ops.get_mut(&call.of).filter(|o| o.follower && follower_returned) {
            o.held_until = Some(self.now + STEER_MS);
        }
        let m = self.made.get_mut(&call.id).expect("made");
        if call.awaited && m.returned {
            self.pending.push(Pending { call: call.id, never: n % 8 == 7 });
        }
        self.hook.called(self.now, call.id, returned);
        self.carry_all();
    }

    /// The desktop's own `steerTurn`: it sends its request (by id or by its
    /// input array) while it runs, later, or not at all.
    fn own_steer(&mut self, call: &Call, k: u8, n: u8) -> Returned {
        let o = &self.ops[&call.of];
        let returned = match k / 4 % 8 {
            6 => Returned::Threw(error(n / 2, o.caller_id.clone())),
            7 => return Returned::Missing,
            _ => Returned::Value(ValueFacts::default()),
        };
        let by_id = k % 4 != 1;
        let request = RequestCall {
            method: if n & 0x10 == 0x10 { "turn/start" } else { "turn/steer" }.into(),
            thread_id: o.thread.into(),
            message_id: o.caller_id.clone().filter(|_| by_id),
            input: o.input,
            ..RequestCall::default()
        };
        if let Some(id) = request.message_id.clone().filter(|_| k % 4 != 3) {
            self.ops.get_mut(&call.of).expect("op").sent_ids.insert(id);
        }
        match k % 4 {
            0 | 1 => {
                self.send(request);
            }
            2 => self.later.push(Later::Send(request)),
            _ => {}
        }
        returned
    }

    /// The desktop's `startTurn`: it sends its `turn/start` (once, or twice),
    /// or hands the submission to its `steerTurn`, while it runs or later;
    /// a steer of another message on the thread meanwhile is the desktop's own.
    fn start_turn(&mut self, call: &Call, k: u8, n: u8) -> Returned {
        let message = submitted_id(call).expect("a submission with its message id");
        let thread = self.ops[&call.of].thread;
        self.ops.get_mut(&call.of).expect("op").message = Some(message.clone());
        self.routes.push(Route { steer: call.of, thread, message: message.clone(), handed: false, released: false });
        let returned = match k / 8 % 8 {
            6 => Returned::Threw(error(n / 2, Some(message.clone()))),
            7 => return Returned::Missing,
            _ => Returned::Value(ValueFacts::default()),
        };
        if n & 0x20 == 0x20 {
            let other = SteerCall { input: 0, ..SteerCall::text(thread, "other", Some("other")) };
            assert_eq!(self.steer(other), Reply::Desktop, "a steer while the hook calls startTurn went to the hook");
        }
        let request = self.start_request(call.of);
        match k % 8 {
            0..=2 => {
                self.send(request);
            }
            3 => self.later.push(Later::Send(request)),
            4 => self.hand(call.of, true),
            5 => self.later.push(Later::Hand { steer: call.of, start: call.id }),
            6 => {}
            _ => {
                self.send(request.clone());
                self.send(request);
            }
        }
        returned
    }

    /// The `turn/start` a newTurn steer's `startTurn` sends.
    fn start_request(&self, steer: SteerId) -> RequestCall {
        let o = &self.ops[&steer];
        RequestCall {
            method: "turn/start".into(),
            thread_id: o.thread.into(),
            message_id: o.message.clone(),
            input: o.input,
            ..RequestCall::default()
        }
    }

    /// `startTurn` hands the submission to the desktop's `steerTurn`, which sends it as its `turn/steer`.
    fn hand(&mut self, steer: SteerId, running: bool) {
        let o = &self.ops[&steer];
        let (thread, text, message, input) = (o.thread, o.text, o.message.clone().expect("a message"), o.input);
        let handing = SteerCall { input, ..SteerCall::text(thread, text, Some(&message)) };
        let taken = !self.disposed && self.ops[&steer].completed == 0 && self.leaves.get(&steer).is_none_or(|n| *n == 0);
        let reply = self.steer(handing);
        if running {
            assert_eq!(reply, Reply::Desktop, "startTurn's own steer went to the hook");
        }
        if reply != Reply::Desktop {
            return;
        }
        if let Some(route) = self.routes.iter_mut().find(|r| r.steer == steer && !r.released).filter(|_| taken) {
            route.handed = true;
        }
        let request = RequestCall { method: "turn/steer".into(), ..self.start_request(steer) };
        self.send(request);
    }

    pub(super) fn do_later(&mut self, later: Later) {
        match later {
            Later::Send(request) => {
                self.send(request);
            }
            // Only while its startTurn is out.
            Later::Hand { steer, start } => {
                if self.made[&start].out() {
                    self.hand(steer, false);
                }
            }
        }
    }

    /// The pending call at `at` settles as `k` says.
    pub(super) fn settle(&mut self, at: usize, k: u8) {
        let call = self.pending.remove(at).call;
        let (of, target) = (self.made[&call].of, self.made[&call].target);
        let id = self.ops.get(&of).and_then(|o| o.message.clone().or(o.caller_id.clone()));
        let ok = k % 8 < 6;
        let result = match target {
            Target::Decide if k % 8 == 7 => Err(error(k / 8, None)),
            Target::Decide => {
                let delivery = ["official", "official", "activeTurn", "activeTurn", "newTurn", "newTurn", "bogus"][usize::from(k % 8)];
                let facts = ValueFacts {
                    delivery: Some(delivery.into()),
                    host_deduplicates: k & 8 == 8,
                    follower: k >= 248,
                    ..ValueFacts::default()
                };
                if let Some(o) = self.ops.get_mut(&of) {
                    (o.dedup, o.follower, o.new_turn) = (facts.host_deduplicates, facts.follower, delivery == "newTurn" && !facts.follower);
                }
                Ok(facts)
            }
            Target::OwnSend if ok => Ok(ValueFacts {
                turn_id: [Some("turn-2"), Some("turn-2"), None, Some("turn-1")][usize::from(k / 8 % 4)].map(String::from),
                delivery: [None, Some("newTurn"), Some("activeTurn"), Some("official")][usize::from(k / 16 % 4)].map(String::from),
                ..ValueFacts::default()
            }),
            Target::Coordinator("readMessages") if k % 8 == 5 => Ok(ValueFacts::default()),
            Target::Coordinator("readMessages") if ok => {
                let by = |id: String, reason: &str| FollowUp { id: Some(FollowUpId::Text(id)), pause_reason: Some(reason.into()) };
                let queue = vec![by(format!("{}", of.0), PAUSE_REASON), by("user".into(), "paused by the user")];
                if let Some(o) = self.ops.get_mut(&of) {
                    o.queue_given = true;
                }
                Ok(ValueFacts { follow_ups: Some(queue), ..ValueFacts::default() })
            }
            _ if ok => Ok(ValueFacts::default()),
            _ => Err(error(k / 8, id)),
        };
        let m = self.made.get_mut(&call).expect("made");
        match &result {
            Ok(_) => m.resolved = true,
            Err(facts) => (m.rejected, m.error) = (true, Some(facts.clone())),
        }
        self.hook.settled(self.now, call, result);
        self.carry_all();
    }
}
