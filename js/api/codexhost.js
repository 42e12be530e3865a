// `CodexhostSteering`: steering for one codexhost (or Codex app-server)
// connection, a plain class over the one engine driver.
import { openEngine, recover } from "../driver/engine.js";
import { fieldOf, own } from "../driver/fields.js";
import { described, describedId, readCall, readOptions } from "../driver/front-door.js";
import { limits, ready, step } from "../driver/module.js";
import { now, wallNow } from "../driver/clock.js";
import { randomId } from "../driver/random-id.js";
import { roleOf } from "../driver/stream-role.js";
import { adopt, freeable, method } from "./instances.js";

/** The steer's fields, each read once within its budget, the draft first. */
let steerFields;
function fieldsOfSteer() {
  // Longest JSON text of an id field: every character escaped (`\uXXXX`).
  const id = 6 * limits.idUnits + 2;
  steerFields ??= [
    ["input", limits.draftUnits],
    ["threadId", id],
    ["expectedTurnId", id],
    ["clientUserMessageId", id],
    ["pendingTurnStart", 16],
    ["additionalContext", limits.argumentUnits],
    ["responsesapiClientMetadata", limits.argumentUnits],
  ];
  return steerFields;
}

/**
 * Steering for one codexhost connection.
 *
 * ```js
 * const steering = new CodexhostSteering({ request: (method, params) => rpc.request(method, params) });
 * const { turnId, delivery } = await steering.steer(
 *   { threadId, expectedTurnId, input: [{ type: "text", text: "use pnpm" }] },
 *   { present: (delivery) => ui.showOptimistic(delivery), retract: () => ui.removeOptimistic() },
 * );
 * ```
 */
export class CodexhostSteering {
  /** `new CodexhostSteering({ request, timeouts?, streamRole?, journal?, journalKey?, onJournalError? })`. */
  constructor(options) {
    ready();
    const { read, values } = readOptions(options, ["request", "timeouts", "streamRole", "journal", "journalKey", "onJournalError"]);
    const out = step(0, { do: "open", engine: "codexhost", options: read, now: now(), wall: wallNow() });
    if (own(out, "thrown") !== undefined) throw new Error(out.thrown);
    adopt(this, CodexhostSteering, openEngine(out.value, values, values.streamRole));
  }

  /** Asks the host how `text` would be delivered on `threadId`; sends no steer. */
  decide(args) {
    return method(this, CodexhostSteering, "decide", { async: true }, (engine) => {
      const input = { do: "decide", now: now(), threadId: describedId(fieldOf(args, "threadId")), text: described(fieldOf(args, "text"), limits.draftUnits) };
      return engine.submit(input);
    });
  }

  /** Steers the running turn: decide, present, send, reconcile. Rejects with a `SteeringError` whose `draft` is the input, untouched. */
  steer(args, hooks) {
    return method(this, CodexhostSteering, "steer", { async: true, draft: fieldOf(args, "input") }, (engine) => {
      const record = readCall(args, fieldsOfSteer(), hooks);
      const input = {
        do: "steer",
        now: now(),
        freshId: randomId(),
        // A call the front door could not read is refused whole: no app code is run for it.
        role: record.refused === undefined ? roleOf(engine.streamRole, record.threadId) : undefined,
        reconcileHook: record.hooks.reconcile !== undefined,
        timeoutMs: record.timeoutMs,
        refused: record.refused,
      };
      return engine.submit(input, record.text, record, record.input);
    });
  }

  /**
   * After a restart: one entry per message the journal kept,
   * `{ threadId, clientUserMessageId, draft, outcome }`, `outcome` read from
   * the thread (`delivered`, `notDelivered`: the turn it was meant for ended
   * without it, `unknown`). Never sends a message; settled entries leave the
   * journal. Without a journal: none.
   */
  recover() {
    return method(this, CodexhostSteering, "recover", { async: true }, (engine) => recover(engine));
  }

  /** Drops the journal's record of a message (its `clientUserMessageId`). */
  forget(clientUserMessageId) {
    method(this, CodexhostSteering, "forget", {}, (engine) => engine.run({ do: "forget", messageId: describedId(clientUserMessageId) }));
  }

  /** Rejects decisions and steers in progress with `disposed`; sends nothing more. */
  dispose() {
    try {
      method(this, CodexhostSteering, "dispose", {}, (engine) => engine.run({ do: "dispose" }));
    } catch {
      // A no-op once freed, after the module stopped, or on no instance.
    }
  }

  /** The host connection was replaced: probe missing methods again. */
  connectionReplaced() {
    method(this, CodexhostSteering, "connectionReplaced", {}, (engine) => engine.run({ do: "connectionReplaced" }));
  }

  /** Submissions, lanes and requests still held (0 once all settle). */
  liveState() {
    return method(this, CodexhostSteering, "liveState", {}, (engine) => own(engine.run({ do: "liveState" }), "value"));
  }
}
freeable(CodexhostSteering);

/** The engine behind `steering` (the desktop hook's decider: its hook opens over it). */
export function engineOf(steering) {
  return method(steering, CodexhostSteering, "engine", {}, (engine) => engine);
}
