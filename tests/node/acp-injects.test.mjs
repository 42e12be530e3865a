// An ACP agent's pending injects through the packed package: a send the
// agent accepts as an inject stays pending; `replace` swaps its words and
// `revoke` takes them back, each with the request the agent's protocol
// names and the composer state following.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});

const INJECT_AGENT = { agentCapabilities: { session: { inject: { modes: ["steer"], pending: { replace: true } } } } };

test("an accepted inject is pending; replace() then revoke() send the agent's requests and hand the replaced words back", async () => {
  const sent = [];
  const answers = { "session/inject": { messageId: "m1" }, "session/replace_inject": { messageId: "m2" }, "session/revoke_inject": {} };
  const acp = new api.AcpSteering({ request: (method, params) => (sent.push([method, params]), Promise.resolve(answers[method])), initialize: INJECT_AGENT });
  acp.promptSent("s");
  const injected = await acp.send("s", [{ type: "text", text: "use pnpm" }]);
  assert.deepEqual([injected.kind, injected.messageId], ["injected", "m1"]);
  assert.deepEqual(acp.inputMode("s").pendingInjects, ["m1"]);
  const words = [{ type: "text", text: "use bun" }];
  assert.deepEqual(await acp.replace("s", "m1", words), { kind: "replaced", messageId: "m2", previousMessageId: "m1" });
  assert.deepEqual(acp.inputMode("s").pendingInjects, ["m2"]);
  const revoked = await acp.revoke("s", "m2");
  assert.deepEqual([revoked.kind, revoked.messageId, revoked.draft], ["revoked", "m2", words]);
  assert.deepEqual(acp.inputMode("s").pendingInjects, []);
  assert.deepEqual(sent.slice(1), [
    ["session/replace_inject", { sessionId: "s", messageId: "m1", content: words }],
    ["session/revoke_inject", { sessionId: "s", messageId: "m2" }],
  ]);
  acp.free();
});

test("a replace or revoke of a message that is not pending is refused at once, with the draft, and sends nothing", async () => {
  const sent = [];
  const acp = new api.AcpSteering({ request: (method) => (sent.push(method), new Promise(() => {})), initialize: INJECT_AGENT });
  acp.promptSent("s");
  const words = [{ type: "text", text: "use bun" }];
  const replaced = await acp.replace("s", "nope", words).then(() => assert.fail("resolved"), (e) => e);
  assert.ok(api.isSteeringError(replaced, "invalidInput") && /no pending message nope/.test(replaced.message), String(replaced));
  assert.equal(replaced.draft, words);
  const revoked = await acp.revoke("s", "nope").then(() => assert.fail("resolved"), (e) => e);
  assert.ok(api.isSteeringError(revoked, "invalidInput") && /no pending message nope/.test(revoked.message), String(revoked));
  assert.deepEqual(sent, []);
  acp.free();
});
