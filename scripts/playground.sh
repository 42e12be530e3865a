#!/usr/bin/env bash
# README command 1: builds the package and the reference host, starts it on
# 127.0.0.1 and prints the URL. Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
bash scripts/toolchain.sh
bash scripts/build-pkg.sh
cargo build --quiet --release -p steering-host
exec target/release/steering-host --port "${PORT:-8080}" --root . "$@"
