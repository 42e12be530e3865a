#!/usr/bin/env bash
# The pinned release toolchain named in release-toolchain.toml.
#   bash scripts/release-toolchain.sh name     prints its channel
#   bash scripts/release-toolchain.sh install  installs it with rust-src and
#                                              the wasm32 target (idempotent)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
channel=$(sed -n 's/^channel = "\(.*\)"$/\1/p' release-toolchain.toml)
[ -n "$channel" ] || { echo "release-toolchain.toml names no channel" >&2; exit 1; }
case "${1:-name}" in
  name) echo "$channel" ;;
  install)
    if rustup component list --toolchain "$channel" --installed 2>/dev/null | grep -qx rust-src &&
      rustup target list --toolchain "$channel" --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
      echo "[toolchain] present: rustup $channel (rust-src, wasm32-unknown-unknown)"
    else
      echo "[toolchain] installing (rustup): $channel with rust-src and wasm32-unknown-unknown"
      timeout 600 rustup toolchain install "$channel" --profile minimal -c rust-src -t wasm32-unknown-unknown
    fi ;;
  *) echo "usage: $0 name|install" >&2; exit 2 ;;
esac
