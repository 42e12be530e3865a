// The package's public types. The classes and the JSON shapes come from
// wasm-bindgen's generated declarations (see src/shell/types.rs); this file
// adds `init`, the SteeringError class and its guard. Needs the `es2022` lib
// and `esnext.disposable` (TypeScript >= 5.2: the classes have
// `[Symbol.dispose]`); no `dom` lib and no @types/node.
import type { ContentBlock, DesktopOptions, SteeringErrorKind, Trace } from "./renderer_steering.js";

export { AcpSteering, CodexhostSteering, version } from "./renderer_steering.js";
export type {
  AcpOptions, AcpOutcome, AcpPath, AcpSendHooks, Annotations, AudioBlock, ChangeCallback, CodexhostOptions, ComposerState, ContentBlock,
  DecideArgs, Decision, Delivery, DesktopOptions, DesktopReconcile, ImageBlock, InitializeAnswer, InputMode, JsonRpcError, Meta,
  PresentationHooks, ProbeRecord, PromptVerdict, ReplaceOutcome, RequestFn, ResourceBlock, ResourceLinkBlock,
  RevokeOutcome, SteerArgs, SteeringErrorKind, SteerResult, TextBlock, TextItem, Timeouts, Trace, TracePath,
} from "./renderer_steering.js";

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
