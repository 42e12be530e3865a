import type { JsonRpcError, RequestFn } from "renderer-steering";

// A JSON-RPC 2.0 client over a text channel, written to the transport contract.
export function jsonRpc(channel: TextChannel): RequestFn {
  let nextId = 1;
  const waiting = new Map<number, { resolve(result: unknown): void; reject(reason: unknown): void }>();
  channel.onText((text) => {
    const message = JSON.parse(text) as { id?: unknown; result?: unknown; error?: JsonRpcError };
    const waiter = typeof message.id === "number" ? waiting.get(message.id) : undefined;
    if (waiter === undefined) return; // a notification, or an answer nobody waits for
    waiting.delete(message.id as number);
    if (message.error !== undefined) waiter.reject(message.error); // the host's error answer, as it came: a refusal
    else waiter.resolve(message.result);
  });
  channel.onClose(() => {
    // No answer will come: reject with an Error, never with a made-up { code }.
    for (const waiter of waiting.values()) waiter.reject(new Error("connection closed"));
    waiting.clear();
  });
  return (method, params) => {
    if (!channel.open) throw new Error("not connected"); // thrown before writing: nothing was sent
    const id = nextId++;
    const answer = new Promise<unknown>((resolve, reject) => waiting.set(id, { resolve, reject }));
    try {
      channel.send(JSON.stringify({ jsonrpc: "2.0", id, method, params }));
    } catch (error) {
      waiting.delete(id);
      throw error; // the write itself failed: nothing was sent
    }
    return answer;
  };
}
