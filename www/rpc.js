// A small JSON-RPC 2.0 client over a WebSocket: the transport the embedding
// app supplies to the engine. Rejects with { code, message, data } for
// JSON-RPC errors and with an Error for transport failures.
export class RpcSocket {
  constructor(url, { onNotification, onWire, onClose }) {
    this.pending = new Map();
    this.next = 0;
    this.onNotification = onNotification;
    this.onWire = onWire;
    this.socket = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.socket.addEventListener("open", () => resolve());
      this.socket.addEventListener("error", () => reject(new Error("cannot connect")));
    });
    this.socket.addEventListener("message", (event) => this.receive(event.data));
    this.socket.addEventListener("close", () => {
      for (const { reject } of this.pending.values()) reject(new Error("connection closed"));
      this.pending.clear();
      onClose?.();
    });
  }

  receive(text) {
    this.onWire?.("in", text);
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return; // a garbled frame: whoever waited for it times out
    }
    if (frame.method !== undefined && frame.id === undefined) {
      this.onNotification?.(frame.method, frame.params ?? {});
      return;
    }
    const waiter = this.pending.get(frame.id);
    if (!waiter) return; // unknown or already answered id
    this.pending.delete(frame.id);
    if (frame.error) waiter.reject({ code: frame.error.code, message: frame.error.message, data: frame.error.data });
    else waiter.resolve(frame.result);
  }

  request(method, params) {
    if (this.socket.readyState !== WebSocket.OPEN) return Promise.reject(new Error("not connected"));
    const id = ++this.next;
    const text = JSON.stringify({ jsonrpc: "2.0", id, method, params });
    this.onWire?.("out", text);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(text);
    });
  }

  notify(method, params) {
    const text = JSON.stringify({ jsonrpc: "2.0", method, params });
    this.onWire?.("out", text);
    this.socket.send(text);
  }

  close() {
    this.socket.close();
  }
}
