// Every public entry point with a hostile value in one of its slots: the
// promise-returning ones (`asyncSlots`) and the synchronous ones
// (`syncSlots`), each slot named by the role that says what it must refuse.
import { BOUND } from "./contract.mjs";
import { Manager, TEXT } from "./good-hosts.mjs";

const UPDATE = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "x" } };

/** Roles whose slot must refuse any hostile value (ids, text, drafts, whole args). */
export const STRICT = new Set(["args", "id", "text", "input", "item"]);

/**
 * Every promise-returning entry point, with the hostile value in one slot.
 * Each returns [call, draft]: draft is the caller's input array when it is
 * readable (identity is then required), otherwise undefined.
 */
export function asyncSlots(h) {
  const steer = (slot, over, hooks) => {
    const input = TEXT();
    return [() => h.cx.steer({ threadId: slot, expectedTurnId: "turn-1", input, ...over(input) }, hooks), input];
  };
  const c = (name, role, bound, make) => ({ name, role, bound, make });
  return [
    c("decide(args)", "args", BOUND.decide, (v) => [() => h.cx.decide(v)]),
    c("decide({threadId})", "id", BOUND.decide, (v) => [() => h.cx.decide({ threadId: v, text: "x" })]),
    c("decide({text})", "text", BOUND.decide, (v, s) => [() => h.cx.decide({ threadId: s, text: v })]),
    c("steer(args)", "args", BOUND.steer, (v) => [() => h.cx.steer(v)]),
    c("steer({threadId})", "id", BOUND.steer, (v) => steer(undefined, () => ({ threadId: v }))),
    c("steer({expectedTurnId})", "id", BOUND.steer, (v, s) => steer(s, () => ({ expectedTurnId: v }))),
    c("steer({input})", "input", BOUND.steer, (v, s) => [() => h.cx.steer({ threadId: s, expectedTurnId: "turn-1", input: v })]),
    c("steer({input: [v]})", "item", BOUND.steer, (v, s) => { const input = [v]; return [() => h.cx.steer({ threadId: s, expectedTurnId: "turn-1", input }), input]; }),
    c("steer({input: [{text: v}]})", "text", BOUND.steer, (v, s) => { const input = [{ type: "text", text: v }]; return [() => h.cx.steer({ threadId: s, expectedTurnId: "turn-1", input }), input]; }),
    c("steer({clientUserMessageId})", "id", BOUND.steer, (v, s) => steer(s, () => ({ clientUserMessageId: v }))),
    c("steer({additionalContext})", "data", BOUND.steer, (v, s) => steer(s, () => ({ additionalContext: v }))),
    c("steer({responsesapiClientMetadata})", "data", BOUND.steer, (v, s) => steer(s, () => ({ responsesapiClientMetadata: v }))),
    c("steer({requestOptions})", "opaque", BOUND.steer, (v, s) => steer(s, () => ({ requestOptions: v }))),
    c("steer({pendingTurnStart})", "opaque", BOUND.steer, (v, s) => steer(s, () => ({ pendingTurnStart: v }))),
    c("steer(args, hooks)", "opaque", BOUND.steer, (v, s) => steer(s, () => ({}), v)),
    c("steer(args, {present, retract, reconcile})", "opaque", BOUND.steer, (v, s) => steer(s, () => ({}), { present: v, retract: v, reconcile: v })),
    c("AcpSteering.send(sessionId)", "id", BOUND.acp, (v) => { const input = TEXT(); return [() => h.acp.send(v, input), input]; }),
    c("AcpSteering.send(_, content)", "input", BOUND.acp, (v) => [() => h.acp.send("s1", v)]),
    c("AcpSteering.send(_, [v])", "item", BOUND.acp, (v) => { const input = [v]; return [() => h.acp.send("s1", input), input]; }),
    c("AcpSteering.send(_, [{text: v}])", "acptext", BOUND.acp, (v) => { const input = [{ type: "text", text: v }]; return [() => h.acp.send("s1", input), input]; }),
    c("AcpSteering.revoke(sessionId)", "id", BOUND.acp, (v) => [() => h.acp.revoke(v, "m1")]),
    c("AcpSteering.revoke(_, messageId)", "id", BOUND.acp, (v) => [() => h.acp.revoke("s1", v)]),
    c("AcpSteering.replace(sessionId)", "id", BOUND.acp, (v) => { const input = TEXT(); return [() => h.acp.replace(v, "m1", input), input]; }),
    c("AcpSteering.replace(_, messageId)", "id", BOUND.acp, (v) => { const input = TEXT(); return [() => h.acp.replace("s1", v, input), input]; }),
    c("AcpSteering.replace(_, _, content)", "input", BOUND.acp, (v) => [() => h.acp.replace("s1", "m1", v)]),
    c("AcpSteering.replace(_, _, [v])", "item", BOUND.acp, (v) => { const input = [v]; return [() => h.acp.replace("s1", "m1", input), input]; }),
  ];
}

/** Every synchronous entry point, with the hostile value in one slot. */
export function syncSlots(h) {
  const { api } = h;
  const request = () => Promise.resolve({});
  const keep = (x) => { if (x && typeof x === "object") h.made.push(x); return x; };
  const c = (name, role, make) => ({ name, role, make });
  return [
    c("new CodexhostSteering(options)", "options", (v) => () => keep(new api.CodexhostSteering(v))),
    c("new CodexhostSteering({request})", "options", (v) => () => keep(new api.CodexhostSteering({ request: v }))),
    c("new CodexhostSteering({timeouts})", "options", (v) => () => keep(new api.CodexhostSteering({ request, timeouts: v }))),
    c("new CodexhostSteering({timeouts: {decideMs}})", "options", (v) => () => keep(new api.CodexhostSteering({ request, timeouts: { decideMs: v, steerMs: v } }))),
    c("new CodexhostSteering({streamRole})", "options", (v) => () => keep(new api.CodexhostSteering({ request, streamRole: v }))),
    c("new AcpSteering(options)", "options", (v) => () => keep(new api.AcpSteering(v))),
    c("new AcpSteering({request})", "options", (v) => () => keep(new api.AcpSteering({ request: v }))),
    c("new AcpSteering({initialize})", "data", (v) => () => keep(new api.AcpSteering({ request, initialize: v }))),
    c("new AcpSteering({timeouts})", "options", (v) => () => keep(new api.AcpSteering({ request, timeouts: v }))),
    c("new AcpSteering({allowPromptHandoff})", "options", (v) => () => keep(new api.AcpSteering({ request, allowPromptHandoff: v }))),
    c("AcpSteering.update(sessionId)", "id", (v) => () => h.acp.update(v, UPDATE)),
    c("AcpSteering.update(_, update)", "data", (v) => () => h.acp.update("z1", v)),
    c("AcpSteering.promptAnswered(sessionId)", "id", (v) => () => h.acp.promptAnswered(v, { stopReason: "end_turn" })),
    c("AcpSteering.promptAnswered(_, answer)", "data", (v) => () => h.acp.promptAnswered("z2", v)),
    c("AcpSteering.promptSent(sessionId)", "id", (v) => () => h.acp.promptSent(v)),
    c("AcpSteering.sessionIdle(sessionId)", "id", (v) => () => h.acp.sessionIdle(v)),
    c("AcpSteering.sessionReplaced(sessionId)", "id", (v) => () => h.acp.sessionReplaced(v)),
    c("AcpSteering.sessionClosed(sessionId)", "id", (v) => () => h.acp.sessionClosed(v)),
    c("AcpSteering.inputMode(sessionId)", "id", (v) => () => h.acp.inputMode(v)),
    c("AcpSteering.queued(sessionId)", "id", (v) => () => h.acp.queued(v)),
    c("AcpSteering.onChange(callback)", "opaque", (v) => () => h.acp.onChange(v)),
    c("AcpSteering.initialized(answer)", "data", (v) => () => h.acpInit.initialized(v)),
    c("installDesktopSteering(manager)", "options", (v) => () => keep(api.installDesktopSteering(v))),
    c("installDesktopSteering(_, options)", "options", (v) => () => keep(api.installDesktopSteering(new Manager(), v))),
  ];
}
