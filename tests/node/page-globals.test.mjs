// The page's own clock and randomness are JavaScript the engine calls: a page
// that replaced them (with code that re-enters the engine, or that throws)
// must not break the module. The engine reads them with no borrow held and
// through the front door (never an exception into wasm). Own process: the
// globals are patched here. The driver's clocks and ids (js/driver/clock.js,
// random-id.js) are also read directly: which global each one follows.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { packAndInstall } from "./pack.mjs";

let api;
let clock;
let clockUrl;
let randomId;
before(async () => {
  const pkg = packAndInstall();
  api = await import(pkg.entry);
  await api.init();
  const driver = (file) => pathToFileURL(join(pkg.shipped, "driver", file)).href;
  clockUrl = driver("clock.js");
  [clock, randomId] = await Promise.all([import(clockUrl), import(driver("random-id.js"))]);
});

function steering(sent = []) {
  return new api.CodexhostSteering({
    request: (method, params) => {
      sent.push({ method, params });
      return Promise.resolve(method === "codexhost/thread/steering/inspect" ? { delivery: "activeTurn" } : { turnId: "turn-2" });
    },
  });
}
const steerArgs = (threadId) => ({ threadId, expectedTurnId: "turn-1", input: [{ type: "text", text: "use pnpm" }] });

/** Replaces `object[name]` while `run` runs. */
async function patched(object, name, replacement, run) {
  const had = Object.prototype.hasOwnProperty.call(object, name);
  const original = object[name];
  object[name] = replacement;
  try {
    return await run();
  } finally {
    if (had) object[name] = original;
    else delete object[name];
  }
}

test("a page clock that calls back into the engine: the steer goes through and the module stays usable", async () => {
  const s = steering();
  const realNow = performance.now.bind(performance);
  const realDate = Date.now;
  let reentered = 0;
  const reentering = (read) => () => {
    reentered += 1;
    s.liveState(); // would find the engine borrowed if the clock ran inside a borrow
    return read();
  };
  const result = await patched(performance, "now", reentering(realNow), () =>
    patched(Date, "now", reentering(realDate), () => s.steer(steerArgs("t-1"))));
  assert.ok(reentered > 0, "the engine read the page's clock");
  assert.equal(result.turnId, "turn-2");
  assert.equal((await s.steer(steerArgs("t-2"))).turnId, "turn-2", "usable afterwards");
  assert.equal(s.liveState(), 0);
});

test("a page clock that throws: the steer goes through and the module stays usable", async () => {
  const s = steering();
  const broken = () => {
    throw new Error("clock broken by the page");
  };
  const result = await patched(performance, "now", broken, () => patched(Date, "now", broken, () => s.steer(steerArgs("t-1"))));
  assert.equal(result.turnId, "turn-2");
  assert.equal((await s.steer(steerArgs("t-2"))).turnId, "turn-2", "usable afterwards");
  assert.equal(s.liveState(), 0);
});

test("a page whose crypto.randomUUID and Math.random throw: a steer without an id still gets one, distinct each time", async () => {
  const sent = [];
  const s = steering(sent);
  const broken = () => {
    throw new Error("randomness broken by the page");
  };
  await patched(crypto, "randomUUID", broken, () =>
    patched(Math, "random", broken, async () => {
      await s.steer(steerArgs("t-1"));
      await s.steer(steerArgs("t-2"));
    }));
  const ids = sent.filter((r) => r.method === "turn/steer").map((r) => r.params.clientUserMessageId);
  assert.equal(ids.length, 2);
  assert.ok(ids.every((id) => typeof id === "string" && id.length > 0), JSON.stringify(ids));
  assert.notEqual(ids[0], ids[1]);
  assert.equal((await s.steer(steerArgs("t-3"))).turnId, "turn-2", "usable afterwards");
});

test("a page clock that jumps forward once does not freeze later bounds", async () => {
  const hang = new api.CodexhostSteering({ request: () => new Promise(() => {}), timeouts: { decideMs: 50 } });
  const real = performance.now.bind(performance);
  await patched(performance, "now", () => real() + 1e12, async () => {
    await hang.steer(steerArgs("t-jump")).catch(() => {});
  });
  const started = real();
  const error = await Promise.race([
    hang.steer(steerArgs("t-after")).then(() => "resolved", (e) => e.kind),
    new Promise((r) => setTimeout(() => r("still pending after 2 s"), 2000)),
  ]);
  assert.equal(error, "timeout");
  assert.ok(real() - started < 1000);
});

test("the deadline clock is the page's performance.now(), NaN once it throws; the wall clock is Date.now(), NaN once it throws", async () => {
  const broken = () => {
    throw new Error("clock broken by the page");
  };
  assert.equal(await patched(performance, "now", () => 1234.5, () => clock.now()), 1234.5);
  assert.ok(Number.isNaN(await patched(performance, "now", broken, () => clock.now())));
  assert.equal(await patched(Date, "now", () => 42, () => clock.wallNow()), 42);
  assert.ok(Number.isNaN(await patched(Date, "now", broken, () => clock.wallNow())));
});

test("without a usable performance clock at load, the deadline clock is Date.now()", async () => {
  const fresh = await patched(performance, "now", () => "not a number", () => import(`${clockUrl}?no-performance`));
  assert.equal(await patched(Date, "now", () => 42, () => fresh.now()), 42);
});

test("an id is crypto.randomUUID(), else 128 bits of Math.random as hex, else empty", async () => {
  const broken = () => {
    throw new Error("randomness broken by the page");
  };
  assert.equal(await patched(crypto, "randomUUID", () => "the-uuid", () => randomId.randomId()), "the-uuid");
  const draws = [0.5, 2 ** -32, 0.5, 2 ** -32];
  const hex = await patched(crypto, "randomUUID", broken, () => patched(Math, "random", () => draws.shift(), () => randomId.randomId()));
  assert.equal(hex, "80000000000000018000000000000001");
  assert.equal(await patched(crypto, "randomUUID", broken, () => patched(Math, "random", broken, () => randomId.randomId())), "");
});
