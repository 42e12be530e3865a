// Seeded schedules through the desktop hook of the packed package: for each
// seed a model desktop (desktop-schedules-model.mjs) whose host answers,
// steerTurn/startTurn behaviour, stream roles and follow-up queue the seed
// picks, driven by random steers (a few threads and message ids, same-id
// retries after outcomeUnknown, concurrent steers on one thread, images,
// tool outputs, blank drafts) under small steer bounds, sometimes disposed
// partway. Per seed:
// 1. every steerTurn promise settles within steerMs x 3 + slack, resolved,
//    rejected with a SteeringError whose draft is the caller's own array, or
//    with the desktop's own error unchanged (the desktop's own promise,
//    handed back untouched, settles when the desktop's does);
// 2. a message whose steer ended outcomeUnknown after it reached a host that
//    does not deduplicate it never reaches the host again from a later attempt;
// 3. one steer attempt sends at most one turn/start or newTurn turn/steer;
// 4. a few steer bounds after dispose() the manager's chain is its class's again
//    (unless a desktop startTurn never settles: its route still refuses its late turn/start);
// 5. no unhandled rejection, no synchronous throw but the desktop's own.
// Each failure names its seed; SCHEDULE_SEEDS="3,17" runs only those seeds
// (SCHEDULE_DEBUG=1 prints their attempts, desktop calls and requests),
// SCHEDULE_COUNT sets how many.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { carries, drawPlan, notDeduplicated, Rng, ScheduledDesktop, sleep } from "./desktop-schedules-model.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

/** Timer lateness allowed on a loaded machine, on top of each bound. */
const SLACK = 250;
const COUNT = Number(process.env.SCHEDULE_COUNT ?? 150);
const SEEDS = process.env.SCHEDULE_SEEDS ? process.env.SCHEDULE_SEEDS.split(",").map(Number) : Array.from({ length: COUNT }, (_, i) => i + 1);
/** Seeds run side by side in one batch (each its own manager and hook). */
const BATCH = 10;

/** Draft shapes the hook steers itself (an image or a blank draft goes to the desktop's own steerTurn, untouched). */
const HANDLED = new Set(["text", "tool"]);

const unhandled = [];
process.on("unhandledRejection", (reason) => unhandled.push(reason));

const describe = (e) => (e instanceof Error ? `${e.constructor.name}(${e.kind ?? ""}: ${e.message})` : JSON.stringify(e));

/** The logical clock, the attempts and what the desktop itself threw, shared by the test and its model desktop. */
function makeWorld() {
  let seq = 0;
  const attempts = [];
  return {
    tick: () => ++seq,
    attempts,
    ownErrors: new Set(),
    /** The promises the desktop's own steerTurn returned: handed back untouched, they settle as the desktop's do. */
    desktopPromises: new WeakSet(),
    hookLive: true,
    /** The attempt whose steerTurn call is running (synchronously), if any. */
    calling: null,
    /** The attempt whose draft `input` is (by identity). */
    attemptOf: (input) => (typeof input === "object" && input !== null ? attempts.find((a) => a.input === input) : undefined),
    /** The earliest attempt still open on `threadId` with message id `cuid`: whose call of the desktop this is. */
    openAttempt: (threadId, cuid) => attempts.find((a) => a.threadId === threadId && a.cuid === cuid && !a.settled) ?? null,
  };
}

/** Runs one seed; returns the failures found, each naming the seed. */
async function runSeed(seed) {
  const rng = new Rng(seed);
  const plan = drawPlan(rng);
  const { steerMs } = plan;
  const bound = steerMs * 3 + SLACK;
  const world = makeWorld();
  const m = new ScheduledDesktop(plan, rng, world);
  const failures = [];
  const fail = (what) => failures.push(`seed ${seed}: ${what}`);
  const hook = api.installDesktopSteering(m, { timeouts: { decideMs: steerMs, steerMs } });
  assert.ok(hook, `seed ${seed}: installed`);

  // The messages: a few ids per thread, each with its words.
  const messages = plan.threads.flatMap((t) => Array.from({ length: rng.between(1, 3) }, (_, i) => ({ threadId: t, cuid: `${t}-m${i}`, words: `message ${i} of ${t}` })));
  const timers = [];
  const later = (ms, fn) => timers.push(sleep(ms).then(fn));

  let disposedAt = null;
  const dispose = () => {
    if (disposedAt !== null) return;
    world.hookLive = false;
    hook.dispose();
    disposedAt = performance.now();
    if (m.steerTurn !== ScheduledDesktop.prototype.steerTurn) fail("steerTurn is not the class's own at once after dispose()");
  };

  const steer = (message, shape = "text") => {
    if (!world.hookLive) return; // after dispose() steerTurn is the desktop's own
    const { threadId, cuid } = message;
    const words = rng.chance(0.1) ? `${message.words}, changed` : message.words;
    const input =
      shape === "image" ? [{ type: "image", url: "data:," }] : shape === "blank" ? [{ type: "text", text: "  " }] : [{ type: "text", text: words }];
    const attempt = { threadId, cuid, words, input, shape, start: performance.now(), startSeq: world.tick(), settled: false };
    const inspectsBefore = m.sent.filter((r) => r.method === "codexhost/thread/steering/inspect").length;
    world.attempts.push(attempt);
    const restore = { id: `r-${cuid}`, context: { collaborationMode: "pair", commentAttachments: [] }, cwd: "/repo" };
    let returned;
    world.calling = attempt;
    try {
      returned = m.steerTurn(threadId, input, restore, "fast", undefined, cuid, { ctx: 1 }, shape === "tool" ? { out: 1 } : null, () => {});
    } catch (error) {
      attempt.settled = true;
      attempt.endSeq = world.tick();
      attempt.error = error;
      if (!world.ownErrors.has(error)) fail(`steerTurn(${cuid}) threw synchronously ${describe(error)}, not the desktop's own error`);
      return;
    } finally {
      world.calling = null;
    }
    if (typeof returned?.then !== "function") {
      fail(`steerTurn(${cuid}) returned ${describe(returned)}, not a promise`);
      return;
    }
    attempt.exempt = world.desktopPromises.has(returned);
    // The same message again while it is out joins it: its own promise, no inspect of its own.
    const inspected = m.sent.filter((r) => r.method === "codexhost/thread/steering/inspect").length > inspectsBefore;
    const same = (a) => a !== attempt && !a.settled && a.shape === "text" && a.threadId === threadId && a.cuid === cuid && a.words === words;
    attempt.joined = shape === "text" && !inspected && !attempt.exempt ? (world.attempts.find(same) ?? null) : null;
    attempt.returned = returned;
    let settlements = 0;
    const end = (outcome) => {
      settlements += 1;
      if (settlements > 1) fail(`steerTurn(${cuid}) settled ${settlements} times`);
      attempt.settled = true;
      attempt.endSeq = world.tick();
      attempt.elapsed = performance.now() - attempt.start;
      Object.assign(attempt, outcome);
      if (!attempt.exempt && attempt.elapsed > bound) fail(`steerTurn(${cuid}) settled after ${attempt.elapsed.toFixed(0)} ms (bound ${bound} ms)`);
      if ("error" in outcome) {
        const { error } = outcome;
        if (error instanceof api.SteeringError) {
          if (error.draft !== input) {
            const first = attempt.joined && error.draft === attempt.joined.input;
            fail(
              first
                ? `steerTurn(${cuid}) joined a steer of the same message already out, and its ${error.kind} rejection carries that first caller's draft, not this caller's own array (the shared promise hands every joiner the first draft)`
                : `steerTurn(${cuid}) rejected ${error.kind} with a draft that is not the caller's own array (${JSON.stringify(error.draft)})`,
            );
          }
          // The app retries an unconfirmed message with the same id, as outcomeUnknown tells it to.
          if (error.kind === "outcomeUnknown" && rng.chance(0.6)) later(rng.between(0, steerMs), () => steer(message));
        } else if (!world.ownErrors.has(error)) {
          fail(`steerTurn(${cuid}) rejected with ${describe(error)}: neither a SteeringError nor the desktop's own error`);
        }
      }
    };
    returned.then((value) => end({ value }), (error) => end({ error }));
  };

  // The schedule: steers at random times, some in bursts on one thread.
  const steers = rng.between(3, 9);
  for (let i = 0; i < steers; i++) {
    const message = rng.pick(messages);
    const shape = rng.weighted({ text: 14, image: 1, tool: 2, blank: 1 });
    const at = rng.between(0, 3 * steerMs);
    later(at, () => {
      steer(message, shape);
      if (rng.chance(0.25)) steer(rng.chance(0.5) ? message : rng.pick(messages.filter((x) => x.threadId === message.threadId)));
    });
  }
  if (plan.flip) later(plan.flip.at, () => (m.role[plan.flip.thread] = "follower"));
  if (rng.chance(0.25)) later(rng.between(0, 3 * steerMs), dispose);

  // Every steer settles in its bound (retries scheduled meanwhile too).
  for (let n = 0; n < timers.length; n++) await timers[n];
  for (;;) {
    const open = world.attempts.filter((a) => !a.settled && !a.exempt);
    if (open.length === 0) break;
    if (open.some((a) => performance.now() - a.start > bound + 200)) {
      for (const a of open) fail(`steerTurn(${a.cuid}) still pending ${(performance.now() - a.start).toFixed(0)} ms after the call (bound ${bound} ms)`);
      break;
    }
    await sleep(5);
    for (let n = 0; n < timers.length; n++) await timers[n];
  }

  // 4. The layer is gone a few steer bounds after dispose(), unless a desktop
  // startTurn never settles: its route still refuses its late turn/start then.
  dispose();
  await sleep(Math.max(0, disposedAt + steerMs * 3 + SLACK - performance.now()));
  // A loaded machine runs timers late: the chain gets a further second before it counts as left behind.
  for (let waited = 0; waited < 1000 && Object.getPrototypeOf(m) !== ScheduledDesktop.prototype; waited += 10) await sleep(10);
  const hanging = m.invocations.some((i) => i.kind === "startTurn" && i.how === "never");
  if (!hanging && Object.getPrototypeOf(m) !== ScheduledDesktop.prototype) {
    fail(`the hook's layer is still under the manager ${(performance.now() - disposedAt).toFixed(0)} ms after dispose()`);
  }
  if (m.steerTurn !== ScheduledDesktop.prototype.steerTurn) fail("steerTurn is not the class's own after dispose()");
  if (!hanging && m.sendRequest !== ScheduledDesktop.prototype.sendRequest) fail("sendRequest is not the class's own after dispose()");
  await sleep(steerMs * 2); // the desktop's late requests leave now

  const wire = () => m.sent.filter(carries).map((r) => `${r.method}${r.tag ? `[${r.tag}]` : ""} ${r.cuid}@${r.seq}`).join(", ");
  for (const r of m.sent) if (carries(r) && r.inv === null) fail(`a ${r.method} of ${r.cuid} reached the host from no call of the desktop's`);

  for (const a of world.attempts) {
    // 2. Never a duplicate: after an unknown outcome, the message goes again
    // only as a turn/steer the host deduplicates, and only if the first
    // attempt's decision was one the host deduplicates (hostDeduplicates).
    if (a.error instanceof api.SteeringError && a.error.kind === "outcomeUnknown") {
      const lead = a.joined ?? a;
      const own = m.sent.filter((r) => carries(r) && r.inv?.attempt === lead);
      const decided = m.sent.find((r) => r.method === "codexhost/thread/steering/inspect" && r.attempt === lead)?.answered;
      const firstNotDeduplicated = plan.host === "stock" || decided === "official" || own.some((r) => notDeduplicated(r, plan));
      const again = m.sent.filter((r) => carries(r) && r.cuid === a.cuid && r.inv && r.inv.seq > a.endSeq && r.inv.role === "owner" && r.inv.hookLive && HANDLED.has(r.inv.attempt?.shape));
      const applied = again.filter((r) => firstNotDeduplicated || notDeduplicated(r, plan));
      if (applied.length > 0) {
        const how = firstNotDeduplicated ? "on a host that does not deduplicate it (hostDeduplicates false)" : `and is resent as ${applied[0].method}${applied[0].tag ? `[${applied[0].tag}]` : ""}, which the host does not deduplicate`;
        fail(`${a.cuid} ended outcomeUnknown (@${a.endSeq}) ${how}, yet a later attempt sent it again (@${applied[0].seq}): ${wire()}`);
      }
    }
    // 3. One turn/start or newTurn turn/steer per attempt.
    const starts = m.sent.filter((r) => r.inv?.attempt === a && r.cuid === a.cuid && (r.method === "turn/start" || (r.method === "turn/steer" && r.tag === "newTurn")));
    if (starts.length > 1) fail(`one attempt of ${a.cuid} sent ${starts.length} turn/start or newTurn turn/steer requests: ${wire()}`);
  }
  if (process.env.SCHEDULE_DEBUG) {
    console.log(JSON.stringify({ seed, plan }));
    for (const a of world.attempts) console.log(`attempt ${a.cuid} ${a.shape} "${a.input[0]?.text ?? ""}" @${a.startSeq}..@${a.endSeq} ${a.error ? describe(a.error) : "value " + JSON.stringify(a.value)}${a.error?.trace ? " " + JSON.stringify(a.error.trace) : ""}`);
    for (const i of m.invocations) console.log(`call @${i.seq} ${i.kind}(${i.cuid}) ${i.how} role ${i.role} attempt @${i.attempt?.startSeq}`);
    for (const r of m.sent) console.log(`sent @${r.seq} ${r.method}${r.tag ? `[${r.tag}]` : ""} ${r.cuid ?? ""} ${r.answered ?? ""} from @${r.inv?.seq}`);
  }
  for (const a of world.attempts) tally(`outcome ${a.error instanceof api.SteeringError ? a.error.kind : a.error ? "desktop's own error" : "resolved"}`);
  for (const i of m.invocations) tally(`${i.kind} ${i.how}`);
  for (const r of m.sent) if (carries(r)) tally(`sent ${r.method}${r.tag ? `[${r.tag}]` : ""}`);
  if (world.attempts.some((a) => a.joined)) tally("a joined steer");
  return { failures, plan, attempts: world.attempts.length, overshoot: Math.max(0, ...world.attempts.filter((a) => a.elapsed !== undefined && !a.exempt).map((a) => a.elapsed - steerMs * 3)) };
}

/** How often each outcome, desktop behaviour and request reached the host, over every seed. */
const kinds = new Map();
const tally = (what) => kinds.set(what, (kinds.get(what) ?? 0) + 1);
let worst = 0;
for (let b = 0; b < SEEDS.length; b += BATCH) {
  const seeds = SEEDS.slice(b, b + BATCH);
  test(`seeds ${seeds[0]}..${seeds.at(-1)}: bounded, never a duplicate, one start per attempt, the chain restored, nothing unhandled`, async () => {
    const seen = unhandled.length;
    const results = await Promise.all(seeds.map(runSeed));
    for (const r of results) worst = Math.max(worst, r.overshoot);
    await sleep(20);
    const failures = results.flatMap((r) => r.failures);
    const stray = unhandled.slice(seen).map(describe);
    assert.deepEqual(stray, [], `unhandled rejections in seeds ${seeds.join(",")}: ${stray.join("; ")}`);
    assert.deepEqual(failures, [], failures.join("\n"));
  });
}

test("the schedules reach the outcomes and paths they are meant to exercise", () => {
  if (process.env.SCHEDULE_SEEDS) return;
  const seen = [...kinds].sort().map(([k, n]) => `${k}: ${n}`);
  console.log(`${seen.join("\n")}\nworst settle time over steerMs x 3: ${worst.toFixed(0)} ms (slack ${SLACK} ms)`);
  for (const kind of ["outcomeUnknown", "timeout", "disposed", "busy", "host", "pendingTurnStart", "invalidInput", "resolved", "desktop's own error"]) {
    assert.ok(kinds.get(`outcome ${kind}`) > 0, `no steer ended ${kind}`);
  }
  for (const request of ["turn/steer", "turn/steer[activeTurn]", "turn/steer[newTurn]", "turn/start"]) assert.ok(kinds.get(`sent ${request}`) > 0, `no ${request} reached the host`);
  assert.ok(kinds.get("a joined steer") > 0, "no steer joined another");
});
