// What the examples take from the embedding app: its JSON-RPC connection,
// UI, composer and the desktop's request manager. Declared here so that every
// example compiles as written (tests/node/examples.test.mjs); nothing of the
// package is declared here.
import type { ComposerState, ContentBlock, Delivery, InitializeAnswer, SteeringErrorKind } from "renderer-steering";

declare global {
  /** The app's JSON-RPC client to a codexhost host or app-server. */
  const rpc: {
    request(method: string, params: Record<string, unknown>, options?: unknown): Promise<unknown>;
    onReconnect(listener: () => void): void;
  };
  /** The app's JSON-RPC connection to an ACP agent. */
  const conn: {
    request(method: string, params: Record<string, unknown>): Promise<unknown>;
    notify(method: string, params: Record<string, unknown>): void;
    onNotification(method: string, handler: (params: { sessionId: string; update: Record<string, unknown> }) => void): void;
  };
  /** A text channel to a host: a WebSocket, an Electron IPC port, a child's stdio. */
  interface TextChannel {
    readonly open: boolean;
    send(text: string): void;
    onText(listener: (text: string) => void): void;
    onClose(listener: () => void): void;
  }
  const channel: TextChannel;
  const ui: {
    showOptimistic(delivery: Delivery): void;
    removeOptimistic(): void;
    moveOptimistic(from: Delivery, to: Delivery): void;
    markUnconfirmed(what?: unknown): void;
    offerRetry(clientUserMessageId: string | undefined): void;
    showError(kind: SteeringErrorKind, message: string): void;
    showTurnEnd(answer: unknown): void;
  };
  const composer: { restore(draft: ContentBlock[]): void; render(sessionId: string, state: ComposerState): void };
  const desktop: {
    requestManager: object;
    roleOf(threadId: string): "owner" | "follower" | undefined;
    onDisconnect(listener: () => void): void;
  };
  /** Web Storage as browsers and Electron renderers have it (declared for the compile without the dom lib). */
  interface Storage {
    readonly length: number;
    key(index: number): string | null;
    getItem(key: string): string | null;
    setItem(key: string, value: string): void;
    removeItem(key: string): void;
  }
  var localStorage: Storage;
  /** The app's own logger. */
  function log(...values: unknown[]): void;
  const threadId: string;
  const expectedTurnId: string | null;
  const sessionId: string;
  const initializeAnswer: InitializeAnswer;
}
export {};
