// Set-up errors in the package's words: every option of the three entry
// points, given a bad value, is refused naming the option, what it takes and
// what it got, and no error of the package carries the JSON parser's
// vocabulary. The packed package in Node.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { RequestManager } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

/** What serde and serde_json say in their errors. */
const PARSER_WORDS = ["invalid type", "invalid value", "expected u64", "at line", "column", "missing field", "unknown field"];

const request = () => new Promise(() => {});
const MS = "a whole number of milliseconds from 0 to 2147483647";
const HUGE_TEXT = "x".repeat(1_000_000);
/** What steer arguments are told they must be. */
const STEER = "the steer arguments must be { threadId: string, input: content items, expectedTurnId?: string | null, clientUserMessageId?: string | null, pendingTurnStart?: boolean }";
/** What a malformed draft item is told it must be. */
const ITEM = "a content item must be an object with a string type (and string text, mimeType and data when given)";

/** The bad values, each with how the package writes it back. */
const BAD = [
  ["negative", -1, "-1"],
  ["1e300", 1e300, "1e300"],
  ["NaN", NaN, "NaN"],
  ["a string", "10s", '"10s"'],
  ["an object", { ms: 5 }, "an object"],
  ["a huge number", 2 ** 53, "9007199254740992"],
  ["a huge string", HUGE_TEXT, "a string of 1000000 characters"],
];

const desktop = (options) => api.installDesktopSteering(new RequestManager({}), options);
const bounds = (build) => ["decideMs", "steerMs", "requestMs"].map((key) => [`options.timeouts.${key}`, MS, (v) => build({ timeouts: { [key]: v } })]);

/** Every option: [entry point, option, what it takes, build(value), takes an object]. */
const OPTIONS = [
  ...[
    ["options", "an object { request, timeouts?, streamRole?, journal?, journalKey?, onJournalError? }", (v) => new api.CodexhostSteering(v), true],
    ["options.request", "a function (method, params, options?) => Promise", (v) => new api.CodexhostSteering({ request: v })],
    ["options.timeouts", "an object { decideMs?, steerMs?, requestMs? }", (v) => new api.CodexhostSteering({ request, timeouts: v }), true],
    ...bounds((o) => new api.CodexhostSteering({ request, ...o })),
    ["options.streamRole", 'a function (threadId) => "owner" | "follower"', (v) => new api.CodexhostSteering({ request, streamRole: v })],
  ].map((row) => ["CodexhostSteering", ...row]),
  ...[
    ["options", "an object { request, initialize?, allowPromptHandoff?, timeouts?, journal?, journalKey?, onJournalError? }", (v) => new api.AcpSteering(v), true],
    ["options.request", "a function (method, params, options?) => Promise", (v) => new api.AcpSteering({ request: v })],
    ["options.initialize", "the agent's initialize answer (an object) or a promise of it", (v) => new api.AcpSteering({ request, initialize: v }), true],
    ["options.allowPromptHandoff", "true or false", (v) => new api.AcpSteering({ request, allowPromptHandoff: v })],
    ["options.timeouts", "an object { decideMs?, steerMs?, requestMs? }", (v) => new api.AcpSteering({ request, timeouts: v }), true],
    ...bounds((o) => new api.AcpSteering({ request, ...o })),
  ].map((row) => ["AcpSteering", ...row]),
  ...[
    ["options", "an object { timeouts?, onReconcile?, journal?, journalKey?, onJournalError? }", (v) => desktop(v), true],
    ["options.onReconcile", "a function ({ threadId, clientUserMessageId, presented, delivery, turnId }) => void", (v) => desktop({ onReconcile: v })],
    ["options.timeouts", "an object { decideMs?, steerMs?, requestMs? }", (v) => desktop({ timeouts: v }), true],
    ...bounds((o) => desktop(o)),
  ].map((row) => ["installDesktopSteering", ...row]),
];

/** What a malformed field's error reads: what the value must be, then the text just before the fault, ending in `fault`. */
function near(must, fault) {
  const quote = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${quote(must)}: a field is missing or has another type or value \\(near \`[^\`]*${quote(fault)}"?\`\\)$`);
}

function assertOwnWords(message, where) {
  for (const phrase of PARSER_WORDS) assert.ok(!message.includes(phrase), `${where}: ${JSON.stringify(message)} carries the parser's "${phrase}"`);
}

function refusal(build, value) {
  let made;
  try {
    made = build(value);
  } catch (error) {
    return error;
  }
  made?.dispose?.();
  made?.free?.();
  return undefined;
}

for (const [entry, option, takes, build, takesObjects] of OPTIONS) {
  test(`${entry} ${option}: each bad value is refused naming the option, what it takes and what it got`, () => {
    for (const [label, value, shown] of BAD) {
      if (takesObjects && typeof value === "object") continue; // an object is what it takes
      const where = `${entry} ${option} <- ${label}`;
      const error = refusal(build, value);
      assert.ok(error instanceof Error, `${where}: accepted`);
      assert.equal(error.message, `${option} must be ${takes} (got ${shown})`, where);
      assertOwnWords(error.message, where);
    }
  });
}

test("bounds at both ends of the range, left out or null, are taken by every entry point", () => {
  for (const [entry, option, , build] of OPTIONS.filter(([, option]) => option.startsWith("options.timeouts."))) {
    for (const value of [0, 2147483647, undefined, null]) assert.equal(refusal(build, value), undefined, `${entry} ${option} <- ${value}`);
  }
  assert.equal(refusal(() => new api.AcpSteering({ request, allowPromptHandoff: false })), undefined);
  assert.equal(refusal(() => desktop(null)), undefined);
});

test("a misspelled bound is refused by every entry point, naming it and the bounds there are", () => {
  const expected = "options.timeouts.steerMS is not an option: options.timeouts takes decideMs, steerMs and requestMs";
  for (const build of [(t) => new api.CodexhostSteering({ request, timeouts: t }), (t) => new api.AcpSteering({ request, timeouts: t }), (t) => desktop({ timeouts: t })]) {
    assert.equal(refusal(build, { steerMS: 5 })?.message, expected);
  }
});

test("a call's fields of the wrong type are named with the value, in the package's words", async () => {
  const cx = new api.CodexhostSteering({ request });
  const acp = new api.AcpSteering({ request, initialize: {} });
  const text = [{ type: "text", text: "use pnpm" }];
  const cases = [
    [() => cx.steer({ threadId: 5, input: text }), near(STEER, '"threadId":5')],
    [() => cx.steer({ threadId: "t", expectedTurnId: 7, input: text }), near(STEER, '"expectedTurnId":7')],
    [() => cx.steer({ threadId: "t", pendingTurnStart: "yes", input: text }), near(STEER, '"pendingTurnStart":"yes')],
    [() => cx.steer({ threadId: "t", input: [{ type: "text", text: 5 }] }), near(ITEM, '"text":5')],
    [() => cx.steer({ threadId: "t", input: text, requestOptions: { timeoutMs: "5s" } }), 'requestOptions.timeoutMs must be a number of milliseconds from 0 to 2147483647 (got "5s")'],
    [() => cx.steer({ threadId: "t", input: text, requestOptions: { timeoutMs: -1 } }), "requestOptions.timeoutMs must be a number of milliseconds from 0 to 2147483647 (got -1)"],
    [() => cx.decide({ threadId: 1e300, text: "x" }), "threadId must be a string of at most 4096 characters (got 1e300)"],
    [() => cx.decide({ threadId: "t", text: 5 }), "text must be a string (got 5)"],
    [() => acp.send(NaN, text), "sessionId must be a string of at most 4096 characters (got NaN)"],
    [() => acp.send("s", [{ type: 5 }]), near(ITEM, '"type":5')],
    [() => acp.send("s", [{ type: "text", text: "a" }, "b"]), near(ITEM, '},"b')],
  ];
  for (const [call, expected] of cases) {
    const error = await call().then(() => assert.fail(`resolved: ${expected}`), (e) => e);
    assert.ok(api.isSteeringError(error, "invalidInput"), `${expected}: ${error}`);
    if (expected instanceof RegExp) assert.match(error.message, expected);
    else assert.equal(error.message, expected);
    assertOwnWords(error.message, String(expected));
  }
  assert.throws(() => acp.promptSent({}), (e) => e.message === "sessionId must be a string of at most 4096 characters (got an object)");
  cx.free();
  acp.free();
});
