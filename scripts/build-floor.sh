#!/usr/bin/env bash
# Builds the dependency floor (benches/size-floor: the package's runtime
# dependencies, none of its logic) exactly as scripts/build-pkg.sh builds the
# package: release wasm -> wasm-bindgen --target web -> the same wasm-opt pass,
# into target/floor-pkg/ (size_floor.js + size_floor_bg.wasm). Idempotent;
# prints one line. Used by scripts/bench.sh (benches/init-time.mjs) and
# scripts/size-report.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[ -f target/toolchain.env ] || bash scripts/toolchain.sh >/dev/null
# shellcheck disable=SC1091
source target/toolchain.env
TARGET_DIR=${CARGO_TARGET_DIR:-target}
OUT=target/floor-pkg
# Not a workspace member: its own lockfile and target dir.
cargo build --quiet --release --target wasm32-unknown-unknown \
  --manifest-path benches/size-floor/Cargo.toml --target-dir "$TARGET_DIR/size-floor"
TMP="$OUT.tmp.$$"
trap 'rm -rf "$TMP"' EXIT
rm -rf "$TMP" && mkdir -p "$TMP"
"$HOME/.cargo/bin/wasm-bindgen" --target web --omit-default-module-path --out-dir "$TMP" \
  --remove-name-section --remove-producers-section \
  "$TARGET_DIR/size-floor/wasm32-unknown-unknown/release/size_floor.wasm"
WASM_OPT=node_modules/.bin/wasm-opt
if [ ! -x "$WASM_OPT" ]; then
  echo "[build-floor] $WASM_OPT missing: run 'npm install' (scripts/toolchain.sh does)" >&2
  exit 1
fi
# The same flags as scripts/build-pkg.sh.
"$WASM_OPT" -Oz -aimfs=0 -fimfs=0 -ocimfs=0 --strip-debug --strip-producers \
  --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-multivalue --enable-mutable-globals \
  "$TMP/size_floor_bg.wasm" -o "$TMP/size_floor_bg.wasm"
rm -rf "$OUT" && mv "$TMP" "$OUT"
echo "[build-floor] $OUT/ ready: $(wc -c < "$OUT/size_floor_bg.wasm") bytes of wasm"
