#!/usr/bin/env bash
# Builds pkg/: size-first release wasm (scripts/wasm-release.sh) -> wasm-bindgen (web target) -> wasm-opt -> entries (scripts/pkg-entries.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
[ -f target/toolchain.ready ] || bash scripts/toolchain.sh
TARGET_DIR=${CARGO_TARGET_DIR:-target}
# Size-first std and flags (scripts/wasm-release.sh), in a target dir of its
# own: its flags differ from the test builds', which would otherwise rebuild.
bash scripts/wasm-release.sh "$TARGET_DIR/size-first" --lib -p renderer_steering --features size-first
rm -rf pkg && mkdir -p pkg
bash scripts/bindgen-opt.sh "$TARGET_DIR/size-first/wasm32-unknown-unknown/release/renderer_steering.wasm" pkg
# One wasm per integration entry, with only its dialect (Cargo features).
for entry in codexhost acp desktop; do
  bash scripts/wasm-release.sh "$TARGET_DIR/size-first" --lib -p renderer_steering --no-default-features --features "size-first,$entry"
  mkdir -p "pkg/entries/$entry"
  bash scripts/bindgen-opt.sh "$TARGET_DIR/size-first/wasm32-unknown-unknown/release/renderer_steering.wasm" "pkg/entries/$entry"
done
bash scripts/pkg-entries.sh
echo "[build] pkg/ ready: $(wc -c < pkg/renderer_steering_bg.wasm) bytes of wasm; entries:$(for e in codexhost acp desktop; do printf ' %s %s B' "$e" "$(wc -c < "pkg/entries/$e/renderer_steering_bg.wasm")"; done)"
