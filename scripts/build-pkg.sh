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
"$HOME/.cargo/bin/wasm-bindgen" --target web --out-dir pkg \
  "$TARGET_DIR/wasm32-unknown-unknown/release/renderer_steering.wasm"
if command -v wasm-opt >/dev/null; then
  features="--enable-bulk-memory --enable-reference-types --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals --enable-multivalue"
  # shellcheck disable=SC2086
  if wasm-opt -Oz $features pkg/renderer_steering_bg.wasm -o pkg/opt.wasm 2>target/wasm-opt.log; then
    mv pkg/opt.wasm pkg/renderer_steering_bg.wasm
  else
    echo "[build] wasm-opt could not optimise this module (see target/wasm-opt.log); shipping it unoptimised"
    rm -f pkg/opt.wasm
  fi
fi
cp js/browser.js js/node.js js/index.d.ts pkg/
echo "[build] pkg/ ready: $(wc -c < pkg/renderer_steering_bg.wasm) bytes of wasm"
