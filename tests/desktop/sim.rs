//! A model desktop driving the desktop core over a script of bytes: steers
//! on a few threads with a few message ids, the desktop's own calls and
//! requests, answers that come, fail or never come, time and dispose, in any
//! interleaving. It checks, as it goes, what must hold whatever happens:
//! every steer ends exactly once; one steer in flight per thread; a message
//! whose outcome is unknown where the host does not deduplicate is never
//! let through again; a route lets its message leave once; every wait ends
//! once; the layer goes once, only after dispose, and does go once nothing
//! is out; the follow-ups the stop paused are resumed once for each accepted
//! newTurn steer, and only then. Shared by the property test and the fuzz target.
#![allow(dead_code, reason = "each user takes what it needs")]

#[path = "sim_checks.rs"]
mod checks;

use std::collections::{BTreeMap, BTreeSet};

use renderer_steering::core::codexhost::Delivery;
use renderer_steering::core::desktop::{
    ActiveTurn, Admission, Answer, Decided, DesktopHook, Ended, ErrorFacts, FollowUp, FollowUpId, NewTurnFacts, NewTurnStep, Outgoing,
    SteerCall, SteerId, Verdict, WaitId, PAUSE_REASON,
};
use renderer_steering::core::RpcError;

const THREADS: [&str; 2] = ["t0", "t1"];
const IDS: [&str; 3] = ["m0", "m1", "m2"];

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    /// The desktop's own steerTurn is out (official / activeTurn).
    Own { called_out: bool },
    /// newTurn: waiting for an earlier route.
    Earlier,
    /// newTurn: startTurn out or waited for.
    Start { start_out: bool },
    /// newTurn: waiting for the route's one request to end.
    Done,
}

#[derive(Debug)]
struct Live {
    steer: SteerId,
    thread: &'static str,
    id: Option<String>,
    input: u64,
    dedup: bool,
    phase: Phase,
    wait: Option<WaitId>,
    /// The newTurn's message id.
    message: Option<String>,
    ended: bool,
}

/// A routed request in flight (its answer not yet in).
#[derive(Debug)]
struct Routed {
    steer: SteerId,
    plain: bool,
    wait: Option<WaitId>,
}

/// The model desktop and its checks.
pub struct Sim {
    hook: DesktopHook,
    now: u64,
    live: Vec<Live>,
    routed: Vec<Routed>,
    open_waits: BTreeSet<WaitId>,
    ends: BTreeMap<SteerId, u32>,
    /// (thread, id) whose outcome is unknown on a host that does not deduplicate.
    unconfirmed: BTreeSet<(&'static str, String)>,
    /// Requests each route let leave.
    left: BTreeMap<SteerId, u32>,
    restored: u32,
    disposed: bool,
    next_input: u64,
    /// The journal as the hook wrote it: key -> record.
    journal: BTreeMap<String, String>,
    /// Steers that ended with an unknown outcome (their records may stay).
    unknown_ends: u32,
    /// newTurn steers that resolved, and the follow-up resumes told per steer.
    resolved_new_turns: BTreeSet<String>,
    resumes: BTreeMap<String, u32>,
}

impl Sim {
    pub fn new() -> Self {
        let mut hook = DesktopHook::new(100);
        hook.enable_journal("sim:".into(), 0.0);
        Sim {
            hook,
            now: 0,
            live: vec![],
            routed: vec![],
            open_waits: BTreeSet::new(),
            ends: BTreeMap::new(),
            unconfirmed: BTreeSet::new(),
            left: BTreeMap::new(),
            restored: 0,
            disposed: false,
            next_input: 0,
            journal: BTreeMap::new(),
            unknown_ends: 0,
            resolved_new_turns: BTreeSet::new(),
            resumes: BTreeMap::new(),
        }
    }

    /// Runs a script: each op is three bytes.
    pub fn run(script: &[u8]) {
        let mut sim = Sim::new();
        for op in script.chunks(3) {
            let (a, b, c) = (op[0], *op.get(1).unwrap_or(&0), *op.get(2).unwrap_or(&0));
            match a % 8 {
                0 | 1 => sim.submit(b, c),
                2..=4 => sim.advance(b, c),
                5 => sim.request(b, c),
                6 => sim.tick(u64::from(b) * 2),
                _ if b == 255 => sim.dispose(),
                _ => sim.answer(b, c),
            }
        }
        sim.finish();
    }

    fn open(&mut self, wait: WaitId) -> WaitId {
        assert!(self.open_waits.insert(wait), "a wait id reused");
        wait
    }

    fn end(&mut self, steer: SteerId, verdict: &Verdict, facts_unknown: bool) {
        *self.ends.entry(steer).or_default() += 1;
        assert_eq!(self.ends[&steer], 1, "a steer ended twice");
        let Some(live) = self.live.iter_mut().find(|l| l.steer == steer) else { return };
        live.ended = true;
        if *verdict == Verdict::Resolve && live.message.is_some() {
            self.resolved_new_turns.insert(format!("{}", steer.0));
        }
        let unknown = matches!(verdict, Verdict::Fail(r) if r.failure.is_outcome_unknown()) || facts_unknown;
        self.unknown_ends += u32::from(unknown);
        if unknown && !live.dedup {
            if let Some(id) = live.id.clone() {
                self.unconfirmed.insert((live.thread, id));
            }
        }
    }

    fn submit(&mut self, b: u8, c: u8) {
        let thread = THREADS[usize::from(b % 2)];
        let id = IDS.get(usize::from(b / 2 % 4)).map(|s| s.to_string());
        self.next_input += 1;
        let call = SteerCall { input: self.next_input, follower: c == 255, ..SteerCall::text(thread, "x", id.as_deref()) };
        let admission = self.hook.steer(call);
        if let Some(id) = &id {
            if self.unconfirmed.contains(&(thread, id.clone())) && !self.disposed {
                assert!(!matches!(admission, Admission::Decide(_)), "a message whose outcome is unknown was let through again");
            }
        }
        let Admission::Decide(steer) = admission else { return };
        assert!(!self.live.iter().any(|l| l.thread == thread && !l.ended), "two steers in flight on {thread}");
        let dedup = c & 1 == 1;
        let delivery = [Delivery::Official, Delivery::ActiveTurn, Delivery::NewTurn][usize::from(c / 2 % 3)];
        let decided = self.hook.decided(steer, Some((Some(delivery), dedup)), false);
        let mut live = Live {
            steer,
            thread,
            id,
            input: self.next_input,
            dedup,
            phase: Phase::Own { called_out: true },
            wait: None,
            message: None,
            ended: false,
        };
        match decided {
            Decided::Own(tag) => {
                self.hook.own_called(steer, tag);
                live.wait = Some(self.hook.wait(self.now, None));
                self.live.push(live);
                let w = live_wait(&self.live);
                self.open(w);
            }
            Decided::NewTurn => {
                let facts = NewTurnFacts {
                    pending_turn_start: c >= 250,
                    active_turn: if c % 7 == 0 { ActiveTurn::Ended } else { ActiveTurn::Running("turn-1".into()) },
                    tool_output: false,
                    context_is_object: true,
                    start_turn: true,
                    fresh_id: format!("fresh-{}", steer.0),
                };
                let step = self.hook.new_turn(self.now, steer, facts);
                match step {
                    NewTurnStep::Build(message) => {
                        live.message = Some(message);
                        live.phase = Phase::Earlier;
                        self.live.push(live);
                        self.earlier(steer);
                    }
                    NewTurnStep::Done(v) => {
                        self.live.push(live);
                        self.end(steer, &v, false);
                    }
                    other => panic!("unexpected {other:?}"),
                }
            }
            Decided::Done(v) => {
                self.live.push(live);
                self.end(steer, &v, false);
            }
            Decided::Follower => unreachable!("not a follower"),
        }
        self.effects();
    }

    fn earlier(&mut self, steer: SteerId) {
        match self.hook.earlier(self.now, steer, false) {
            NewTurnStep::Go => self.start(steer),
            NewTurnStep::WaitEarlier(w, _) => {
                self.open(w);
                self.live_mut(steer).wait = Some(w);
            }
            NewTurnStep::Done(v) => self.end(steer, &v, false),
            other => panic!("unexpected {other:?}"),
        }
    }

    fn start(&mut self, steer: SteerId) {
        let by = |id: String, reason: &str| FollowUp { id: Some(FollowUpId::Text(id)), pause_reason: Some(reason.into()) };
        let queue = [by(format!("{}", steer.0), PAUSE_REASON), by("user".into(), "paused by the user")];
        match self.hook.start(self.now, steer, false, Some(&queue)) {
            NewTurnStep::Go => {
                self.hook.start_called(steer, false);
                let w = self.hook.wait(self.now, Some(steer));
                self.open(w);
                let live = self.live_mut(steer);
                live.phase = Phase::Start { start_out: true };
                live.wait = Some(w);
            }
            NewTurnStep::Done(v) => self.end(steer, &v, false),
            other => panic!("unexpected {other:?}"),
        }
    }

    fn live_mut(&mut self, steer: SteerId) -> &mut Live {
        self.live.iter_mut().find(|l| l.steer == steer).expect("live")
    }

    /// A wait of a steer (or a routed request) ended with `ended`.
    fn wait_ended(&mut self, w: WaitId, ended: Ended) {
        if let Some(at) = self.routed.iter().position(|r| r.wait == Some(w)) {
            let r = self.routed.remove(at);
            self.hook.routed_ended(r.steer, ended, None);
            return;
        }
        let Some(live) = self.live.iter_mut().find(|l| l.wait == Some(w) && !l.ended) else { return };
        live.wait = None;
        let (steer, phase) = (live.steer, live.phase);
        match phase {
            Phase::Own { .. } => {
                let unknown = matches!(&ended, Ended::Error(f) if f.package_error == Some(true));
                let v = self.hook.own_ended(steer, ended);
                self.end(steer, &v, unknown);
            }
            Phase::Earlier => match self.hook.earlier_ended(steer, ended) {
                NewTurnStep::Go => self.start(steer),
                NewTurnStep::Done(v) => self.end(steer, &v, false),
                other => panic!("unexpected {other:?}"),
            },
            Phase::Start { .. } => {
                let unknown = matches!(&ended, Ended::Error(f) if f.package_error == Some(true));
                match self.hook.start_ended(self.now, steer, ended) {
                    NewTurnStep::WaitDone(w) => {
                        self.open(w);
                        let live = self.live_mut(steer);
                        live.phase = Phase::Done;
                        live.wait = Some(w);
                    }
                    NewTurnStep::Done(v) => self.end(steer, &v, unknown),
                    other => panic!("unexpected {other:?}"),
                }
            }
            Phase::Done => {
                let v = self.hook.done_ended(steer, ended);
                self.end(steer, &v, false);
            }
        }
    }

    /// The desktop's side of a steer moves on: its own call settles.
    fn advance(&mut self, b: u8, c: u8) {
        if self.live.is_empty() {
            return;
        }
        let at = usize::from(b) % self.live.len();
        let (steer, phase, wait) = (self.live[at].steer, self.live[at].phase, self.live[at].wait);
        let ended = match c % 4 {
            0 => Ended::Ok,
            1 => Ended::Error(ErrorFacts::words("socket closed")),
            2 => Ended::Error(ErrorFacts { rpc: Some(RpcError::new(-32074, "no")), ..ErrorFacts::words("no") }),
            _ => Ended::Error(ErrorFacts { package_error: Some(c > 128), ..ErrorFacts::words("ours") }),
        };
        match phase {
            Phase::Own { called_out: true } => {
                self.live[at].phase = Phase::Own { called_out: false };
                self.hook.own_settled(steer);
            }
            Phase::Start { start_out: true } => {
                self.live[at].phase = Phase::Start { start_out: false };
                self.hook.start_settled(steer, c % 4 == 0);
            }
            _ => {}
        }
        if let Some(w) = wait.filter(|w| self.open_waits.contains(w)) {
            if matches!(phase, Phase::Own { .. } | Phase::Start { .. }) && self.hook.settled(w) {
                self.open_waits.remove(&w);
                self.wait_ended(w, ended);
            }
        }
        self.effects();
    }

    /// The desktop sends a request carrying one of the live steers' messages.
    fn request(&mut self, b: u8, c: u8) {
        if self.live.is_empty() {
            return;
        }
        let live = &self.live[usize::from(b) % self.live.len()];
        let (thread, input) = (live.thread, if c & 1 == 1 { live.input } else { 0 });
        let id = live.message.clone().or(live.id.clone());
        let method = if c & 2 == 2 { "turn/start" } else { "turn/steer" };
        let outgoing = self.hook.request(self.now, method, thread, id.as_deref(), input);
        let plain = matches!(outgoing, Outgoing::PlainStart(_));
        match outgoing {
            Outgoing::PlainStart(steer) | Outgoing::Steer { route: steer, .. } => {
                *self.left.entry(steer).or_default() += 1;
                assert_eq!(self.left[&steer], 1, "a route let its message leave twice");
                let wait = (!plain).then(|| self.hook.wait(self.now, Some(steer)));
                if let Some(w) = wait {
                    self.open(w);
                }
                self.routed.push(Routed { steer, plain, wait });
            }
            Outgoing::Own(_, tag) => assert!(tag.is_none() || method == "turn/steer", "a turn/start tagged"),
            Outgoing::Refused(_) | Outgoing::Pass => {}
        }
        self.effects();
    }

    /// The oldest routed request's answer comes (or fails).
    fn answer(&mut self, b: u8, c: u8) {
        if self.routed.is_empty() {
            return;
        }
        let r = self.routed.remove(usize::from(b) % self.routed.len());
        let facts = ErrorFacts::words("socket closed");
        if r.plain {
            self.hook.plain_start_ended(r.steer, (c & 1 == 1).then_some(&facts));
        } else if let Some(w) = r.wait.filter(|w| self.open_waits.contains(w)) {
            if self.hook.settled(w) {
                self.open_waits.remove(&w);
                let answer = Answer { turn_id: (c & 2 == 2).then(|| "turn-2".into()), delivery: None };
                let ended = if c & 1 == 1 { Ended::Error(facts) } else { Ended::Ok };
                self.hook.routed_ended(r.steer, ended, Some(answer));
            }
        }
        self.effects();
    }

    fn tick(&mut self, ms: u64) {
        self.now += ms;
        self.hook.tick(self.now);
        self.effects();
    }

    fn dispose(&mut self) {
        self.disposed = true;
        self.hook.dispose(self.now);
        self.effects();
    }
}

fn live_wait(live: &[Live]) -> WaitId {
    live.last().and_then(|l| l.wait).expect("a wait")
}
