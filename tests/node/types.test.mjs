// The package's .d.ts, checked by the TypeScript compiler from a consumer
// project that installed the packed tarball: the API is typed precisely
// (a misuse is a type error, so nothing is `any`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { packAndInstall, TS_SETUPS, tsc } from "./pack.mjs";
import { wasmLimits } from "../../scripts/write-limits.mjs";

const consumer = `
import { init, CodexhostSteering, AcpSteering, installDesktopSteering, SteeringError, isSteeringError } from "renderer-steering";
import type { SteerResult, AcpOutcome, ComposerState, Delivery, Decision, RevokeOutcome, SteeringErrorKind, ContentBlock } from "renderer-steering";

await init();
const request = async (method: string, params: Record<string, unknown>): Promise<unknown> => ({ method, params });
const steering = new CodexhostSteering({ request, timeouts: { decideMs: 100 } });
const shown: Delivery[] = [];
const result: SteerResult = await steering.steer(
  { threadId: "t", expectedTurnId: null, input: [{ type: "text", text: "x" }], requestOptions: { timeoutMs: 5 } },
  { present: (d) => shown.push(d), retract: () => undefined },
);
const turnId: string = result.turnId;
const decision: Decision = await steering.decide({ threadId: "t", text: "x" });
const rounds: number = decision.trace.roundTripsBeforeSteer;

const acp = new AcpSteering({ request, allowPromptHandoff: false });
const outcome: AcpOutcome = await acp.send("s", [{ type: "text", text: "x" }]);
if (outcome.kind === "handedOff") {
  const how: "folded" | "deferred" = outcome.handoff;
}
const state: ComposerState = acp.inputMode("s");
const mode: "direct" | "queue" | "idle" | "unavailable" = state.mode;
const revoked: RevokeOutcome = await acp.revoke("s", "m1");
acp.onChange((sessionId: string, next: ComposerState) => undefined);
const verdict: boolean = acp.promptAnswered("s", { stopReason: "end_turn" }).superseded;

const hook = installDesktopSteering({});
hook?.dispose();

function handBack(error: SteeringError): string {
  return error.kind + String(error.code ?? "") + error.draft.length + error.trace.probes.length;
}
try {
  await steering.steer({ threadId: "t", input: [{ type: "text", text: "x" }] });
} catch (e) {
  if (e instanceof SteeringError) {
    const kind: SteeringErrorKind = e.kind;
    const draft: ContentBlock[] = e.draft;
  }
  if (isSteeringError(e, "follower")) {
    const kind: "follower" = e.kind;
  }
  // @ts-expect-error a caught error is unknown until narrowed
  e.kind;
}
const blocks: ContentBlock[] = [
  { type: "text", text: "x" },
  { type: "image", mimeType: "image/png", data: "AA==" },
  { type: "resource_link", uri: "file:///a", name: "a" },
  { type: "resource", resource: { uri: "file:///a", text: "x" } },
];
await acp.send("s", blocks);
// @ts-expect-error a misspelt text item is not a content block (no catch-all member)
await acp.send("s", [{ type: "text", txet: "x" }]);
// @ts-expect-error text is a string
await acp.send("s", [{ type: "text", text: 42 }]);
// @ts-expect-error a codexhost steer takes text items only
await steering.steer({ threadId: "t", input: [{ type: "image", mimeType: "image/png", data: "AA==" }] });
// @ts-expect-error init takes bytes, a URL or a Response, not a number
await init(42);
await init(new Uint8Array(8));
await init("https://example.invalid/renderer_steering_bg.wasm");

// What a user of a typed client writes (a fresh-user test found each failing):
// a client with its own options type fits RequestFn, and its options pass through;
interface RpcOptions { signal?: { aborted: boolean }; timeoutMs?: number }
const client = { request: async (method: string, params: Record<string, unknown>, options?: RpcOptions): Promise<unknown> => ({ method, params, options }) };
new CodexhostSteering({ request: client.request });
new CodexhostSteering({ request: (method, params, options) => client.request(method, params, options) });
const rpcOptions: RpcOptions = { timeoutMs: 5 };
await steering.steer({ threadId: "t", input: [{ type: "text", text: "x" }], requestOptions: rpcOptions });
// readonly drafts are taken (the input is never mutated);
const frozen: readonly { type: "text"; text: string }[] = [{ type: "text", text: "x" }];
await steering.steer({ threadId: "t", input: frozen });
await acp.send("s", frozen);
// the ACP SDK's types use null for absent fields;
interface SdkUpdate { sessionUpdate: string; messageId?: string | null }
const sdkUpdate: SdkUpdate = { sessionUpdate: "user_message", messageId: null };
acp.update("s", sdkUpdate);
new AcpSteering({ request, initialize: { protocolVersion: 1, agentCapabilities: { promptCapabilities: { image: null }, _meta: null }, _meta: null } });
await acp.send("s", [{ type: "text", text: "x", annotations: null, _meta: null }, { type: "resource_link", uri: "u", name: "n", mimeType: null }]);
// instanceof narrows kind to the union (a misspelt kind is a type error);
try {
  await acp.send("s", blocks);
} catch (e) {
  if (e instanceof SteeringError) {
    // @ts-expect-error "outcomeUnkown" is not a kind
    if (e.kind === "outcomeUnkown") throw e;
    const path: "inject" | "steeringExtension" | "promptHandoff" | "queue" | undefined = e.trace.path === "inspect" ? undefined : e.trace.path === "threadRead" || e.trace.path === "ownershipList" || e.trace.path === "cachedOwner" || e.trace.path === "alreadyDelivered" || e.trace.path === "verifiedDelivered" ? undefined : e.trace.path;
  }
}
await acp.send("s", blocks, { unconfirmed: (path) => { const p: "inject" | "steeringExtension" | "promptHandoff" | "queue" = path; } });

// @ts-expect-error a steer needs a threadId
await steering.steer({ input: [] });
// @ts-expect-error the delivery is one of three names
const wrong: Delivery = "sideways";
// @ts-expect-error the input mode is typed
const bad: ComposerState["mode"] = "maybe";
export { turnId, rounds, mode, revoked, verdict, handBack, wrong, bad };
`;

let pkg;
for (const setup of TS_SETUPS) {
  test(`the .d.ts types the API precisely for a strict TypeScript consumer (${setup.name})`, () => {
    pkg ??= packAndInstall();
    writeFileSync(join(pkg.dir, "consumer.ts"), consumer);
    const output = tsc(pkg.dir, ["consumer.ts"], setup);
    assert.equal(output.trim(), "", output);
  });
}

// Each integration entry types its own values, and no other integration's.
const entries = `
import { init as initCodexhost, CodexhostSteering, isSteeringError } from "renderer-steering/codexhost";
import { init as initAcp, AcpSteering } from "renderer-steering/acp";
import { init as initDesktop, installDesktopSteering, DesktopSteering, SteeringError } from "renderer-steering/desktop";
import { AcpSteering as AcpByUrl } from "renderer-steering/acp/url";
import type { AcpOutcome, SteerResult, Delivery } from "renderer-steering/codexhost";
import type { AcpSteering as AcpType } from "renderer-steering/codexhost";

await Promise.all([initCodexhost(), initAcp(), initDesktop()]);
const request = async (method: string, params: Record<string, unknown>): Promise<unknown> => ({ method, params });
const result: SteerResult = await new CodexhostSteering({ request }).steer({ threadId: "t", input: [{ type: "text", text: "x" }] });
const delivery: Delivery = result.delivery;
const outcome: AcpOutcome = await new AcpSteering({ request }).send("s", [{ type: "text", text: "x" }]);
const hook: DesktopSteering | null = installDesktopSteering({});
const same: boolean = new AcpByUrl({ request }) instanceof AcpSteering || isSteeringError(outcome) || hook instanceof SteeringError;
// @ts-expect-error the codexhost entry names the ACP class as a type only: it has no such value
const missing = (await import("renderer-steering/codexhost")).AcpSteering;
const typed: AcpType | null = null;
export { delivery, same, missing, typed };
`;
for (const setup of TS_SETUPS) {
  test(`each integration entry's .d.ts types its own values only (${setup.name})`, () => {
    pkg ??= packAndInstall();
    writeFileSync(join(pkg.dir, "entries.ts"), entries);
    const output = tsc(pkg.dir, ["entries.ts"], setup);
    assert.equal(output.trim(), "", output);
  });
}

// `SteeringErrorKind` is exactly the engine's list of kinds, as the packed
// wasm states it: every kind it can fail with is assignable, and the union
// holds no other.
test("SteeringErrorKind is exactly the kinds the engine fails with", async () => {
  pkg ??= packAndInstall();
  const { errorKinds } = await wasmLimits(pkg.shipped);
  assert.ok(errorKinds.length > 10, "the engine lists its kinds");
  const union = errorKinds.map((kind) => JSON.stringify(kind)).join(" | ");
  const check = `
import type { SteeringErrorKind } from "renderer-steering";
const every: SteeringErrorKind[] = [${errorKinds.map((kind) => JSON.stringify(kind)).join(", ")}];
type Extra = Exclude<SteeringErrorKind, ${union}>;
const none: [Extra] extends [never] ? true : false = true;
export { every, none };
`;
  writeFileSync(join(pkg.dir, "kinds.ts"), check);
  const output = tsc(pkg.dir, ["kinds.ts"], TS_SETUPS[0]);
  assert.equal(output.trim(), "", output);
});
