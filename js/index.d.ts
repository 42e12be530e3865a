// The package's public types: the JSON shapes the engine reads and
// answers, the classes, `init`, the SteeringError class and its guard. Needs
// the `es2022` lib and `esnext.disposable` (TypeScript >= 5.2: the classes
// have `[Symbol.dispose]`); no `dom` lib and no @types/node.

/** A JSON-RPC error object, as `request` rejects with it. */
export interface JsonRpcError { code: number; message: string; data?: unknown }
/**
 * The embedding app's transport. Contract:
 * - resolve with the JSON-RPC `result`;
 * - reject with a `JsonRpcError` (`{ code, message, data? }`, integer `code`) ONLY when the host
 *   answered with a JSON-RPC error: a definite refusal, safe to send again;
 * - reject with anything else (an `Error`, a disconnect, the transport's own timeout) when no
 *   answer came: after the write this is "outcome unknown" (`kind: "outcomeUnknown"`), never resent;
 * - throw synchronously only when nothing was written (a plain failure, safe to send again).
 * `options` is the caller's own `requestOptions`, passed by identity (and only with the request that
 * carries the message): typed `any` so that any client's own options type fits.
 */
export type RequestFn = (method: string, params: Record<string, unknown>, options?: any) => Promise<unknown>;
/**
 * Bounds on host calls, in milliseconds (0 to 2147483647). Any other key is
 * refused by the constructor (a misspelling is an error, not ignored).
 */
export interface Timeouts {
  /** codexhost: inspect, ownership and thread probes (default 10000). */
  decideMs?: number;
  /** codexhost and the desktop hook: the steer itself (default 30000). */
  steerMs?: number;
  /** ACP: requests other than the open session/prompt (default 10000). */
  requestMs?: number;
}
/** How a codexhost steer reaches the agent. */
export type Delivery = "official" | "activeTurn" | "newTurn";
/** A window's role for a thread's stream: a follower hands its steers to the owner window. */
export type StreamRole = "owner" | "follower";
/** A text item: the only content a codexhost steer takes. */
export interface TextItem { type: "text"; text: string }
/** ACP `_meta`: `null` is accepted wherever the ACP SDK's own types allow it. */
export type Meta = Record<string, unknown> | null;
/** ACP annotations on a content block. */
export interface Annotations { audience?: ("user" | "assistant")[] | null; priority?: number | null; lastModified?: string | null; _meta?: Meta }
/** ACP text block. */
export interface TextBlock extends TextItem { annotations?: Annotations | null; _meta?: Meta }
/** ACP image block (needs the agent's `promptCapabilities.image`). */
export interface ImageBlock { type: "image"; mimeType: string; data: string; uri?: string | null; annotations?: Annotations | null; _meta?: Meta }
/** ACP audio block. */
export interface AudioBlock { type: "audio"; mimeType: string; data: string; annotations?: Annotations | null; _meta?: Meta }
/** ACP link to a resource. */
export interface ResourceLinkBlock {
  type: "resource_link"; uri: string; name: string; mimeType?: string | null; title?: string | null; description?: string | null;
  size?: number | null; annotations?: Annotations | null; _meta?: Meta;
}
/** ACP embedded resource (text or base64 blob). */
export interface ResourceBlock {
  type: "resource";
  resource: { uri: string; mimeType?: string | null; text: string; _meta?: Meta } | { uri: string; mimeType?: string | null; blob: string; _meta?: Meta };
  annotations?: Annotations | null; _meta?: Meta;
}
/** One request sent while deciding, with its answer. */
export interface ProbeRecord {
  method: string;
  answer:
    /** A result is kept whole when its JSON text is at most 1 KiB, otherwise as the string "[N bytes of JSON]". */
    | { kind: "result"; value: unknown }
    | { kind: "error"; value: JsonRpcError }
    | { kind: "timeout" }
    | { kind: "transport"; value: string };
}
/** How an ACP message went: its steering path, or the queue. */
export type AcpPath = "inject" | "steeringExtension" | "promptHandoff" | "queue";
/** The decision path of a trace (codexhost: how the delivery was decided; ACP: the path taken). */
export type TracePath =
  | "inspect" | "ownershipList" | "threadRead" | "cachedOwner" | "alreadyDelivered" | "verifiedDelivered"
  | "inject" | "steeringExtension" | "promptHandoff" | "queue";
/** Why an outcome is what it is. */
export interface Trace {
  path?: TracePath;
  /** What was shown before the answer: a codexhost delivery, or ACP `"steer"` / `"prompt"`. */
  presented?: Delivery | "steer" | "prompt";
  /** What the host said it did (codexhost). */
  hostDelivery?: Delivery;
  probes: ProbeRecord[];
  roundTripsBeforeSteer: number;
  sent?: string;
}
/** Every kind of failure. */
export type SteeringErrorKind =
  | "invalidInput" | "draftTooLarge" | "host" | "malformedAnswer" | "timeout" | "transport"
  | "ownershipUnknown" | "busy" | "pendingTurnStart" | "disposed" | "outcomeUnknown"
  | "imagesUnsupported" | "unavailable" | "sessionReplaced" | "follower" | "missingBinding";
/**
 * Where the journal keeps messages whose outcome is not settled, so a reload
 * loses nothing: `localStorage` as it is, or any object with these methods.
 */
export interface JournalStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
/** The journal's options (both classes). */
export interface JournalOptions {
  /** Keeps a record of each message until its outcome is settled; `recover()` reads them after a restart. */
  journal?: JournalStorage;
  /** The prefix of the records' keys (default `"renderer-steering:"`). */
  journalKey?: string;
  /** Told once when the journal throws (quota, a private window); steering goes on without it. */
  onJournalError?: (error: unknown) => void;
}
/** What became of a message the journal kept: `delivered` (the thread shows it), `notDelivered` (its turn ended without it: the draft is yours), `unknown`. */
export type RecoveredOutcome = "delivered" | "notDelivered" | "unknown";
/** One message `CodexhostSteering.recover()` found. */
export interface RecoveredMessage { threadId: string; clientUserMessageId: string; draft: TextItem[]; outcome: RecoveredOutcome }
/** One message `AcpSteering.recover()` found (always `unknown`: an agent keeps no history to read). */
export interface RecoveredAcpMessage { sessionId: string; messageId: string; draft: ContentBlock[]; outcome: RecoveredOutcome }
export interface CodexhostOptions extends JournalOptions {
  request: RequestFn;
  timeouts?: Timeouts;
  /** The window's role for a thread's stream; followers hand steers to the desktop. */
  streamRole?: (threadId: string) => StreamRole | { role: StreamRole } | undefined;
}
export interface DecideArgs { threadId: string; text: string }
export interface Decision {
    delivery: Delivery;
    trace: Trace;
    /** A same-id retry of a `turn/steer` after `outcomeUnknown` is safe to send: a codexhost host answered here and the thread is external (`activeTurn`, `newTurn`). A Codex-owned thread (`official`) and a stock app-server apply a repeated id again. */
    hostDeduplicates: boolean;
}
export interface SteerArgs {
  threadId: string;
  expectedTurnId?: string | null;
  input: readonly TextItem[];
  clientUserMessageId?: string;
  pendingTurnStart?: boolean;
  additionalContext?: unknown;
  responsesapiClientMetadata?: unknown;
  /**
   * Passed to `request` by identity with the steer (your client's own options object). A number
   * `timeoutMs` in it (above 0) also sets how long the engine waits for the steer's answer, instead
   * of `timeouts.steerMs` (your transport times out then; the engine waits as long, not shorter);
   * `0`, "no timeout" to many clients, leaves `steerMs` in force.
   */
  requestOptions?: object;
}
export interface PresentationHooks {
  present?: (delivery: Delivery) => void;
  retract?: () => void;
  reconcile?: (from: Delivery, to: Delivery) => void;
  /** The message may have reached the host but no answer came: keep it shown, marked "not confirmed". */
  unconfirmed?: (delivery: Delivery) => void;
}
/** Hooks of `AcpSteering.send`. */
export interface AcpSendHooks {
  /** The agent accepted the message as pending input of the running turn (`steeringExtension`, `inject`): show it optimistically; `send` resolves once it is delivered. */
  accepted?: (path: AcpPath) => void;
  /** The message may have reached the agent but no answer came, or its turn was cancelled before it landed (the path it took). */
  unconfirmed?: (path: AcpPath) => void;
}
export interface SteerResult { turnId: string; delivery: Delivery; presented: Delivery; trace: Trace }
/** The host delivered a desktop steer otherwise than the desktop presented it (`onReconcile`'s argument). */
export interface DesktopReconcile {
  threadId: string;
  clientUserMessageId: string | null;
  /** What the desktop showed. */
  presented: Delivery;
  /** How the host delivered it. */
  delivery: Delivery;
  turnId: string | null;
}
/** Options of `installDesktopSteering`. */
export interface DesktopOptions extends JournalOptions {
  timeouts?: Timeouts;
  /** Called when the host's answer names a `delivery` other than the one presented: update the presentation (never show both). */
  onReconcile?: (reconcile: DesktopReconcile) => void;
}

/** An ACP content block. */
export type ContentBlock = TextBlock | ImageBlock | AudioBlock | ResourceLinkBlock | ResourceBlock;
/** A v2 capability: present (an object) means supported; omitted or `null`, not. */
export type V2Capability = { _meta?: Meta } | null;
/** The `initialize` answer of an ACP agent, v1 or v2 (only the version and the capability fields are read). */
export interface InitializeAnswer {
  /** 2: the connection speaks ACP v2 (preview); anything else: v1. */
  protocolVersion?: number;
  /** ACP v2's capabilities. */
  capabilities?: {
    session?: {
      prompt?: { image?: V2Capability; audio?: V2Capability; embeddedContext?: V2Capability } | null;
      inject?: { modes: ("queue" | "steer")[]; steerInStream?: ("interrupt" | "finish")[]; pending?: { replace?: boolean | V2Capability } } | null;
    } | null;
    _meta?: Meta;
  } | null;
  agentCapabilities?: {
    promptCapabilities?: { image?: boolean | null; audio?: boolean | null; embeddedContext?: boolean | null } | null;
    session?: { inject?: { modes: ("queue" | "steer")[]; steer_in_stream?: ("interrupt" | "finish")[]; pending?: { replace?: boolean } } } | null;
    _meta?: Meta;
  } | null;
  _meta?: Meta;
  [key: string]: unknown;
}
export interface AcpOptions extends JournalOptions {
  request: RequestFn;
  /** The `initialize` answer (applied at once) or a promise of it (sends wait for it, bounded by `timeouts.requestMs`; if it fails they are handed back `unavailable`). Without it (and without a later `initialized(answer)`) every send is `unavailable`. */
  initialize?: InitializeAnswer | Promise<InitializeAnswer>;
  /** Enables the concurrent-prompt handoff (off by default: it is a kill-switch). */
  allowPromptHandoff?: boolean;
  timeouts?: Timeouts;
}
export type InputMode = "direct" | "queue" | "idle" | "unavailable";
export interface ComposerState { mode: InputMode; hint: string; queued: ContentBlock[][]; pendingInjects: string[] }
export type AcpOutcome =
  /** `session/inject`: accepted, with its `messageId` (delivered on its echo). `_session/steering`: delivered, on the evidence `delivered` names. */
  | { kind: "injected"; messageId?: string; delivered?: "echo" | "turnEnded"; trace: Trace }
  /** Sent as a `session/prompt`: v1, its turn ended (`stopReason`); v2, the agent inserted it (`messageId`). */
  | { kind: "prompted"; stopReason?: string; messageId?: string; superseded: boolean; trace: Trace }
  | { kind: "startedNewTurn"; trace: Trace }
  | { kind: "handedOff"; handoff: "folded" | "deferred"; stopReason: string; trace: Trace }
  | { kind: "handedBack"; reason: "turnCancelled"; draft: ContentBlock[]; trace: Trace };
export type RevokeOutcome = { kind: "revoked"; messageId: string; draft: ContentBlock[] };
export type ReplaceOutcome = { kind: "replaced"; messageId: string; previousMessageId: string };
export interface PromptVerdict { superseded: boolean }
export type ChangeCallback = (sessionId: string, state: ComposerState) => void;
/** What `AcpSteering.promptSent` returns: `promptAnswered` takes it, so the late answer of a prompt sent before `sessionReplaced` ends no later prompt. */
export type PromptToken = number;

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
  /** `new CodexhostSteering({ request, timeouts?, streamRole?, journal?, journalKey?, onJournalError? })`; throws naming a bad option. */
  constructor(options: CodexhostOptions);
  /** Asks the host how `text` would be delivered on `threadId`; sends no steer. */
  decide(args: DecideArgs): Promise<Decision>;
  /** Steers the running turn: decide, present, send, reconcile. Rejects with a `SteeringError` whose `draft` is the input, untouched. */
  steer(args: SteerArgs, hooks?: PresentationHooks | null): Promise<SteerResult>;
  /** Rejects decisions and steers in progress with `disposed`; sends nothing more. */
  dispose(): void;
  /** The host connection was replaced: probe missing methods again. */
  connectionReplaced(): void;
  /** Submissions, lanes and requests still held (0 once all settle). */
  liveState(): number;
  /**
   * After a restart: what became of each message the journal kept (read from the thread; never sends one).
   * Settled entries leave the journal; `unknown` ones stay until a later `recover()`, `forget()` or their age bound.
   */
  recover(): Promise<RecoveredMessage[]>;
  /** Drops the journal's record of a message. */
  forget(clientUserMessageId: string): void;
  /** Disposes, then frees the engine. */
  free(): void;
  [Symbol.dispose](): void;
}

/**
 * Steering for one ACP connection.
 *
 * ```js
 * const steering = new AcpSteering({ request: (method, params) => conn.request(method, params) });
 * steering.initialized(initializeAnswer);
 * const outcome = await steering.send(sessionId, [{ type: "text", text: "use pnpm" }]);
 * ```
 */
export class AcpSteering {
  /** `new AcpSteering({ request, initialize?, allowPromptHandoff?, timeouts?, journal?, journalKey?, onJournalError? })`; throws naming a bad option. */
  constructor(options: AcpOptions);
  /** The `initialize` answer (again, after a reconnect). */
  initialized(answer: InitializeAnswer): void;
  /** Sends a message: steered into the running turn, queued, or prompted. */
  send(sessionId: string, content: readonly ContentBlock[], hooks?: AcpSendHooks | null): Promise<AcpOutcome>;
  /** Revokes an accepted, undelivered inject; resolves with its content. */
  revoke(sessionId: string, messageId: string): Promise<RevokeOutcome>;
  /** Replaces an accepted, undelivered inject (when the agent allows it). */
  replace(sessionId: string, messageId: string, content: readonly ContentBlock[]): Promise<ReplaceOutcome>;
  /** The app sent its own `session/prompt`: pass the token to `promptAnswered`. */
  promptSent(sessionId: string): PromptToken;
  /** The app sent `session/cancel`: waiting messages are handed back now. */
  cancelSent(sessionId: string): void;
  /** The app's `session/prompt` was answered (v1: its turn ended; v2: `{ messageId }`, inserted); `token` is what `promptSent` returned for it. */
  promptAnswered(sessionId: string, answer: object, token?: PromptToken): PromptVerdict;
  /** A `session/update` notification's `update` object (echoes; on v2 also `state_update`, the turn's state). */
  update(sessionId: string, update: object): void;
  /** The turn the agent started itself has ended (v1; on v2 the session's idle `state_update` ends it). */
  sessionIdle(sessionId: string): void;
  /** `session/new` or `session/load` replaced the session. */
  sessionReplaced(sessionId: string): void;
  /** The session was closed. */
  sessionClosed(sessionId: string): void;
  /** The connection closed: pending messages are handed back. */
  connectionClosed(): void;
  /** The composer state: mode, hint, queued messages, pending injects. */
  inputMode(sessionId: string): ComposerState;
  /** Queued messages of a session, oldest first (for chips). */
  queued(sessionId: string): ContentBlock[][];
  /** Calls `callback(sessionId, state)` whenever a session's composer state changes. */
  onChange(callback?: ChangeCallback | null): void;
  /** Rejects everything pending with `disposed`; sends nothing more. */
  dispose(): void;
  /** Ops, sessions and requests still held (0 once all settle). */
  liveState(): number;
  /** After a restart: each message the journal kept, `unknown` (an agent keeps no history to read); never sends one. */
  recover(): Promise<RecoveredAcpMessage[]>;
  /** Drops the journal's record of a message. */
  forget(messageId: string): void;
  /** Disposes, then frees the engine. */
  free(): void;
  [Symbol.dispose](): void;
}

/** The package version. */
export function version(): string;

/** Anything with the `arrayBuffer()` of a fetch `Response` (structural: no `dom` lib needed). */
export interface ResponseLike { arrayBuffer(): Promise<ArrayBuffer> }
/**
 * Where `init` loads the module from instead of the package's own copy: the
 * `.wasm` bytes, a `Response` (or a promise of one), or a URL to fetch (in
 * Node: a `file:` URL or a plain file path, read from disk).
 */
export type InitInput = ArrayBuffer | ArrayBufferView | string | { readonly href: string } | ResponseLike | PromiseLike<ResponseLike>;

/**
 * Loads the WebAssembly module. No argument is needed in Node, a browser, an
 * Electron renderer or a bundle. Concurrent calls share one load; after a
 * failure (network, CSP) it can be called again. Under a Content-Security-Policy
 * it needs `script-src 'wasm-unsafe-eval'`, and rejects naming it when blocked.
 */
export function init(input?: InitInput): Promise<void>;

/**
 * Every rejection of the package: the user's draft is handed back intact.
 * `error instanceof SteeringError`, or `isSteeringError(error, kind?)` (which
 * also narrows `kind`).
 */
export class SteeringError extends Error {
  constructor(message: string);
  name: "SteeringError";
  /** What went wrong (see the README's error table). */
  kind: SteeringErrorKind;
  /** The JSON-RPC error code, when the host answered with one. */
  code?: number;
  /** The host's error `data`, when it gave one. */
  data?: unknown;
  /** The input as the caller passed it (the very object); empty when nothing is handed back (a failed revoke). */
  draft: ContentBlock[];
  /** The requests made before the failure. */
  trace: Trace;
  /**
   * The message's `clientUserMessageId` (codexhost). With kind `"outcomeUnknown"`,
   * retry with this id: the engine never delivers one id twice.
   */
  clientUserMessageId?: string;
}

/** Handle returned by `installDesktopSteering`. */
export class DesktopSteering {
  private constructor();
  /** Restores `steerTurn` now and `sendRequest` once pending replacements settle (they fail closed as `disposed`). */
  dispose(): void;
  /** After a restart: what became of each message the journal kept (the `journal` option), read through the desktop's own `sendRequest`; never sends one. */
  recover(): Promise<RecoveredMessage[]>;
  /** Drops the journal's record of a message. */
  forget(clientUserMessageId: string): void;
  [Symbol.dispose](): void;
}

/**
 * Installs the hook on the desktop's request manager; returns `null` when
 * `manager` lacks the methods, and throws a clear error when the manager
 * refuses it (frozen, a refusing Proxy, `steerTurn` / `sendRequest` as own
 * properties, which would shadow the hook's prototype layer) or already has a
 * hook (dispose that one first).
 */
export function installDesktopSteering(manager: object, options?: DesktopOptions | null): DesktopSteering | null;

/** Narrows an unknown value (a caught error) to a SteeringError, optionally of one kind. */
export function isSteeringError(value: unknown): value is SteeringError;
export function isSteeringError<K extends SteeringErrorKind>(value: unknown, kind: K): value is SteeringError & { kind: K };
