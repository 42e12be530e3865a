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
# --omit-default-module-path: the glue names no .wasm URL; each entry says
# where its bytes come from (embedded, fetched next to it, or read from disk).
"$HOME/.cargo/bin/wasm-bindgen" --target web --omit-default-module-path --out-dir pkg \
  --remove-name-section --remove-producers-section \
  "$TARGET_DIR/wasm32-unknown-unknown/release/renderer_steering.wasm"
# wasm-opt from the npm `binaryen` package (pinned dev dependency, v132; the
# Debian binaryen 108 turns wasm-bindgen's externref table into a funcref
# table and the module no longer instantiates). Inlining is switched off:
# inlined copies shrink the raw wasm but gzip worse (measured, see README).
WASM_OPT=node_modules/.bin/wasm-opt
if [ ! -x "$WASM_OPT" ]; then
  echo "[build] $WASM_OPT missing: run 'npm install' (scripts/toolchain.sh does)" >&2
  exit 1
fi
"$WASM_OPT" -Oz -aimfs=0 -fimfs=0 -ocimfs=0 --strip-debug --strip-producers \
  --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-multivalue --enable-mutable-globals \
  pkg/renderer_steering_bg.wasm -o pkg/renderer_steering_bg.wasm
bash scripts/pkg-entries.sh
echo "[build] pkg/ ready: $(wc -c < pkg/renderer_steering_bg.wasm) bytes of wasm"
