//! Precise TypeScript types for the package's `.d.ts`, and the extern
//! types that let wasm-bindgen signatures name them.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
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
 */
export type RequestFn = (method: string, params: Record<string, unknown>, options?: unknown) => Promise<unknown>;
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
/** A text item: the only content a codexhost steer takes. */
export interface TextItem { type: "text"; text: string }
/** ACP annotations on a content block. */
export interface Annotations { audience?: ("user" | "assistant")[]; priority?: number; lastModified?: string; _meta?: Record<string, unknown> }
/** ACP text block. */
export interface TextBlock extends TextItem { annotations?: Annotations; _meta?: Record<string, unknown> }
/** ACP image block (needs the agent's `promptCapabilities.image`). */
export interface ImageBlock { type: "image"; mimeType: string; data: string; uri?: string; annotations?: Annotations; _meta?: Record<string, unknown> }
/** ACP audio block. */
export interface AudioBlock { type: "audio"; mimeType: string; data: string; annotations?: Annotations; _meta?: Record<string, unknown> }
/** ACP link to a resource. */
export interface ResourceLinkBlock {
  type: "resource_link"; uri: string; name: string; mimeType?: string; title?: string; description?: string; size?: number;
  annotations?: Annotations; _meta?: Record<string, unknown>;
}
/** ACP embedded resource (text or base64 blob). */
export interface ResourceBlock {
  type: "resource";
  resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };
  annotations?: Annotations; _meta?: Record<string, unknown>;
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
/** Why an outcome is what it is. */
export interface Trace {
  path?: string;
  presented?: string;
  hostDelivery?: string;
  probes: ProbeRecord[];
  roundTripsBeforeSteer: number;
  sent?: string;
}
/** Every kind of failure. */
export type SteeringErrorKind =
  | "invalidInput" | "draftTooLarge" | "host" | "malformedAnswer" | "timeout" | "transport"
  | "ownershipUnknown" | "busy" | "pendingTurnStart" | "disposed" | "outcomeUnknown"
  | "imagesUnsupported" | "unavailable" | "sessionReplaced" | "follower" | "missingBinding";
export interface CodexhostOptions {
  request: RequestFn;
  timeouts?: Timeouts;
  /** The window's role for a thread's stream; followers hand steers to the desktop. */
  streamRole?: (threadId: string) => "owner" | "follower" | undefined;
}
export interface DecideArgs { threadId: string; text: string }
export interface Decision { delivery: Delivery; trace: Trace }
export interface SteerArgs {
  threadId: string;
  expectedTurnId?: string | null;
  input: TextItem[];
  clientUserMessageId?: string;
  pendingTurnStart?: boolean;
  additionalContext?: unknown;
  responsesapiClientMetadata?: unknown;
  /** Passed to `request` by identity for the steer; `timeoutMs` also bounds it. */
  requestOptions?: { timeoutMs?: number; [key: string]: unknown };
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
  /** The message may have reached the agent but no answer came (the path it took). */
  unconfirmed?: (path: string) => void;
}
export interface SteerResult { turnId: string; delivery: Delivery; presented: Delivery; trace: Trace }
/** Options of `installDesktopSteering`. */
export interface DesktopOptions { timeouts?: Timeouts }

/** An ACP content block. */
export type ContentBlock = TextBlock | ImageBlock | AudioBlock | ResourceLinkBlock | ResourceBlock;
/** The `initialize` answer of an ACP agent (only the capability fields are read). */
export interface InitializeAnswer {
  protocolVersion?: number;
  agentCapabilities?: {
    promptCapabilities?: { image?: boolean; audio?: boolean; embeddedContext?: boolean };
    session?: { inject?: { modes: ("queue" | "steer")[]; steer_in_stream?: ("interrupt" | "finish")[]; pending?: { replace?: boolean } } };
    _meta?: Record<string, unknown>;
  };
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}
export interface AcpOptions {
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
  | { kind: "injected"; messageId?: string; trace: Trace }
  | { kind: "prompted"; stopReason: string; superseded: boolean; trace: Trace }
  | { kind: "startedNewTurn"; trace: Trace }
  | { kind: "handedOff"; handoff: "folded" | "deferred"; stopReason: string; trace: Trace }
  | { kind: "handedBack"; reason: "turnCancelled"; draft: ContentBlock[]; trace: Trace };
export type RevokeOutcome = { kind: "revoked"; messageId: string; draft: ContentBlock[] };
export type ReplaceOutcome = { kind: "replaced"; messageId: string; previousMessageId: string };
export interface PromptVerdict { superseded: boolean }
export type ChangeCallback = (sessionId: string, state: ComposerState) => void;
"#;

#[wasm_bindgen]
extern "C" {
    /// Options of `new CodexhostSteering(...)`.
    #[wasm_bindgen(typescript_type = "CodexhostOptions")]
    pub type CodexhostOptions;
    /// Arguments of `decide`.
    #[wasm_bindgen(typescript_type = "DecideArgs")]
    pub type DecideArgs;
    /// Arguments of `steer`.
    #[wasm_bindgen(typescript_type = "SteerArgs")]
    pub type SteerArgs;
    /// Options of `new AcpSteering(...)`.
    #[wasm_bindgen(typescript_type = "AcpOptions")]
    pub type AcpOptions;
    /// ACP content blocks.
    #[wasm_bindgen(typescript_type = "ContentBlock[]")]
    pub type ContentBlocks;
    /// An `initialize` answer.
    #[wasm_bindgen(typescript_type = "InitializeAnswer")]
    pub type InitializeAnswer;
    /// A `session/prompt` answer or a `session/update`'s `update` object.
    #[wasm_bindgen(typescript_type = "Record<string, unknown>")]
    pub type JsonObject;
    /// The change callback.
    #[wasm_bindgen(typescript_type = "ChangeCallback")]
    pub type ChangeCallback;
    /// Hooks of `steer`.
    #[wasm_bindgen(typescript_type = "PresentationHooks")]
    pub type PresentationHooks;
    /// Hooks of `AcpSteering.send`.
    #[wasm_bindgen(typescript_type = "AcpSendHooks")]
    pub type AcpSendHooks;
}
