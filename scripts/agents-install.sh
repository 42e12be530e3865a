#!/usr/bin/env bash
# Installs the real agents the "real agents" test layer drives, at pinned
# versions, into target/agents-cache (skipped when that exact set is present).
# Prints the install time. AGENTS_CACHE overrides the directory.
set -euo pipefail
cd "$(dirname "$0")/.."
CACHE=${AGENTS_CACHE:-target/agents-cache}
PINS=(
  "@openai/codex@0.171.0"
  "@zed-industries/codex-acp@0.16.0"
  "@zed-industries/claude-agent-acp@0.23.1"
  "ws@8.18.3"
)
STAMP="$CACHE/.pins"
WANT=$(printf '%s\n' "${PINS[@]}")
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$WANT" ]; then
  echo "[agents] cache present: $CACHE"
  exit 0
fi
start=$SECONDS
mkdir -p "$CACHE"
[ -f "$CACHE/package.json" ] || echo '{"name":"agents-cache","private":true}' > "$CACHE/package.json"
# The native binaries come as optional platform packages
# (@openai/codex-linux-x64, @zed-industries/codex-acp-linux-x64); claude-agent-acp
# runs the Claude Code CLI bundled in @anthropic-ai/claude-agent-sdk with Node.
npm install --prefix "$CACHE" --no-audit --no-fund --save-exact --loglevel=error "${PINS[@]}"
echo "$WANT" > "$STAMP"
echo "[agents] installed in $((SECONDS - start)) s: ${PINS[*]}"
