//! `steering-host`: serves the playground page and the package, and plays a
//! scripted agent host over a JSON-RPC WebSocket at `/rpc`.
//!
//! ```text
//! steering-host --port 8080 --root .
//! ```

use std::net::SocketAddr;
use std::path::PathBuf;

use axum::Router;
use tower_http::services::ServeDir;

mod args;

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
