#!/usr/bin/env bash
# README command 1: builds the package and the reference host, starts it on
# 127.0.0.1 and prints the URL. Ctrl-C stops it.
# AGENT=codex | codexhost | codex-acp | claude-acp | codex-acp-steering |
# claude-acp-steering | codex-acp-v2: a real agent from npm
# instead (pinned, installed into target/agents-cache), behind a mock model,
# bridged to the page (codexhost: a Claude Code thread and a Codex thread,
# picked by the page's thread menu).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
bash scripts/toolchain.sh
bash scripts/build-pkg.sh
if [ -n "${AGENT:-}" ]; then
  bash scripts/agents-install.sh
  exec node scripts/agents-bridge.mjs --port "${PORT:-8080}"
fi
cargo build --quiet --release -p steering-host
exec target/release/steering-host --port "${PORT:-8080}" --root . "$@"
