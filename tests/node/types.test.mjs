// The package's .d.ts, checked by the TypeScript compiler from a consumer
// project that installed the packed tarball: the API is typed precisely
// (a misuse is a type error, so nothing is `any`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { packAndInstall, repo } from "./pack.mjs";

const consumer = `
import { init, CodexhostSteering, AcpSteering, installDesktopSteering } from "renderer-steering";
import type { SteerResult, SteeringError, AcpOutcome, ComposerState, Delivery, Decision, RevokeOutcome } from "renderer-steering";

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

// @ts-expect-error a steer needs a threadId
await steering.steer({ input: [] });
// @ts-expect-error the delivery is one of three names
const wrong: Delivery = "sideways";
// @ts-expect-error the input mode is typed
const bad: ComposerState["mode"] = "maybe";
export { turnId, rounds, mode, revoked, verdict, handBack, wrong, bad };
`;

test("the .d.ts types the API precisely for a strict TypeScript consumer", () => {
  const pkg = packAndInstall();
  writeFileSync(join(pkg.dir, "consumer.ts"), consumer);
  writeFileSync(join(pkg.dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "nodenext", moduleResolution: "nodenext", lib: ["es2022", "esnext.disposable", "dom"], types: [], skipLibCheck: false },
    files: ["consumer.ts"],
  }));
  const tsc = join(repo, "node_modules", "typescript", "bin", "tsc");
  let output = "";
  try {
    output = execFileSync(process.execPath, [tsc, "-p", join(pkg.dir, "tsconfig.json")], { encoding: "utf8" });
  } catch (e) {
    output = `${e.stdout}${e.stderr}`;
  }
  assert.equal(output.trim(), "", output);
});
