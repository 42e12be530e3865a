// `AcpSteering`: steering for one ACP connection, a plain class over the
// one engine driver. The app reports what happens on the connection
// (`initialize`, its own prompts, updates, sessions); the engine decides.
import { openEngine, recover } from "../driver/engine.js";
import { own } from "../driver/fields.js";
import { follow } from "../driver/host.js";
import { described, describedId, draftText, hostValue, readOptions, sendHooks } from "../driver/front-door.js";
import { limits, ready, step } from "../driver/module.js";
import { now, wallNow } from "../driver/clock.js";
import { steeringError } from "../driver/steering-error.js";
import { adopt, freeable, method } from "./instances.js";

/** The fields of an `initialize` answer the engine reads. */
const INITIALIZE_FIELDS = ["protocolVersion", "agentCapabilities", "capabilities", "_meta"];
/** The fields of a `session/prompt` answer the engine reads. */
const PROMPT_ANSWER_FIELDS = ["stopReason", "messageId", "usage", "_meta"];
/** The fields of a `session/update`'s `update` the engine reads (a tool's output can be megabytes). */
const UPDATE_FIELDS = ["sessionUpdate", "messageId", "state", "stopReason"];

/** A synchronous method's call: its value, or the engine's refusal thrown. */
function sync(self, name, input, payload) {
  return method(self, AcpSteering, name, {}, (engine) => {
    const out = engine.run(input, payload);
    const error = own(out, "error");
    if (error !== undefined) throw steeringError(error, undefined);
    return own(out, "value");
  });
}

/**
 * Steering for one ACP connection.
 *
 * ```js
 * const steering = new AcpSteering({ request: (method, params) => conn.request(method, params) });
 * steering.initialized(initializeAnswer); // what the agent advertised
 * const outcome = await steering.send(sessionId, [{ type: "text", text: "use pnpm" }]);
 * ```
 */
export class AcpSteering {
  /** `new AcpSteering({ request, initialize?, allowPromptHandoff?, timeouts?, journal?, journalKey?, onJournalError? })`. */
  constructor(options) {
    ready();
    const { read, values, kinds } = readOptions(options, ["request", "initialize", "allowPromptHandoff", "timeouts", "journal", "journalKey", "onJournalError"]);
    const initialize = values.initialize;
    const answer = kinds.initialize === "object" ? hostValue(initialize, INITIALIZE_FIELDS)[1] : "";
    const out = step(0, { do: "open", engine: "acp", options: read, now: now(), wall: wallNow() }, answer);
    if (own(out, "thrown") !== undefined) throw new Error(out.thrown);
    const engine = openEngine(out.value, values, undefined);
    adopt(this, AcpSteering, engine);
    const awaitInitializeMs = own(out.value, "awaitInitializeMs");
    const epoch = out.value.epoch;
    if (awaitInitializeMs !== undefined) {
      // Sends wait for the answer (bounded by requestMs); the engine applies it, or hands them back.
      follow(initialize, limits.relayedUnits, awaitInitializeMs, (settled, payload) => {
        engine.safely({ do: "initializeSettled", now: now(), epoch, ok: settled.how === "result" }, payload);
      });
    }
  }

  /** The `initialize` answer (again, after a reconnect). */
  initialized(answer) {
    const [refused, payload] = hostValue(answer, INITIALIZE_FIELDS);
    sync(this, "initialized", { do: "initialized", now: now(), refused }, payload);
  }

  /** Sends a message: steered into the running turn, queued, or prompted. */
  send(sessionId, content, hooks) {
    return method(this, AcpSteering, "send", { async: true, draft: content }, (engine) => {
      // Read before the engine takes the message: a getter that calls back
      // (dispose, free, connectionClosed) runs while nothing is submitted.
      const record = sendHooks(hooks);
      const [refused, payload] = draftText(content);
      return engine.submit({ do: "send", now: now(), sessionId: describedId(sessionId), refused }, payload, record, content);
    });
  }

  /** Revokes an accepted, undelivered inject; resolves with its content. */
  revoke(sessionId, messageId) {
    return method(this, AcpSteering, "revoke", { async: true }, (engine) =>
      engine.submit({ do: "revoke", now: now(), sessionId: describedId(sessionId), messageId: describedId(messageId) }),
    );
  }

  /** Replaces an accepted, undelivered inject (when the agent allows it). */
  replace(sessionId, messageId, content) {
    return method(this, AcpSteering, "replace", { async: true, draft: content }, (engine) => {
      const [refused, payload] = draftText(content);
      const input = { do: "replace", now: now(), sessionId: describedId(sessionId), messageId: describedId(messageId), refused };
      return engine.submit(input, payload, undefined, content);
    });
  }

  /** The app sent its own `session/prompt`; returns the token `promptAnswered` takes. */
  promptSent(sessionId) {
    return sync(this, "promptSent", { do: "promptSent", sessionId: describedId(sessionId) });
  }

  /** The app sent `session/cancel` (the user pressed Stop): waiting messages are handed back now. */
  cancelSent(sessionId) {
    sync(this, "cancelSent", { do: "cancelSent", sessionId: describedId(sessionId) });
  }

  /** The app's `session/prompt` was answered (`token`: what `promptSent` returned for it). */
  promptAnswered(sessionId, answer, token) {
    const [refused, payload] = hostValue(answer, PROMPT_ANSWER_FIELDS);
    const input = { do: "promptAnswered", now: now(), sessionId: describedId(sessionId), token: described(token), refused };
    return sync(this, "promptAnswered", input, payload);
  }

  /** A `session/update` notification's `update` object. */
  update(sessionId, update) {
    const [refused, payload] = hostValue(update, UPDATE_FIELDS);
    sync(this, "update", { do: "update", now: now(), sessionId: describedId(sessionId), refused }, payload);
  }

  /** The turn the agent started itself has ended (v1; on v2 the session's idle `state_update` ends it). */
  sessionIdle(sessionId) {
    sync(this, "sessionIdle", { do: "sessionIdle", now: now(), sessionId: describedId(sessionId) });
  }

  /** `session/new` or `session/load` replaced the session. */
  sessionReplaced(sessionId) {
    sync(this, "sessionReplaced", { do: "sessionReplaced", sessionId: describedId(sessionId) });
  }

  /** The session was closed. */
  sessionClosed(sessionId) {
    sync(this, "sessionClosed", { do: "sessionClosed", sessionId: describedId(sessionId) });
  }

  /** The connection closed: pending messages are handed back. */
  connectionClosed() {
    sync(this, "connectionClosed", { do: "connectionClosed" });
  }

  /** The composer state: mode, hint, queued messages, pending injects. */
  inputMode(sessionId) {
    return sync(this, "inputMode", { do: "inputMode", sessionId: describedId(sessionId) });
  }

  /** Queued messages of a session, oldest first (for chips). */
  queued(sessionId) {
    return sync(this, "queued", { do: "queued", sessionId: describedId(sessionId) });
  }

  /**
   * After a restart: one entry per message the journal kept,
   * `{ sessionId, messageId, draft, outcome }`; `outcome` is `unknown` (an
   * ACP agent keeps no history to read). Never sends a message.
   */
  recover() {
    return method(this, AcpSteering, "recover", { async: true }, (engine) => recover(engine));
  }

  /** Drops the journal's record of a message (its `messageId`). */
  forget(messageId) {
    sync(this, "forget", { do: "forget", messageId: describedId(messageId) });
  }

  /** Calls `callback(sessionId, state)` whenever a session's composer state changes. */
  onChange(callback) {
    method(this, AcpSteering, "onChange", {}, (engine) => {
      engine.onChange = typeof callback === "function" ? callback : undefined;
    });
  }

  /** Rejects everything pending with `disposed`; sends nothing more. */
  dispose() {
    try {
      method(this, AcpSteering, "dispose", {}, (engine) => engine.run({ do: "dispose" }));
    } catch {
      // A no-op once freed, after the module stopped, or on no instance.
    }
  }

  /** Ops, sessions and requests still held (0 once all settle). */
  liveState() {
    return sync(this, "liveState", { do: "liveState" });
  }
}
freeable(AcpSteering);
