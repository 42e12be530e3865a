//! One WebSocket connection: reads JSON-RPC frames, hands requests to the
//! mode's dialect, writes answers and notifications, and applies the faults.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot};

use crate::faults::Faults;

/// A JSON-RPC error answer.
pub type RpcResult = Result<Value, (i64, String, Option<Value>)>;

/// What a dialect answers: now, or when its turn is over.
pub enum Reply {
    /// Answer at once.
    Now(RpcResult),
    /// Answer when the sender fires (an open `session/prompt`).
    Later(oneshot::Receiver<RpcResult>),
    /// A notification: no answer.
    None,
}

/// Writes frames to the socket from any task.
#[derive(Clone)]
pub struct Outbox {
    tx: mpsc::UnboundedSender<Message>,
    closed: Arc<AtomicBool>,
}

impl Outbox {
    /// Sends a notification.
    pub fn notify(&self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn send(&self, frame: Value) {
        if !self.closed.load(Ordering::SeqCst) {
            let _ = self.tx.send(Message::Text(frame.to_string().into()));
        }
    }

    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let _ = self.tx.send(Message::Close(None));
    }
}

/// The per-connection protocol logic of a mode.
pub trait Dialect: Send + 'static {
    /// Handles one request or notification.
    fn handle(&mut self, method: &str, params: Value, out: &Outbox) -> Reply;
}

/// A host one or more connections talk to (several: a `world` that outlives a reload).
pub type Shared = Arc<std::sync::Mutex<Box<dyn Dialect>>>;

fn answer_frame(id: &Value, result: RpcResult) -> Value {
    match result {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err((code, message, data)) => {
            let mut error = json!({ "code": code, "message": message });
            if let Some(data) = data {
                error["data"] = data;
            }
            json!({ "jsonrpc": "2.0", "id": id, "error": error })
        }
    }
}

async fn deliver(out: Outbox, faults: Faults, method: String, id: Value, result: RpcResult) {
    if faults.latency_ms > 0 {
        tokio::time::sleep(Duration::from_millis(faults.latency_ms)).await;
    }
    if Faults::hits(&faults.garble_on, &method) {
        let _ = out.tx.send(Message::Text("{\"jsonrpc\": \"2.0\", \"id\": ".into()));
        return;
    }
    let mut frame = answer_frame(&id, result);
    if Faults::hits(&faults.huge_on, &method) {
        frame["result"]["padding"] = Value::String("x".repeat(10 * 1024 * 1024));
    }
    if Faults::hits(&faults.unknown_id_on, &method) {
        out.send(answer_frame(&json!(987_654_321), Ok(json!({ "stray": true }))));
    }
    out.send(frame.clone());
    if Faults::hits(&faults.duplicate_on, &method) {
        out.send(frame);
    }
}

/// Runs a connection until either side closes.
pub async fn serve(socket: WebSocket, dialect: Shared, faults: Faults) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Message>();
    let out = Outbox { tx, closed: Arc::new(AtomicBool::new(false)) };
    let writer = tokio::spawn(async move {
        while let Some(message) = rx.recv().await {
            let closing = matches!(message, Message::Close(_));
            if sink.send(message).await.is_err() || closing {
                break;
            }
        }
    });
    let mut lost_one = false;
    while let Some(Ok(message)) = stream.next().await {
        let Message::Text(text) = message else { continue };
        let Ok(frame) = serde_json::from_str::<Value>(&text) else {
            out.send(answer_frame(&Value::Null, Err((-32700, "Parse error".into(), None))));
            continue;
        };
        let method = frame.get("method").and_then(Value::as_str).unwrap_or_default().to_string();
        let params = frame.get("params").cloned().unwrap_or(json!({}));
        let id = frame.get("id").cloned();
        if Faults::hits(&faults.drop_on, &method) {
            out.close();
            break;
        }
        let reply = dialect.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).handle(&method, params, &out);
        let Some(id) = id else { continue };
        if Faults::hits(&faults.hang_on, &method) {
            continue;
        }
        if Faults::hits(&faults.lose_once_on, &method) && !lost_one {
            lost_one = true;
            continue; // applied above; this answer is lost
        }
        let (out, faults) = (out.clone(), faults.clone());
        match reply {
            Reply::Now(result) => {
                tokio::spawn(deliver(out, faults, method, id, result));
            }
            Reply::Later(receiver) => {
                tokio::spawn(async move {
                    if let Ok(result) = receiver.await {
                        deliver(out, faults, method, id, result).await;
                    }
                });
            }
            Reply::None => {}
        }
    }
    out.closed.store(true, Ordering::SeqCst);
    writer.abort();
}
