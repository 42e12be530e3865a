//! A model desktop driving the desktop hook over a script of bytes, through
//! the hook's order only (`steer_turn`, `send_request`, `called`, `settled`,
//! `tick`, `dispose`): steers on a few threads with a few message ids, the
//! calls the hook asks for made and answered as the script says (decided as
//! official, activeTurn or newTurn, hosts that do and do not deduplicate;
//! the desktop's own calls returning, throwing, missing, then resolving,
//! rejecting or never settling), the desktop's own requests sent while its
//! `steerTurn` or `startTurn` runs or later, time and dispose, in any
//! interleaving. It checks, as it goes, what must hold whatever happens:
//! every promise given out completes exactly once (joins included); one
//! steer in flight per thread; a message whose outcome is unknown where the
//! host does not deduplicate is never let through again; a route lets its
//! message leave once; every call names an op whose arguments are still
//! held, and every result names a call made for that op; the layer goes
//! once, only after dispose, and does go once nothing is out; follow-ups are
//! resumed once for each accepted newTurn steer, and only then; journal
//! records stay only for unknown outcomes. Shared by the property test and
//! the fuzz target.
#![allow(dead_code, reason = "each user takes what it needs")]

#[path = "sim_checks.rs"]
mod checks;
#[path = "sim_desktop.rs"]
mod model;
#[path = "submission.rs"]
mod submission;

use std::collections::{BTreeMap, BTreeSet};

use renderer_steering::core::desktop::{CallId, DesktopHook, ErrorFacts, Reply, RequestCall, SteerCall, SteerId, Target};

const THREADS: [&str; 2] = ["t0", "t1"];
const IDS: [&str; 3] = ["m0", "m1", "m2"];
const STEER_MS: u64 = 100;

/// The script: its bytes in order, zeros once used up.
struct Script {
    bytes: Vec<u8>,
    at: usize,
}

impl Script {
    fn next(&mut self) -> u8 {
        let byte = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    fn done(&self) -> bool {
        self.at >= self.bytes.len()
    }
}

/// An op the driver was given: a steer, or a request of the desktop.
#[derive(Debug, Default)]
struct Op {
    thread: &'static str,
    text: &'static str,
    caller_id: Option<String>,
    input: u64,
    request: bool,
    /// Returned as `Reply::Promise`, and how many results it had.
    promised: bool,
    completed: u32,
    /// Its arguments are held (calls may name it).
    held: bool,
    /// What its decision said.
    dedup: bool,
    new_turn: bool,
    follower: bool,
    /// A follower's: until when its lane holds it (its own steer returned).
    held_until: Option<u64>,
    /// Its newTurn message id (from its `startTurn`'s submission).
    message: Option<String>,
    /// `readMessages` gave it a queue; it resolved as a newTurn.
    queue_given: bool,
    resolved: bool,
    /// Ids the desktop's requests carried for it.
    sent_ids: BTreeSet<String>,
}

/// A call the driver made, and how it went.
#[derive(Debug)]
struct Made {
    of: SteerId,
    target: Target,
    returned: bool,
    threw: bool,
    missing: bool,
    resolved: bool,
    rejected: bool,
    error: Option<ErrorFacts>,
}

impl Made {
    fn out(&self) -> bool {
        self.returned && !self.resolved && !self.rejected
    }
}

/// An awaited call not settled yet (`never`: it does not settle while the script runs).
#[derive(Debug)]
struct Pending {
    call: CallId,
    never: bool,
}

/// What the desktop does later: a request its `steerTurn` or `startTurn`
/// sends, or its `startTurn` handing the submission to its `steerTurn`.
#[derive(Debug)]
enum Later {
    Send(RequestCall),
    Hand { steer: SteerId, start: CallId },
}

/// A route as the driver sees it: from its steer's `startTurn` call to its `Released`.
#[derive(Debug)]
struct Route {
    steer: SteerId,
    thread: &'static str,
    message: String,
    handed: bool,
    released: bool,
}

/// The model desktop and its checks.
pub struct Sim {
    hook: DesktopHook,
    script: Script,
    now: u64,
    disposed: bool,
    ops: BTreeMap<SteerId, Op>,
    made: BTreeMap<CallId, Made>,
    pending: Vec<Pending>,
    later: Vec<Later>,
    routes: Vec<Route>,
    /// Requests each route let leave.
    leaves: BTreeMap<SteerId, u32>,
    /// (thread, id) whose outcome is unknown on a host that does not deduplicate.
    unconfirmed: BTreeSet<(&'static str, String)>,
    restored: u32,
    /// The journal as the hook wrote it, and the keys of messages whose outcome is unknown.
    journal: BTreeMap<String, String>,
    unknown_keys: BTreeSet<String>,
    /// `mutate` calls per steer whose follow-ups they resume.
    resumed: BTreeMap<SteerId, u32>,
    next_input: u64,
}

impl Sim {
    pub fn new(script: &[u8]) -> Self {
        let mut hook = DesktopHook::new(STEER_MS);
        hook.enable_journal("sim:".into(), 0.0);
        Sim {
            hook,
            script: Script { bytes: script.to_vec(), at: 0 },
            now: 0,
            disposed: false,
            ops: BTreeMap::new(),
            made: BTreeMap::new(),
            pending: vec![],
            later: vec![],
            routes: vec![],
            leaves: BTreeMap::new(),
            unconfirmed: BTreeSet::new(),
            restored: 0,
            journal: BTreeMap::new(),
            unknown_keys: BTreeSet::new(),
            resumed: BTreeMap::new(),
            next_input: 0,
        }
    }

    /// Runs a script, then disposes, lets everything settle and time pass.
    pub fn run(script: &[u8]) {
        let mut sim = Sim::new(script);
        while !sim.script.done() {
            let (a, b, c) = (sim.script.next(), sim.script.next(), sim.script.next());
            match a % 16 {
                0..=3 => sim.submit(b, c),
                4..=8 => sim.settle_one(b, c),
                9 | 10 => sim.later_or_stray(b, c),
                11..=13 => sim.pass_time(u64::from(b % 64), c & 1 == 1),
                14 => sim.settle_one(b, c),
                _ if b % 4 == 0 => sim.dispose(),
                _ => sim.settle_one(b, c),
            }
        }
        sim.finish();
    }

    /// A steer of the desktop's app.
    fn submit(&mut self, b: u8, c: u8) {
        let thread = THREADS[usize::from(b % 2)];
        let id = IDS.get(usize::from(b / 2 % 4)).map(|s| s.to_string());
        let text = if c & 1 == 1 { "y" } else { "x" };
        // A retry with the very input array of the thread's last steer (and its id and words).
        let retry = (c & 4 == 4).then(|| self.ops.values().rev().find(|o| !o.request && o.thread == thread)).flatten();
        let (id, text, input) = match retry {
            Some(o) => (o.caller_id.clone(), o.text, o.input),
            None => {
                self.next_input += 1;
                (id, text, self.next_input)
            }
        };
        let restore = c & 2 == 2;
        let call = SteerCall {
            argument_id: if restore { None } else { id.clone() },
            restore_id: if restore { id } else { None },
            input,
            follower: c == 255,
            tool_output: c & 0xF0 == 0xF0,
            fresh_id: format!("fresh-{input}"),
            ..SteerCall::text(thread, text, None)
        };
        self.steer(call);
    }

    /// The wrapped `steerTurn` called: what it returns, checked, and the hook's actions carried out.
    fn steer(&mut self, call: SteerCall) -> Reply {
        let thread = THREADS.into_iter().find(|t| Some(*t) == call.thread_id.as_deref()).expect("a model thread");
        let text = if call.text.as_deref() == Some("y") { "y" } else { "x" };
        let caller_id = call.message_id().map(String::from);
        let reply = self.hook.steer_turn(self.now, call.clone());
        match &reply {
            Reply::Promise(op) => match self.ops.get(op) {
                Some(o) => {
                    assert!(!o.request && o.completed == 0, "joined an op that is not a steer in flight: {o:?}");
                    assert_eq!((o.thread, o.text, &o.caller_id), (thread, text, &caller_id), "joined another submission");
                }
                None => {
                    let held = |o: &Op| o.held_until.is_none_or(|until| self.now < until);
                    let busy = self.ops.values().any(|o| !o.request && o.promised && o.completed == 0 && o.thread == thread && held(o));
                    assert!(!busy, "two steers in flight on {thread}");
                    if let Some(id) = &caller_id {
                        let unknown = self.unconfirmed.contains(&(thread, id.clone()));
                        assert!(!unknown, "a message whose outcome is unknown was let through again: {thread} {id}");
                    }
                    let o = Op { thread, text, caller_id, input: call.input, promised: true, held: true, ..Op::default() };
                    self.ops.insert(*op, o);
                }
            },
            Reply::Returned(call) => panic!("a steerTurn returned a call: {call:?}"),
            Reply::Desktop | Reply::Refused(_) => {}
        }
        self.carry_all();
        reply
    }

    /// The wrapped `sendRequest` called with a routed method: its reply, checked.
    fn send(&mut self, request: RequestCall) -> Reply {
        let thread = THREADS.into_iter().find(|t| *t == request.thread_id).expect("a model thread");
        let route = self.route_taking(&request);
        // A request with a steer's very input array is that steer's: the id it
        // carries is one the steer's unknown outcome may keep a record of.
        if let (Some(id), true) = (request.message_id.clone(), request.input != 0) {
            for o in self.ops.values_mut().filter(|o| !o.request && o.input == request.input && o.thread == thread && o.completed == 0) {
                o.sent_ids.insert(id.clone());
            }
        }
        let (reply, op) = self.hook.send_request(self.now, request.clone());
        assert!(!self.ops.contains_key(&op), "an op number given twice: {op:?}");
        let promised = matches!(reply, Reply::Promise(p) if p == op);
        assert!(promised || !matches!(reply, Reply::Promise(_)), "a request's promise of another op: {reply:?}");
        let held = promised || matches!(reply, Reply::Returned(_));
        self.ops.insert(op, Op { thread, request: true, promised, held, input: request.input, ..Op::default() });
        self.carry_all();
        let sent = self.made.values().find(|m| m.of == op && m.target == Target::OwnSend);
        if let Reply::Returned(call) = reply {
            assert_eq!(self.made.get(&call).map(|m| m.of), Some(op), "a request returned a call not made for it");
        }
        let left = match reply {
            Reply::Promise(_) | Reply::Returned(_) => sent.is_some_and(|m| m.returned),
            Reply::Desktop => true,
            Reply::Refused(_) => false,
        };
        if let Some(o) = self.ops.get_mut(&op).filter(|_| !promised) {
            o.held = false;
        }
        if let (Some(route), true) = (route, left) {
            let leaves = self.leaves.entry(route).or_default();
            *leaves += 1;
            assert_eq!(*leaves, 1, "a route let its message leave twice: {route:?}");
        }
        reply
    }

    /// The open route a request counts towards: its `turn/start`, or its handed `turn/steer`.
    fn route_taking(&self, request: &RequestCall) -> Option<SteerId> {
        let route =
            self.routes.iter().find(|r| !r.released && r.thread == request.thread_id && Some(&r.message) == request.message_id.as_ref())?;
        (request.method == "turn/start" || route.handed).then_some(route.steer)
    }

    /// Something the desktop does later, else a request of its own carrying a steer's message.
    fn later_or_stray(&mut self, b: u8, c: u8) {
        if !self.later.is_empty() && c & 4 == 0 {
            let later = self.later.remove(usize::from(b) % self.later.len());
            return self.do_later(later);
        }
        let steers: Vec<SteerId> = self.ops.iter().filter(|(_, o)| !o.request).map(|(id, _)| *id).collect();
        let Some(&steer) = steers.get(usize::from(b) % steers.len().max(1)) else { return };
        let o = &self.ops[&steer];
        let request = RequestCall {
            method: if c & 2 == 2 { "turn/start" } else { "turn/steer" }.into(),
            thread_id: o.thread.into(),
            message_id: o.message.clone().or(o.caller_id.clone()),
            input: if c & 1 == 1 { o.input } else { 0 },
            ..RequestCall::default()
        };
        self.send(request);
    }

    /// Settles one awaited call that is out, as the script says.
    fn settle_one(&mut self, b: u8, c: u8) {
        let out: Vec<usize> = (0..self.pending.len()).filter(|&at| !self.pending[at].never).collect();
        if let Some(&at) = out.get(usize::from(b) % out.len().max(1)) {
            self.settle(at, c);
        }
    }

    /// Time passes by `ms`: the driver's timer fires at each deadline on the way (`stepped`), or once at the end.
    fn pass_time(&mut self, ms: u64, stepped: bool) {
        let until = self.now + ms;
        while let Some(due) = self.hook.poll_timeout().filter(|due| stepped && *due <= until) {
            self.now = self.now.max(due);
            self.fire();
        }
        self.now = until;
        self.fire();
    }

    /// The timer fires at `now`, again while a deadline is due.
    fn fire(&mut self) {
        for _ in 0..8 {
            self.hook.tick(self.now);
            self.carry_all();
            if self.hook.poll_timeout().is_none_or(|due| due > self.now) {
                return;
            }
        }
        panic!("a deadline due at {} is never ended: {:?}", self.now, self.hook.poll_timeout());
    }

    fn dispose(&mut self) {
        self.disposed = true;
        self.hook.dispose_at(self.now);
        self.carry_all();
    }
}
