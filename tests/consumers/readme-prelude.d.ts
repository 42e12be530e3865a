// What the README's TypeScript examples take from the embedding app: its
// JSON-RPC connection, UI and composer. Declared here so every example
// compiles as written (tests/node/readme.test.mjs); nothing else is declared.
import type { ComposerState, ContentBlock, Delivery, InitializeAnswer, SteeringErrorKind } from "renderer-steering";

declare global {
  const rpc: { request(method: string, params: Record<string, unknown>, options?: unknown): Promise<unknown> };
  const conn: {
    request(method: string, params: Record<string, unknown>): Promise<unknown>;
    onNotification(method: string, handler: (params: { sessionId: string; update: Record<string, unknown> }) => void): void;
  };
  const ui: { showOptimistic(delivery: Delivery): void; removeOptimistic(): void; moveOptimistic(from: Delivery, to: Delivery): void;
    showError(kind: SteeringErrorKind, message: string): void; markUnconfirmed(what?: unknown): void;
    offerRetry(clientUserMessageId: string | undefined): void };
  const composer: { restore(draft: ContentBlock[]): void; render(state: ComposerState): void };
  const desktop: { roleOf(threadId: string): "owner" | "follower" | undefined; requestManager: object };
  const threadId: string;
  const expectedTurnId: string | null;
  const sessionId: string;
  const initializeAnswer: InitializeAnswer;
}
export {};
