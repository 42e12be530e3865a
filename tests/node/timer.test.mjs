// An engine's one timer (js/driver/timer.js), as the package ships it, over
// a recorded `setTimeout`: one timeout for the earliest deadline, the delay
// it is armed with, a Node process held open only while something is due,
// a clock that calls back into the engine, and a page that broke the
// timer functions.
import { test, before, afterEach } from "node:test";
import assert from "node:assert/strict";
import { shippedModules } from "./pack.mjs";

let Timer;
before(async () => {
  [{ Timer }] = await shippedModules("driver/timer.js");
});

const real = { setTimeout: globalThis.setTimeout, clearTimeout: globalThis.clearTimeout, error: console.error };
afterEach(() => {
  Object.assign(globalThis, { setTimeout: real.setTimeout, clearTimeout: real.clearTimeout });
  console.error = real.error;
});

/** Replaces the page's timer functions with recorders; `handles` are what `setTimeout` returned. */
function recordedTimers({ handleOf = (h) => h } = {}) {
  const armed = [];
  const cleared = [];
  globalThis.setTimeout = (callback, delay) => {
    const handle = handleOf({ callback, delay, refs: [] });
    armed.push(handle);
    return handle;
  };
  globalThis.clearTimeout = (handle) => cleared.push(handle);
  return { armed, cleared };
}

/** A handle with Node's `ref`/`unref`, recording each call. */
const nodeHandle = (h) => Object.assign(h, { ref: () => h.refs.push("ref"), unref: () => h.refs.push("unref") });

test("a deadline arms one timeout for the time left, plus one millisecond, from the clock's whole milliseconds", () => {
  const { armed } = recordedTimers();
  const timer = new Timer(() => {});
  timer.arm(1500, () => 1000.7);
  assert.deepEqual(armed.map((h) => h.delay), [501]);
});

test("a deadline already past arms for one millisecond", () => {
  const { armed } = recordedTimers();
  new Timer(() => {}).arm(100, () => 1000);
  assert.deepEqual(armed.map((h) => h.delay), [1]);
});

test("a deadline beyond what setTimeout holds arms for its longest delay, not a spin", () => {
  const { armed } = recordedTimers();
  new Timer(() => {}).arm(Number.MAX_SAFE_INTEGER, () => 0);
  assert.deepEqual(armed.map((h) => h.delay), [2 ** 31 - 1]);
});

test("a later or equal deadline keeps the timeout armed; an earlier one replaces it", () => {
  const { armed, cleared } = recordedTimers();
  const timer = new Timer(() => {});
  let clockReads = 0;
  const clock = () => (clockReads++, 0);
  timer.arm(100, clock);
  timer.arm(200, clock);
  timer.arm(100, clock);
  assert.equal(armed.length, 1, "one timeout serves every deadline at or after its own");
  assert.equal(clockReads, 1, "the clock is read only to set a timeout");
  timer.arm(50, clock);
  assert.deepEqual(armed.map((h) => h.delay), [101, 51]);
  assert.deepEqual(cleared, [armed[0]], "the later timeout is cleared");
});

test("the timeout fires once, and the next deadline arms a new one", () => {
  const { armed } = recordedTimers();
  let fired = 0;
  const timer = new Timer(() => fired++);
  timer.arm(10, () => 0);
  armed[0].callback();
  assert.equal(fired, 1);
  timer.arm(20, () => 0);
  assert.equal(armed.length, 2, "a fired timeout is not taken as still armed");
});

test("nothing due stops holding the process open; a deadline holds it again; nothing changes twice", () => {
  const { armed } = recordedTimers({ handleOf: nodeHandle });
  const timer = new Timer(() => {});
  timer.arm(100, () => 0);
  timer.arm(null, () => 0);
  timer.arm(undefined, () => 0);
  timer.arm(150, () => 0);
  timer.arm(150, () => 0);
  assert.equal(armed.length, 1, "the timeout stays armed when nothing is due");
  assert.deepEqual(armed[0].refs, ["unref", "ref"]);
});

test("nothing due before anything was armed arms nothing", () => {
  const { armed } = recordedTimers();
  const timer = new Timer(() => {});
  timer.arm(null, () => 0);
  timer.clear();
  assert.equal(armed.length, 0);
});

test("a browser's numeric handle, without ref or unref, is kept and cleared", () => {
  let next = 7;
  const { armed, cleared } = recordedTimers({ handleOf: () => next++ });
  const timer = new Timer(() => {});
  timer.arm(100, () => 0);
  timer.arm(null, () => 0);
  timer.arm(100, () => 0);
  timer.arm(50, () => 0);
  assert.deepEqual(armed, [7, 8]);
  assert.deepEqual(cleared, [7]);
});

test("a clock that calls back into the engine does not arm a second timeout", () => {
  const { armed } = recordedTimers();
  const timer = new Timer(() => {});
  let reads = 0;
  const clock = () => {
    reads += 1;
    if (reads < 5) timer.arm(10, clock);
    return 0;
  };
  timer.arm(100, clock);
  assert.equal(reads, 1);
  assert.deepEqual(armed.map((h) => h.delay), [101]);
});

test("a clock that clears the timer while it is read still leaves one timeout armed", () => {
  const { armed } = recordedTimers();
  const timer = new Timer(() => {});
  timer.arm(100, () => 0);
  timer.arm(50, () => (timer.clear(), 0));
  assert.deepEqual(armed.map((h) => h.delay), [101, 51]);
  timer.arm(60, () => 0);
  assert.equal(armed.length, 2, "the timeout set after the clock is the armed one");
});

for (const [name, broken] of [["NaN", NaN], ["negative", -5], ["infinite", Infinity], ["not a number", "soon"]]) {
  test(`a clock reading ${name} counts as its last good reading`, () => {
    const { armed } = recordedTimers();
    const timer = new Timer(() => {});
    timer.arm(1500, () => 1000);
    timer.arm(1200, () => broken);
    assert.deepEqual(armed.map((h) => h.delay), [501, 201]);
  });
}

test("a clock reading zero is a good reading", () => {
  const { armed } = recordedTimers();
  const timer = new Timer(() => {});
  timer.arm(1500, () => 1000);
  timer.arm(1200, () => 0);
  assert.deepEqual(armed.map((h) => h.delay), [501, 1201]);
});

test("a clock that throws arms nothing, and the next arm reads it again", () => {
  const { armed } = recordedTimers();
  const timer = new Timer(() => {});
  assert.throws(() => timer.arm(100, () => { throw new Error("clock"); }), /clock/);
  timer.arm(100, () => 0);
  assert.deepEqual(armed.map((h) => h.delay), [101]);
});

test("a page whose setTimeout throws gets a report, and the next deadline tries again", () => {
  const reports = [];
  console.error = (...args) => reports.push(args);
  globalThis.setTimeout = () => { throw new Error("no timers here"); };
  const timer = new Timer(() => {});
  timer.arm(100, () => 0);
  assert.equal(reports.length, 1);
  assert.match(reports[0][0], /cannot arm the engine's timer/);
  assert.match(String(reports[0][1]), /no timers here/);
  const { armed } = recordedTimers();
  timer.arm(200, () => 0);
  assert.deepEqual(armed.map((h) => h.delay), [201], "a failed arm is not taken as armed");
});

test("a page whose clearTimeout or ref throws never gets an exception from the timer", () => {
  const { armed } = recordedTimers({
    handleOf: (h) => Object.assign(h, { ref: () => { throw new Error("ref"); }, unref: () => { throw new Error("unref"); } }),
  });
  globalThis.clearTimeout = () => { throw new Error("clear"); };
  const timer = new Timer(() => {});
  timer.arm(100, () => 0);
  timer.arm(null, () => 0);
  timer.arm(100, () => 0);
  timer.arm(50, () => 0);
  timer.clear();
  assert.equal(armed.length, 2);
  timer.arm(70, () => 0);
  assert.equal(armed.length, 3, "a timer whose clear threw counts as cleared");
});
