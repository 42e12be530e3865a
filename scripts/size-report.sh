#!/usr/bin/env bash
# What costs the most in the wasm: builds the release wasm exactly as
# scripts/build-pkg.sh does, but keeps the function names, then groups
# twiggy's per-function sizes by crate/module (benches/size-groups.mjs).
# Not part of CI (needs twiggy: `cargo install twiggy --locked`).
#
#   bash scripts/size-report.sh            # the default entry's wasm (every dialect)
#   bash scripts/size-report.sh desktop    # one entry's wasm: codexhost, acp or desktop
#
# target/size-report/top.csv keeps every function's size, to compare two builds.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
command -v twiggy >/dev/null || cargo install twiggy --locked
TARGET_DIR=${CARGO_TARGET_DIR:-target}
OUT=target/size-report
rm -rf "$OUT" && mkdir -p "$OUT"
ENTRY=${1:-}
FEATURES=(--features size-first)
[ -n "$ENTRY" ] && FEATURES=(--no-default-features --features "size-first,$ENTRY")
bash scripts/wasm-release.sh "$TARGET_DIR/size-first" --lib -p renderer_steering "${FEATURES[@]}"
wasm-bindgen --target web --out-dir "$OUT" --remove-producers-section \
  "$TARGET_DIR/size-first/wasm32-unknown-unknown/release/renderer_steering.wasm"
node_modules/.bin/wasm-opt -Oz -aimfs=0 -fimfs=0 -ocimfs=0 --debuginfo --strip-producers \
  --enable-reference-types --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-multivalue --enable-mutable-globals \
  "$OUT/renderer_steering_bg.wasm" -o "$OUT/named.wasm"
twiggy top -n 1000000 -f csv "$OUT/named.wasm" > "$OUT/top.csv"
node benches/size-groups.mjs "$OUT/top.csv"

# The floor: the same dependencies and build with none of our logic.
bash scripts/build-floor.sh >/dev/null
printf '\ndependency floor (benches/size-floor: serde_json Value through serde-wasm-bindgen, one gloo timer, panic hook, no logic):\n'
printf '  wasm %s B raw / %s B gzip -9\n' "$(wc -c < target/floor-pkg/size_floor_bg.wasm)" "$(gzip -9c target/floor-pkg/size_floor_bg.wasm | wc -c)"
printf 'renderer-steering (pkg/ build):\n  wasm %s B raw / %s B gzip -9\n' "$(wc -c < pkg/renderer_steering_bg.wasm)" "$(gzip -9c pkg/renderer_steering_bg.wasm | wc -c)"
