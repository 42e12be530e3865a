//! Runs any core engine ([`Driven`]) in the browser or Node: sends its
//! requests through the app's transport, arms one timer for its earliest
//! deadline, calls the presentation hooks, and settles waiting promises.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

use super::boundary::{deferred, report};
use super::convert::to_js;
use super::failure::to_js_error;
use super::hooks::{Hook, Hooks};
use super::ids::{now_ms, reading_ms};
use super::options::is_follower;
use super::timer::Armed;
use super::transport::{self, Transport};
use crate::core::sorted_map::SortedMap;
use crate::core::Driven;
use crate::core::HostAnswer;
use crate::core::{Action, OpId, RequestId, SteeringError};

type Settled<O> = Result<O, SteeringError>;

/// Who waits for a submission: a JS promise, settled directly by one
/// function (`js/boundary.js` `deferred`).
struct Waiter<O> {
    settle: Function,
    outcome: fn(&O) -> JsValue,
    draft: JsValue,
}

impl<O> Waiter<O> {
    fn settle(self, result: Settled<O>) {
        let Waiter { settle, outcome, draft } = self;
        let _ = match &result {
            Ok(value) => settle.call2(&JsValue::NULL, &JsValue::TRUE, &outcome(value)),
            Err(error) => settle.call2(&JsValue::NULL, &JsValue::FALSE, &to_js_error(error, &draft)),
        };
    }
}

/// Asks the app's `streamRole(key)` before each answer is fed, and tells the
/// engine (codexhost: a follower window hands its steer to the desktop). The
/// engine is not borrowed while the app's function runs, so it may call back.
#[derive(Debug)]
pub(super) struct RoleCheck<E> {
    /// The app's `streamRole`.
    pub stream_role: Function,
    /// The thread a request serves.
    pub key_of: fn(&E, RequestId) -> Option<String>,
    /// Records the answer.
    pub set_follower: fn(&mut E, &str, bool),
}

struct Inner<E: Driven> {
    engine: RefCell<E>,
    transport: Transport,
    waiters: RefCell<SortedMap<OpId, Vec<Waiter<E::Outcome>>>>,
    hooks: RefCell<SortedMap<OpId, Hooks>>,
    timer: RefCell<Option<Armed>>,
    /// The timer's callback, made once per engine (`timer.rs`).
    tick: JsValue,
    role_check: Option<RoleCheck<E>>,
    on_changed: RefCell<Option<Function>>,
    /// `deliver(id, described, now)`: the one callback every host answer
    /// comes back through, with the clock's reading.
    deliver: JsValue,
}

/// A cheap handle; clones drive the same engine.
pub(super) struct Driver<E: Driven>(Rc<Inner<E>>);

impl<E: Driven> std::fmt::Debug for Driver<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver").field("waiting", &self.0.waiters.borrow().len()).finish_non_exhaustive()
    }
}

impl<E: Driven> Clone for Driver<E> {
    fn clone(&self) -> Self {
        Driver(self.0.clone())
    }
}

impl<E> Driver<E>
where
    E: Driven + 'static,
    E::Outcome: Clone + 'static,
{
    /// A driver for `engine`; `role_check` runs before each answer is fed.
    pub(super) fn new(engine: E, transport: Transport, role_check: Option<RoleCheck<E>>) -> Self {
        Driver(Rc::new_cyclic(|weak: &Weak<Inner<E>>| {
            // Weak: the callback never keeps a freed engine alive; an answer
            // that arrives after `free()` is ignored.
            let weak_tick = weak.clone();
            let tick = Closure::<dyn Fn()>::new(move || {
                if let Some(inner) = weak_tick.upgrade() {
                    let driver = Driver(inner);
                    let fired = driver.0.timer.borrow_mut().take();
                    drop(fired); // clearing a fired timer is a no-op
                    let now = now_ms();
                    driver.0.engine.borrow_mut().handle_timeout(now);
                    driver.pump();
                }
            });
            let weak = weak.clone();
            let deliver = Closure::<dyn Fn(f64, JsValue, f64)>::new(move |id: f64, described: JsValue, now: f64| {
                if let Some(inner) = weak.upgrade() {
                    Driver(inner).feed(RequestId(id as u64), transport::described_answer(described), reading_ms(now));
                }
            });
            Inner {
                engine: RefCell::new(engine),
                transport,
                waiters: RefCell::new(SortedMap::new()),
                hooks: RefCell::new(SortedMap::new()),
                timer: RefCell::new(None),
                role_check,
                on_changed: RefCell::new(None),
                deliver: deliver.into_js_value(),
                tick: tick.into_js_value(),
            }
        }))
    }

    /// Runs `f` on the engine (short borrow; never call JS inside).
    pub(super) fn with_engine<R>(&self, f: impl FnOnce(&mut E) -> R) -> R {
        f(&mut self.0.engine.borrow_mut())
    }

    /// Sets the change listener: `callback(key, state)` with the state the core computed.
    pub(super) fn set_on_changed(&self, callback: Option<Function>) {
        *self.0.on_changed.borrow_mut() = callback;
    }

    /// A JS promise for `op`'s outcome, shaped by `outcome`; rejects with a
    /// `SteeringError` whose `draft` is `draft` (the caller's input) itself.
    pub(super) fn promise(&self, op: OpId, hooks: Option<Hooks>, outcome: fn(&E::Outcome) -> JsValue, draft: JsValue) -> Promise {
        let pair = deferred();
        let settle: Function = pair.get(1).unchecked_into();
        self.0.waiters.borrow_mut().get_or_insert_with(op, Default::default).push(Waiter { settle, outcome, draft });
        self.register_hooks(op, hooks);
        self.pump();
        pair.get(0).unchecked_into()
    }

    fn register_hooks(&self, op: OpId, hooks: Option<Hooks>) {
        if let Some(hooks) = hooks {
            self.0.hooks.borrow_mut().get_or_insert_with(op, || hooks);
        }
    }

    /// Drains the engine's actions.
    pub(super) fn pump(&self) {
        loop {
            let next = self.0.engine.borrow_mut().poll_action();
            let Some(action) = next else { break };
            self.run(action);
        }
        self.arm_timer();
    }

    fn run(&self, action: Action<E::Outcome>) {
        match action {
            Action::Send(request) => {
                let record = if request.carries_message {
                    self.0.hooks.borrow().get(&request.op).map(|h| h.record().clone()).unwrap_or(JsValue::UNDEFINED)
                } else {
                    JsValue::UNDEFINED
                };
                let sent = self.0.transport.send(request.method, &request.params, &record, &self.0.deliver, request.id.0);
                if let Some(answer) = sent {
                    self.feed(request.id, answer, now_ms());
                }
            }
            Action::Present { op, presentation } => self.call_hook(op, Hook::Present, presentation, ""),
            Action::Reconcile { op, from, to } => self.call_hook(op, Hook::Reconcile, from, to),
            Action::Retract { op } => self.call_hook(op, Hook::Retract, "", ""),
            Action::Unconfirmed { op, presentation } => self.call_hook(op, Hook::Unconfirmed, presentation, ""),
            Action::Complete { op, result } => {
                self.0.hooks.borrow_mut().remove(&op);
                let mut waiters = self.0.waiters.borrow_mut().remove(&op).unwrap_or_default();
                let last = waiters.pop();
                for waiter in waiters {
                    waiter.settle(result.clone());
                }
                if let Some(last) = last {
                    last.settle(result);
                }
            }
            Action::Changed { key, state } => {
                let listener = self.0.on_changed.borrow().clone();
                if let Some(callback) = listener {
                    if let Err(e) = callback.call2(&JsValue::NULL, &JsValue::from_str(&key), &to_js(&state)) {
                        report("onChange threw", &e);
                    }
                }
            }
        }
    }

    fn call_hook(&self, op: OpId, hook: Hook, presentation: &str, to: &str) {
        // Cloned out: no borrow is held while the hook's JavaScript runs.
        let hooks = self.0.hooks.borrow().get(&op).cloned();
        if let Some(hooks) = hooks {
            hooks.run(hook, presentation, to);
        }
    }

    /// Feeds an answer (at `now`, read without the engine borrowed) and runs what follows.
    pub(super) fn feed(&self, id: RequestId, answer: HostAnswer, now: u64) {
        if let Some(check) = &self.0.role_check {
            let key = (check.key_of)(&self.0.engine.borrow(), id);
            if let Some(key) = key {
                let follower = is_follower(&check.stream_role, &JsValue::NULL, &key);
                (check.set_follower)(&mut self.0.engine.borrow_mut(), &key, follower);
            }
        }
        self.0.engine.borrow_mut().handle_answer(id, answer, now);
        self.pump();
    }

    fn arm_timer(&self) {
        let deadline = self.0.engine.borrow().poll_timeout();
        // Taken out while JavaScript runs (no borrow is held across it).
        let current = self.0.timer.borrow_mut().take();
        let armed = Armed::for_deadline(current, &self.0.tick, deadline, now_ms);
        let replaced = self.0.timer.replace(armed);
        drop(replaced); // only set by a call that re-entered meanwhile
    }
}
