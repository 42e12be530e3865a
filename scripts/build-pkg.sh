#!/usr/bin/env bash
# Builds pkg/: release wasm -> wasm-bindgen (web target) -> wasm-opt -> entries (scripts/pkg-entries.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[ -f target/toolchain.env ] || bash scripts/toolchain.sh
# shellcheck disable=SC1091
source target/toolchain.env
TARGET_DIR=${CARGO_TARGET_DIR:-target}
cargo build --quiet --release --lib --target wasm32-unknown-unknown -p renderer_steering
rm -rf pkg && mkdir -p pkg
bash scripts/bindgen-opt.sh "$TARGET_DIR/wasm32-unknown-unknown/release/renderer_steering.wasm" pkg
bash scripts/pkg-entries.sh
echo "[build] pkg/ ready: $(wc -c < pkg/renderer_steering_bg.wasm) bytes of wasm"
