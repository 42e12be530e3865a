// Who deduplicates a resent message, through the desktop hook: a codexhost
// host applies a same-id turn/steer once only on its external threads. On a
// Codex-owned thread (its steer goes verbatim to Codex) and for a message
// that left as a plain turn/start, a same-id retry after outcomeUnknown is
// refused and nothing is sent twice; on an external thread's turn/steer the
// retry goes, for the host to deduplicate. The packed package.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { RequestManager, settle, text } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const count = (m, method) => m.sent.filter((s) => s.method === method).length;
const never = () => new Promise(() => {});

/** The published codexhost host before steering: no inspect, ownership/list by owner. */
const oldCodexhost = (owner, more) => ({
  "codexhost/thread/steering/inspect": () =>
    Promise.reject({ code: -32600, message: "Invalid request: unknown variant `codexhost/thread/steering/inspect`, expected one of `thread/read`" }),
  "codexhost/thread/ownership/list": (p) => ({
    threads: [owner === "codex" ? { threadId: p.threadIds[0], owner } : { threadId: p.threadIds[0], owner, harnessId: "claude-code" }],
  }),
  ...more,
});

/** Steers m-1 twice with the same id; the first attempt's answer never comes. */
async function steerTwice(m) {
  const hook = api.installDesktopSteering(m, { timeouts: { steerMs: 60 } });
  const input = text("use pnpm");
  const first = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  assert.deepEqual([first.error?.kind, first.error?.clientUserMessageId], ["outcomeUnknown", "m-1"]);
  const retry = await settle(m.steerTurn("t", input, { id: "r", context: {} }, "fast", undefined, "m-1"));
  hook.dispose();
  return retry;
}

test("codexhost host, Codex-owned thread: a same-id retry after outcomeUnknown is refused and its turn/steer is not sent again", async () => {
  const m = new RequestManager(oldCodexhost("codex", { "turn/steer": never }));
  const retry = await steerTwice(m);
  assert.equal(count(m, "turn/steer"), 1, "Codex applies a repeated clientUserMessageId again");
  assert.deepEqual([retry.error?.kind, retry.error?.clientUserMessageId], ["outcomeUnknown", "m-1"]);
  assert.match(retry.error.message, /does not deduplicate/);
});

test("codexhost host, external thread: a same-id retry of a turn/steer after outcomeUnknown is sent again for the host to deduplicate", async () => {
  let steers = 0;
  const m = new RequestManager(oldCodexhost("external", { "turn/steer": () => (++steers === 1 ? never() : { turnId: "turn-2" }) }));
  const retry = await steerTwice(m);
  assert.equal(count(m, "turn/steer"), 2);
  assert.equal(m.sent.filter((s) => s.method === "turn/steer").at(-1).params.clientUserMessageId, "m-1");
  assert.ok(retry.value, `the retry failed: ${retry.error?.message}`);
});

test("codexhost host, external thread whose turn ended: a message that left as a plain turn/start is not sent again on a same-id retry", async () => {
  const m = new RequestManager(oldCodexhost("external", { "turn/start": never, "turn/steer": never }));
  m.coordinator.options.submissionHost = { getActiveTurnId: () => undefined, hasPendingTurnStart: () => false };
  const retry = await steerTwice(m);
  assert.equal(count(m, "turn/start"), 1, "a codexhost host deduplicates turn/steer only");
  assert.equal(count(m, "turn/steer"), 0);
  assert.equal(retry.error?.kind, "outcomeUnknown");
});
