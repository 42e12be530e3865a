// The desktop hook's newTurn as the desktop sees it: the submission built
// from the desktop's arguments, the fields its rewritten turn/steer keeps,
// how the running turn and a pending start are read from the submission
// host, and how the route's answer comes back. The packed package in Node,
// against the fake request manager.
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { packAndInstall } from "./pack.mjs";
import { answers, callSteer, methods, RequestManager, settle, text } from "./fake-manager.mjs";

let api;
before(async () => {
  api = await import(packAndInstall().entry);
  await api.init();
});


test("newTurn's submission carries the desktop's own values: context, metadata, attachments and callback by identity", async () => {
  const manager = new RequestManager(answers("newTurn"));
  api.installDesktopSteering(manager);
  const input = text("start over");
  const attachments = [{ file: "a.png" }];
  const commentAttachments = [{ comment: 1 }];
  const mcp = [{ app: "x" }];
  const metadata = { origin: "composer" };
  const additional = { ctx: 1 };
  const onAdded = () => {};
  const restore = { id: "r-1", cwd: "/repo", responsesapiClientMetadata: metadata, context: { collaborationMode: "pair", commentAttachments, mcpAppModelContextAttachments: mcp } };
  await manager.steerTurn("t", input, restore, "fast", attachments, "m-1", additional, null, onAdded);
  assert.equal(manager.started.length, 1);
  const { threadId, submission, onMessageAdded } = manager.started[0];
  assert.equal(threadId, "t");
  assert.equal(onMessageAdded, onAdded, "the desktop's callback is handed to its startTurn");
  assert.deepEqual(Object.keys(submission).sort(), ["context", "request"]);
  const { request, context } = submission;
  assert.deepEqual(request, {
    threadId: "t", input, clientUserMessageId: "m-1", additionalContext: additional, responsesapiClientMetadata: metadata,
    cwd: "/repo", serviceTier: "fast", model: null, effort: null, collaborationMode: "pair",
  });
  assert.equal(request.input, input, "the draft by identity");
  assert.equal(request.additionalContext, additional);
  assert.equal(request.responsesapiClientMetadata, metadata);
  assert.deepEqual(context, { attachments, commentAttachments, mcpAppModelContextAttachments: mcp, useAppServerPermissionDefault: true });
  assert.equal(context.attachments, attachments);
  assert.equal(context.commentAttachments, commentAttachments);
  assert.equal(context.mcpAppModelContextAttachments, mcp);
});

test("newTurn's submission fills the absent values: no collaboration mode is null, no attachments are empty lists", async () => {
  for (const commentAttachments of [undefined, null]) {
    const manager = new RequestManager(answers("newTurn"));
    api.installDesktopSteering(manager);
    await manager.steerTurn("t", text("x"), { id: "r-2", context: { commentAttachments } }, undefined, null, undefined, undefined, undefined);
    const { request, context } = manager.started[0].submission;
    assert.equal(request.collaborationMode, null);
    assert.equal(request.cwd, undefined);
    assert.equal(request.responsesapiClientMetadata, undefined);
    assert.deepEqual(context.attachments, []);
    assert.deepEqual(context.commentAttachments, []);
    assert.equal(context.mcpAppModelContextAttachments, undefined);
  }
});

test("the rewritten turn/steer keeps only the turn/start's thread, input, id, context and metadata, then adds the running turn and the newTurn tag", async () => {
  const manager = new RequestManager(answers("newTurn"));
  api.installDesktopSteering(manager);
  const input = text("start over");
  const metadata = { origin: "composer" };
  await manager.steerTurn("t", input, { id: "r-3", cwd: "/repo", responsesapiClientMetadata: metadata, context: { collaborationMode: "pair" } }, "fast", [], "m-3", { ctx: 2 }, null);
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect", "turn/steer"]);
  const steer = manager.sent[1].params;
  assert.deepEqual(steer, {
    threadId: "t", input, clientUserMessageId: "m-3", additionalContext: { ctx: 2 }, responsesapiClientMetadata: metadata,
    expectedTurnId: "turn-1", codexhostSteerDelivery: "newTurn",
  });
  assert.equal(steer.input, input);
});

test("the rewritten turn/steer leaves out the kept fields the turn/start has as null or undefined", async () => {
  const manager = new RequestManager(answers("newTurn"));
  api.installDesktopSteering(manager);
  await manager.steerTurn("t", text("x"), { id: "r-4", context: {} }, "fast", [], "m-4", null, null);
  assert.deepEqual(Object.keys(manager.sent[1].params).sort(), ["clientUserMessageId", "codexhostSteerDelivery", "expectedTurnId", "input", "threadId"]);
});

test("the running turn is read from getActiveTurnId: a read that throws, a missing reader, a number or an over-long id is missingBinding and nothing starts", async () => {
  const hosts = {
    "a throwing read": { getActiveTurnId: () => { throw new Error("gone"); }, hasPendingTurnStart: () => false },
    "no reader": { hasPendingTurnStart: () => false },
    "a number": { getActiveTurnId: () => 7, hasPendingTurnStart: () => false },
    "an over-long id": { getActiveTurnId: () => "t".repeat(100_000), hasPendingTurnStart: () => false },
  };
  for (const [what, host] of Object.entries(hosts)) {
    const manager = new RequestManager(answers("newTurn"));
    manager.coordinator.options.submissionHost = host;
    api.installDesktopSteering(manager);
    const input = text("x");
    const { error } = await settle(manager.steerTurn("t", input, { id: "r", context: {} }, "fast"));
    assert.equal(error?.kind, "missingBinding", what);
    assert.equal(error.draft, input, what);
    assert.equal(manager.started.length, 0, what);
    assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect"], what);
  }
});

test("only hasPendingTurnStart() === true is a pending start: a truthy value or a throwing check lets the newTurn go", async () => {
  for (const pending of [() => 1, () => "yes", () => { throw new Error("gone"); }]) {
    const manager = new RequestManager(answers("newTurn"));
    manager.coordinator.options.submissionHost = { getActiveTurnId: () => "turn-1", hasPendingTurnStart: pending };
    api.installDesktopSteering(manager);
    const { value } = await settle(callSteer(manager, "t", "x"));
    assert.deepEqual(value, { turn: { id: "turn-2", status: "inProgress", items: [], error: null } });
    assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect", "turn/steer"]);
  }
});

test("an ended turn (getActiveTurnId() is null or undefined) starts plainly: the desktop's turn/start and its answer, untouched", async () => {
  for (const active of [null, undefined]) {
    const manager = new RequestManager(answers("newTurn"));
    manager.coordinator.options.submissionHost = { getActiveTurnId: () => active, hasPendingTurnStart: () => false };
    api.installDesktopSteering(manager);
    const { value } = await settle(callSteer(manager, "t", "x", { messageId: "m-5" }));
    assert.deepEqual(value, { turn: { id: "turn-3" } });
    assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect", "turn/start"]);
    assert.equal(manager.sent[1].params, manager.started[0].submission.request, "its params by identity");
    assert.equal("codexhostSteerDelivery" in manager.sent[1].params, false);
  }
});

test("the submission host is asked about the steer's own thread", async () => {
  const asked = [];
  const manager = new RequestManager(answers("newTurn"));
  manager.coordinator.options.submissionHost = {
    getActiveTurnId: (...a) => (asked.push(["getActiveTurnId", ...a]), a[0] === "t-7" ? "turn-1" : null),
    hasPendingTurnStart: (...a) => (asked.push(["hasPendingTurnStart", ...a]), a[0] !== "t-7"),
  };
  api.installDesktopSteering(manager);
  const { value } = await settle(callSteer(manager, "t-7", "x"));
  assert.deepEqual(value, { turn: { id: "turn-2", status: "inProgress", items: [], error: null } }, "the running turn of t-7, rewritten into a steer");
  assert.deepEqual(asked, [["hasPendingTurnStart", "t-7"], ["getActiveTurnId", "t-7"]]);
});

test("restoreMessage.context null is no context: invalidInput with the draft, nothing started", async () => {
  const manager = new RequestManager(answers("newTurn"));
  api.installDesktopSteering(manager);
  const input = text("x");
  const { error } = await settle(manager.steerTurn("t", input, { id: "r", context: null }, "fast"));
  assert.equal(error?.kind, "invalidInput");
  assert.equal(error.draft, input);
  assert.equal(manager.started.length, 0);
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect"]);
});

test("a manager whose startTurn went away after install: missingBinding, nothing sent", async () => {
  const manager = new RequestManager(answers("newTurn"));
  api.installDesktopSteering(manager);
  manager.startTurn = null;
  const { error } = await settle(callSteer(manager, "t", "x"));
  assert.equal(error?.kind, "missingBinding");
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect"]);
});

test("a desktop startTurn that hands the submission to its own steerTurn gets the host's turn/steer answer untouched", async () => {
  class Manager extends RequestManager {
    startTurn(threadId, submission, onAdded) {
      this.started.push(submission);
      const r = submission.request;
      return this.steerTurn(threadId, r.input, { id: r.clientUserMessageId, context: {} }, r.serviceTier, [], r.clientUserMessageId, r.additionalContext, null, onAdded);
    }
  }
  const manager = new Manager(answers("newTurn"));
  api.installDesktopSteering(manager);
  const { value } = await settle(callSteer(manager, "t", "x", { messageId: "m-1" }));
  assert.deepEqual(value, { turnId: "turn-2" });
  assert.deepEqual(methods(manager), ["codexhost/thread/steering/inspect", "turn/steer"]);
});
