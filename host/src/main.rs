//! `steering-host`: serves the playground page and the package, and plays a
//! scripted agent host over a JSON-RPC WebSocket at `/rpc?mode=...`. With
//! `world=<name>`, connections of that name share one host (its threads,
//! turns and receipts), as a real host outlives a renderer that reloads.
//!
//! ```text
//! steering-host --port 8080 --root .
//! ```

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::ws::WebSocketUpgrade;
use axum::extract::Query;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;
use tower_http::services::ServeDir;

mod acp;
mod args;
mod codex;
mod conn;
mod faults;
mod runner;
mod script;

/// Picks the dialect from `mode`; unknown modes are refused.
fn dialect(query: &HashMap<String, String>) -> Option<Box<dyn conn::Dialect>> {
    let speed = query.get("speed").and_then(|s| s.parse::<f64>().ok()).filter(|s| *s > 0.0 && *s <= 100.0).unwrap_or(1.0);
    let flag = |key: &str| query.get(key).is_some_and(|v| v == "1" || v == "true");
    Some(match query.get("mode").map(String::as_str)? {
        "codexhost-new" => Box::new(codex::Codexhost::new(codex::HostKind::New, speed)),
        "codexhost-old" => Box::new(codex::Codexhost::new(codex::HostKind::Old, speed)),
        "stock" => Box::new(codex::Codexhost::new(codex::HostKind::Stock, speed)),
        "acp-steering" => Box::new(acp::Acp::new(acp::AgentKind::SteeringExtension { honour_opt_in: !flag("ignoreOptIn") }, speed)),
        "acp-handoff" => Box::new(acp::Acp::new(acp::AgentKind::PromptHandoff { folded: !flag("deferred") }, speed)),
        "acp-inject" => Box::new(acp::Acp::new(acp::AgentKind::Inject, speed)),
        _ => return None,
    })
}

/// The hosts that outlive their connections, by `world` name (and mode).
fn worlds() -> &'static Mutex<HashMap<(String, String), conn::Shared>> {
    static WORLDS: OnceLock<Mutex<HashMap<(String, String), conn::Shared>>> = OnceLock::new();
    WORLDS.get_or_init(Mutex::default)
}

/// The host a connection talks to: its own, or its world's.
fn host(query: &HashMap<String, String>) -> Option<conn::Shared> {
    let Some(world) = query.get("world") else {
        return dialect(query).map(|d| Arc::new(Mutex::new(d)));
    };
    let key = (world.clone(), query.get("mode").cloned().unwrap_or_default());
    let mut worlds = worlds().lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(shared) = worlds.get(&key) {
        return Some(shared.clone());
    }
    let shared: conn::Shared = Arc::new(Mutex::new(dialect(query)?));
    worlds.insert(key, shared.clone());
    Some(shared)
}

async fn rpc(ws: WebSocketUpgrade, Query(query): Query<HashMap<String, String>>) -> axum::response::Response {
    let Some(dialect) = host(&query) else {
        return (axum::http::StatusCode::BAD_REQUEST, "unknown mode").into_response();
    };
    let faults = faults::Faults::from_query(&query);
    ws.max_message_size(64 << 20).on_upgrade(move |socket| conn::serve(socket, dialect, faults))
}

#[tokio::main]
async fn main() {
    let args = match args::Args::parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            eprintln!("{message}\nusage: steering-host [--port N] [--root DIR]");
            std::process::exit(2);
        }
    };
    let root = PathBuf::from(&args.root);
    let app = Router::new()
        .route("/rpc", get(rpc))
        .nest_service("/pkg", ServeDir::new(root.join("pkg")))
        .fallback_service(ServeDir::new(root.join("www")));
    let addr = SocketAddr::from(([127, 0, 0, 1], args.port));
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("cannot listen on {addr}: {e}");
            std::process::exit(1);
        }
    };
    let local = listener.local_addr().expect("bound socket has an address");
    println!("playground: http://{local}/");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
        println!("stopping");
    };
    if let Err(e) = axum::serve(listener, app).with_graceful_shutdown(shutdown).await {
        eprintln!("server error: {e}");
        std::process::exit(1);
    }
}
