#!/usr/bin/env bash
# The release wasm's last two steps, shared by scripts/build-pkg.sh (the
# package) and scripts/build-floor.sh (the dependency floor), so both are
# built exactly alike: wasm-bindgen (web target) into OUT_DIR, then wasm-opt
# on OUT_DIR/<name>_bg.wasm.
#   bash scripts/bindgen-opt.sh <input.wasm> <out-dir>
set -euo pipefail
cd "$(dirname "$0")/.."
input=$1
out=$2
name=$(basename "$input" .wasm)
# --omit-default-module-path: the glue names no .wasm URL; each entry says
# where its bytes come from (embedded, fetched next to it, or read from disk).
"$HOME/.cargo/bin/wasm-bindgen" --target web --omit-default-module-path --out-dir "$out" \
  --remove-name-section --remove-producers-section "$input"
# wasm-opt from the npm `binaryen` package (pinned dev dependency, v132; the
# Debian binaryen 108 turns wasm-bindgen's externref table into a funcref
# table and the module fails to instantiate). Inlining is switched off:
# inlined copies shrink the raw wasm but gzip worse.
WASM_OPT=node_modules/.bin/wasm-opt
if [ ! -x "$WASM_OPT" ]; then
  echo "[build] $WASM_OPT missing: run 'npm install' (scripts/toolchain.sh does)" >&2
  exit 1
fi
"$WASM_OPT" -Oz -aimfs=0 -fimfs=0 -ocimfs=0 --strip-debug --strip-producers \
  --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-multivalue --enable-mutable-globals \
  "$out/${name}_bg.wasm" -o "$out/${name}_bg.wasm"
