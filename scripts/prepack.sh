#!/usr/bin/env bash
# npm's `prepack` (runs on `npm pack` and `npm publish`): makes pkg/ complete
# and current, or fails loudly so no incomplete tarball is ever made.
#  - a wasm (the default entry's or an integration's) older than src/,
#    Cargo.toml or Cargo.lock (or missing): full build;
#  - otherwise only the entries from js/ are refreshed (seconds).
set -euo pipefail
cd "$(dirname "$0")/.."
fail() { echo "prepack: $*" >&2; echo "prepack: the package was NOT packed (see CONTRIBUTING.md)" >&2; exit 1; }
[ -x node_modules/.bin/wasm-opt ] || fail "node_modules/.bin/wasm-opt missing: run 'npm install' first"
stale=""
for dir in pkg pkg/entries/codexhost pkg/entries/acp pkg/entries/desktop; do
  wasm=$dir/renderer_steering_bg.wasm
  if [ ! -f "$wasm" ] || [ ! -f "$dir/renderer_steering.js" ] || \
     [ -n "$(find src Cargo.toml Cargo.lock -newer "$wasm" -print -quit)" ]; then stale=1; fi
done
if [ -n "$stale" ]; then
  echo "prepack: building pkg/ (scripts/build-pkg.sh)" >&2
  bash scripts/build-pkg.sh >&2 || fail "scripts/build-pkg.sh failed"
else
  bash scripts/pkg-entries.sh >&2 || fail "scripts/pkg-entries.sh failed"
fi
for f in $(node -e 'for (const f of require("./package.json").files) if (!f.endsWith("/")) console.log(f)'); do
  [ -f "$f" ] || fail "$f missing after the build"
done
