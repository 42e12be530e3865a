#!/usr/bin/env bash
# The "real agents" layer: installs the pinned agents into target/agents-cache
# (skipped when present), then drives them through the packed package
# (tests/agents/). Needs pkg/ (scripts/build-pkg.sh). Prints the table and
# the install and test times.
set -uo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
bash scripts/agents-install.sh || exit 1
install=$((SECONDS - start))
start=$SECONDS
node --test --test-concurrency=1 tests/agents/
rc=$?
echo "[agents] install ${install} s, tests $((SECONDS - start)) s"
exit $rc
