#!/usr/bin/env bash
# Runs every test layer, prints one summary, exits non-zero if any layer fails.
#   lint (rustfmt, clippy) | core natively (cargo test) | shell in Chromium, Firefox and Node (wasm-pack test)
#   packed package in Node and in Chromium (node --test) | playground in Chromium
#   real agents from npm (Codex app-server, the codexhost host, claude-agent-acp, codex-acp) behind a mock model
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
bash scripts/toolchain.sh || { echo "toolchain setup failed"; exit 1; }
mkdir -p target/test-logs artifacts
LOGS=target/test-logs
declare -a NAMES RESULTS
TOTAL_PASS=0; TOTAL_FAIL=0; FAILED=0

count() { # log -> "passed failed" summed over cargo/wasm-bindgen-test and node --test lines
  local p f
  p=$(grep -Eo '^test result: [a-zA-Z]+\. [0-9]+ passed' "$1" | awk '{s+=$4} END {print s+0}')
  f=$(grep -Eo '; [0-9]+ failed' "$1" | awk '{s+=$2} END {print s+0}')
  p=$((p + $(grep -E '^# pass [0-9]+' "$1" | awk '{s+=$3} END {print s+0}')))
  f=$((f + $(grep -E '^# fail [0-9]+' "$1" | awk '{s+=$3} END {print s+0}')))
  echo "$p $f"
}

layer() { # name command...
  local name=$1; shift
  local file=${name//[^A-Za-z0-9()._-]/_}
  local log="$LOGS/$file.log"
  echo "=== $name: $*"
  local start=$SECONDS
  "$@" > "$log" 2>&1
  local rc=$?
  read -r p f < <(count "$log")
  TOTAL_PASS=$((TOTAL_PASS + p)); TOTAL_FAIL=$((TOTAL_FAIL + f))
  if [ $rc -eq 0 ] && { [ "$p" -gt 0 ] || [[ "$name" == build* || "$name" == lint* ]]; }; then status=PASS; else status=FAIL; FAILED=1; tail -n 60 "$log"; fi
  echo "    $status: $p passed, $f failed ($((SECONDS - start)) s, log $log)"
  NAMES+=("$name"); RESULTS+=("$status  $p passed, $f failed")
}

wasm_pack_test() { # browser flags...
  # The runner gives a WebDriver 5 s to listen by default; a fresh machine
  # under a full build's load can take longer to start chromedriver.
  ( export WASM_BINDGEN_TEST_DRIVER_TIMEOUT=${WASM_BINDGEN_TEST_DRIVER_TIMEOUT:-60}
    if [ -n "${USE_BROWSER:-}" ]; then export WASM_BINDGEN_USE_BROWSER=1; else unset WASM_BINDGEN_USE_BROWSER; fi
    wasm-pack test "$@" -- --test 'wasm_*' )
}

layer "lint (rustfmt, clippy)" bash scripts/lint.sh
layer "core (native cargo test)" cargo test --workspace
layer "entries (native, one dialect each)" bash -c 'for f in codexhost acp desktop; do cargo test --no-default-features --features "$f" --test entry_rules || exit 1; done'
layer "build package" bash scripts/build-pkg.sh
layer "build reference host" cargo build --release -p steering-host
USE_BROWSER=1 layer "shell in Chromium" wasm_pack_test --headless --chrome --chromedriver /usr/bin/chromedriver
USE_BROWSER=1 layer "shell in Firefox" wasm_pack_test --headless --firefox --geckodriver "$(command -v geckodriver)"
layer "shell in Node" wasm_pack_test --node
layer "package in Node" node --test tests/node/
layer "package in Chromium" node --test tests/browser/
layer "hostile inputs in Node" node --test tests/hostile/node.test.mjs; sed -n '/^# hostile inputs in/,/^# total/s/^# /    /p' "$LOGS/hostile_inputs_in_Node.log" || true
layer "hostile inputs in Chromium" node --test tests/hostile/chromium.test.mjs; sed -n '/^# hostile inputs in/,/^# total/s/^# /    /p' "$LOGS/hostile_inputs_in_Chromium.log" || true
layer "playground in Chromium" node --test --test-concurrency=1 tests/playground/
layer "consumers (bundlers, CSP, file://, publish)" node --test --test-concurrency=1 tests/consumers/
layer "fault runs (real host)" node --experimental-websocket --test --test-concurrency=1 tests/faults/
grep -h '^# ' "$LOGS/fault_runs_(real_host).log" | grep -E 'fault  |yes|NO|n/a' | sed 's/^# /    /' || true
layer "real agents (npm)" bash scripts/agents-test.sh
grep -h -A60 '^# agent  ' "$LOGS/real_agents_(npm).log" | grep '^# ' | sed 's/^# /    /' | grep -v '^    \(tests\|suites\|pass\|fail\|cancelled\|skipped\|todo\|duration_ms\) ' || true

echo
echo "================ summary ================"
for i in "${!NAMES[@]}"; do printf '%-28s %s\n' "${NAMES[$i]}" "${RESULTS[$i]}"; done
echo "summary: $TOTAL_PASS passed, $TOTAL_FAIL failed"
exit $FAILED
