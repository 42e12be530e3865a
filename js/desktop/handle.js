// The handle `installDesktopSteering` returns: dispose, and the journal's
// recover and forget, over the hook it was made for.

/** The handle `installDesktopSteering` returns. */
export class DesktopSteering {
  #hook;

  /** @internal */
  constructor(hook) {
    this.#hook = hook;
  }

  /**
   * After a restart: what became of each message the journal kept (the
   * `journal` option), read from the thread through the desktop's own
   * `sendRequest`; never sends one. Resolves as `CodexhostSteering.recover()`.
   *
   * ```js
   * const hook = installDesktopSteering(manager, { journal: localStorage });
   * for (const { draft, outcome } of await hook.recover()) if (outcome === "notDelivered") composer.restore(draft);
   * ```
   */
  recover() {
    return this.#hook.decider.recover();
  }

  /** Drops the journal's record of a message (its `clientUserMessageId`). */
  forget(clientUserMessageId) {
    this.#hook.forget(clientUserMessageId);
  }

  /**
   * Restores `steerTurn` now and `sendRequest` once pending replacements
   * settle (they fail closed as `disposed`).
   *
   * ```js
   * const hook = installDesktopSteering(manager);
   * hook?.dispose();
   * ```
   */
  dispose() {
    this.#hook.dispose();
  }
}
// `using hook = installDesktopSteering(...)` where the runtime has it.
if (typeof Symbol.dispose === "symbol") {
  Object.defineProperty(DesktopSteering.prototype, Symbol.dispose, {
    value() {
      this.dispose();
    },
    writable: true,
    configurable: true,
  });
}
