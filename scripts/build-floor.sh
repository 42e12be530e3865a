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
[ -f target/toolchain.ready ] || bash scripts/toolchain.sh >/dev/null
TARGET_DIR=${CARGO_TARGET_DIR:-target}
OUT=target/floor-pkg
# Not a workspace member: its own lockfile and target dir.
bash scripts/wasm-release.sh "$TARGET_DIR/size-floor" --manifest-path benches/size-floor/Cargo.toml
TMP="$OUT.tmp.$$"
trap 'rm -rf "$TMP"' EXIT
rm -rf "$TMP" && mkdir -p "$TMP"
bash scripts/bindgen-opt.sh "$TARGET_DIR/size-floor/wasm32-unknown-unknown/release/size_floor.wasm" "$TMP"
rm -rf "$OUT" && mv "$TMP" "$OUT"
echo "[build-floor] $OUT/ ready: $(wc -c < "$OUT/size_floor_bg.wasm") bytes of wasm"
