#!/usr/bin/env bash
# Builds the package as it was at the benchmark's base commit into
# target/bench-base/pkg (a git worktree of that commit), with today's release
# toolchain and steps (scripts/wasm-release.sh, scripts/bindgen-opt.sh) so an
# A/B compares the code, not the compiler. Skipped when already built.
#   bash scripts/bench-base.sh [commit]   (default: BENCH_BASE or bebe069)
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-${BENCH_BASE:-bebe069}}
dir=target/bench-base
stamp="$dir/pkg/.commit"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$base" ]; then exit 0; fi
git rev-parse --verify --quiet "$base^{commit}" >/dev/null || { echo "[bench-base] unknown commit $base (a shallow clone? fetch it)" >&2; exit 1; }
git worktree remove --force "$dir" 2>/dev/null || rm -rf "$dir"
git worktree prune
git worktree add --detach --quiet "$dir" "$base"
# The base's own build: its size-first feature and its entries, where it has them.
first=""
grep -q '^size-first' "$dir/Cargo.toml" && first="size-first,"
wasm=target/bench-base-build/wasm32-unknown-unknown/release/renderer_steering.wasm
bash scripts/wasm-release.sh target/bench-base-build --lib --manifest-path "$dir/Cargo.toml" ${first:+--features size-first}
mkdir -p "$dir/pkg"
bash scripts/bindgen-opt.sh "$wasm" "$dir/pkg"
if [ -f "$dir/scripts/pkg-entries.sh" ]; then
  for entry in codexhost acp desktop; do
    bash scripts/wasm-release.sh target/bench-base-build --lib --manifest-path "$dir/Cargo.toml" --no-default-features --features "$first$entry"
    mkdir -p "$dir/pkg/entries/$entry"
    bash scripts/bindgen-opt.sh "$wasm" "$dir/pkg/entries/$entry"
  done
  bash "$dir/scripts/pkg-entries.sh"
fi
echo "$base" > "$stamp"
echo "[bench-base] $dir/pkg: $base"
