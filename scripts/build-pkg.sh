#!/usr/bin/env bash
# Builds pkg/: release wasm -> wasm-bindgen (web target) -> wasm-opt -> entries.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[ -f target/toolchain.env ] || bash scripts/toolchain.sh
# shellcheck disable=SC1091
source target/toolchain.env
TARGET_DIR=${CARGO_TARGET_DIR:-target}
cargo build --quiet --release --lib --target wasm32-unknown-unknown -p renderer_steering
rm -rf pkg && mkdir -p pkg
"$HOME/.cargo/bin/wasm-bindgen" --target web --out-dir pkg --remove-name-section --remove-producers-section \
  "$TARGET_DIR/wasm32-unknown-unknown/release/renderer_steering.wasm"
# No wasm-opt pass: Debian's binaryen (108) rewrites wasm-bindgen's externref
# table into a funcref table and the module then fails to instantiate (seen by
# tests/node/package.test.mjs); rustc's own -Os + LTO is within 0.1% of it.
cp js/browser.js js/node.js js/index.d.ts pkg/
echo "[build] pkg/ ready: $(wc -c < pkg/renderer_steering_bg.wasm) bytes of wasm"
