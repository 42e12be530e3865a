#!/usr/bin/env bash
# Formatting and lints, as CI checks them: rustfmt (rustfmt.toml) on every
# crate, clippy with warnings as errors on the native workspace and on the
# wasm build of the library and its wasm tests.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
command -v rustfmt >/dev/null || rustup component add rustfmt
command -v cargo-clippy >/dev/null || rustup component add clippy
for manifest in Cargo.toml fuzz/Cargo.toml benches/size-floor/Cargo.toml; do
  echo "rustfmt --check: $manifest"
  cargo fmt --manifest-path "$manifest" --all --check
done
echo "clippy (native, all targets)"
cargo clippy --quiet --workspace --all-targets -- -D warnings
echo "clippy (wasm32: library and wasm tests)"
cargo clippy --quiet --lib --tests --target wasm32-unknown-unknown -p renderer_steering -- -D warnings
echo "clippy (wasm32: each entry's dialects alone)"
for features in codexhost acp desktop; do
  cargo clippy --quiet --lib --target wasm32-unknown-unknown -p renderer_steering --no-default-features --features "$features" -- -D warnings
done
echo "lint: clean"
